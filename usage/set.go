package usage

import (
	"cmp"
	"slices"
	"strings"

	"github.com/fastrobots/robots/internal/alloc"
	"github.com/fastrobots/robots/internal/rawurl"
)

// Set is a group's Content-Usage rules and Content-Signal lines prepared
// to decide many URLs: what Decide computes for every URL is computed
// once. Rules with the same pattern are folded into one, the patterns
// are sorted longest first so that a decision stops at the first pattern
// that matches, and the signals, which do not depend on the path, are
// decided in advance; each pattern keeps the decisions it gives, with the
// signals, which every Usage it decides shares. Set.Decide returns what
// Decide returns for the same lines (Usage.Equal). A Set is immutable and safe for concurrent use; the nil Set holds
// no line.
type Set struct {
	// rules are the distinct patterns, longest first, each with the
	// decisions of its rules folded.
	rules []setRule
	// signals are the decisions of every signal line, and use the level
	// they state.
	signals [numSignals]Decision
	use     LevelDecision
	// none is what a path no pattern matches is given: the signals alone
	// (nil when there are none).
	none *decisions
	// empty is true when no line was given: every Usage states nothing.
	empty bool
	// literal is true when every pattern is literal; prefix is then the
	// length of the longest, the most of a path any match reads.
	literal bool
	prefix  int
	// plain is true when every pattern is literal and holds no '%' nor
	// '#': a path not yet escaped then matches one exactly when its
	// escaped form does (DecideUnescaped), and a path followed by a
	// fragment exactly when the path does (DecideBeforeFragment). A
	// Content-Usage line's path never holds a '#', where its value ends.
	plain bool
}

// setRule is one distinct pattern of a Set.
type setRule struct {
	pattern string
	literal bool // no '*' nor '$': a prefix test decides
	// tied is true when another pattern of the same length may match the
	// same path: one of the two holds a '*' or a '$' (two literal
	// patterns of one length that both match a path are the same
	// pattern). Only then must a match look for a second winner.
	tied bool
	cats [numCategories]Decision
	// out is what a path the rule decides is given: its categories and
	// the set's signals.
	out *decisions
}

// NewSet prepares rules and signals for Set.Decide.
func NewSet(rules []Rule, signals []SignalLine) *Set {
	s := &Set{empty: len(rules)+len(signals) == 0}
	byPattern := make(map[string]int, len(rules))
	for _, r := range rules {
		i, ok := byPattern[r.Pattern]
		if !ok {
			i = len(s.rules)
			byPattern[r.Pattern] = i
			s.rules = append(s.rules, setRule{pattern: r.Pattern, literal: !strings.ContainsAny(r.Pattern, "*$")})
		}
		for c, v := range r.Pref {
			s.rules[i].cats[c] = fold(s.rules[i].cats[c], v, r.Line, SourceContentUsage)
		}
	}
	s.rules = slices.Clip(s.rules)
	slices.SortStableFunc(s.rules, func(a, b setRule) int { return cmp.Compare(len(b.pattern), len(a.pattern)) })
	s.literal = !slices.ContainsFunc(s.rules, func(r setRule) bool { return !r.literal })
	s.plain = s.literal && !slices.ContainsFunc(s.rules, func(r setRule) bool { return strings.ContainsAny(r.pattern, "%#") })
	markTies(s.rules)
	if len(s.rules) > 0 {
		s.prefix = len(s.rules[0].pattern)
	}
	for _, l := range signals {
		for k, v := range l.Signal.Values {
			if v != Unknown {
				s.signals[k] = fold(s.signals[k], v, l.Line, SourceContentSignal)
			}
		}
		s.use = foldLevel(s.use, l.Signal.Use, l.Line)
	}
	s.none = shared(decisions{signals: s.signals, use: s.use})
	for i := range s.rules {
		s.rules[i].out = shared(decisions{cats: s.rules[i].cats, signals: s.signals, use: s.use})
	}
	return s
}

// Empty reports whether the set holds no line: every URL's Usage then
// states nothing beyond the crawl verdict.
func (s *Set) Empty() bool { return s == nil || s.empty }

// Decide is Decide(rules, signals, path, allowed) for the lines the set
// was made of. It allocates nothing, unless two patterns of the same
// length match and one is not literal (their decisions are then combined
// anew).
func (s *Set) Decide(path string, allowed bool) Usage {
	if !allowed || s.Empty() {
		return Usage{Allowed: allowed}
	}
	return Usage{Allowed: true, lines: s.decide(path)}
}

// DecideUnescaped is Decide for a path not yet escaped (EscapePath): it
// escapes the path only when the escape could change a match. When every
// pattern is literal, a match reads at most the longest pattern's length
// of the path, and escaping changes no byte there unless one is a '%' or
// outside ASCII; the path is then matched as it is. When besides no
// pattern holds a '%', the path is matched as it is without that test:
// escaping writes a byte outside ASCII as "%XX" and changes the case of
// the digits after a '%', so a pattern of ASCII bytes and no '%' is a
// prefix of the path exactly when it is one of its escaped form.
func (s *Set) DecideUnescaped(path string, allowed bool) Usage {
	if !allowed || s.Empty() {
		return Usage{Allowed: allowed}
	}
	if !s.plain && (!s.literal || !plainPrefix(path, s.prefix)) {
		path = EscapePath(path)
	}
	return Usage{Allowed: true, lines: s.decide(path)}
}

// DecideBeforeFragment is DecideUnescaped for the part of p before its
// first '#': p may run on into a fragment, which is not part of the path.
// When every pattern is plain (literal, without '%' or '#'), p is matched
// as it is: a plain pattern is a prefix of p exactly when it is one of
// the part before the '#', which it cannot reach, and no '$' asks where
// the path ends; nor does a match read past the longest pattern's length.
// A fragment then costs nothing to find.
func (s *Set) DecideBeforeFragment(p string, allowed bool) Usage {
	if !allowed || s.Empty() {
		return Usage{Allowed: allowed}
	}
	if !s.plain {
		return s.DecideUnescaped(rawurl.BeforeFragment(p), true)
	}
	if len(p) > s.prefix {
		p = p[:s.prefix]
	}
	return Usage{Allowed: true, lines: s.decide(p)}
}

// decide returns the decisions for an escaped path: the rules of the
// longest matching pattern, folded, and the signals.
func (s *Set) decide(path string) *decisions {
	for i := range s.rules {
		if r := &s.rules[i]; r.matches(path) {
			if r.tied {
				return s.foldTies(i, path)
			}
			return r.out
		}
	}
	return s.none
}

// matches reports whether the rule's pattern matches path. The prefix
// test of a literal pattern is written out: a call per pattern was a third
// of the cost. Its first two bytes are compared first, without a call:
// nearly every pattern and path start with '/', patterns of a group most
// often differ in the next byte, and "/" alone is the most common.
func (r *setRule) matches(path string) bool {
	if !r.literal {
		return Match(r.pattern, path)
	}
	switch n := len(r.pattern); {
	case len(path) < n:
		return false
	case n >= 2 && path[1] != r.pattern[1]:
		return false
	case n >= 1 && path[0] != r.pattern[0]:
		return false
	case n <= 2:
		return true
	}
	return path[:len(r.pattern)] == r.pattern
}

// foldTies returns the decisions of rule i, which matches path, folded
// with those of the later rules of the same length that match it too.
func (s *Set) foldTies(i int, path string) *decisions {
	n, cats, folded := len(s.rules[i].pattern), s.rules[i].cats, false
	for _, r := range s.rules[i+1:] {
		if len(r.pattern) < n {
			break // every later pattern is shorter
		}
		if r.matches(path) {
			for c := range cats {
				cats[c] = merge(cats[c], r.cats[c])
			}
			folded = true
		}
	}
	if !folded {
		return s.rules[i].out
	}
	return shared(decisions{cats: cats, signals: s.signals, use: s.use})
}

// markTies sets tied on the rules, sorted longest first, that share their
// length with another pattern when one of that length is not literal.
func markTies(rules []setRule) {
	for lo := 0; lo < len(rules); {
		hi, wild := lo, false
		for ; hi < len(rules) && len(rules[hi].pattern) == len(rules[lo].pattern); hi++ {
			wild = wild || !rules[hi].literal
		}
		for i := lo; i < hi; i++ {
			rules[i].tied = hi-lo > 1 && wild
		}
		lo = hi
	}
}

// plainPrefix reports whether the first n bytes of path (all of a shorter
// path) hold no '%' and no byte outside ASCII.
func plainPrefix(path string, n int) bool {
	for i := 0; i < n && i < len(path); i++ {
		if c := path[i]; c == '%' || c >= 0x80 {
			return false
		}
	}
	return true
}

// merge returns two folded decisions folded together: the combined value,
// stated first by the lower of the lines that state it.
func merge(a, b Decision) Decision {
	switch c := Combine(a.Value, b.Value); {
	case a.Source == SourceNone || (b.Source != SourceNone && b.Value == c && (a.Value != c || b.Line < a.Line)):
		return b
	}
	return a
}

// setBytes and setRuleBytes are the sizes of a Set and of one of its
// patterns.
var (
	setBytes       = alloc.SizeOf[Set]()
	setRuleBytes   = alloc.SizeOf[setRule]()
	decisionsBytes = alloc.SizeOf[decisions]()
)

// MemoryBytes returns the memory the set holds: itself, its patterns,
// their bytes and the decisions they give. Patterns shared with the parsed file are counted again, so
// the figure is an upper bound.
func (s *Set) MemoryBytes() int {
	if s == nil {
		return 0
	}
	n := setBytes + cap(s.rules)*setRuleBytes
	if s.none != nil {
		n += decisionsBytes
	}
	for _, r := range s.rules {
		n += len(r.pattern) + decisionsBytes
	}
	return n
}
