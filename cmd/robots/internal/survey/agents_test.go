package survey

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/crawlers"
)

// TestSurveyDefaultAgents: the default list is the crawler table's:
// Googlebot and Bingbot, any crawler, then every AI crawler of the table
// in its order, each token spelt and operated as the table says, none
// twice; a token the table does not hold is not in it.
func TestSurveyDefaultAgents(t *testing.T) {
	want := []string{"Googlebot", "Bingbot", "*"}
	for _, c := range crawlers.Default() {
		want = append(want, c.Token)
	}
	assert.Equal(t, want, surveyAgentNames(surveyDefaultAgents))
	seen := map[string]bool{}
	for _, a := range surveyDefaultAgents {
		key := strings.ToLower(a.name)
		assert.False(t, seen[key], "%s twice", a.name)
		seen[key] = true
		if a.name == surveyAgentAny {
			assert.Equal(t, surveyAnyOperator, a.operator)
			continue
		}
		c, ok := crawlers.Lookup(a.name)
		require.True(t, ok, "%s is not in the crawler table", a.name)
		assert.Equal(t, c.Token, a.name)
		assert.Equal(t, c.Operator, a.operator, a.name)
	}
	for _, token := range surveyBaselineTokens {
		c, ok := crawlers.Lookup(token)
		require.True(t, ok, "the baseline %s is not in the crawler table", token)
		assert.False(t, c.AI, "the baseline %s is an AI crawler: it would be listed twice", token)
	}
	for _, gone := range []string{"anthropic-ai", "cohere-ai"} {
		assert.False(t, seen[gone], "%s, which the table does not hold, is a default agent", gone)
	}
}

// TestSurveyOperator: the operator of an agent is the crawler table's, for
// every row of it and in any case, "any crawler" for '*', and nothing for
// a token the table does not hold.
func TestSurveyOperator(t *testing.T) {
	for _, c := range crawlers.All() {
		assert.Equal(t, c.Operator, surveyOperator(c.Token), c.Token)
		assert.Equal(t, c.Operator, surveyOperator(strings.ToUpper(c.Token)), c.Token)
	}
	assert.Equal(t, "any crawler", surveyOperator("*"))
	for _, token := range []string{"cohere-ai", "anthropic-ai", "", "GPTBot/1.0"} {
		assert.Empty(t, surveyOperator(token), token)
	}
}

// TestSurveyDefaultAgentsRun: a run given no --agents answers for the
// default list, in its order, and its summary's operator column, in the
// text, the JSON of summarize and the page, is the table's; with --agents,
// a token the table holds gets its operator in any case, and one it does
// not gets none.
func TestSurveyDefaultAgentsRun(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.example.txt"), []byte("User-agent: GPTBot\nDisallow: /\n"), 0o644))

	run := runSurveyTest(t, dir)
	require.Equal(t, cli.ExitOK, run.Code, run.Stderr)
	var rowAgents []string
	for _, a := range run.agents {
		rowAgents = append(rowAgents, a.Agent)
	}
	assert.Equal(t, surveyAgentNames(surveyDefaultAgents), rowAgents, "one row per default agent, in order")
	operators := classTableOperators(t, run.Stdout)
	for _, a := range surveyDefaultAgents {
		want := a.operator
		if c, ok := crawlers.Lookup(a.name); ok {
			want = c.Operator
		}
		assert.Equal(t, want, operators[a.name], a.name)
	}

	out := t.TempDir()
	r := clitest.Invoke(Run, "", "--format", "jsonl", "--out", out, "--agents", "googleother,GPTBOT,cohere-ai,*", dir)
	require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
	operators = classTableOperators(t, r.Stdout)
	assert.Equal(t, map[string]string{"googleother": "Google", "GPTBOT": "OpenAI", "cohere-ai": "", "*": "any crawler"}, operators)
	sum := clitest.Invoke(Run, "", "summarize", "--json", out)
	require.Equal(t, cli.ExitOK, sum.Code, sum.Stderr)
	var doc struct {
		Agents []struct{ Agent, Operator string }
	}
	require.NoError(t, json.Unmarshal([]byte(sum.Stdout), &doc))
	got := map[string]string{}
	for _, a := range doc.Agents {
		got[a.Agent] = a.Operator
	}
	assert.Equal(t, operators, got, "summarize --json names the same operators")
}

// classTableOperators reads the operator column of the summary's class
// table: the text after the last count of each agent's line.
func classTableOperators(t *testing.T, stdout string) map[string]string {
	t.Helper()
	_, table, ok := strings.Cut(stdout, "\nclass over every path, per agent")
	require.True(t, ok, stdout)
	table, _, _ = strings.Cut(table, "\n\n")
	lines := strings.Split(table, "\n")[2:] // the title's rest, the header
	line := regexp.MustCompile(`^(\S+)(?:\s+\d+ \(\s*[\d.]+%\)){5}\s+\d+\s+\d+  (.*)$`)
	out := map[string]string{}
	for _, l := range lines {
		m := line.FindStringSubmatch(l)
		require.NotNil(t, m, "%q", l)
		out[m[1]] = m[2]
	}
	return out
}
