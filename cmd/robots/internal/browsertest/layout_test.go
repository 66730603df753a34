package browsertest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rect is a box of the page, in CSS pixels of the viewport.
type rect struct {
	Left   float64 `json:"left"`
	Top    float64 `json:"top"`
	Right  float64 `json:"right"`
	Bottom float64 `json:"bottom"`
}

// overlaps reports whether r and o share an area, not just an edge.
func (r rect) overlaps(o rect) bool {
	const edge = 0.5 // subpixel rounding where two boxes touch
	return r.Left+edge < o.Right && o.Left+edge < r.Right && r.Top+edge < o.Bottom && o.Top+edge < r.Bottom
}

// lineText is where one line of the editor draws its text: a box for each
// row it wraps to, measured on the copy of the text in its line box,
// which wraps as the textarea's does (TestLongLinesWrapAligned).
type lineText struct {
	Line int    `json:"line"`
	Rows []rect `json:"rows"`
}

// badge is the label of a deciding line, naming the URLs it decides, and
// the box of its line.
type badge struct {
	Line    int    `json:"line"`
	Text    string `json:"text"`
	Box     rect   `json:"box"`
	LineBox rect   `json:"lineBox"`
}

// editorLayout measures the text of every line of the editor and every
// badge, and the width the textarea and the line boxes give their text.
func (p *page) editorLayout() (lines []lineText, badges []badge, textareaWidth, boxWidth float64) {
	p.t.Helper()
	lines = eval[[]lineText](p, `[...document.querySelectorAll('#backdrop .bl')].map(b => {
		const rows = [];
		for (const n of b.childNodes) {
			if (n.nodeType !== Node.TEXT_NODE) continue;
			const r = document.createRange();
			r.selectNodeContents(n);
			for (const c of r.getClientRects()) if (c.width > 0) rows.push({ left: c.left, top: c.top, right: c.right, bottom: c.bottom });
		}
		return { line: +b.dataset.line, rows: rows };
	})`)
	badges = eval[[]badge](p, `[...document.querySelectorAll('#backdrop .bl .who')].map(w => {
		const r = (c) => ({ left: c.left, top: c.top, right: c.right, bottom: c.bottom });
		return { line: +w.parentElement.dataset.line, text: w.textContent, box: r(w.getBoundingClientRect()), lineBox: r(w.parentElement.getBoundingClientRect()) };
	})`)
	textareaWidth = eval[float64](p, `(e => { const s = getComputedStyle(e); return e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight); })(document.querySelector('#robots'))`)
	boxWidth = eval[float64](p, `(e => { const s = getComputedStyle(e); return e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight); })(document.querySelector('#backdrop .bl'))`)
	return lines, badges, textareaWidth, boxWidth
}

// checkBadgesClearOfText fails the test for each badge that covers the
// text of a line, its own or another's, or leaves its line's box, and
// returns how many badges it measured.
func (p *page) checkBadgesClearOfText(what string) int {
	p.t.Helper()
	lines, badges, taWidth, boxWidth := p.editorLayout()
	// The measure holds only if the line boxes wrap their text at the
	// textarea's width.
	assert.InDelta(p.t, taWidth, boxWidth, 0.5, "%s: the line boxes give their text the textarea's width", what)
	for _, b := range badges {
		// Within its line's box, it cannot cover the next line's badge.
		assert.True(p.t, b.Box.Top >= b.LineBox.Top && b.Box.Bottom <= b.LineBox.Bottom+0.5,
			"%s: the badge %q of line %d, at %+v, stays within its line, at %+v", what, b.Text, b.Line, b.Box, b.LineBox)
		for _, l := range lines {
			for _, row := range l.Rows {
				if b.Box.overlaps(row) {
					p.t.Errorf("%s: the badge %q of line %d, at %+v, covers the text of line %d, at %+v", what, b.Text, b.Line, b.Box, l.Line, row)
				}
			}
		}
	}
	return len(badges)
}

// saveShot writes a screenshot of the page, scrolled to the editor, into
// the folder $LAYOUT_SHOTS names, or a temporary one, for a person to
// look at when the test fails.
func (p *page) saveShot(name string) {
	p.t.Helper()
	dir := os.Getenv("LAYOUT_SHOTS")
	if dir == "" {
		dir = p.t.TempDir()
	}
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#editor').scrollIntoView()`))
	path := filepath.Join(dir, name+".png")
	require.NoError(p.t, os.WriteFile(path, p.screenshot(), 0o644))
	p.t.Logf("wrote %s", path)
}

// TestBadgesNeverCoverRuleText measures, at a phone's width and a
// desktop's, that the badge of a deciding line ("URL 1, URL 3") lies
// beside the rule text and never over it: on the example as the page
// opens, and on deciding lines of every length from a few characters to
// several wrapped rows, so that some line ends under where a badge would
// sit whatever the width.
func TestBadgesNeverCoverRuleText(t *testing.T) {
	var file strings.Builder
	var urls []string
	file.WriteString("User-agent: *\n")
	for n := 1; n <= 90; n += 3 {
		path := fmt.Sprintf("/%s", strings.Repeat("p", n))
		fmt.Fprintf(&file, "Disallow: %s$\n", path)
		// Two URLs a line: its badge names both.
		urls = append(urls, path, path)
	}
	for _, size := range []struct{ w, h int64 }{{390, 844}, {1280, 900}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			p := openPage(t, size.w, size.h)
			// The example and its three URLs, as the page opens: line 2
			// decides URL 1 and URL 3 (no line decides URL 2).
			require.Equal(t, map[int]string{2: "URL 1, URL 3"}, p.labels())
			n := p.checkBadgesClearOfText("the example")
			p.saveShot(fmt.Sprintf("example-%d", size.w))
			assert.Equal(t, 1, n)

			p.setValue("#robots", file.String())
			p.setValue("#urls", strings.Join(urls, "\n"))
			p.waitVerdicts(urls...)
			p.waitFor(`document.querySelectorAll('#backdrop .bl .who').length === 30`)
			n = p.checkBadgesClearOfText("lines of every length")
			p.saveShot(fmt.Sprintf("lengths-%d", size.w))
			assert.Equal(t, 30, n)
			labels := p.labels()
			assert.Equal(t, "URL 1, URL 2", labels[2])
			// A label too long for its line shortens rather than spill.
			assert.Contains(t, []string{"URL 59, URL 60", "URLs 59, 60", "URL 59 +1"}, labels[31])
			assert.Empty(t, p.errors())
		})
	}
}

// lineInView reports whether line n of the editor lies wholly within the
// editor's visible rectangle, and the text scrolled with its highlight.
func (p *page) lineInView(n int) bool {
	p.t.Helper()
	return eval[bool](p, fmt.Sprintf(`(() => {
		const ta = document.querySelector('#robots');
		const box = document.querySelector('#backdrop .bl[data-line="%d"]').getBoundingClientRect();
		const view = ta.getBoundingClientRect();
		const top = view.top + ta.clientTop;
		return box.top >= top && box.bottom <= top + ta.clientHeight && ta.scrollTop === document.querySelector('#backdrop').scrollTop;
	})()`, n))
}

// TestDecidingLineScrolledIntoView types URLs decided by lines far below
// the editor's fold of a 200-line file: the editor scrolls to the line
// that decides the URL the caret is on, as it is typed, as the caret
// moves to another URL, and as the field gets the focus back; and to the
// line of a URL picked.
func TestDecidingLineScrolledIntoView(t *testing.T) {
	for _, size := range []struct{ w, h int64 }{{1280, 900}, {390, 844}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			p := openPage(t, size.w, size.h)
			var file strings.Builder
			file.WriteString("User-agent: *\n")
			for i := 1; i < 200; i++ {
				fmt.Fprintf(&file, "Disallow: /dir%d/\n", i) // line i+1
			}
			p.setValue("#robots", file.String())
			p.waitFor(`document.querySelectorAll('#backdrop .bl').length === 201`)
			require.False(t, p.lineInView(150), "line 150 starts below the fold")

			p.typeInto("#urls", "/dir149/page")
			got := p.waitVerdicts("/dir149/page")
			require.Equal(t, "Decided by line 150 Disallow: /dir149/", got[0].Decider)
			p.waitFor(`document.activeElement.id === 'urls'`)
			assert.True(t, p.lineInView(150), "typed, the URL shows its deciding line")

			// A second URL, typed on the next line: its line.
			p.do(chromedp.SendKeys(chromedp.CSS("#urls"), "\n/dir190/page"))
			p.waitVerdicts("/dir149/page", "/dir190/page")
			p.waitFor(`!document.body.hasAttribute('aria-busy')`)
			assert.True(t, p.lineInView(191), "the caret's URL, the second")
			assert.False(t, p.lineInView(150))

			// The caret back on the first URL: its line again.
			p.do(chromedp.KeyEvent(kb.ArrowUp))
			assert.True(t, p.lineInView(150), "the caret moved to the first URL")

			// The editor scrolled away and the field left, the focus back
			// shows the caret's URL's line.
			p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#urls').blur(); (e => { e.scrollTop = 0; e.dispatchEvent(new Event('scroll')); })(document.querySelector('#robots'))`))
			require.False(t, p.lineInView(150))
			p.do(chromedp.Focus(chromedp.CSS("#urls")))
			assert.True(t, p.lineInView(150), "the field focused again")

			// Picking a URL's card shows its line too.
			p.do(chromedp.Click(chromedp.CSS(`#results li[data-index="1"] button.pick`)))
			assert.True(t, p.lineInView(191), "URL 2 picked")
			assert.Empty(t, p.errors())
		})
	}
}
