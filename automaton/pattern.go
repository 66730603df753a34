package automaton

// Pattern is one rule of a set.
type Pattern struct {
	Expr     string // the pattern, with '*' and a final '$' as operators
	Allow    bool
	Priority int32 // a longer match wins; Google uses len(Expr)
	ID       int32 // the caller's name for the rule, returned by Set.Decide
}

// Beats reports whether p wins over q when both match: the higher
// priority wins, and allow wins a tie (RFC 9309 section 2.2.2). It is the
// one definition of the rule, used by ranking, explanations and lint.
func (p Pattern) Beats(q Pattern) bool {
	if p.Priority != q.Priority {
		return p.Priority > q.Priority
	}
	return p.Allow && !q.Allow
}

// Match reports whether pattern matches path: ReadGlob(pattern).Match.
func Match(pattern, path string) bool { return ReadGlob(pattern).Match(path) }
