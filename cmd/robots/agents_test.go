package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/crawlers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAgentsListsTheTable: robots agents prints every row of package
// crawlers, in its order, with its operator, purpose, AI mark, robots.txt
// stance and page, under the date the rows were checked.
func TestAgentsListsTheTable(t *testing.T) {
	r := invoke(runAgents, "")
	require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	all := crawlers.All()
	require.Len(t, lines, 3+len(all))
	assert.Equal(t, "Crawler tokens, checked against the operators' pages on "+crawlers.Checked+" (package crawlers):", lines[0])
	assert.Equal(t, []string{"TOKEN", "OPERATOR", "PURPOSE", "AI", "ROBOTS.TXT", "PAGE"}, strings.Fields(lines[2]))
	for i, c := range all {
		l := lines[3+i]
		assert.True(t, strings.HasPrefix(l, c.Token+" "), l)
		assert.True(t, strings.HasSuffix(l, " "+c.URL), l)
		assert.Contains(t, l, "  "+c.Operator+"  ")
		assert.Contains(t, l, "  "+c.Robots.String()+"  ")
	}
	chatgpt := lines[3+slicesIndex(all, "ChatGPT-User")]
	assert.Equal(t, []string{"ChatGPT-User", "OpenAI", "user-triggered", "fetch", "AI", "no", "https://developers.openai.com/api/docs/bots"}, strings.Fields(chatgpt))
}

func slicesIndex(all []crawlers.Crawler, token string) int {
	for i, c := range all {
		if c.Token == token {
			return i
		}
	}
	return -1
}

// TestAgentsTokensAndJSON: tokens given, in any case, list their rows;
// one not in the table is named on stderr and exits 1; --json writes a
// row a line, as /api/crawlers gives them.
func TestAgentsTokensAndJSON(t *testing.T) {
	r := invoke(runAgents, "", "--json", "perplexity-user", "cohere-ai", "GPTBot")
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.Equal(t, "robots agents: \"cohere-ai\" is not in the table (robots agents lists it)\n", r.Stderr)
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	require.Len(t, lines, 2)
	var got api.CrawlerJSON
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &got))
	c, _ := crawlers.Lookup("Perplexity-User")
	assert.Equal(t, api.NewCrawlerJSON(c), got)
	assert.Equal(t, "no", got.Robots)
	assert.Equal(t, []string{"ai-use"}, got.UsagePurposes)
	require.NoError(t, json.Unmarshal([]byte(lines[1]), &got))
	assert.Equal(t, []string{"train"}, got.UsagePurposes)

	clitest.AssertUsageErrors(t, runAgents, "", []clitest.UsageCase{
		{Name: "unknown flag", Args: []string{"-x"}, Stderr: "flag provided but not defined: -x"},
	})
}

// TestHelpNamesTheTable: the usage text, and check's and explain's, say
// where the crawler tokens come from.
func TestHelpNamesTheTable(t *testing.T) {
	top := invoke(run, "", "help")
	assert.Contains(t, top.Stdout, "  agents   list the crawler tokens robots knows")
	words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	assert.Contains(t, words(top.Stdout), "robots agents lists the crawlers robots knows, from the table of package crawlers")
	for _, name := range []string{"check", "explain", "agents"} {
		r := invoke(run, "", "help", name)
		assert.Equal(t, cli.ExitOK, r.Code)
		assert.Contains(t, words(r.Stdout), "robots agents", name)
		assert.Contains(t, words(r.Stdout), "package crawlers", name)
	}
}
