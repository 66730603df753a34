package automaton

import "slices"

// Set is a compiled rule set. It is immutable and safe for concurrent use.
type Set struct {
	// patterns are ordered so that the first match is the winner: priority
	// descending, allow before disallow, then the caller's order.
	patterns []Pattern
}

// NewSet compiles patterns into a Set. Patterns with an empty Expr match
// every path with no priority and decide nothing, so they are dropped.
func NewSet(patterns []Pattern) *Set {
	ps := make([]Pattern, 0, len(patterns))
	for _, p := range patterns {
		if p.Expr != "" {
			ps = append(ps, p)
		}
	}
	slices.SortStableFunc(ps, func(a, b Pattern) int {
		switch {
		case a.beats(b):
			return -1
		case b.beats(a):
			return 1
		}
		return 0
	})
	return &Set{patterns: ps}
}

// Len returns the number of patterns that can decide.
func (s *Set) Len() int { return len(s.patterns) }

// Decide returns the winning pattern for path and true, or false when no
// pattern matches. Ties between patterns of equal priority and kind go to
// the one given first to NewSet.
func (s *Set) Decide(path string) (Pattern, bool) {
	for _, p := range s.patterns {
		if Match(p.Expr, path) {
			return p, true
		}
	}
	return Pattern{}, false
}
