package browsertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readingCase is a line of readingRobots: Google's report of it, as
// /api/explain gives it ([line, tag, typo, empty, has_comment, is_comment,
// has_directive, too_long, missing_colon]), and what the page says of it.
type readingCase struct {
	report  [9]int
	reading string
}

// readingRobots has a line of each kind Google's report tells apart.
var readingRobots = strings.Join([]string{
	"User-agent: *",
	"useragent: x",
	"Crawl-delay: 5",
	"this line is prose",
	"# a comment",
	"Disallow /x",
	"Allow: /a # note",
	"",
	"Foo: bar",
	"Disallow: /" + strings.Repeat("a", 17000),
	"",
}, "\n")

var readingCases = []readingCase{
	{[9]int{1, 1, 0, 0, 0, 0, 1, 0, 0}, "Google reads: user-agent"},
	{[9]int{2, 1, 1, 0, 0, 0, 1, 0, 0}, "Google reads: user-agent (accepted misspelling of User-agent)"},
	{[9]int{3, 5, 0, 0, 0, 0, 1, 0, 0}, "Google ignores this key (Crawl-delay)"},
	{[9]int{4, 0, 0, 0, 0, 0, 0, 0, 0}, "Google reads no directive here"},
	{[9]int{5, 0, 0, 0, 1, 1, 0, 0, 0}, "Comment only: Google reads no directive here"},
	{[9]int{6, 3, 0, 0, 0, 0, 1, 0, 1}, "Google reads: disallow rule; missing colon: Google reads it anyway"},
	{[9]int{7, 2, 0, 0, 1, 0, 1, 0, 0}, "Google reads: allow rule; a comment follows"},
	{[9]int{8, 0, 0, 1, 0, 0, 0, 0, 0}, "Empty line"},
	{[9]int{9, 0, 0, 0, 0, 0, 1, 0, 0}, "Google ignores this line: unknown key (Foo)"},
	{[9]int{10, 3, 0, 0, 0, 0, 1, 1, 0}, "Google reads: disallow rule; line too long: Google reads the first 16,663 bytes"},
	{[9]int{11, 0, 0, 1, 0, 0, 0, 0, 0}, "Empty line"},
}

// readingSummary is what the page says of readingRobots as a whole: the
// report's last line and its counts of valid and unused directives.
const readingSummary = "Google\u2019s reading: 11 lines, 5 valid directives, 2 unused"

// gutterReadings returns, for each line of the editor, the reading its
// line number carries and whether its tooltip says it.
func (p *page) gutterReadings() (readings []string, inTitle []bool) {
	p.t.Helper()
	got := eval[[][2]any](p, `[...document.querySelectorAll('#gutter .ln')].map(n => [n.dataset.reading || '', n.title.split('\n').includes(n.dataset.reading)])`)
	for _, g := range got {
		readings = append(readings, g[0].(string))
		inTitle = append(inTitle, g[1].(bool))
	}
	return readings, inTitle
}

func TestGoogleReadingOfEachLine(t *testing.T) {
	checkGoogleReading(t, openPage(t, 1280, 900))
}

func TestStaticGoogleReadingOfEachLine(t *testing.T) {
	chromium(t)
	base, _ := serveStatic(t, staticSite(t), nil)
	checkGoogleReading(t, openStatic(t, base+"/"))
}

// checkGoogleReading checks that the page says, for each line of the
// editor, what Google's report of the file says of it, in the line
// number's tooltip and in the list under the editor, with the report's
// counts; with URLs and without, and after lines move.
func checkGoogleReading(t *testing.T, p *page) {
	var answer struct {
		Report struct {
			LastLine int      `json:"last_line"`
			Valid    int      `json:"valid"`
			Unused   int      `json:"unused"`
			Lines    [][9]int `json:"lines"`
		} `json:"report"`
	}
	p.api("/api/explain", map[string]any{"robotstxt": readingRobots, "agents": []string{"Googlebot"}, "urls": []string{"/"}}, &answer)
	want := make([][9]int, len(readingCases))
	readings := make([]string, len(readingCases))
	for i, c := range readingCases {
		want[i], readings[i] = c.report, c.reading
	}
	require.Equal(t, want, answer.Report.Lines, "Google's report of the file, as the cases have it")
	require.Equal(t, []int{11, 5, 2}, []int{answer.Report.LastLine, answer.Report.Valid, answer.Report.Unused})

	p.setValue("#robots", readingRobots)
	p.typeInto("#urls", "/x")
	p.waitVerdicts("/x")
	p.waitFor(`document.querySelector('#reading-summary').textContent === ` + jsString(readingSummary))
	got, inTitle := p.gutterReadings()
	assert.Equal(t, readings, got)
	for i, ok := range inTitle {
		assert.True(t, ok, "line %d: the tooltip says it", i+1)
	}
	assert.True(t, p.visible("#reading-summary"))

	// The list, line by line, once opened.
	assert.Equal(t, 0, eval[int](p, `document.querySelectorAll('#reading-list li').length`), "closed, it holds nothing")
	p.do(chromedp.Click(chromedp.CSS("#reading > summary")))
	p.waitFor(`document.querySelectorAll('#reading-list li').length === 11`)
	listed := eval[[]string](p, `[...document.querySelectorAll('#reading-list li')].map(li => li.querySelector('button.goto').textContent + ': ' + li.querySelector('.reading-text').textContent)`)
	wantListed := make([]string, len(readings))
	for i, r := range readings {
		wantListed[i] = fmt.Sprintf("line %d: %s", i+1, r)
	}
	assert.Equal(t, wantListed, listed)
	assert.True(t, p.visible("#reading-list li"))

	// Lines moved: each line's reading follows its text, and the list
	// follows the new answer.
	p.setValue("#robots", "Sitemap: https://example.com/s.xml\n"+readingRobots)
	p.waitFor(`document.querySelector('#reading-summary').textContent === "Google\u2019s reading: 12 lines, 6 valid directives, 2 unused" && !document.body.hasAttribute('aria-busy')`)
	got, _ = p.gutterReadings()
	assert.Equal(t, append([]string{"Google reads: sitemap"}, readings...), got)
	p.waitFor(`document.querySelectorAll('#reading-list li').length === 12`)
	assert.Equal(t, "Google reads: sitemap", p.text("#reading-list li .reading-text"))

	// Without URLs, the page still reads the file.
	p.setValue("#urls", "")
	p.setValue("#robots", "Disallow /x\n")
	p.waitFor(`document.querySelector('#reading-summary').textContent === "Google\u2019s reading: 2 lines, 1 valid directive, 0 unused" && !document.body.hasAttribute('aria-busy')`)
	got, _ = p.gutterReadings()
	assert.Equal(t, []string{"Google reads: disallow rule; missing colon: Google reads it anyway", "Empty line"}, got)
	assert.Empty(t, p.errors())
}
