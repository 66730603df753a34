package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/crawlers"
)

// TestCrawlersAnswersTheTable: /api/crawlers gives every row of package
// crawlers, in its order, with its operator's stance and page and the
// questions of package usage it asks, and Google's crawlers as the page
// reads a file for them; its body must be an object.
func TestCrawlersAnswersTheTable(t *testing.T) {
	out, err := Local("/api/crawlers", []byte(`{}`))
	require.Nil(t, err)
	var got crawlersJSON
	require.NoError(t, json.Unmarshal(out, &got))
	assert.Equal(t, crawlers.Checked, got.Checked)
	all := crawlers.All()
	require.Len(t, got.Crawlers, len(all))
	for i, c := range all {
		assert.Equal(t, NewCrawlerJSON(c), got.Crawlers[i])
	}
	chatgpt, ok := CrawlerOf([]string{"chatgpt-user", "GPTBot"})
	require.True(t, ok)
	assert.Equal(t, "no", chatgpt.Robots)
	assert.Equal(t, []string{"ai-use"}, chatgpt.UsagePurposes)
	assert.Equal(t, GoogleCrawlers, got.Google)
	assert.Equal(t, GoogleKinds, got.GoogleKinds)

	for _, body := range []string{``, `[]`, `{"agents": ["GPTBot"]}`} {
		_, err := Local("/api/crawlers", []byte(body))
		require.NotNil(t, err, body)
		assert.Equal(t, http.StatusBadRequest, err.Status, body)
	}
}

// TestCrawlerNote says what each stance reads as.
func TestCrawlerNote(t *testing.T) {
	for token, want := range map[string]string{
		"GPTBot":     "OpenAI, training; OpenAI says it follows robots.txt (https://developers.openai.com/api/docs/bots)",
		"Amzn-User":  `Amazon, user-triggered fetch; Amazon says it may not follow robots.txt: "Because actions taken by Amzn-User can be initiated by a user, it may not follow all robots.txt directives." (https://developer.amazon.com/amazonbot); the verdict is what the file asks of it, not what it does`,
		"OAI-AdsBot": `OpenAI, ads; no page of OpenAI found says whether it follows robots.txt: "OAI-AdsBot only visits pages submitted as ads (the page says nothing of robots.txt for it)" (https://developers.openai.com/api/docs/bots)`,
		"Applebot":   "Apple, training, search index; Apple says it follows robots.txt (https://support.apple.com/en-us/119829)",
	} {
		c, ok := crawlers.Lookup(token)
		require.True(t, ok, token)
		assert.Equal(t, want, CrawlerNote(c), token)
	}
	_, ok := CrawlerOf(nil)
	assert.False(t, ok)
}

// TestGoogleCrawlersAgreeWithTheTable: the page lists the table's rows of
// Google under Google's kinds, so every one of them is a GoogleCrawler;
// each GoogleCrawler has a kind, reads its own token first, and is listed
// once.
func TestGoogleCrawlersAgreeWithTheTable(t *testing.T) {
	kinds := map[string]bool{}
	for _, k := range GoogleKinds {
		kinds[k.Kind] = true
	}
	seen := map[string]bool{}
	for _, g := range GoogleCrawlers {
		key := strings.ToLower(g.Token)
		assert.False(t, seen[key], g.Token)
		seen[key] = true
		assert.True(t, kinds[g.Kind], g.Token)
		require.NotEmpty(t, g.Agents, g.Token)
		assert.Equal(t, g.Token, g.Agents[0], g.Token)
		if c, ok := crawlers.Lookup(g.Token); ok {
			assert.Equal(t, "Google", c.Operator, g.Token)
		}
	}
	for _, c := range crawlers.All() {
		if c.Operator == "Google" {
			assert.True(t, seen[strings.ToLower(c.Token)], "%s is among Google's crawlers", c.Token)
		}
	}
}

// TestExplainGivesTheCrawlerOnce: /api/explain gives the table's row of
// the first agent beside the results, and no member for another agent.
func TestExplainGivesTheCrawlerOnce(t *testing.T) {
	out, err := Local("/api/explain", []byte(`{"robotstxt": "User-agent: *\nDisallow: /x\n", "agents": ["Perplexity-User"], "urls": ["/x", "/y"]}`))
	require.Nil(t, err)
	var got map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(out, &got))
	var c CrawlerJSON
	require.NoError(t, json.Unmarshal(got["crawler"], &c))
	want, _ := CrawlerOf([]string{"Perplexity-User"})
	assert.Equal(t, want, c)
	assert.NotContains(t, string(got["results"]), `"crawler"`)
	out, err = Local("/api/explain", []byte(`{"robotstxt": "User-agent: *\nDisallow: /x\n", "agents": ["cohere-ai"], "urls": ["/x"]}`))
	require.Nil(t, err)
	assert.NotContains(t, string(out), `"crawler"`)
}
