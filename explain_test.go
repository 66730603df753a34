package robots_test

import (
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/conformance"
)

const explainBody = `User-agent: Googlebot
Disallow: /nogooglebot/

User-agent: *
Allow: /
Disallow: /*.pdf$
Disallow: /drafts/
Allow: /drafts/public/
Allow: /docs/index.html

User-agent: Googlebot/2.1
Disallow: /beta
`

// matchLines renders matches as "line:+pattern" or "line:-pattern".
func matchLines(ms []robots.Match) []string {
	var out []string
	for _, m := range ms {
		sign := "-"
		if m.Rule.Allow {
			sign = "+"
		}
		out = append(out, strconv.Itoa(m.Rule.Line)+":"+sign+m.Pattern)
	}
	return out
}

func TestExplainMatchesWinnerAndTieBreak(t *testing.T) {
	r := robots.Parse([]byte(explainBody))
	tests := []struct {
		name     string
		agents   []string
		url      string
		allowed  bool
		matches  []string
		winner   int
		tieBreak string
	}{
		{"own group", []string{"Googlebot"}, "https://example.com/nogooglebot/x", false,
			[]string{"2:-/nogooglebot/"}, 0, "the only rule that matched"},
		{"nothing matches", []string{"Googlebot"}, "https://example.com/a.pdf", true,
			nil, -1, "no rule matched: allowed by default"},
		{"longer disallow wins", []string{"Bingbot"}, "https://example.com/drafts/plan", false,
			[]string{"5:+/", "7:-/drafts/"}, 1, "the longest match wins: 8 bytes against 1 byte for line 5 (Allow)"},
		{"longer allow wins", []string{"Bingbot"}, "https://example.com/drafts/public/a.pdf", true,
			[]string{"5:+/", "6:-/*.pdf$", "7:-/drafts/", "8:+/drafts/public/"}, 3,
			"the longest match wins: 15 bytes against 8 bytes for line 7 (Disallow)"},
		{"index page allows its directory", []string{"Bingbot"}, "https://example.com/docs/", true,
			[]string{"5:+/", "9:+/docs/$"}, 1, "every rule that matched is Allow; the longest (7 bytes) decides, the first in the file among equals"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := r.Explain(tt.agents, tt.url)
			assert.Equal(t, tt.allowed, e.Allowed)
			assert.Equal(t, tt.matches, matchLines(e.Matches))
			assert.Equal(t, tt.winner, e.Winner)
			assert.Equal(t, tt.tieBreak, e.TieBreak)
			if tt.winner >= 0 {
				assert.Same(t, e.Rule, e.Matches[tt.winner].Rule)
			}
		})
	}
}

func TestExplainIndexDirectoryIsImplicit(t *testing.T) {
	e := robots.Parse([]byte(explainBody)).Explain([]string{"x"}, "/docs/")
	require.Len(t, e.Matches, 2)
	assert.True(t, e.Matches[1].Implicit)
	assert.Equal(t, 7, e.Matches[1].Priority)
	assert.Equal(t, "/docs/index.html", e.Matches[1].Rule.Value)
}

func TestRFCExplainTieAndRobotsTxt(t *testing.T) {
	body := "User-agent: *\nDisallow: /a\nAllow: /a\nDisallow: /\n"
	for _, mode := range []robots.Mode{robots.Google, robots.RFC} {
		r := robots.Parse([]byte(body), robots.WithMode(mode))
		e := r.Explain(nil, "/a/b")
		assert.True(t, e.Allowed, mode)
		assert.Equal(t, []string{"2:-/a", "3:+/a", "4:-/"}, matchLines(e.Matches), mode)
		assert.Equal(t, "Allow wins a tie: both patterns are 2 bytes (line 2 disallows)", e.TieBreak, mode)
	}
	e := robots.Parse([]byte(body), robots.WithMode(robots.RFC)).Explain(nil, "https://example.com/robots.txt")
	assert.True(t, e.Allowed)
	assert.True(t, e.Implicit)
	assert.Equal(t, -1, e.Winner)
	assert.Equal(t, []string{"4:-/"}, matchLines(e.Matches))
	assert.Contains(t, e.TieBreak, "RFC 9309")
}

func TestExplainSelection(t *testing.T) {
	r := robots.Parse([]byte(explainBody))
	noStar := robots.Parse([]byte("User-agent: Googlebot\nDisallow: /\n"))
	twoStars := robots.Parse([]byte("User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n"))
	tests := []struct {
		name   string
		r      *robots.Robots
		agents []string
		reason robots.SelectionReason
		agent  string
		groups []int
		lines  []int
		why    string
	}{
		{"exact token, groups merged", r, []string{"googlebot"}, robots.SelectedAgent, "googlebot", []int{0, 2}, []int{1, 11},
			`"googlebot" is named by line 1, line 11 ("Googlebot/2.1", read as "Googlebot"), their groups merged`},
		{"fallback", r, []string{"Googlebot-Image", "Googlebot"}, robots.SelectedFallback, "Googlebot", []int{0, 2}, []int{1, 11},
			`no group names "Googlebot-Image"; the fallback "Googlebot" is named by line 1, line 11 ("Googlebot/2.1", read as "Googlebot"), their groups merged`},
		{"star", r, []string{"Bingbot"}, robots.SelectedGlobal, "", []int{1}, []int{4},
			`no group names "Bingbot"; the '*' group applies (line 4)`},
		{"no agent", r, nil, robots.SelectedGlobal, "", []int{1}, []int{4},
			`no agent was given; the '*' group applies (line 4)`},
		{"star groups merged", twoStars, []string{"x"}, robots.SelectedGlobal, "", []int{0, 1}, []int{1, 4},
			`no group names "x"; the '*' groups apply (line 1, line 4, their groups merged)`},
		{"none", noStar, []string{"Bingbot", "Slurp"}, robots.SelectedNone, "", []int{}, nil,
			`no group names "Bingbot", "Slurp", and there is no '*' group: every URL is allowed`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.r.Explain(tt.agents, "/").Selection
			assert.Equal(t, tt.reason, s.Reason)
			assert.Equal(t, tt.agents, s.Agents)
			assert.Equal(t, tt.agent, s.Agent)
			assert.Equal(t, tt.groups, s.Groups)
			assert.Equal(t, tt.lines, s.Lines)
			assert.Equal(t, tt.why, s.Why)
		})
	}
}

func TestExplainFromAgentNeverSaysFallback(t *testing.T) {
	r := robots.Parse([]byte(explainBody))
	s := r.Agent("Googlebot-Image", "Googlebot").Explain("/").Selection
	assert.Equal(t, robots.SelectedAgent, s.Reason)
	assert.Nil(t, s.Agents)
	s = r.Agent("Bingbot").Explain("/").Selection
	assert.Equal(t, "no group names the crawler; the '*' group applies (line 4)", s.Why)
}

// TestAgentSelectionIsExplains: Agent.Selection is the Selection Explain
// gives, for each way a crawler's groups are chosen, and under a policy
// that reads no rules.
func TestAgentSelectionIsExplains(t *testing.T) {
	r := robots.Parse([]byte(explainBody))
	noStar := robots.Parse([]byte("User-agent: Googlebot\nDisallow: /\n"))
	for _, a := range []*robots.Agent{
		r.Agent("Googlebot"), r.Agent("Googlebot-Image", "Googlebot"), r.Agent("Bingbot"), r.Agent(),
		noStar.Agent("Bingbot"), robots.FromStatus(503, nil).Agent("Googlebot"), robots.FromStatus(404, nil).Agent("x"),
	} {
		e := a.Explain("/private")
		assert.Equal(t, e.Selection, a.Selection(), a.Name())
		assert.NotEmpty(t, a.Selection().Why)
	}
}

func TestSelectionReasonString(t *testing.T) {
	assert.Equal(t, []string{"agent", "fallback", "global", "none"}, []string{
		robots.SelectedAgent.String(), robots.SelectedFallback.String(),
		robots.SelectedGlobal.String(), robots.SelectedNone.String(),
	})
}

// TestExplainAgreesWithDecide checks, on every conformance case in both
// modes (the real-world ones too when ../shared is present), that the rule Explain finds by testing rules one by one is the
// rule the automaton decided with.
func TestExplainAgreesWithDecide(t *testing.T) {
	files := []string{
		"testdata/conformance/spec-test.jsonl",
		"testdata/conformance/google-unit.jsonl",
		"testdata/conformance/generated.jsonl.gz",
	}
	if _, err := os.Stat(sharedRealworld); err == nil {
		files = append(files, sharedRealworld)
	}
	for _, path := range files {
		n := 0
		parsed := map[string][2]*robots.Robots{} // cases share bodies: parse each once per mode
		err := conformance.Each(path, func(line int, c *conformance.Case) error {
			body, err := c.Body()
			require.NoError(t, err)
			rs, ok := parsed[string(body)]
			if !ok {
				rs = [2]*robots.Robots{robots.Parse(body), robots.Parse(body, robots.WithMode(robots.RFC))}
				parsed[string(body)] = rs
			}
			for _, r := range rs {
				mode := r.Mode()
				a := r.Agent(c.UserAgent)
				d, e := a.Decide(c.URL), a.Explain(c.URL)
				var winner *robots.Rule
				if e.Winner >= 0 {
					winner = e.Matches[e.Winner].Rule
					assert.Equal(t, winner.Allow, e.Allowed, "%s:%d", path, line)
				}
				if !d.Implicit && winner != d.Rule {
					t.Fatalf("%s:%d (%s, mode %v): Explain's winner %+v, Decide's %+v", path, line, c.ID, mode, winner, d.Rule)
				}
			}
			n++
			return nil
		})
		require.NoError(t, err)
		assert.Positive(t, n)
	}
}

// TestExplainNamesTheEmptyRule checks that when only empty rules match,
// the explanation names the one the decision names, says that it decides
// nothing, and lists no match.
func TestExplainNamesTheEmptyRule(t *testing.T) {
	r := robots.Parse([]byte("User-agent: *\nDisallow:\nDisallow: /x\nAllow:\n"))
	e := r.Explain([]string{"bot"}, "https://example.com/y")
	assert.True(t, e.Allowed)
	assert.Nil(t, e.Rule)
	require.NotNil(t, e.Empty)
	assert.Equal(t, 4, e.Line())
	assert.Empty(t, e.Matches)
	assert.Equal(t, -1, e.Winner)
	assert.Equal(t, "no rule decided: line 4 (Allow:) is empty, which matches every path and decides nothing; allowed by default", e.TieBreak)

	e = r.Explain([]string{"bot"}, "https://example.com/x")
	assert.Nil(t, e.Empty, "a rule that matches decides")
	assert.Equal(t, 3, e.Line())
}
