package browsertest

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

// aiTokens are the robots.txt tokens of the AI crawlers, fetchers and
// usage tokens of operators other than Google that the page offers.
var aiTokens = []string{
	"GPTBot", "OAI-SearchBot", "ChatGPT-User",
	"ClaudeBot", "Claude-User", "Claude-SearchBot",
	"CCBot", "PerplexityBot", "Perplexity-User", "Applebot-Extended",
	"meta-externalagent", "Bytespider", "Amazonbot", "cohere-ai",
}

// TestAICrawlerTokens checks the group of AI crawlers in the crawler
// list: every token, each reading its own group, else '*'; picking
// GPTBot fills the user agents with its token, says what OpenAI uses it
// for, and gets GPTBot's verdicts; typing a token in any case selects it.
func TestAICrawlerTokens(t *testing.T) {
	p := openPage(t, 1280, 900)
	group := eval[[]string](p, `[...document.querySelectorAll('#crawler optgroup')].filter(g => g.label === 'AI: crawlers and tokens of other operators').flatMap(g => [...g.querySelectorAll('option')].map(o => o.value))`)
	assert.Equal(t, aiTokens, group)
	// One token each: no fallback named in the option.
	assert.Equal(t, aiTokens, eval[[]string](p, `[...document.querySelectorAll('#crawler optgroup:last-of-type option')].map(o => o.textContent)`))

	p.setValue("#robots", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n")
	p.typeInto("#urls", "/article\n/private/x")
	p.do(chromedp.SetValue(chromedp.CSS("#crawler"), "GPTBot"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#crawler').dispatchEvent(new Event('change'))`))
	assert.Equal(t, "GPTBot", eval[string](p, `document.querySelector('#agents').value`))
	assert.Equal(t, "GPTBot: OpenAI\u2019s crawler for content that may be used to train its generative AI foundation models: disallowing it says the site\u2019s content should not be used in that training.", p.text("#crawler-note"))
	p.waitFor(`document.querySelector('#results .decider').textContent === 'Decided by line 2 Disallow: /'`)
	got := p.waitVerdicts("/article", "/private/x")
	assert.Equal(t, []string{"DISALLOWED", "DISALLOWED"}, []string{got[0].Verdict, got[1].Verdict}, "GPTBot's group, not '*'")
	assert.Contains(t, got[0].Details, `"GPTBot" is named by line 1`)

	// ClaudeBot, typed in lower case, is selected and reads '*' here.
	p.typeInto("#agents", "claudebot")
	assert.Equal(t, "ClaudeBot", eval[string](p, `document.querySelector('#crawler').value`))
	assert.Contains(t, p.text("#crawler-note"), "Anthropic\u2019s crawler for web content that could contribute to training its generative AI models")
	p.waitFor(`document.querySelector('#results li[data-index="0"] .badge').textContent === 'ALLOWED'`)

	// What operators say of their user-triggered fetchers and usage tokens.
	p.typeInto("#agents", "Perplexity-User")
	assert.Contains(t, p.text("#crawler-note"), "generally ignores robots.txt rules")
	p.typeInto("#agents", "ChatGPT-User")
	assert.Contains(t, p.text("#crawler-note"), "robots.txt rules may not apply")
	p.typeInto("#agents", "Applebot-Extended")
	assert.Contains(t, p.text("#crawler-note"), "A usage token of Apple, not a crawler")
	assert.Empty(t, p.errors())
}
