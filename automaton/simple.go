package automaton

import "slices"

// Simple is the plain matcher: it tests the patterns one by one with
// Match, best first, and stops at the first that matches. It is the
// definition Set must agree with, and the oracle of its tests.
type Simple struct {
	// patterns are ordered so that the first match is the winner: priority
	// descending, allow before disallow, then the caller's order.
	patterns []Pattern
}

// NewSimple returns the plain matcher for patterns. Patterns with an empty
// Expr match every path with no priority and decide nothing, so they are
// dropped.
func NewSimple(patterns []Pattern) *Simple {
	return &Simple{patterns: rank(patterns)}
}

// rank returns the patterns that can decide, ordered so that the first
// match is the winner: priority descending, allow before disallow, then
// the caller's order.
func rank(patterns []Pattern) []Pattern {
	ps := make([]Pattern, 0, len(patterns))
	for _, p := range patterns {
		if p.Expr != "" {
			ps = append(ps, p)
		}
	}
	slices.SortStableFunc(ps, func(a, b Pattern) int {
		switch {
		case a.Beats(b):
			return -1
		case b.Beats(a):
			return 1
		}
		return 0
	})
	return ps
}

// Len returns the number of patterns that can decide.
func (s *Simple) Len() int { return len(s.patterns) }

// Decide returns the winning pattern for path and true, or false when no
// pattern matches. Ties between patterns of equal priority and kind go to
// the one given first.
func (s *Simple) Decide(path string) (Pattern, bool) {
	for _, p := range s.patterns {
		if Match(p.Expr, path) {
			return p, true
		}
	}
	return Pattern{}, false
}
