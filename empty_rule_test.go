package robots_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots"
)

// TestDecisionEmptyRule checks the line a decision names when only empty
// rules match, against Google's reference parser's semantics
// (RobotsMatcher): every Allow or Disallow that matches is recorded as
// (priority = pattern length, line) only when its priority is strictly
// above the one recorded for its kind, starting from -1, so an empty
// pattern, which matches every path with priority 0, records the first
// empty rule of its kind; matching_line names the disallow record when its
// priority is higher, else the allow record. When no non-empty rule
// matches, that is the first empty Allow, else the first empty Disallow,
// else line 0, and the URL stays allowed: nothing decided.
func TestDecisionEmptyRule(t *testing.T) {
	tests := []struct {
		name, body, agent, url string
		allowed                bool
		rule, empty            int // the line of Rule and of Empty, 0 for nil
	}{
		{"empty disallow", "User-agent: *\nDisallow:\n", "bot", "/x", true, 0, 2},
		{"empty allow wins the tie", "User-agent: *\nDisallow:\nAllow:\n", "bot", "/x", true, 0, 3},
		{"first empty allow", "User-agent: *\nAllow:\nDisallow:\nAllow:\n", "bot", "/x", true, 0, 2},
		{"first empty disallow", "User-agent: *\nDisallow:\nDisallow:\n", "bot", "/x", true, 0, 2},
		{"a rule that matches decides", "User-agent: *\nAllow:\nDisallow: /x\n", "bot", "/x", false, 3, 0},
		{"a rule that does not match", "User-agent: *\nDisallow: /x\nDisallow:\n", "bot", "/y", true, 0, 3},
		{"no empty rule", "User-agent: *\nDisallow: /x\n", "bot", "/y", true, 0, 0},
		{"no rule at all", "User-agent: *\n", "bot", "/y", true, 0, 0},
		{"empty file", "", "bot", "/", true, 0, 0},
		{"the agent's groups hide '*'", "User-agent: *\nAllow:\n\nUser-agent: bot\nDisallow: /a\n", "bot", "/b", true, 0, 0},
		{"'*' when the agent is not named", "User-agent: *\nAllow:\n\nUser-agent: bot\nDisallow: /a\n", "other", "/b", true, 0, 2},
		{"the agent's groups merge", "User-agent: bot\nDisallow: /a\n\nUser-agent: bot\nDisallow:\n", "bot", "/b", true, 0, 5},
		{"index page allows its directory", "User-agent: *\nDisallow:\nAllow: /d/index.html\n", "bot", "/d/", true, 3, 0},
		{"index page of another directory", "User-agent: *\nDisallow:\nAllow: /d/index.html\n", "bot", "/e/", true, 0, 2},
		{"empty URL is /", "User-agent: *\nDisallow:\n", "bot", "", true, 0, 2},
		{"rules before any agent are ignored", "Allow:\nUser-agent: *\nDisallow:\n", "bot", "/x", true, 0, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := robots.Parse([]byte(tt.body)).Agent(tt.agent)
			for _, tier := range []string{"cold", "compiled"} {
				if tier == "compiled" {
					a.Compile()
				}
				d := a.Decide(tt.url)
				assert.Equal(t, tt.allowed, d.Allowed, tier)
				assert.Equal(t, tt.rule, lineOf(d.Rule), "%s: Rule", tier)
				assert.Equal(t, tt.empty, lineOf(d.Empty), "%s: Empty", tier)
				assert.Equal(t, max(tt.rule, tt.empty), d.Line(), "%s: Line", tier)
			}
		})
	}
}

// TestDecisionEmptyRuleWithoutRules checks that no empty rule is named
// when the rules are not read: under a policy set by the HTTP status, and
// for /robots.txt in RFC mode.
func TestDecisionEmptyRuleWithoutRules(t *testing.T) {
	body := []byte("User-agent: *\nDisallow:\n")
	d := robots.FromStatus(503, body).Agent("bot").Decide("/x")
	assert.Equal(t, robots.Decision{}, d, "5xx")
	d = robots.Parse(body, robots.WithMode(robots.RFC)).Agent("bot").Decide("/robots.txt")
	assert.Equal(t, robots.Decision{Allowed: true, Implicit: true}, d, "RFC /robots.txt")
	d = robots.Parse(body, robots.WithMode(robots.RFC)).Agent("bot").Decide("/x")
	assert.Equal(t, 2, d.Line(), "RFC")
}

func lineOf(r *robots.Rule) int {
	if r == nil {
		return 0
	}
	return r.Line
}

func ExampleDecision_Line() {
	r := robots.Parse([]byte("User-agent: *\nDisallow:\nDisallow: /private/\n"))
	for _, u := range []string{"/private/x", "/public/x"} {
		d := r.Agent("Googlebot").Decide(u)
		fmt.Println(u, d.Allowed, d.Line(), d.Rule != nil)
	}
	// Output:
	// /private/x false 3 true
	// /public/x true 2 false
}
