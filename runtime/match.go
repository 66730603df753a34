package runtime

import "github.com/fastrobots/robots/compile"

// Matcher decides inputs against one compiled rule set, read in one mode.
// It is a small value, safe for concurrent use.
type Matcher struct {
	rules *compile.RuleSet
	mode  compile.Mode
}

// NewMatcher returns the matcher of rules in mode. The rules must have been
// compiled with RuleOptions(mode, ...), which tells them how the mode
// reads a URL.
func NewMatcher(rules *compile.RuleSet, mode compile.Mode) Matcher {
	return Matcher{rules: rules, mode: mode}
}

// Verdict is a decision and what made it.
type Verdict struct {
	Allowed bool
	// Rule is the ID of the pattern that decided (an index into
	// compile.RuleSet.Refs), or -1 when no rule did and the input is
	// allowed by default.
	Rule int32
	// Implicit is true when the input was allowed without consulting the
	// rules: in RFC mode, /robots.txt itself.
	Implicit bool
}

// Allowed reports whether in is allowed. It is Decide(in).Allowed without
// looking up the deciding rule; in Google mode it allocates nothing once
// the automaton states the input needs are built.
func (m Matcher) Allowed(in Input) bool {
	if m.mode == compile.RFC {
		return m.Decide(in).Allowed
	}
	switch in.kind {
	case pathInput:
		if in.s == "" {
			return m.rules.Allowed("/", "")
		}
		return m.rules.Allowed(in.s, "")
	case rawURLInput:
		a, b := PathParts(in.s)
		return m.rules.Allowed(a, b)
	}
	cur := m.rules.Set().Start()
	feedURL(&cur, in.u)
	if cur.NeedsRestart() {
		// Past the automaton's budget: decide the whole path, built once.
		return m.rules.Allowed(Subject(in, m.mode), "")
	}
	return cur.Allowed()
}

// AllowedPath is Allowed(FromPath(pathAndQuery)). Once the rules are
// compiled, a Google-mode check of a non-empty path goes straight to the
// automaton: this function inlines into its caller, so a steady-state check
// costs one call besides the table walk.
func (m Matcher) AllowedPath(pathAndQuery string) bool {
	if s := m.rules.HotSet(); s != nil && m.mode == compile.Google && pathAndQuery != "" {
		return s.Allowed(pathAndQuery, "")
	}
	return m.Allowed(FromPath(pathAndQuery))
}

// Decide returns the verdict for in and the rule that decided it.
func (m Matcher) Decide(in Input) Verdict {
	if m.mode == compile.RFC {
		s := Subject(in, m.mode)
		if s == robotsTxtPath {
			return Verdict{Allowed: true, Rule: -1, Implicit: true}
		}
		return verdict(m.rules.Decide(s, "", ""))
	}
	if a, b, ok := in.pieces(); ok {
		return verdict(m.rules.Decide(a, b, ""))
	}
	cur := m.rules.Set().Start()
	feedURL(&cur, in.u)
	if cur.NeedsRestart() {
		// Past the automaton's budget: decide the whole path, built once.
		return verdict(m.rules.Decide(Subject(in, m.mode), "", ""))
	}
	p, ok := cur.Result()
	return verdict(compile.Verdict{ID: p.ID, Allow: p.Allow, Matched: ok})
}

func verdict(v compile.Verdict) Verdict {
	if !v.Matched {
		return Verdict{Allowed: true, Rule: -1}
	}
	return Verdict{Allowed: v.Allow, Rule: v.ID}
}
