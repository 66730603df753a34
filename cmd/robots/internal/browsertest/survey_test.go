package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/cmd/robots/internal/warctest"
)

// surveyCapture is a robots.txt response of the survey page's WARC files.
type surveyCapture struct {
	file, url string
	status    int
	location  string
	body      string
}

// managedOnly is the section Cloudflare serves alone when the origin has
// no robots.txt.
const managedOnly = "# BEGIN Cloudflare Managed content\n\nUser-Agent: *\nContent-signal: search=yes, ai-train=no\nAllow: /\n\n" +
	"User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\n\n# END Cloudflare Managed Content\n"

// surveyPageInputs writes three WARC files holding every cause a page
// draws (groups naming an agent and '*' groups, 5xx, 429 and 404 answers,
// redirects followed, unresolved and without a Location, Cloudflare's
// managed sections, an undecided file, an HTML page), and returns them
// after the licensed corpus, whose 2,682 captures make the WARC files'
// causes slivers of each bar, the labels' hardest case.
func surveyPageInputs(t *testing.T) []string {
	t.Helper()
	example, err := os.ReadFile("../../../../managed/testdata/cloudflare-docs-example.txt")
	require.NoError(t, err)
	caps := []surveyCapture{
		{"a.warc", "http://named.example/robots.txt", 200, "", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n"},
		{"a.warc", "http://star.example/robots.txt", 200, "", "User-agent: *\nDisallow: /\n"},
		{"a.warc", "http://down.example/robots.txt", 503, "", "<html>down</html>"},
		{"a.warc", "http://busy.example/robots.txt", 429, "", ""},
		{"a.warc", "http://gone.example/robots.txt", 404, "", "<html>not found</html>"},
		{"a.warc", "http://moved.example/robots.txt", 301, "https://moved.example/robots.txt", ""},
		{"a.warc", "http://local.example/robots.txt", 301, "https://local.example/robots.txt", ""},
		{"a.warc", "https://local.example/robots.txt", 200, "", "User-agent: *\nDisallow: /a\n"},
		{"a.warc", "http://noloc.example/robots.txt", 302, "", ""},
		{"a.warc", "http://cf.example/robots.txt", 200, "", string(example)},
		{"b.warc.gz", "https://moved.example/robots.txt", 200, "", "User-agent: GPTBot\nDisallow: /\n"},
		{"b.warc.gz", "http://cfonly.example/robots.txt", 200, "", managedOnly},
		{"b.warc.gz", "http://cfown.example/robots.txt", 200, "", managedOnly + "\nUser-agent: GPTBot\nDisallow: /private\n"},
		{"b.warc.gz", "http://far.example/robots.txt", 302, "https://elsewhere.example/robots.txt", ""},
		{"c.warc", "http://broken.example/robots.txt", 500, "", ""},
		{"c.warc", "http://undec.example/robots.txt", 200, "", "User-agent: CCBot\nAllow: /$\nDisallow: /\n"},
		{"c.warc", "http://html.example/robots.txt", 200, "", "<!DOCTYPE html><html><body>hi</body></html>"},
	}
	dir := t.TempDir()
	inputs := []string{"../../../../testdata/corpus"}
	for _, name := range []string{"a.warc", "b.warc.gz", "c.warc"} {
		var recs []byte
		for _, c := range caps {
			if c.file == name {
				headers := ""
				if c.location != "" {
					headers = "Location: " + c.location + "\r\n"
				}
				recs = append(recs, warctest.Response(t, c.url, c.status, headers, []byte(c.body))...)
			}
		}
		dst := filepath.Join(dir, name)
		require.NoError(t, os.Rename(warctest.Write(t, name, strings.HasSuffix(name, ".gz"), recs), dst))
		inputs = append(inputs, dst)
	}
	return inputs
}

// writeSurveyPage runs robots survey with args and --html, and returns
// the page's path.
func writeSurveyPage(t *testing.T, args ...string) string {
	t.Helper()
	dir := t.TempDir()
	page := filepath.Join(dir, "survey.html")
	cmd := exec.Command(robotsBinary(t), append([]string{"survey", "--out", filepath.Join(dir, "out"), "--html", page}, args...)...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return page
}

// openSurveyPage opens the page at path in a headless Chromium with a
// viewport of width x height.
func openSurveyPage(t *testing.T, path string, width, height int64) *page {
	t.Helper()
	p := newBrowser(t, chromium(t), width, height, "")
	abs, err := filepath.Abs(path)
	require.NoError(t, err)
	p.do(chromedp.Navigate("file://" + abs))
	p.waitFor(`document.readyState === 'complete'`)
	return p
}

// segmentLabel is what the page shows of one segment of a bar: its
// chart, its row's agent, its <title>, whether a label names it, and
// the label's text and box against the segment's.
type segmentLabel struct {
	Chart    string  `json:"chart"`
	Agent    string  `json:"agent"`
	Tip      string  `json:"tip"`
	Labels   int     `json:"labels"`
	Text     string  `json:"text"`
	Label    rect    `json:"label"`
	Box      rect    `json:"box"`
	SVG      rect    `json:"svg"`
	Inside   bool    `json:"inside"`
	Contrast float64 `json:"contrast"`
	FontPx   float64 `json:"fontPx"`
}

// segmentLabels measures every segment of every bar of the page and its
// label: how many labels name it, where the label is drawn, and, for a
// label inside its segment, the contrast of its colour against the
// segment's.
func (p *page) segmentLabels() []segmentLabel {
	p.t.Helper()
	return eval[[]segmentLabel](p, `(() => {
		const box = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
		const lum = (c) => {
			const m = c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map(v => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
			return 0.2126 * m[0] + 0.7152 * m[1] + 0.0722 * m[2];
		};
		const out = [];
		for (const svg of document.querySelectorAll('svg')) {
			const chart = svg.getAttribute('aria-labelledby').split(' ')[0].replace(/-title$/, '');
			for (const g of svg.querySelectorAll('g')) {
				const agent = g.querySelector('text').firstChild.textContent;
				for (const r of g.querySelectorAll('rect[data-seg]')) {
					const labels = [...g.querySelectorAll('text[data-seg]')].filter(t => t.dataset.seg.split(' ').includes(r.dataset.seg));
					const s = { chart: chart, agent: agent, tip: r.querySelector('title').textContent, labels: labels.length, box: box(r), svg: box(svg) };
					if (labels.length === 1) {
						const l = labels[0], lb = box(l);
						s.text = l.textContent;
						s.label = lb;
						s.inside = lb.top < s.box.bottom && lb.bottom > s.box.top && lb.left < s.box.right && lb.right > s.box.left;
						const a = lum(getComputedStyle(l).fill), b = s.inside ? lum(getComputedStyle(r).fill) : 1;
						s.contrast = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
						s.fontPx = lb.bottom - lb.top;
					}
					out.push(s);
				}
			}
		}
		return out;
	})()`)
}

// overflowing lists the elements of the page that reach past the
// viewport's sides, and the boxes of tables that scroll inside.
func (p *page) overflowing() []string {
	p.t.Helper()
	return eval[[]string](p, `(() => {
		const out = [];
		const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' "' + (e.textContent || '').trim().slice(0, 40) + '"';
		for (const e of document.querySelectorAll('body *')) {
			const r = e.getBoundingClientRect();
			if (r.width > 0 && (r.left < -0.5 || r.right > innerWidth + 0.5)) out.push('past the viewport: ' + name(e) + ' ' + r.left + '..' + r.right);
		}
		for (const e of document.querySelectorAll('.table')) {
			if (e.scrollWidth > e.clientWidth + 0.5) out.push('scrolls inside its box: ' + name(e.querySelector('table')) + ' ' + e.scrollWidth + ' > ' + e.clientWidth);
		}
		for (const svg of document.querySelectorAll('svg')) {
			const s = svg.getBoundingClientRect();
			for (const t of svg.querySelectorAll('text')) {
				const r = t.getBoundingClientRect();
				if (r.left < s.left - 0.5 || r.right > s.right + 0.5 || r.top < s.top - 0.5 || r.bottom > s.bottom + 0.5) out.push('cut by its chart: ' + name(t));
			}
		}
		if (document.documentElement.scrollWidth > innerWidth) out.push('the page scrolls sideways: ' + document.documentElement.scrollWidth);
		return out;
	})()`)
}

// overlappingText lists the pairs of texts of a chart that cover each
// other.
func (p *page) overlappingText() []string {
	p.t.Helper()
	return eval[[]string](p, `(() => {
		const out = [];
		for (const svg of document.querySelectorAll('svg')) {
			const ts = [...svg.querySelectorAll('text')].map(t => [t, t.getBoundingClientRect()]);
			for (let i = 0; i < ts.length; i++) for (let j = i + 1; j < ts.length; j++) {
				const a = ts[i][1], b = ts[j][1];
				if (a.left + 0.5 < b.right && b.left + 0.5 < a.right && a.top + 0.5 < b.bottom && b.top + 0.5 < a.bottom) {
					out.push(svg.getAttribute('aria-labelledby') + ': "' + ts[i][0].textContent + '" and "' + ts[j][0].textContent + '"');
				}
			}
		}
		return out;
	})()`)
}

// wantShare is the label a segment's <title> asks for: its share to one
// decimal, "<0.1%" where that rounds a count to nothing.
func wantShare(tip string) string {
	open := strings.LastIndexByte(tip, '(')
	share := strings.TrimSuffix(tip[open+1:], ")")
	if share == "0.0%" {
		return "<0.1%"
	}
	return share
}

// TestSurveyPage opens the survey's page of the licensed corpus and WARC
// files holding every cause, for the 25 default agents with every
// published method compared, at a desktop's width and a phone's, and
// checks what a reader sees: the page loads nothing and never scrolls
// sideways, no table scrolls inside its box, no text is cut by its chart
// or covers another; every segment of every bar has exactly one label,
// its share, readable (inside its segment with a contrast of 4.5 or
// more, or under the bar), and a note says under each chart what it
// counts; at a phone's width each agent's figures are headed by their
// column's name. Screenshots of the whole page and of the causes are
// written to $SURVEY_SHOTS, or a temporary folder, and logged.
func TestSurveyPage(t *testing.T) {
	path := writeSurveyPage(t, append([]string{"--compare", "dpi,cc,imc,root"}, surveyPageInputs(t)...)...)
	shots := os.Getenv("SURVEY_SHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	for _, size := range []struct{ w, h int64 }{{1280, 900}, {390, 844}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			p := openSurveyPage(t, path, size.w, size.h)
			assert.Zero(t, eval[int](p, `performance.getEntriesByType('resource').length`), "the page loads nothing")
			assert.Empty(t, p.overflowing())
			assert.Empty(t, p.overlappingText())

			segs := p.segmentLabels()
			charts := map[string]int{}
			for _, s := range segs {
				charts[s.Chart]++
				what := fmt.Sprintf("%s, %s: %s", s.Chart, s.Agent, s.Tip)
				if !assert.Equal(t, 1, s.Labels, "%s: one label names the segment", what) {
					continue
				}
				assert.Contains(t, s.Text, wantShare(s.Tip), what)
				assert.Greater(t, s.Label.Right-s.Label.Left, 0.0, what)
				assert.GreaterOrEqual(t, s.FontPx, 10.0, "%s: the label is drawn %.1f px high", what, s.FontPx)
				assert.GreaterOrEqual(t, s.Contrast, 4.5, "%s: the label's contrast", what)
				if s.Inside {
					assert.True(t, s.Label.Left >= s.Box.Left-0.5 && s.Label.Right <= s.Box.Right+0.5, "%s: the label %+v fits its segment %+v", what, s.Label, s.Box)
				} else if s.Chart != "usage" && s.Chart != "statuses" {
					assert.GreaterOrEqual(t, s.Label.Top, s.Box.Bottom-0.5, "%s: a label outside its segment is under the bar", what)
				}
			}
			for _, c := range []string{"classes", "causes", "rootonly", "usage", "statuses"} {
				assert.Positive(t, charts[c], "the %s chart has segments", c)
			}
			// Each chart says under it what it counts.
			notes := eval[[]string](p, `[...document.querySelectorAll('svg')].map(s => { const n = s.nextElementSibling; return n && n.matches('figcaption.note') && n.getBoundingClientRect().top >= s.getBoundingClientRect().bottom && n.getBoundingClientRect().height > 0 ? n.textContent : ''; })`)
			require.Len(t, notes, 5)
			for _, n := range notes {
				assert.True(t, strings.HasPrefix(n, "Counts the "), "a note under each chart: %q", n)
			}
			// The class table: a header cell per class, and every agent's
			// five figures each under its class's header: a table at a
			// desktop's width; on a phone, a grid under the agent's name
			// whose header row stays at the top of the screen as the table
			// scrolls by.
			heads := eval[[]rect](p, `[...document.querySelectorAll('#classes thead th:not(.text)')].map(e => { const r = e.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; })`)
			require.Len(t, heads, 5)
			rows := eval[[][]rect](p, `[...document.querySelectorAll('#classes tbody tr')].map(tr => [...tr.querySelectorAll('td')].map(e => { const r = e.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; }))`)
			require.Len(t, rows, 25)
			for i, row := range rows {
				require.Len(t, row, 5)
				for j, c := range row {
					assert.InDelta(t, heads[j].Left, c.Left, 1, "row %d, cell %d lies under its header", i, j)
					assert.InDelta(t, heads[j].Right, c.Right, 1, "row %d, cell %d lies under its header", i, j)
				}
			}
			phone := size.w < 600
			assert.GreaterOrEqual(t, eval[float64](p, `parseFloat(getComputedStyle(document.querySelector('#classes td')).fontSize)`), 12.0, "readable figures")
			if phone {
				p.do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('#classes tbody tr')[12].scrollIntoView()`))
				top := eval[float64](p, `document.querySelector('#classes thead').getBoundingClientRect().top`)
				assert.InDelta(t, 0, top, 1, "the header row stays on screen")
				assert.Empty(t, p.overflowing(), "scrolled")
			}

			p.saveFullShot(filepath.Join(shots, fmt.Sprintf("survey-%d.png", size.w)))
			p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#causes-title').closest('section').scrollIntoView()`))
			shot := p.screenshot()
			img, err := png.Decode(bytes.NewReader(shot))
			require.NoError(t, err)
			assert.Equal(t, int(size.w), img.Bounds().Dx())
			name := filepath.Join(shots, fmt.Sprintf("survey-causes-%d.png", size.w))
			require.NoError(t, os.WriteFile(name, shot, 0o644))
			t.Logf("wrote %s", name)
		})
	}
}

// TestSurveyPageWidths opens the page of TestSurveyPage at every width
// from a small phone's to a wide screen's, 16 pixels apart, and checks at
// each that the page does not scroll sideways, no table scrolls inside
// its box and no chart's text is cut: each table of figures per agent
// turns from a table into a grid where its box gets narrower than the
// table needs, and the charts scale.
func TestSurveyPageWidths(t *testing.T) {
	path := writeSurveyPage(t, append([]string{"--compare", "dpi,cc,imc,root"}, surveyPageInputs(t)...)...)
	p := openSurveyPage(t, path, 1600, 900)
	tables := map[string]bool{} // the layouts seen per table: true, a table
	for w := int64(320); w <= 1600; w += 16 {
		p.do(chromedp.EmulateViewport(w, 900))
		assert.Empty(t, p.overflowing(), "at %d px", w)
		for id, table := range eval[map[string]bool](p, `Object.fromEntries([...document.querySelectorAll('.table > table[id]')].map(t => [t.id, getComputedStyle(t).display === 'table']))`) {
			tables[id+" "+strconv.FormatBool(table)] = true
		}
	}
	for _, id := range []string{"classes", "own", "rootonly", "managed"} {
		assert.True(t, tables[id+" true"] && tables[id+" false"], "%s is a table on a wide screen and a grid on a phone", id)
	}
}

// saveFullShot writes a screenshot of the whole page to name.
func (p *page) saveFullShot(name string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitTimeout)
	defer cancel()
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(p.t, err)
	require.NoError(p.t, os.WriteFile(name, shot, 0o644))
	p.t.Logf("wrote %s", name)
}
