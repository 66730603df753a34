package robots_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/runtime"
)

// verdict is an expected decision for one URL: whether it is allowed, the
// line of the rule that decides it (0 when no rule does: Decision.Rule is
// nil), and whether it is allowed implicitly, without consulting the rules
// (Decision.Implicit: /robots.txt itself in RFC mode).
type verdict struct {
	allowed  bool
	line     int
	implicit bool
}

// allowedBy is the verdict of an allow rule on the given line.
func allowedBy(line int) verdict { return verdict{allowed: true, line: line} }

// disallowedBy is the verdict of a disallow rule on the given line.
func disallowedBy(line int) verdict { return verdict{line: line} }

var (
	// noRule is the verdict for a URL no rule matches: allowed by default.
	noRule = verdict{allowed: true}
	// implicitlyAllowed is the verdict for a URL allowed before any rule is
	// consulted.
	implicitlyAllowed = verdict{allowed: true, implicit: true}
)

// String spells v as the semantics files do: "allow 3", "disallow 2",
// "none" (no rule), "implicit". Any other combination gets a spelling of
// its own, so that two verdicts are equal exactly when their strings are.
func (v verdict) String() string {
	switch {
	case v == noRule:
		return "none"
	case v == implicitlyAllowed:
		return "implicit"
	}
	s := "disallow " + strconv.Itoa(v.line)
	if v.allowed {
		s = "allow " + strconv.Itoa(v.line)
	}
	if v.implicit {
		s += " implicit"
	}
	return s
}

// decided is the verdict a decision states.
func decided(d robots.Decision) verdict {
	v := verdict{allowed: d.Allowed, implicit: d.Implicit}
	if d.Rule != nil {
		v.line = d.Rule.Line
	}
	return v
}

// checkVerdict checks a's decision for rawURL against want: Decide's
// Allowed, deciding line (Rule == nil for line 0) and Implicit, and that
// Allowed agrees with Decide. It reports with assert, not require, so that
// it may run on any goroutine, and returns whether every check held.
func checkVerdict(t testing.TB, a *robots.Agent, rawURL string, want verdict) bool {
	t.Helper()
	u := abbrev(rawURL, 80)
	d := a.Decide(rawURL)
	ok := assert.Equal(t, want.String(), decided(d).String(), "Decide(%s)", u)
	ok = assert.Equal(t, want.line == 0, d.Rule == nil, "Decide(%s).Rule == nil", u) && ok
	return assert.Equal(t, want.allowed, a.Allowed(rawURL), "Allowed(%s)", u) && ok
}

// referenceDecide is compile.Reference on what robots reads of a check:
// body parsed in mode, agent's groups resolved, rawURL's path
// (runtime.Path). It returns the rules and the verdict, whose ID indexes
// them.
func referenceDecide(body []byte, mode robots.Mode, agent, rawURL string) ([]compile.Rule, compile.Verdict) {
	f := compile.Parse(body, compile.Options{Mode: compile.Mode(mode)})
	var rules []compile.Rule
	for _, g := range f.Resolve(agent).Groups {
		rules = append(rules, f.Groups()[g].Rules...)
	}
	return rules, compile.Reference(rules, runtime.Path(rawURL), f.Dialect())
}

// checkReference checks compile.Reference's decision for a check against
// want, as checkVerdict checks an Agent's.
func checkReference(t testing.TB, body []byte, mode robots.Mode, agent, rawURL string, want verdict) bool {
	t.Helper()
	rules, v := referenceDecide(body, mode, agent, rawURL)
	got := verdict{allowed: v.Allowed(), implicit: v.Implicit}
	if v.Matched {
		got.line = rules[v.ID].Line
	}
	return assert.Equal(t, want.String(), got.String(), "compile.Reference(%s)", abbrev(rawURL, 80))
}

// abbrev quotes s, cut after n bytes with its full length noted, so that
// long inputs keep failure messages readable.
func abbrev(s string, n int) string {
	if len(s) <= n {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%q...(%d bytes)", s[:n], len(s))
}
