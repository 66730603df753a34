package bench

import (
	"bytes"

	"github.com/slyrz/robots"
)

// slyrzLib is github.com/slyrz/robots (2015; no go.mod upstream, so the
// module proxy's pseudo-version). Its README shows one call that parses the
// body and keeps only the rules of one agent, robots.New(r, agent), then
// (*Robots).Allow(path) for each check. New is NewGroups (the parse) then
// Groups.Find (the agent's group) then one NewRule per allow and disallow
// value; the adapter calls those exported steps itself so that parsing and
// resolving can be timed apart without parsing twice
// (TestOneShotMatchesChecker checks that it answers as New does):
//
//	Parse:   robots.NewGroups(bytes.NewReader(body))
//	Compile: Groups.Find(agent), then robots.NewRule for each non-empty
//	         allow value, then each non-empty disallow value, in New's order
//	Check:   (*Robots).Allow(path) — takes a path with query; tries every
//	         rule of the group (strings.HasPrefix, HasSuffix, Index)
//	OneShot: robots.New(bytes.NewReader(body), agent).Allow(path)
//
// Some rules make Allow panic: one with a prefix, a middle part and a '$'
// suffix whose prefix and suffix overlap in the path ("/a*x*a$" for "/a")
// slices the path out of range. The harness recovers and counts those
// panics.
type slyrzLib struct{}

func (slyrzLib) Name() string { return "slyrz" }
func (slyrzLib) Input() Input { return InputPath }

func (slyrzLib) Parse(body []byte) (Parsed, error) {
	return slyrzParsed{robots.NewGroups(bytes.NewReader(body))}, nil
}

func (slyrzLib) OneShot(body []byte, agent, path string) bool {
	return robots.New(bytes.NewReader(body), agent).Allow(path)
}

type slyrzParsed struct{ groups robots.Groups }

func (p slyrzParsed) Compile(agent string) Checker {
	r := &robots.Robots{}
	if g := p.groups.Find(agent); g != nil {
		r.Rules = make([]*robots.Rule, 0, len(g.Allow)+len(g.Disallow))
		r.Rules = appendRules(r.Rules, robots.TypeAllow, g.Allow)
		r.Rules = appendRules(r.Rules, robots.TypeDisallow, g.Disallow)
	}
	return slyrzChecker{r}
}

type slyrzChecker struct{ r *robots.Robots }

func (c slyrzChecker) Allowed(path string) bool { return c.r.Allow(path) }

// appendRules appends a rule for each non-empty value: New drops the empty
// ones ("Disallow:"), whose rule would match every path.
func appendRules(rules []*robots.Rule, t robots.RuleType, values []string) []*robots.Rule {
	for _, v := range values {
		if v != "" {
			rules = append(rules, robots.NewRule(t, v))
		}
	}
	return rules
}
