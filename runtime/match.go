package runtime

import (
	"net/url"

	"github.com/fastrobots/robots/compile"
)

// Matcher decides inputs against one compiled rule set, read in the
// dialect of the file the rules come from. It is a small value, safe for
// concurrent use.
//
// The rule set chooses the tier that answers (compile.RuleSet.Decide):
// the matcher only turns an input into the pieces of its path. Once the
// automaton is built it streams a parsed URL into it rather than build
// the URL's escaped path.
//
// It holds the rule set alone: the dialect's Verbatim, which every check
// reads, is the rule set's (compile.RuleSet.Verbatim), on the line the
// check reads first, and the rest of the dialect is read from the rules on
// the paths that need it. Its methods take it by value, and a Matcher of
// more fields spills them to the stack on every call: keep it one word,
// which a caller may keep in its own value and check with one load less
// than through a pointer to it.
type Matcher struct {
	rules *compile.RuleSet
}

// NewMatcher returns the matcher of rules, in their file's dialect.
func NewMatcher(rules *compile.RuleSet) Matcher { return Matcher{rules: rules} }

// Rules returns the rule set the matcher decides with; nil for the zero
// Matcher, which decides nothing.
func (m Matcher) Rules() *compile.RuleSet { return m.rules }

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
	if !m.rules.Verbatim() {
		return m.Decide(in).Allowed
	}
	if a, b, ok := in.pieces(); ok {
		return m.rules.Allowed(a, b)
	}
	return m.decideURL(in.u).Allowed
}

// AllowedPath is Allowed(FromPath(pathAndQuery)). Once the rules are
// compiled, a verbatim check of a non-empty path goes straight to the
// automaton (Hot): a test of a field and one atomic load before its call.
// (The function is over the compiler's inlining budget: -gcflags=-m=2
// gives its cost.)
func (m Matcher) AllowedPath(pathAndQuery string) bool {
	if s := m.Hot(); s != nil && pathAndQuery != "" {
		return s.Allowed(pathAndQuery, "")
	}
	return m.Allowed(FromPath(pathAndQuery))
}

// Decide returns the verdict for in and the rule that decided it.
func (m Matcher) Decide(in Input) Verdict {
	if !m.rules.Verbatim() {
		d := m.rules.Dialect()
		s := Subject(in, d)
		if d.ImplicitRobotsTxt && s == robotsTxtPath {
			return Verdict{Allowed: true, Rule: -1, Implicit: true}
		}
		return verdict(m.rules.Decide(s, "", ""))
	}
	if a, b, ok := in.pieces(); ok {
		return verdict(m.rules.Decide(a, b, ""))
	}
	return m.decideURL(in.u)
}

// decideURL decides a parsed URL in a verbatim dialect. Once the automaton
// is built, the escaped path is streamed into it (feedURL), which
// allocates nothing; otherwise, and when the automaton's budget runs out
// midway, the rule set decides the URL's pieces.
func (m Matcher) decideURL(u *url.URL) Verdict {
	if s := m.rules.HotSet(); s != nil {
		cur := s.Start()
		feedURL(&cur, u)
		if !cur.NeedsRestart() {
			p, ok := cur.Result()
			return verdict(compile.Verdict{ID: p.ID, Allow: p.Allow, Matched: ok})
		}
	}
	var buf [urlPathBytes]byte
	a, b, c := urlParts(u, buf[:0])
	return verdict(m.rules.Decide(a, b, c))
}

func verdict(v compile.Verdict) Verdict {
	if !v.Matched {
		return Verdict{Allowed: true, Rule: -1}
	}
	return Verdict{Allowed: v.Allow, Rule: v.ID}
}
