package browsertest

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// aiRules states preferences in a '*' group: a Content-Signal line with
// a use level, a Content-Usage statement for the whole site and one for
// /blog/, and a disallowed path.
const aiRules = "User-agent: *\n" + // 1
	"Content-Signal: search=yes, ai-train=no, use=reference\n" + // 2
	"Content-Usage: train-ai=n, ai-use=n, search=y\n" + // 3
	"Content-Usage: /blog/ train-ai=y\n" + // 4
	"Disallow: /private/\n" // 5

// aiCard is what a verdict card shows of AI use.
type aiCard struct {
	URL     string   `json:"url"`
	Verdict string   `json:"verdict"`
	For     string   `json:"for"`
	Answers []string `json:"answers"`
	Empty   string   `json:"empty"`
	Lines   []string `json:"lines"`
}

// aiCards returns the AI-use block of each card, once the page shows
// verdicts for urls.
func (p *page) aiCards(urls ...string) []aiCard {
	p.t.Helper()
	p.waitVerdicts(urls...)
	return eval[[]aiCard](p, `[...document.querySelectorAll('#results > li')].map(li => {
		const box = li.querySelector('.ai-use');
		const t = (sel) => box && box.querySelector(sel) ? box.querySelector(sel).textContent : '';
		return {
			url: li.querySelector('.url').textContent,
			verdict: li.querySelector('.badge').textContent,
			for: t('.ai-for'),
			answers: box ? [...box.querySelectorAll('.ai-answers li')].map(a => a.textContent) : [],
			empty: t('.ai-empty'),
			lines: box ? [...box.querySelectorAll('.ai-lines li')].map(a => a.textContent) : [],
		};
	})`)
}

// TestAIUseBesideTheVerdict checks, at a desktop's width and a phone's,
// that each verdict card shows, under its verdict, the answers of the
// Content-Usage (vocab-08) and Content-Signal lines for the questions the
// chosen crawler asks (the crawler table's purposes: GPTBot trains,
// Perplexity-User feeds an answer, Googlebot indexes; a crawler the table
// does not have asks all three), the use level's answer for each, and
// every category and signal with the line that decided it; a disallowed
// URL has no preference. The block fits its card, the page does not
// scroll sideways, and a screenshot of the cards is taken.
func TestAIUseBesideTheVerdict(t *testing.T) {
	for _, size := range []struct{ w, h int64 }{{1280, 900}, {390, 844}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			p := openPage(t, size.w, size.h)
			assert.Zero(t, eval[int](p, `document.querySelectorAll('#results .ai-use').length`), "the example states no preference: no block")

			p.setValue("#robots", aiRules)
			p.typeInto("#agents", "GPTBot")
			p.typeInto("#urls", "/page\n/blog/post\n/private/x")
			p.waitFor(`document.querySelectorAll('#results .ai-use').length === 3 && document.querySelector('#results .ai-for').textContent.includes('GPTBot')`)
			got := p.aiCards("/page", "/blog/post", "/private/x")
			assert.Equal(t, "AI use by GPTBot (training)", got[0].For)
			assert.Equal(t, []string{"Training: no Content-Usage, line 3", "Training at use=reference: no needs full; Content-Signal, line 2"}, got[0].Answers)
			assert.Equal(t, []string{
				"Content-Usage (vocab-08): ai-use=no (Content-Usage, line 3) \u00b7 search=yes (Content-Usage, line 3) \u00b7 train-ai=no (Content-Usage, line 3)",
				"Content-Signal: ai-input=unknown \u00b7 ai-train=no (Content-Signal, line 2) \u00b7 search=yes (Content-Signal, line 2) \u00b7 use=reference (Content-Signal, line 2)",
			}, got[0].Lines)
			assert.Equal(t, []string{"Training: yes Content-Usage, line 4", "Training at use=reference: no needs full; Content-Signal, line 2"}, got[1].Answers,
				"the longest Content-Usage rule decides; the use level still forbids training")
			assert.Equal(t, "DISALLOWED", got[2].Verdict)
			assert.Equal(t, "Not fetched: a preference applies only to what may be fetched.", got[2].Empty)
			assert.Empty(t, got[2].Answers)

			p.typeInto("#agents", "Perplexity-User")
			p.waitFor(`document.querySelector('#results .ai-for').textContent.includes('Perplexity-User')`)
			got = p.aiCards("/page", "/blog/post", "/private/x")
			assert.Equal(t, "AI use by Perplexity-User (user-triggered fetch)", got[0].For)
			assert.Equal(t, []string{"Answer-time use: no Content-Usage, line 3", "Answer-time use at use=reference: yes needs immediate; Content-Signal, line 2"}, got[0].Answers)

			p.typeInto("#agents", "Googlebot")
			p.waitFor(`document.querySelector('#results .ai-for').textContent.includes('Googlebot')`)
			got = p.aiCards("/page", "/blog/post", "/private/x")
			assert.Equal(t, []string{"Search index: yes Content-Usage, line 3", "Search index at use=reference: yes needs reference; Content-Signal, line 2"}, got[0].Answers)

			p.typeInto("#agents", "ExampleBot")
			p.waitFor(`document.querySelector('#results .ai-for').textContent === 'AI use, for any crawler'`)
			got = p.aiCards("/page", "/blog/post", "/private/x")
			assert.Len(t, got[0].Answers, 6, "every question, and its level's answer: %v", got[0].Answers)

			// The block lies within its card, under the verdict, and the page
			// does not scroll sideways.
			assert.LessOrEqual(t, eval[int](p, `document.documentElement.scrollWidth`), int(size.w), "no sideways scrolling")
			fits := eval[[]bool](p, `[...document.querySelectorAll('#results > li')].map(li => {
				const c = li.getBoundingClientRect(), b = li.querySelector('.ai-use').getBoundingClientRect();
				const v = li.querySelector('.decider').getBoundingClientRect();
				const inside = [...li.querySelectorAll('.ai-use li')].every(a => { const r = a.getBoundingClientRect(); return r.left >= c.left && r.right <= c.right + 0.5; });
				return b.left >= c.left && b.right <= c.right + 0.5 && b.top >= v.bottom - 0.5 && inside;
			})`)
			assert.Equal(t, []bool{true, true, true}, fits, "each block within its card, under its verdict")
			p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#results').scrollIntoView()`))
			shot := p.screenshot()
			img, err := png.Decode(bytes.NewReader(shot))
			require.NoError(t, err)
			assert.Equal(t, int(size.w), img.Bounds().Dx())
			assert.Equal(t, int(size.h), img.Bounds().Dy())
			dir := os.Getenv("LAYOUT_SHOTS")
			if dir == "" {
				dir = t.TempDir()
			}
			path := filepath.Join(dir, fmt.Sprintf("ai-use-%dx%d.png", size.w, size.h))
			require.NoError(t, os.WriteFile(path, shot, 0o644))
			t.Logf("wrote %s", path)
			assert.Empty(t, p.errors())
		})
	}
}

// TestLintNotesOnThePage: lint's notes are counted beside errors and
// warnings, listed with their severity, and marked on their lines.
func TestLintNotesOnThePage(t *testing.T) {
	p := openPage(t, 1280, 900)
	p.setValue("#robots", "User-agent: ChatGPT-User\nDisallow: /\n\nUser-agent: *\nAllow: /\nLLM-Policy: /llms.txt\n")
	p.waitFor(`document.querySelector('#lint-summary').textContent === '0 errors, 0 warnings, 2 notes.'`)
	assert.Equal(t, []string{"crawler-ignores-robots", "llm-policy"}, eval[[]string](p, `[...document.querySelectorAll('#lint-list li')].map(li => li.dataset.code)`))
	assert.Equal(t, []string{"note", "note"}, eval[[]string](p, `[...document.querySelectorAll('#lint-list .sev')].map(s => s.textContent)`))
	assert.Equal(t, []int{1, 6}, p.markedLines("lint-note"))
	assert.Empty(t, p.errors())
}
