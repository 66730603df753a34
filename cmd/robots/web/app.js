// robots.txt tester: sends the editor's text, the agents and the URLs to
// the server's JSON API as the user types, and shows what it answers: a
// verdict and an explanation per URL (with a warning for a string that is
// not a URL or a path), the deciding lines highlighted in the editor (each
// naming the URLs it decides), lint findings marked on their lines,
// Google's reading of each line, the directives of the group that
// applies, what the Content-Usage and Content-Signal lines say of using
// each URL's content for the questions the crawler asks (its AI use), and
// a warning for an agent that is not a product token. The crawlers it
// offers come from the server's crawler table (/api/crawlers). Where
// Google documents that one of its crawlers reads a file otherwise than
// its token alone would (a fallback token, the '*' group ignored), the
// page says what Google's crawler does. The whole state lives in the URL
// fragment too, compressed, so that a link or a reload restores it.
//
// The DOM is built with textContent only, and the page runs under a
// Content-Security-Policy with no inline script or style.
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  const editor = $('robots');
  const gutter = $('gutter');
  const backdrop = $('backdrop');
  const crawlerSelect = $('crawler');
  const crawlerNote = $('crawler-note');
  const agentsInput = $('agents');
  const agentWarnings = $('agent-warnings');
  const urlsInput = $('urls');
  const results = $('results');
  const summary = $('summary');
  const groupInfo = $('group-info');
  const lintList = $('lint-list');
  const lintSummary = $('lint-summary');
  const readingBox = $('reading');
  const readingSummary = $('reading-summary');
  const readingList = $('reading-list');
  const loadForm = $('load-form');
  const loadURL = $('load-url');
  const loadButton = $('load-button');
  const loadStatus = $('load-status');
  const sourceState = $('source-state');
  const permalink = $('permalink');
  const permalinkNote = $('permalink-note');

  // debounceMs is how long typing must pause before the server is asked.
  const debounceMs = 200;

  // maxFragmentBytes bounds the permalink: a state whose fragment would
  // be longer gets no link (the page says so), and a longer fragment is
  // not read. Browsers keep URLs of megabytes, but mail, chat and
  // bookmarks cut them far sooner.
  const maxFragmentBytes = 64 * 1024;
  // maxStateBytes bounds what a fragment may expand to, so that a small
  // link cannot make the page decompress without end: room for a
  // robots.txt as long as Google reads (500 KiB) and its URLs.
  const maxStateBytes = 1024 * 1024;

  // crawlers is the list of crawlers the page offers, built from the
  // server's /api/crawlers (robots serve, or the WebAssembly engine): the
  // crawler table of package crawlers, and Google's crawlers with the
  // fallback list each reads (agents, most specific first: the engine's
  // own semantics) and whether Google says it ignores the '*' group. Each
  // entry: token, kind (a Google kind, 'ai' or 'other'), agents,
  // ignoresStar, note, and row, the table's row of the token if it has
  // one. The page holds no list of its own: an answer without the table
  // leaves only "another crawler".
  let crawlers = [];
  // crawlerKinds names the kinds of crawlers, in the list's order, with
  // what Google says of each kind's reading of robots.txt (the notes of
  // the other operators' crawlers say what their operators do).
  let crawlerKinds = [];
  // ignoresStarRule is what Google documents for its special-case
  // crawlers that ignore the '*' group.
  let ignoresStarRule = '';

  // purposeWords name the questions of package usage a crawler asks
  // (usage.Purposes), as the AI-use answers show them.
  const purposeWords = { 'train': 'Training', 'ai-use': 'Answer-time use', 'search': 'Search index' };

  // What the last answers said.
  let findings = [];
  let lastList = []; // the results shown, as rendered
  let lastSelection = null;
  let lastDirectives = null;
  let pickedURL = -1; // the index of the URL whose lines alone are highlighted, or -1
  let jumpLine = 0; // the line a "line N" link last moved to
  let timer = 0;
  let inFlight = null; // the AbortController of the requests under way
  let lintedText = null; // the text the findings are for
  // reading is Google's report of the text last explained: the text's
  // lines, and the report (last_line, valid, unused, and lines, each
  // [line, tag, typo, empty, has_comment, is_comment, has_directive,
  // too_long, missing_colon]) with its lines by number; null before the
  // first answer, or from a server that gives none.
  let reading = null;
  let linkSeq = 0; // the permalink being written: older ones are dropped

  // source is where the editor's text came from: the example, a fetch
  // (with the robots.txt URL and the origin it governs), a link, or the
  // user; edited says whether it was changed here since. sourceLines are
  // the lines, trimmed, that the text had when it came (blank ones left
  // out): a text that keeps none of them no longer derives from it.
  let source = { kind: 'text', edited: false };
  let sourceLines = new Set();
  // replacing says that the input under way is a paste or a drop that
  // replaces the whole text.
  let replacing = false;

  // el creates an element with a class and text.
  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // staticPage reports whether the page runs without robots serve: the
  // WebAssembly build answers the API in the page itself.
  function staticPage() {
    return typeof window.robotsLocalAPI === 'function';
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

  function setMode(m) {
    const radio = document.querySelector('input[name="mode"][value="' + (m === 'rfc' ? 'rfc' : 'google') + '"]');
    radio.checked = true;
  }

  function plural(n, word) {
    return n + ' ' + word + (n === 1 ? '' : 's');
  }

  // --- Crawlers ---------------------------------------------------------

  // loadCrawlers asks the server for the crawler table and builds the
  // list of crawlers from it: Google's crawlers under Google's kinds, then
  // the table's other rows, AI crawlers first.
  async function loadCrawlers() {
    let t;
    try {
      t = await post('/api/crawlers', {});
    } catch (e) {
      crawlerNote.textContent = 'The list of crawlers did not load: ' + e.message + '. Type the tokens below.';
      return;
    }
    const rows = new Map(t.crawlers.map((c) => [c.token.toLowerCase(), c]));
    const google = new Set(t.google.map((g) => g.token.toLowerCase()));
    crawlers = t.google.map((g) => ({ token: g.token, kind: g.kind, agents: g.agents, ignoresStar: !!g.ignores_star,
      note: g.note, row: rows.get(g.token.toLowerCase()) }));
    for (const c of t.crawlers) {
      if (google.has(c.token.toLowerCase())) continue;
      crawlers.push({ token: c.token, kind: c.ai ? 'ai' : 'other', agents: [c.token], ignoresStar: false, note: '', row: c });
    }
    crawlerKinds = t.google_kinds.concat([
      { kind: 'ai', label: 'AI: crawlers, fetchers and usage tokens of other operators', rule: '' },
      { kind: 'other', label: 'Other crawlers', rule: '' },
    ]);
    ignoresStarRule = t.ignores_star_rule;
    crawlerSelect.replaceChildren();
    fillCrawlers();
  }

  // crawlerOf returns the entry of crawlers whose token is agent,
  // ignoring case as robots.txt does, or undefined.
  function crawlerOf(agent) {
    if (!agent) return undefined;
    const a = agent.toLowerCase();
    return crawlers.find((c) => c.token.toLowerCase() === a);
  }

  function fillCrawlers() {
    for (const k of crawlerKinds) {
      const group = el('optgroup');
      group.label = k.label;
      for (const c of crawlers.filter((c) => c.kind === k.kind)) {
        let text = c.token;
        if (c.agents.length > 1) text += ' (else ' + c.agents.slice(1).join(', ') + ')';
        if (c.ignoresStar) text += ' (ignores *)';
        const o = el('option', '', text);
        o.value = c.token;
        group.appendChild(o);
      }
      if (group.children.length) crawlerSelect.appendChild(group);
    }
    const other = el('option', '', 'Another crawler: type its tokens below');
    other.value = '';
    crawlerSelect.appendChild(other);
  }

  // rowWords says what the crawler table says of a crawler: its operator,
  // purpose and what the operator says of robots.txt (the server's note),
  // with a link to the operator's page.
  function rowWords(row) {
    const words = el('span', 'row-note');
    words.append(row.operator + ', ' + row.purpose + '. ');
    const page = el('a', '', row.robots === 'yes' ? row.operator + ' says it follows robots.txt' :
      row.robots === 'no' ? row.operator + ' says it may not follow robots.txt' : 'Its operator\u2019s page says nothing of robots.txt for it');
    page.href = row.url;
    page.rel = 'noreferrer';
    words.append(page);
    if (row.robots !== 'yes') words.append(': \u201c' + row.says + '\u201d');
    words.append('.');
    if (row.robots === 'no') words.append(' The verdicts below are what the file asks of it, not what it does.');
    return words;
  }

  // syncCrawler selects the crawler whose fallback list the agents field
  // holds, or "another crawler", and says what its operator documents of
  // the crawler named first.
  function syncCrawler() {
    const list = agents().map((a) => a.toLowerCase()).join(',');
    const same = crawlers.find((c) => c.agents.map((a) => a.toLowerCase()).join(',') === list);
    crawlerSelect.value = same ? same.token : '';
    const c = crawlerOf(agents()[0]);
    if (!c) {
      if (crawlers.length === 0 && crawlerNote.textContent.startsWith('The list of crawlers did not load')) return;
      crawlerNote.textContent = agents().length === 0 ?
        'No agent: only the \u2019*\u2019 groups apply.' :
        'The first token a group names decides which group applies; when none is named, the \u2019*\u2019 groups do.';
      crawlerNote.dataset.token = '';
      return;
    }
    const kind = crawlerKinds.find((k) => k.kind === c.kind);
    const parts = [c.token + ': ' + (c.note || '')];
    if (c.ignoresStar) parts.push(ignoresStarRule);
    else if (kind && kind.rule) parts.push(kind.rule);
    if (c.agents.length > 1) parts.push('Fallback: ' + c.agents.slice(1).join(', ') + ', then the \u2019*\u2019 groups.');
    crawlerNote.replaceChildren(parts.filter((p) => p !== '').join(' '));
    if (c.row && !c.note) crawlerNote.append(rowWords(c.row));
    crawlerNote.dataset.token = c.token;
  }

  function pickCrawler() {
    const c = crawlerOf(crawlerSelect.value);
    agentsInput.value = c ? c.agents.join(', ') : '';
    if (!c) agentsInput.focus();
    syncCrawler();
    schedule();
  }

  // googleReading returns the results as Google's crawler reads the file,
  // when Google documents a rule the engine does not know: a crawler that
  // ignores the '*' group reads no rule when only '*' applies. Each result
  // so changed keeps the engine's reading in its field engine.
  function googleReading(list, selection) {
    const c = crawlerOf(agents()[0]);
    if (!c || !c.ignoresStar || !selection || selection.reason !== 'global') return { list: list, ignored: null };
    const out = list.map((r) => {
      if (r.error !== undefined) return r;
      return { url: r.url, path: r.path, warning: r.warning, allowed: true, matches: [], winner: null, tie_break: '', usage: r.usage, engine: r };
    });
    return { list: out, ignored: c };
  }

  // --- Requests ---------------------------------------------------------

  // schedule asks the server once typing pauses.
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(update, debounceMs);
  }

  // update asks for the findings (when the text changed) and the
  // explanations, dropping the answers of any request still under way.
  async function update() {
    clearTimeout(timer);
    if (inFlight) inFlight.abort();
    const ctl = new AbortController();
    inFlight = ctl;
    const text = editor.value;
    const list = urls();
    document.body.setAttribute('aria-busy', 'true');
    try {
      const lintP = text === lintedText ? null : post('/api/lint', { robotstxt: text }, ctl.signal);
      // Explain is asked even without a URL, for the path "/": its answer
      // carries Google's reading of the file and the agents' warnings,
      // which the page shows whatever the URLs.
      const explainP = post('/api/explain', { robotstxt: text, agents: agents(), urls: list.length ? list : ['/'], mode: mode() }, ctl.signal);
      const [lint, answer] = await Promise.all([lintP, explainP]);
      if (ctl !== inFlight) return;
      const explained = list.length ? answer : null;
      // A fallback decided: what would the first token alone get? Google's
      // Googlebot-Image reads Googlebot's group where the token alone
      // would read '*'; the cards say where that changes the verdict.
      let alone = null;
      if (explained && explained.selection && explained.selection.reason === 'fallback') {
        alone = await post('/api/explain', { robotstxt: text, agents: agents().slice(0, 1), urls: list, mode: mode() }, ctl.signal);
        if (ctl !== inFlight) return;
      }
      if (lint) {
        findings = lint.findings;
        lintedText = text;
        renderLint();
      }
      reading = answer.report ? readingOf(text, answer.report) : null;
      renderReading();
      renderAgentWarnings(answer.warnings || []);
      renderResults(explained ? explained.results : [], explained ? explained.selection : null,
        explained ? explained.directives : null, alone);
    } catch (e) {
      if (e.name === 'AbortError' || ctl !== inFlight) return;
      summary.replaceChildren(el('span', 'error', 'The server did not answer: ' + e.message));
      // The warnings were for agents the server no longer answered for.
      renderAgentWarnings([]);
    } finally {
      if (ctl === inFlight) {
        inFlight = null;
        document.body.removeAttribute('aria-busy');
      }
    }
    renderEditor();
    revealFocusedURL();
    writePermalink();
  }

  // --- The editor -------------------------------------------------------

  // decidingLines returns deciding: for each line that decides a URL
  // shown, its kind and the numbers of the URLs it decides, only the
  // picked URL's when one is picked; and matching: the other lines that
  // match the picked URL.
  function decidingLines() {
    const deciding = new Map();
    const matching = new Set();
    lastList.forEach((r, i) => {
      if (r.error !== undefined || !r.winner) return;
      if (pickedURL >= 0 && i !== pickedURL) return;
      const d = deciding.get(r.winner.line) || { kind: r.allowed ? 'allow' : 'disallow', urls: [] };
      d.urls.push(i + 1);
      deciding.set(r.winner.line, d);
      if (i === pickedURL) for (const m of r.matches) matching.add(m.line);
    });
    for (const line of deciding.keys()) matching.delete(line);
    return { deciding: deciding, matching: matching };
  }

  function urlNames(nums) {
    return nums.map((n) => 'URL ' + n).join(', ');
  }

  // badgeLabels are the labels a deciding line's badge may show, longest
  // first: it shows the first that fits its line (fitBadges).
  function badgeLabels(nums) {
    const out = [urlNames(nums)];
    if (nums.length > 1) {
      out.push('URLs ' + nums.join(', '));
      out.push('URL ' + nums[0] + ' +' + (nums.length - 1));
    }
    return out;
  }

  // renderEditor draws the line numbers and the line boxes behind the
  // text, marked with the findings and the deciding lines. Each box holds
  // its line's text, invisible, wrapped as the textarea wraps it (same
  // font, width and wrapping rules), so that it is as tall as the line it
  // lies under; the line numbers then take the boxes' heights.
  function renderEditor() {
    const lines = editor.value.split('\n');
    const lintByLine = new Map();
    for (const f of findings) {
      const worst = lintByLine.get(f.line);
      if (!worst || severityRank[f.severity] < severityRank[worst]) lintByLine.set(f.line, f.severity);
    }
    const { deciding, matching } = decidingLines();
    const nums = document.createDocumentFragment();
    const boxes = document.createDocumentFragment();
    for (let i = 1; i <= lines.length; i++) {
      const num = el('div', 'ln', String(i));
      const box = el('div', 'bl', lines[i - 1]);
      num.dataset.line = box.dataset.line = String(i);
      const titles = [];
      const sev = lintByLine.get(i);
      if (sev) {
        num.classList.add('lint-' + sev);
        box.classList.add('lint-' + sev);
        for (const f of findings) if (f.line === i) titles.push(f.severity + ': ' + f.message + ' [' + f.code + ']');
      }
      const d = deciding.get(i);
      if (d) {
        num.classList.add('decides-' + d.kind);
        box.classList.add('decides-' + d.kind);
        const who = urlNames(d.urls);
        num.dataset.urls = box.dataset.urls = d.urls.join(',');
        const badge = el('span', 'who', who);
        badge.dataset.labels = JSON.stringify(badgeLabels(d.urls));
        box.appendChild(badge);
        titles.unshift((d.kind === 'allow' ? 'allows ' : 'disallows ') + who);
      } else if (matching.has(i)) {
        num.classList.add('matches');
        box.classList.add('matches');
        titles.unshift('matches URL ' + (pickedURL + 1) + ' without deciding it');
      }
      const words = lineReading(i, lines[i - 1]);
      if (words) {
        num.dataset.reading = words;
        titles.push(words);
      }
      if (titles.length) num.title = titles.join('\n');
      if (i === jumpLine) box.classList.add('jump');
      nums.appendChild(num);
      boxes.appendChild(box);
    }
    gutter.replaceChildren(nums);
    backdrop.replaceChildren(boxes);
    syncHeights();
  }

  // drawSoon redraws the editor before the next frame, once however many
  // keys came since the last.
  let drawPending = false;
  function drawSoon() {
    if (drawPending) return;
    drawPending = true;
    requestAnimationFrame(() => {
      drawPending = false;
      renderEditor();
    });
  }

  // syncHeights gives each line number the height of its line box: more
  // than one line where the text wraps.
  function syncHeights() {
    const boxes = backdrop.children;
    const nums = gutter.children;
    const heights = [];
    for (const b of boxes) heights.push(b.offsetHeight);
    const one = parseFloat(getComputedStyle(editor).lineHeight) || 21;
    for (let i = 0; i < nums.length && i < heights.length; i++) {
      const h = heights[i] > one + 0.5 ? heights[i] + 'px' : '';
      if (nums[i].style.height !== h) nums[i].style.height = h;
    }
    fitBadges();
    syncScroll();
  }

  // fitBadges gives each badge the longest of its labels that keeps it
  // within its line's box: the badge sits in a column the text never
  // reaches (style.css), and a label too long for it wraps there, so that
  // a badge taller than its line would spill over the next line's. The
  // gutter's tooltip and the verdicts name every URL.
  function fitBadges() {
    for (const w of backdrop.querySelectorAll('.who')) {
      const labels = JSON.parse(w.dataset.labels);
      const room = w.parentElement.offsetHeight - w.offsetTop;
      for (const label of labels) {
        w.textContent = label;
        if (w.offsetHeight <= room) break;
      }
    }
  }

  function syncScroll() {
    gutter.scrollTop = editor.scrollTop;
    backdrop.scrollTop = editor.scrollTop;
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
    jumpLine = n;
    renderEditor();
    scrollToLine(n);
  }

  // scrollToLine scrolls the editor, when line n is not wholly in view,
  // to show it a third of the way down.
  function scrollToLine(n) {
    const box = backdrop.children[n - 1];
    if (!box) return;
    // The box's offsetTop counts the padding above the first line, as the
    // textarea's scrollTop does.
    const top = box.offsetTop;
    if (top < editor.scrollTop || top + box.offsetHeight > editor.scrollTop + editor.clientHeight) {
      editor.scrollTop = Math.max(0, top - editor.clientHeight / 3);
    }
    syncScroll();
  }

  // focusedURL returns the index, in urls(), of the URL the caret of the
  // URL field is on, or -1 when the field has no focus or the caret is
  // on a blank line.
  function focusedURL() {
    if (document.activeElement !== urlsInput) return -1;
    const before = urlsInput.value.slice(0, urlsInput.selectionStart).split('\n');
    const lines = urlsInput.value.split('\n');
    if (lines[before.length - 1].trim() === '') return -1;
    return before.slice(0, -1).filter((u) => u.trim() !== '').length;
  }

  // revealFocusedURL scrolls the editor to the line that decides the URL
  // the caret is on, so that a file longer than the editor shows it,
  // once the verdicts shown are for the URLs typed.
  function revealFocusedURL() {
    const i = focusedURL();
    const r = lastList[i];
    if (!r || r.url !== urls()[i] || !r.winner) return;
    scrollToLine(r.winner.line);
  }

  function gotoButton(line, label) {
    const b = el('button', 'goto', label || 'line ' + line);
    b.type = 'button';
    b.dataset.line = String(line);
    b.setAttribute('aria-label', 'Go to line ' + line + ' in the editor');
    b.addEventListener('click', () => gotoLine(line));
    return b;
  }

  // --- Lint -------------------------------------------------------------

  // severityRank orders lint's severities, worst first: a line marked for
  // several findings shows the worst.
  const severityRank = { error: 0, warning: 1, note: 2 };

  function renderLint() {
    const errors = findings.filter((f) => f.severity === 'error').length;
    const notes = findings.filter((f) => f.severity === 'note').length;
    const warnings = findings.length - errors - notes;
    lintSummary.textContent = findings.length === 0 ? 'No findings.' :
      plural(errors, 'error') + ', ' + plural(warnings, 'warning') + (notes ? ', ' + plural(notes, 'note') : '') + '.';
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

  // --- Google's reading -------------------------------------------------

  // readingTags names the tags of Google's report: what it reads on a
  // line, and the key a typo of that tag misspells.
  const readingTags = [
    null,
    { words: 'user-agent', key: 'User-agent' },
    { words: 'allow rule', key: 'Allow' },
    { words: 'disallow rule', key: 'Disallow' },
    { words: 'sitemap', key: 'Sitemap' },
  ];
  const tagUnused = 5;

  // readingOf keeps report, Google's report of text, with its lines by
  // number.
  function readingOf(text, report) {
    const byLine = new Map();
    for (const l of report.lines) byLine.set(l[0], l);
    return { lines: text.split('\n'), report: report, byLine: byLine };
  }

  // keyOf returns the key of a line as Google reads it: before the colon,
  // or the first word when the colon is missing; cut when it is long.
  function keyOf(text, n, missingColon) {
    let s = (n === 1 ? text.replace(/^\uFEFF/, '') : text).replace(/#.*/, '').trim();
    s = missingColon ? s.split(/[ \t]/)[0] : s.split(':')[0].trim();
    return s.length > 40 ? s.slice(0, 40) + '\u2026' : s;
  }

  // readingWords says in words what Google reads on line l of its report,
  // whose text is text.
  function readingWords(l, text) {
    const [n, tag, typo, empty, hasComment, isComment, hasDirective, tooLong, missingColon] = l;
    const t = readingTags[tag];
    const parts = [];
    if (t) {
      parts.push('Google reads: ' + t.words + (typo ? ' (accepted misspelling of ' + t.key + ')' : ''));
    } else if (tag === tagUnused) {
      parts.push('Google ignores this key (' + keyOf(text, n, missingColon) + ')');
    } else if (hasDirective) {
      parts.push('Google ignores this line: unknown key (' + keyOf(text, n, missingColon) + ')');
    } else if (isComment) {
      parts.push('Comment only: Google reads no directive here');
    } else if (empty) {
      parts.push('Empty line');
    } else {
      parts.push('Google reads no directive here');
    }
    if (missingColon) parts.push(t || tag === tagUnused ? 'missing colon: Google reads it anyway' : 'missing colon');
    if (tooLong) parts.push('line too long: Google reads the first 16,663 bytes');
    if (hasComment && !isComment) parts.push('a comment follows');
    return parts.join('; ');
  }

  // lineReading says what Google reads on line n of the editor, whose
  // text is text, or returns '' when the last report does not say: a line
  // whose text changed since (or that moved) waits for the next answer.
  function lineReading(n, text) {
    if (!reading || reading.lines[n - 1] !== text) return '';
    const l = reading.byLine.get(n);
    if (l) return readingWords(l, text);
    return n > reading.report.last_line ? 'Past the first 500 KiB: Google reads no more of the file' : '';
  }

  // renderReading shows the counts of Google's report and, when the list
  // is open, what Google reads on each line.
  function renderReading() {
    if (!reading) {
      readingBox.hidden = true;
      readingList.replaceChildren();
      return;
    }
    readingBox.hidden = false;
    const r = reading.report;
    readingSummary.textContent = 'Google\u2019s reading: ' + plural(r.last_line, 'line') + ', ' +
      plural(r.valid, 'valid directive') + ', ' + r.unused + ' unused';
    if (!readingBox.open) {
      readingList.replaceChildren();
      return;
    }
    const items = [];
    for (const l of r.lines) {
      const text = reading.lines[l[0] - 1] || '';
      const li = el('li');
      li.dataset.line = String(l[0]);
      li.append(gotoButton(l[0]), ' ', el('span', 'reading-text', readingWords(l, text)), ' ',
        el('code', 'reading-line', text.length > 80 ? text.slice(0, 80) + '\u2026' : text));
      items.push(li);
    }
    readingList.replaceChildren(...items);
  }

  // renderAgentWarnings shows the server's warnings of agents that are not
  // product tokens under the agents field, and nothing when there are none.
  function renderAgentWarnings(list) {
    agentWarnings.replaceChildren(...list.map((w) => el('li', '', w)));
  }

  // --- Verdicts ---------------------------------------------------------

  function ruleText(m) {
    return (m.allow ? 'Allow:' : 'Disallow:') + (m.value ? ' ' + m.value : '');
  }

  // originOf returns the origin of an absolute URL, or '' for a path or
  // what does not parse.
  function originOf(u) {
    if (u.startsWith('/')) return '';
    try {
      return new URL(u).origin;
    } catch (e) {
      return '';
    }
  }

  // foreignTo returns the origin whose robots.txt the editor holds when
  // url is on another: that file does not govern it.
  function foreignTo(url) {
    if (!source.origin) return '';
    const o = originOf(url);
    return o && o !== source.origin ? source.origin : '';
  }

  // renderResults shows one card per URL; selection, the groups that
  // apply, and directives, what they ask besides rules, are the same for
  // every URL. alone, when a fallback decided, is the answer for the
  // first token alone.
  function renderResults(list, selection, directives, alone) {
    const google = googleReading(list, selection);
    lastList = google.list;
    lastSelection = selection;
    lastDirectives = directives;
    if (pickedURL >= lastList.length) pickedURL = -1;
    const usageLines = lastList.some((r) => r.usage) || usageKey.test(editor.value);
    let allowed = 0;
    let disallowed = 0;
    let bad = 0;
    let warned = 0;
    let foreign = 0;
    const cards = lastList.map((r, i) => {
      if (r.error !== undefined) {
        bad++;
        return badCard(r, i);
      }
      if (r.allowed) allowed++; else disallowed++;
      if (r.warning) warned++;
      if (foreignTo(r.url)) foreign++;
      return resultCard(r, i, selection, google.ignored, alone && alone.results[i] ? { r: alone.results[i], why: alone.selection.why } : null, usageLines);
    });
    results.replaceChildren(...cards);
    renderGroupInfo(selection, directives, google.ignored);
    if (lastList.length === 0) {
      summary.textContent = 'Add a URL to see its verdict.';
      return;
    }
    let text = plural(lastList.length, 'URL') + ': ' + allowed + ' allowed, ' + disallowed + ' disallowed';
    if (bad) text += ', ' + bad + ' without a verdict';
    if (warned) text += '; ' + warned + ' not a URL or a path, answered for the path Google reads in ' + (warned === 1 ? 'it' : 'them');
    text += '.';
    if (foreign) text += ' ' + plural(foreign, 'URL') + ' not on ' + source.origin + ', whose robots.txt the editor holds.';
    summary.textContent = text;
  }

  // pickButton selects URL i: its lines alone are highlighted, until it is
  // pressed again.
  function pickButton(i) {
    const b = el('button', 'pick', 'URL ' + (i + 1));
    b.type = 'button';
    b.setAttribute('aria-pressed', String(i === pickedURL));
    b.title = i === pickedURL ? 'Highlight the lines of every URL' : 'Highlight the lines of this URL only';
    b.addEventListener('click', () => pick(i));
    return b;
  }

  function pick(i) {
    pickedURL = pickedURL === i ? -1 : i;
    for (const li of results.children) {
      const n = +li.dataset.index;
      li.classList.toggle('picked', n === pickedURL);
      const b = li.querySelector('button.pick');
      b.setAttribute('aria-pressed', String(n === pickedURL));
      b.title = n === pickedURL ? 'Highlight the lines of every URL' : 'Highlight the lines of this URL only';
    }
    renderEditor();
    const r = lastList[pickedURL];
    if (r && r.winner) scrollToLine(r.winner.line);
  }

  function cardHead(r, i, badge, badgeClass) {
    const head = el('p', 'head');
    head.append(pickButton(i), el('span', badgeClass, badge), el('span', 'url', r.url || ''));
    return head;
  }

  function badCard(r, i) {
    const li = el('li', 'result bad');
    li.dataset.index = String(i);
    li.append(cardHead(r, i, 'NO VERDICT', 'badge'), el('p', 'decider', r.error));
    return li;
  }

  // decisionWords writes one decision of the usage member: its value, and
  // the source and line that decided it.
  function decisionWords(d) {
    return d.value + (d.source ? ' (' + d.source + (d.line ? ', line ' + d.line : '') + ')' : '');
  }

  // usageKey finds a Content-Usage or Content-Signal line in a text.
  const usageKey = /^[ \t]*content-(usage|signal)[ \t]*:/im;

  // aiUse shows, for the crawler named first, what the Content-Usage
  // (vocab-08) and Content-Signal lines say of using the URL's content:
  // the answer for each question the crawler asks (the crawler table's
  // usage_purposes; every question for a crawler it does not have), the
  // use level's answer for that question, and every category and signal.
  // usageLines says whether the file has such lines at all: without any,
  // and with nothing decided, it shows nothing.
  function aiUse(r, usageLines) {
    if (!r.usage && !usageLines) return null;
    const box = el('div', 'ai-use');
    const c = crawlerOf(agents()[0]);
    const asks = c && c.row && c.row.usage_purposes.length ? c.row.usage_purposes : Object.keys(purposeWords);
    box.append(el('p', 'ai-for', 'AI use' + (c && c.row ? ' by ' + c.token + ' (' + c.row.purpose + ')' : ', for any crawler')));
    const u = r.usage;
    if (!u) {
      box.classList.add('ai-none');
      box.append(el('p', 'ai-empty', r.allowed ? 'No Content-Usage or Content-Signal line speaks for this URL.' :
        'Not fetched: a preference applies only to what may be fetched.'));
      return box;
    }
    const answers = el('ul', 'ai-answers');
    for (const p of asks) {
      const d = u.purposes[p];
      if (!d) continue;
      const li = el('li', 'ans ans-' + d.value);
      li.dataset.purpose = p;
      li.append(el('strong', '', purposeWords[p] + ': ' + d.value));
      if (d.source) li.append(' ', el('span', 'why', d.source + (d.line ? ', line ' + d.line : '')));
      answers.append(li);
      const lv = u.use && u.use.purposes[p];
      if (lv) {
        const at = el('li', 'ans ans-' + lv.value);
        at.dataset.purpose = p + '-level';
        at.append(el('strong', '', purposeWords[p] + ' at use=' + u.use.level + ': ' + lv.value),
          ' ', el('span', 'why', 'needs ' + lv.needs + '; Content-Signal' + (u.use.line ? ', line ' + u.use.line : '')));
        answers.append(at);
      }
    }
    box.append(answers);
    const lines = el('ul', 'ai-lines');
    const entries = (m) => Object.entries(m).map(([k, d]) => k + '=' + decisionWords(d)).join(' \u00b7 ');
    const source = (name, text) => {
      const li = el('li');
      li.append(el('span', 'ai-source', name + ': '), text);
      lines.append(li);
    };
    source('Content-Usage (vocab-08)', entries(u.categories));
    source('Content-Signal', entries(u.signals) +
      (u.use ? ' \u00b7 use=' + u.use.level + (u.use.line ? ' (Content-Signal, line ' + u.use.line + ')' : '') : ''));
    box.append(lines);
    return box;
  }

  function resultCard(r, i, selection, ignored, alone, usageLines) {
    const li = el('li', 'result ' + (r.allowed ? 'allowed' : 'disallowed'));
    li.dataset.index = String(i);
    if (i === pickedURL) li.classList.add('picked');
    li.append(cardHead(r, i, r.allowed ? 'ALLOWED' : 'DISALLOWED', 'badge verdict'));
    if (r.warning) {
      // Not a URL or a path: Google's reference still answers, for the
      // path it reads in the string, and the server says which.
      li.classList.add('warned');
      const note = el('p', 'url-note');
      note.append(el('strong', '', 'Warning: '), el('span', 'url-warning', r.warning));
      li.append(note);
    }
    const other = foreignTo(r.url);
    if (other) {
      li.classList.add('foreign');
      li.append(el('p', 'foreign-note', 'Not on ' + other + ', whose robots.txt the editor holds: that file does not govern this URL. ' +
        'The verdict is what the file would say if ' + originOf(r.url) + ' served it.'));
    }
    const decider = el('p', 'decider');
    if (r.engine) {
      decider.textContent = 'No rule applies: ' + ignored.token + ' ignores the \u2019*\u2019 group and no group names it, so Google\u2019s crawler may fetch it.';
    } else if (r.winner) {
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
    if (r.engine) {
      const e = r.engine;
      row('Group', 'none: ' + ignored.token + ' reads only groups that name it (Google\u2019s special-case crawlers).');
      row('Token alone', (e.allowed ? 'ALLOWED' : 'DISALLOWED') + ' by the \u2019*\u2019 group' +
        (e.winner ? ', line ' + e.winner.line + ' ' + ruleText(e.winner) : '') + ': what a crawler that reads \u2019*\u2019 would get.');
    } else {
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
      const line = (x) => (x.winner ? x.winner.line : 0);
      const a = alone && alone.r;
      if (a && a.error === undefined && (a.allowed !== r.allowed || line(a) !== line(r))) {
        row(agents()[0] + ' alone', (a.allowed ? 'ALLOWED' : 'DISALLOWED') +
          (a.winner ? ' by line ' + a.winner.line + ' ' + ruleText(a.winner) : ', no rule deciding') +
          ' (' + alone.why + '): the fallback decides instead.');
      }
    }
    const ai = aiUse(r, usageLines);
    li.append(...(ai ? [decider, ai, dl] : [decider, dl]));
    li.addEventListener('click', (ev) => {
      if (ev.target.closest('button, a, code') || window.getSelection().toString() !== '') return;
      pick(i);
    });
    return li;
  }

  function seconds(s) {
    return (Number.isInteger(s) ? String(s) : s.toFixed(3).replace(/0+$/, '')) + ' s';
  }

  // renderGroupInfo shows what the group that applies asks besides rules,
  // and the file's sitemaps. A server that does not give them (an older
  // one, or a page without a server that does not) shows nothing.
  function renderGroupInfo(selection, directives, ignored) {
    if (!selection || !directives) {
      groupInfo.replaceChildren();
      return;
    }
    const dl = el('dl');
    const row = (term, ...detail) => {
      const dd = el('dd');
      dd.append(...detail);
      dl.append(el('dt', '', term), dd);
    };
    if (ignored) {
      row('Group', 'none applies to ' + ignored.token + ', which ignores the \u2019*\u2019 group.');
    } else {
      row('Group', selection.why);
      const line = (key) => {
        const all = directives.extras.filter((d) => d.key.toLowerCase() === key);
        return all.length ? ' (' + (all.length === 1 ? 'line ' : 'lines ') + all.map((d) => d.line).join(', ') + ')' : '';
      };
      row('Crawl-delay', directives.crawl_delay !== undefined ?
        seconds(directives.crawl_delay) + line('crawl-delay') + '; Google ignores it, Bing and Yandex read it' : 'none');
      const rr = directives.request_rate;
      row('Request-rate', rr ? plural(rr.requests, 'request') + ' every ' + seconds(rr.per_seconds) + line('request-rate') + '; Google ignores it' : 'none');
      const others = directives.extras.filter((d) => !['crawl-delay', 'request-rate'].includes(d.key.toLowerCase()));
      if (others.length) {
        const ul = el('ul', 'extras');
        for (const d of others) {
          const li = el('li');
          li.append(gotoButton(d.line), ' ' + d.key + ': ' + d.value);
          ul.appendChild(li);
        }
        row('Other lines', ul);
      }
    }
    if (directives.sitemaps.length) {
      const ul = el('ul', 'sitemaps');
      for (const s of directives.sitemaps) ul.appendChild(el('li', '', s));
      row('Sitemaps', ul);
    } else {
      row('Sitemaps', 'none');
    }
    groupInfo.replaceChildren(el('h3', '', 'The group and the file'), dl);
  }

  // --- Where the text came from -----------------------------------------

  // sourceWords says where the editor's text came from, for the line
  // above the editor and the error of a refused Load.
  function sourceWords() {
    const s = source;
    let from;
    if (s.kind === 'example') from = 'the example file';
    else if (s.kind === 'fetched') from = s.robotsURL + ', fetched' + (s.status ? ' (status ' + s.status + ')' : '');
    else if (s.kind === 'link') from = 'the file a link carried' + (s.robotsURL ? ', fetched from ' + s.robotsURL : '');
    else return 'your text';
    return s.edited ? from + ', edited here' : from;
  }

  function renderSource() {
    const s = source;
    sourceState.dataset.state = s.kind === 'text' ? 'text' : s.edited ? 'edited' : s.kind;
    let text = s.kind === 'text' ? 'Rules pasted or typed here.' : 'Rules from ' + sourceWords() + '.';
    if (s.kind === 'example') text += ' They are no site\u2019s rules.';
    if (s.edited && s.robotsURL) text += ' The verdicts are for the text in the editor, not for the site\u2019s file.';
    sourceState.textContent = text;
    const info = loadStatus.querySelector('.fetch-info');
    if (info) info.classList.toggle('stale', s.kind !== 'fetched' || s.edited);
  }

  // setSource says where the editor's text, as it is now, came from.
  function setSource(s) {
    source = Object.assign({ edited: false }, s);
    sourceLines = new Set(editor.value.split('\n').map((l) => l.trim()).filter((l) => l !== ''));
    renderSource();
  }

  // noteEdit follows an edit of the text: a file edited here still
  // derives from where it came from, unless the edit replaced it. A paste
  // or a drop over the whole text, an editor emptied, or a text that keeps
  // none of the file's lines make the rules the user's own.
  function noteEdit() {
    if (source.kind === 'text') return;
    const text = editor.value;
    if (replacing || text === '' || !text.split('\n').some((l) => sourceLines.has(l.trim()))) {
      setSource({ kind: 'text' });
    } else if (!source.edited) {
      source.edited = true;
      renderSource();
    }
  }

  // --- Load -------------------------------------------------------------

  // load fetches the robots.txt of the URL in the load field into the
  // editor, and says what the fetch found.
  async function load(ev) {
    ev.preventDefault();
    if (staticPage()) {
      loadStatus.replaceChildren(el('p', 'error', 'Load needs robots serve: this page runs without a server, and a page cannot fetch another site\u2019s robots.txt itself. The verdicts below are for ' + sourceWords() + '.'));
      return;
    }
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
        setSource({ kind: 'fetched', robotsURL: r.robots_txt, origin: originOf(r.robots_txt), status: r.status });
      }
      if (urls().length === 0) urlsInput.value = url;
      await update();
    } catch (e) {
      loadStatus.replaceChildren(el('p', 'error', e.message),
        el('p', 'kept', 'Nothing was loaded: the verdicts below are still for ' + sourceWords() + '.'));
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
      parts.push(el('p', '', 'The site sets no rules to show; the editor keeps ' + sourceWords() + ', and its verdicts are not the site\u2019s.'));
    }
    loadStatus.replaceChildren(...parts);
  }

  async function loadExample() {
    try {
      // Relative: the page may be a file beside its example, with no server.
      const resp = await fetch('example.txt');
      if (!resp.ok) throw new Error(resp.status + ' ' + resp.statusText);
      editor.value = await resp.text();
      jumpLine = 0;
      pickedURL = -1;
      setSource({ kind: 'example' });
      await update();
    } catch (e) {
      const where = staticPage() ? ' (without robots serve it must sit beside the page, as example.txt)' : '';
      loadStatus.replaceChildren(el('p', 'error', 'The example did not load' + where + ': ' + e.message));
    }
  }

  // --- The permalink ----------------------------------------------------

  function bytesToB64url(bytes) {
    let bin = '';
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  function b64urlToBytes(s) {
    if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new Error('not base64url');
    const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  // pipe runs bytes through a (de)compression stream, reading at most
  // limit bytes of output.
  async function pipe(bytes, stream, limit) {
    const reader = new Blob([bytes]).stream().pipeThrough(stream).getReader();
    const chunks = [];
    let n = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      n += value.length;
      if (n > limit) {
        await reader.cancel();
        throw new Error('it expands past ' + (limit / 1024) + ' KiB');
      }
      chunks.push(value);
    }
    const out = new Uint8Array(n);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }

  // pageState is what a permalink keeps: the file, the agents and URLs as
  // typed, the mode, and where the file came from.
  function pageState() {
    const s = { v: 1, robots: editor.value, agents: agentsInput.value, urls: urlsInput.value, mode: mode() };
    if (source.kind !== 'text') s.source = { kind: source.kind, edited: source.edited, robots_txt: source.robotsURL || '' };
    return s;
  }

  // encodeState returns the fragment of state: "z=" and the deflated
  // JSON in base64url, or "j=" and the JSON itself where the browser has
  // no CompressionStream.
  async function encodeState(state) {
    const json = new TextEncoder().encode(JSON.stringify(state));
    if (typeof CompressionStream === 'function') {
      return 'z=' + bytesToB64url(await pipe(json, new CompressionStream('deflate-raw'), Infinity));
    }
    return 'j=' + bytesToB64url(json);
  }

  // decodeState reads a fragment written by encodeState, or throws why it
  // cannot.
  async function decodeState(fragment) {
    if (fragment.length > maxFragmentBytes) throw new Error('it is longer than ' + (maxFragmentBytes / 1024) + ' KiB');
    let json;
    if (fragment.startsWith('z=')) {
      if (typeof DecompressionStream !== 'function') throw new Error('this browser cannot decompress it');
      json = await pipe(b64urlToBytes(fragment.slice(2)), new DecompressionStream('deflate-raw'), maxStateBytes);
    } else if (fragment.startsWith('j=')) {
      json = b64urlToBytes(fragment.slice(2));
      if (json.length > maxStateBytes) throw new Error('it is larger than ' + (maxStateBytes / 1024) + ' KiB');
    } else {
      throw new Error('it is not a state of this page');
    }
    const s = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
    if (!s || s.v !== 1 || typeof s.robots !== 'string' || typeof s.agents !== 'string' || typeof s.urls !== 'string') {
      throw new Error('it is not a state of this page');
    }
    return s;
  }

  // writePermalink puts the state in the link and in the address bar, so
  // that a reload keeps it; a state too large for a link gets none, and
  // the page says so.
  async function writePermalink() {
    const seq = ++linkSeq;
    let fragment;
    try {
      fragment = await encodeState(pageState());
    } catch (e) {
      fragment = null;
    }
    if (seq !== linkSeq) return;
    if (fragment === null || fragment.length > maxFragmentBytes) {
      permalink.hidden = true;
      $('copy-link').hidden = true;
      permalinkNote.textContent = fragment === null ? 'No link: the state could not be encoded.' :
        'No link: this state needs ' + Math.ceil(fragment.length / 1024) + ' KiB in a link, over the ' +
        (maxFragmentBytes / 1024) + ' KiB a link may hold. Shorten the file or the URLs to get one.';
      permalinkNote.dataset.over = 'true';
      history.replaceState(null, '', location.pathname + location.search);
      return;
    }
    permalink.hidden = false;
    $('copy-link').hidden = false;
    permalink.href = '#' + fragment;
    permalinkNote.textContent = '';
    delete permalinkNote.dataset.over;
    history.replaceState(null, '', '#' + fragment);
  }

  // restore sets the page to the state of the URL's fragment, if it has
  // one; it returns whether it did. When it cannot, it says why, and what
  // the page shows instead.
  async function restore(instead) {
    const fragment = location.hash.slice(1);
    if (fragment === '') return false;
    try {
      const s = await decodeState(fragment);
      editor.value = s.robots;
      agentsInput.value = s.agents;
      urlsInput.value = s.urls;
      setMode(s.mode);
      const src = s.source || {};
      const robotsURL = typeof src.robots_txt === 'string' ? src.robots_txt : '';
      if (src.kind === 'example') setSource({ kind: 'example', edited: !!src.edited });
      else setSource({ kind: 'link', edited: !!src.edited, robotsURL: robotsURL, origin: robotsURL ? originOf(robotsURL) : '' });
      jumpLine = 0;
      pickedURL = -1;
      syncCrawler();
      return true;
    } catch (e) {
      // Beside Load, where it stays: the permalink's note changes with
      // every answer.
      loadStatus.replaceChildren(el('p', 'error link-error', 'This link could not be read: ' + e.message + '. ' + instead));
      return false;
    }
  }

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(permalink.href);
      permalinkNote.textContent = 'Copied.';
    } catch (e) {
      permalinkNote.textContent = 'Copy the link from the address bar: the browser refused (' + e.message + ').';
    }
  }

  // --- Wiring -----------------------------------------------------------

  editor.addEventListener('beforeinput', (ev) => {
    replacing = (ev.inputType === 'insertFromPaste' || ev.inputType === 'insertFromDrop') &&
      editor.selectionStart === 0 && editor.selectionEnd === editor.value.length;
  });
  editor.addEventListener('input', () => {
    jumpLine = 0;
    noteEdit();
    replacing = false;
    drawSoon();
    schedule();
  });
  editor.addEventListener('scroll', syncScroll);
  new ResizeObserver(syncHeights).observe(editor);
  readingBox.addEventListener('toggle', renderReading);
  crawlerSelect.addEventListener('change', pickCrawler);
  agentsInput.addEventListener('input', () => {
    syncCrawler();
    schedule();
  });
  urlsInput.addEventListener('input', () => {
    pickedURL = -1;
    schedule();
  });
  // The caret moving to another URL shows the line that decides it.
  for (const type of ['focus', 'click', 'keyup']) urlsInput.addEventListener(type, revealFocusedURL);
  for (const radio of document.querySelectorAll('input[name="mode"]')) radio.addEventListener('change', schedule);
  loadForm.addEventListener('submit', load);
  $('example-button').addEventListener('click', loadExample);
  $('copy-link').addEventListener('click', copyLink);
  window.addEventListener('hashchange', async () => {
    if (location.hash.slice(1) === permalink.getAttribute('href').slice(1)) return; // the page's own
    if (await restore('The page keeps what it showed.')) update();
  });

  syncCrawler();
  renderSource();
  if (staticPage()) {
    $('load-url').placeholder = 'Load needs robots serve';
    $('served-by').textContent = 'No server behind this page: the engine answers in the browser. Load needs robots serve, which also answers the same questions as JSON (docs/serve.md).';
  }
  if (urlsInput.value.trim() === '') {
    urlsInput.value = [
      'https://example.com/nogooglebot/page.html',
      'https://example.com/drafts/plan.pdf',
      'https://example.com/nogooglebot/photo.jpg',
    ].join('\n');
  }
  renderEditor();
  // The list of crawlers comes first: which groups a crawler reads, and
  // which AI-use questions it asks, depend on it.
  loadCrawlers().then(() => {
    syncCrawler();
    return restore('The editor has the example instead.');
  }).then((restored) => {
    if (restored) update(); else loadExample();
  });
})();
