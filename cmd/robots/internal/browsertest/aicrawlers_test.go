package browsertest

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/crawlers"
)

// aiGroup is the label of the list's group of other operators' AI
// crawlers.
const aiGroup = "AI: crawlers, fetchers and usage tokens of other operators"

// tableTokens returns the tokens of the crawler table (package crawlers)
// that are not Google's, AI crawlers or not, in table order: the page
// lists them after Google's.
func tableTokens(ai bool) []string {
	google := map[string]bool{}
	for _, g := range api.GoogleCrawlers {
		google[strings.ToLower(g.Token)] = true
	}
	var out []string
	for _, c := range crawlers.All() {
		if c.AI == ai && !google[strings.ToLower(c.Token)] {
			out = append(out, c.Token)
		}
	}
	return out
}

// TestAICrawlerTokens checks the crawler list against the crawler table:
// its AI crawlers of other operators, each reading its own group, else
// '*'; picking GPTBot fills the user agents with its token, says what the
// table says of it, with the operator's page, and gets GPTBot's verdicts;
// typing a token in any case selects it; a crawler whose operator says it
// may not follow robots.txt is said to.
func TestAICrawlerTokens(t *testing.T) {
	p := openPage(t, 1280, 900)
	group := eval[[]string](p, `[...document.querySelectorAll('#crawler optgroup')].filter(g => g.label === '`+aiGroup+`').flatMap(g => [...g.querySelectorAll('option')].map(o => o.value))`)
	assert.Equal(t, tableTokens(true), group)
	assert.Equal(t, tableTokens(false), eval[[]string](p, `[...document.querySelectorAll('#crawler optgroup')].filter(g => g.label === 'Other crawlers').flatMap(g => [...g.querySelectorAll('option')].map(o => o.textContent))`))

	p.setValue("#robots", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n")
	p.typeInto("#urls", "/article\n/private/x")
	p.do(chromedp.SetValue(chromedp.CSS("#crawler"), "GPTBot"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#crawler').dispatchEvent(new Event('change'))`))
	assert.Equal(t, "GPTBot", eval[string](p, `document.querySelector('#agents').value`))
	assert.Equal(t, "GPTBot: OpenAI, training. OpenAI says it follows robots.txt.", p.text("#crawler-note"))
	assert.Equal(t, "https://developers.openai.com/api/docs/bots", eval[string](p, `document.querySelector('#crawler-note a').href`))
	p.waitFor(`document.querySelector('#results .decider').textContent === 'Decided by line 2 Disallow: /'`)
	got := p.waitVerdicts("/article", "/private/x")
	assert.Equal(t, []string{"DISALLOWED", "DISALLOWED"}, []string{got[0].Verdict, got[1].Verdict}, "GPTBot's group, not '*'")
	assert.Contains(t, got[0].Details, `"GPTBot" is named by line 1`)

	// ClaudeBot, typed in lower case, is selected and reads '*' here.
	p.typeInto("#agents", "claudebot")
	assert.Equal(t, "ClaudeBot", eval[string](p, `document.querySelector('#crawler').value`))
	assert.Equal(t, "ClaudeBot: Anthropic, training. Anthropic says it follows robots.txt.", p.text("#crawler-note"))
	p.waitFor(`document.querySelector('#results li[data-index="0"] .badge').textContent === 'ALLOWED'`)

	// What operators say of their user-triggered fetchers, in their words.
	for _, token := range []string{"Perplexity-User", "ChatGPT-User", "meta-externalfetcher", "Amzn-User"} {
		c, ok := crawlers.Lookup(token)
		require.True(t, ok)
		p.typeInto("#agents", token)
		note := p.text("#crawler-note")
		assert.Contains(t, note, c.Operator+" says it may not follow robots.txt: \u201c"+c.Says+"\u201d.", token)
		assert.Contains(t, note, "The verdicts below are what the file asks of it, not what it does.", token)
		assert.Equal(t, c.URL, eval[string](p, `document.querySelector('#crawler-note a').href`), token)
	}
	p.typeInto("#agents", "Bytespider")
	assert.Contains(t, p.text("#crawler-note"), "Its operator\u2019s page says nothing of robots.txt for it")
	// A token the table does not have is another crawler.
	p.typeInto("#agents", "cohere-ai")
	assert.Equal(t, "", eval[string](p, `document.querySelector('#crawler').value`))
	assert.Empty(t, p.errors())
}

// TestPageHoldsNoCrawlerList: the page's script and markup name no
// crawler token as a string of their own; the list comes from the server.
func TestPageHoldsNoCrawlerList(t *testing.T) {
	var tokens []string
	for _, c := range crawlers.All() {
		tokens = append(tokens, c.Token)
	}
	for _, g := range api.GoogleCrawlers {
		tokens = append(tokens, g.Token)
	}
	for _, name := range []string{"../../web/app.js", "../../web/index.html"} {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		src := string(b)
		for _, tok := range tokens {
			for _, quoted := range []string{"'" + tok + "'", `"` + tok + `"`, "`" + tok + "`"} {
				if name == "../../web/index.html" && quoted == `"Googlebot"` {
					continue // the agents field's first value, which the page starts with
				}
				assert.NotContains(t, src, quoted, "%s holds the token %s", name, tok)
			}
		}
	}
}
