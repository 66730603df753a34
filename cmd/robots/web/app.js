// robots.txt tester: sends the editor's text, the agents and the URLs to
// the server's JSON API as the user types, and shows what it answers: a
// verdict and an explanation per URL, the deciding lines highlighted in
// the editor, lint findings marked on their lines.
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  const editor = $('robots');
  const gutter = $('gutter');
  const backdrop = $('backdrop');
  const agentsInput = $('agents');
  const urlsInput = $('urls');
  const results = $('results');
  const summary = $('summary');
  const lintList = $('lint-list');
  const lintSummary = $('lint-summary');
  const loadForm = $('load-form');
  const loadURL = $('load-url');
  const loadButton = $('load-button');
  const loadStatus = $('load-status');

  // debounceMs is how long typing must pause before the server is asked.
  const debounceMs = 200;

  // What the last answers said: findings and deciding lines, by line.
  let findings = [];
  let deciding = new Map(); // line -> "allow" | "disallow"
  let jumpLine = 0; // the line a "line N" link last moved to
  let timer = 0;
  let inFlight = null; // the AbortController of the requests under way
  let lintedText = null; // the text the findings are for

  // el creates an element with a class and text.
  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // post sends body as JSON to path and returns the JSON answer, or
  // throws its error message. A page with no server (the WebAssembly
  // build) sets window.robotsLocalAPI, which answers the same JSON for
  // the same path in the page itself.
  async function post(path, body, signal) {
    if (window.robotsLocalAPI) return window.robotsLocalAPI(path, body);
    const resp = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: signal,
    });
    let data;
    try {
      data = await resp.json();
    } catch (e) {
      throw new Error(resp.status + ' ' + resp.statusText);
    }
    if (!resp.ok) throw new Error(data.error || resp.status + ' ' + resp.statusText);
    return data;
  }

  function agents() {
    return agentsInput.value.split(/[\s,]+/).filter((a) => a !== '');
  }

  function urls() {
    return urlsInput.value.split('\n').map((u) => u.trim()).filter((u) => u !== '');
  }

  function mode() {
    const checked = document.querySelector('input[name="mode"]:checked');
    return checked ? checked.value : 'google';
  }

  function lineCount() {
    return editor.value.split('\n').length;
  }

  // schedule asks the server once typing pauses.
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(update, debounceMs);
  }

  // update asks for the findings (when the text changed) and the
  // explanations, dropping the answers of any request still under way.
  async function update() {
    if (inFlight) inFlight.abort();
    const ctl = new AbortController();
    inFlight = ctl;
    const text = editor.value;
    const list = urls();
    document.body.setAttribute('aria-busy', 'true');
    try {
      const lintP = text === lintedText ? null : post('/api/lint', { robotstxt: text }, ctl.signal);
      const explainP = list.length === 0 ? null :
        post('/api/explain', { robotstxt: text, agents: agents(), urls: list, mode: mode() }, ctl.signal);
      const [lint, explained] = await Promise.all([lintP, explainP]);
      if (ctl !== inFlight) return;
      if (lint) {
        findings = lint.findings;
        lintedText = text;
        renderLint();
      }
      renderResults(explained ? explained.results : [], explained ? explained.selection : null);
    } catch (e) {
      if (e.name === 'AbortError' || ctl !== inFlight) return;
      summary.replaceChildren(el('span', 'error', 'The server did not answer: ' + e.message));
    } finally {
      if (ctl === inFlight) {
        inFlight = null;
        document.body.removeAttribute('aria-busy');
      }
    }
    renderEditor();
  }

  // renderEditor draws the line numbers and the line boxes behind the
  // text, marked with the findings and the deciding lines.
  function renderEditor() {
    const n = lineCount();
    const lintByLine = new Map();
    for (const f of findings) {
      const worst = lintByLine.get(f.line);
      if (worst !== 'error') lintByLine.set(f.line, f.severity);
    }
    const nums = document.createDocumentFragment();
    const boxes = document.createDocumentFragment();
    for (let i = 1; i <= n; i++) {
      const num = el('div', 'ln', String(i));
      const box = el('div', 'bl');
      num.dataset.line = box.dataset.line = String(i);
      const sev = lintByLine.get(i);
      if (sev) {
        num.classList.add('lint-' + sev);
        box.classList.add('lint-' + sev);
        num.title = findings.filter((f) => f.line === i).map((f) => f.severity + ': ' + f.message + ' [' + f.code + ']').join('\n');
      }
      const kind = deciding.get(i);
      if (kind) {
        num.classList.add('decides-' + kind);
        box.classList.add('decides-' + kind);
      }
      if (i === jumpLine) box.classList.add('jump');
      nums.appendChild(num);
      boxes.appendChild(box);
    }
    gutter.replaceChildren(nums);
    backdrop.replaceChildren(boxes);
    syncScroll();
  }

  function syncScroll() {
    gutter.scrollTop = editor.scrollTop;
    backdrop.scrollTop = editor.scrollTop;
    backdrop.scrollLeft = editor.scrollLeft;
  }

  // gotoLine puts the caret at the start of line n of the editor, selects
  // the line, and scrolls it into view.
  function gotoLine(n) {
    const lines = editor.value.split('\n');
    let start = 0;
    for (let i = 0; i < n - 1 && i < lines.length; i++) start += lines[i].length + 1;
    const end = start + (lines[n - 1] || '').length;
    editor.focus();
    editor.setSelectionRange(start, end);
    const lineHeight = parseFloat(getComputedStyle(editor).lineHeight) || 21;
    const top = (n - 1) * lineHeight;
    if (top < editor.scrollTop || top + lineHeight > editor.scrollTop + editor.clientHeight - lineHeight) {
      editor.scrollTop = Math.max(0, top - editor.clientHeight / 3);
    }
    jumpLine = n;
    renderEditor();
  }

  function gotoButton(line, label) {
    const b = el('button', 'goto', label || 'line ' + line);
    b.type = 'button';
    b.dataset.line = String(line);
    b.setAttribute('aria-label', 'Go to line ' + line + ' in the editor');
    b.addEventListener('click', () => gotoLine(line));
    return b;
  }

  function renderLint() {
    const errors = findings.filter((f) => f.severity === 'error').length;
    const warnings = findings.length - errors;
    lintSummary.textContent = findings.length === 0 ? 'No findings.' :
      plural(errors, 'error') + ', ' + plural(warnings, 'warning') + '.';
    const items = findings.map((f) => {
      const li = el('li', 'finding');
      li.dataset.line = String(f.line);
      li.dataset.code = f.code;
      li.append(gotoButton(f.line), el('span', 'sev sev-' + f.severity, f.severity), el('span', 'msg', f.message + ' '));
      li.lastChild.appendChild(el('code', '', '[' + f.code + ']'));
      return li;
    });
    lintList.replaceChildren(...items);
  }

  function plural(n, word) {
    return n + ' ' + word + (n === 1 ? '' : 's');
  }

  function ruleText(m) {
    return (m.allow ? 'Allow:' : 'Disallow:') + (m.value ? ' ' + m.value : '');
  }

  // renderResults shows one card per URL and records the deciding lines;
  // selection, the groups that apply, is the same for every URL.
  function renderResults(list, selection) {
    deciding = new Map();
    let allowed = 0;
    let disallowed = 0;
    let bad = 0;
    const cards = list.map((r) => {
      if (r.error !== undefined) {
        bad++;
        return badCard(r);
      }
      if (r.allowed) allowed++; else disallowed++;
      if (r.winner) deciding.set(r.winner.line, r.allowed ? 'allow' : 'disallow');
      return resultCard(r, selection);
    });
    results.replaceChildren(...cards);
    if (list.length === 0) {
      summary.textContent = 'Add a URL to see its verdict.';
      return;
    }
    let text = plural(list.length, 'URL') + ': ' + allowed + ' allowed, ' + disallowed + ' disallowed';
    if (bad) text += ', ' + bad + ' not ' + (bad === 1 ? 'a URL' : 'URLs');
    summary.textContent = text + '.';
  }

  function badCard(r) {
    const li = el('li', 'result bad');
    const head = el('p', 'head');
    head.append(el('span', 'badge', 'NOT A URL'), el('span', 'url', r.url || ''));
    li.append(head, el('p', 'decider', r.error));
    return li;
  }

  // usageText sums up the usage preferences a line or a header decided,
  // and the answer to whether the content may train a model.
  function usageText(u) {
    const parts = [];
    for (const decisions of [u.categories, u.signals]) {
      for (const [name, d] of Object.entries(decisions)) {
        if (d.source) parts.push(name + '=' + d.value + ' (' + d.source + (d.line ? ', line ' + d.line : '') + ')');
      }
    }
    parts.push('may train: ' + u.may_train.value);
    return parts.join('; ');
  }

  function resultCard(r, selection) {
    const li = el('li', 'result ' + (r.allowed ? 'allowed' : 'disallowed'));
    const head = el('p', 'head');
    head.append(el('span', 'badge verdict', r.allowed ? 'ALLOWED' : 'DISALLOWED'), el('span', 'url', r.url));
    const decider = el('p', 'decider');
    if (r.winner) {
      decider.append('Decided by ', gotoButton(r.winner.line), ' ');
      decider.appendChild(el('code', 'rule', ruleText(r.winner)));
    } else if (r.implicit) {
      decider.textContent = '/robots.txt is always allowed under RFC 9309.';
    } else if (r.empty) {
      decider.append('No rule decided: ', gotoButton(r.empty.line), ' ');
      decider.appendChild(el('code', 'rule', ruleText(r.empty)));
      decider.append(' is empty: it matches every path and decides nothing. Allowed by default.');
    } else {
      decider.textContent = 'No rule matched: allowed by default.';
    }
    const dl = el('dl');
    const row = (term, ...detail) => {
      const dd = el('dd');
      dd.append(...detail);
      dl.append(el('dt', '', term), dd);
    };
    row('Path', el('code', '', r.path));
    row('Group', selection.why);
    if (r.matches.length > 0) {
      const ul = el('ul', 'matches');
      for (const m of r.matches) {
        const wins = r.winner && m.line === r.winner.line && m.pattern === r.winner.pattern && m.allow === r.winner.allow;
        const item = el('li', wins ? 'winner' : '');
        item.append(gotoButton(m.line), ' ' + ruleText(m) + (m.implicit ? ' (as ' + m.pattern + ')' : '') + ', priority ' + m.priority);
        if (wins) item.append(' \u2190 decides');
        ul.appendChild(item);
      }
      if (r.more_matches) ul.appendChild(el('li', '', 'and ' + plural(r.more_matches, 'more rule')));
      row('Matching', ul);
    } else {
      row('Matching', 'no rule');
    }
    row('Why', r.tie_break);
    if (r.usage) row('Usage', usageText(r.usage));
    li.append(head, decider, dl);
    return li;
  }

  // load fetches the robots.txt of the URL in the load field into the
  // editor, and says what the fetch found.
  async function load(ev) {
    ev.preventDefault();
    const url = loadURL.value.trim();
    if (url === '') {
      loadStatus.replaceChildren(el('p', 'error', 'Give the URL of a site or a page.'));
      loadURL.focus();
      return;
    }
    loadButton.disabled = true;
    loadStatus.textContent = 'Fetching the robots.txt of ' + url + '\u2026';
    try {
      const r = await post('/api/fetch', { url: url, agents: agents(), mode: mode() });
      showFetch(r);
      if (r.policy === 'conditional') {
        editor.value = r.body;
        editor.scrollTop = 0;
        jumpLine = 0;
      }
      if (urls().length === 0) urlsInput.value = url;
      await update();
    } catch (e) {
      loadStatus.replaceChildren(el('p', 'error', e.message));
    } finally {
      loadButton.disabled = false;
    }
  }

  function duration(seconds) {
    if (seconds >= 86400 && seconds % 3600 === 0) return (seconds / 86400).toFixed(seconds % 86400 ? 1 : 0) + ' d';
    if (seconds >= 3600) return (seconds / 3600).toFixed(seconds % 3600 ? 1 : 0) + ' h';
    if (seconds >= 60) return Math.round(seconds / 60) + ' min';
    return seconds + ' s';
  }

  const policyWords = {
    'conditional': 'conditional: the rules below decide',
    'full allow': 'full allow: every URL may be crawled, as if there were no robots.txt',
    'full disallow': 'full disallow: no URL may be crawled until the file can be fetched',
  };

  function showFetch(r) {
    const dl = el('dl', 'fetch-info');
    const row = (term, detail) => dl.append(el('dt', '', term), el('dd', '', detail));
    row('robots.txt', r.robots_txt + (r.redirects ? ' \u2192 ' + r.final_url + ' (' + plural(r.redirects, 'redirect') + ')' : ''));
    row('Status', r.status ? String(r.status) : 'no response');
    row('Policy', (policyWords[r.policy] || r.policy) + ' (' + r.reason + ')');
    row('Cache', duration(r.cache_seconds));
    if (r.truncated) row('Read', 'the first ' + r.bytes + ' bytes: Google reads no more');
    if (r.fetch_error) row('Error', r.fetch_error);
    const parts = [dl];
    if (r.policy !== 'conditional') {
      parts.push(el('p', '', 'The site sets no rules to show; the editor keeps its text, and its verdicts are not the site\u2019s.'));
    }
    loadStatus.replaceChildren(...parts);
  }

  async function loadExample() {
    try {
      const resp = await fetch('/example.txt');
      editor.value = await resp.text();
      jumpLine = 0;
      await update();
    } catch (e) {
      loadStatus.replaceChildren(el('p', 'error', 'The example did not load: ' + e.message));
    }
  }

  editor.addEventListener('input', () => {
    jumpLine = 0;
    renderEditor();
    schedule();
  });
  editor.addEventListener('scroll', syncScroll);
  agentsInput.addEventListener('input', schedule);
  urlsInput.addEventListener('input', schedule);
  for (const radio of document.querySelectorAll('input[name="mode"]')) radio.addEventListener('change', schedule);
  loadForm.addEventListener('submit', load);
  $('example-button').addEventListener('click', loadExample);

  if (urlsInput.value.trim() === '') {
    urlsInput.value = [
      'https://example.com/drafts/plan.pdf',
      'https://example.com/drafts/public/plan.pdf',
      'https://example.com/nogooglebot/page.html',
    ].join('\n');
  }
  renderEditor();
  if (editor.value === '') loadExample(); else update();
})();
