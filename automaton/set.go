package automaton

import "sync/atomic"

// Set is a compiled rule set: the patterns of one group (or of the groups
// merged for one crawler), decided in one left-to-right pass over a path by
// a lazily built DFA. It is safe for concurrent use; checks that reach only
// states already built take no lock and allocate nothing.
type Set struct {
	patterns []Pattern // ranked, as rank orders them
	dfa      *dfa
}

// Options tune a Set.
type Options struct {
	// CacheBytes is the memory budget of the lazy DFA; 0 means
	// DefaultCacheBytes, and more than MaxCacheBytes means MaxCacheBytes.
	// Past it, checks finish on a linear-time simulation.
	CacheBytes int
}

// NewSet compiles patterns into a Set. Patterns with an empty Expr match
// every path with no priority and decide nothing, so they are dropped.
// Only the start state is built here; the rest is built as checks need it.
func NewSet(patterns []Pattern) *Set { return NewSetOptions(patterns, Options{}) }

// NewSetOptions is NewSet with options.
func NewSetOptions(patterns []Pattern, opts Options) *Set {
	budget := opts.CacheBytes
	if budget == 0 {
		budget = DefaultCacheBytes
	}
	budget = min(budget, MaxCacheBytes)
	ranked := rank(patterns)
	return &Set{patterns: ranked, dfa: newDFA(compileProg(ranked), budget)}
}

// Len returns the number of patterns that can decide.
func (s *Set) Len() int { return len(s.patterns) }

// Decide returns the winning pattern for path and true, or false when no
// pattern matches. Ties between patterns of equal priority and kind go to
// the one given first to NewSet.
func (s *Set) Decide(path string) (Pattern, bool) {
	return s.DecideParts(path, "", "")
}

// DecideParts decides the concatenation a+b+c without building it, so a
// caller holding a path and a query apart need not allocate.
func (s *Set) DecideParts(a, b, c string) (Pattern, bool) {
	cur := s.Start()
	cur.Feed(a)
	cur.Feed(b)
	cur.Feed(c)
	return cur.Result()
}

// Stats returns the lazy DFA's size so far.
func (s *Set) Stats() Stats { return s.dfa.stats() }

// Allowed reports the verdict for the path a+b: false when the winning
// pattern is a disallow, true when it is an allow or no pattern matches.
// When every state the path needs is built, it walks the table directly,
// without a Cursor; otherwise it is Start, Feed and Cursor.Allowed.
func (s *Set) Allowed(a, b string) bool {
	d := s.dfa
	if !d.noTable && d.start >= 0 {
		trans := *d.trans.Load()
		st, n, next := walk(trans, &d.prog.class, d.start, a)
		if n == len(a) {
			st, n, next = walk(trans, &d.prog.class, st, b)
			if n == len(b) {
				next = atomic.LoadInt32(&trans[st+d.stride-1])
				return s.allows(next)
			}
		}
		if next != unknown {
			return s.allows(finalVerdict(next))
		}
	}
	cur := s.Start()
	cur.Feed(a)
	cur.Feed(b)
	return cur.Allowed()
}

// allows reports the verdict of pattern index i, len(patterns) for none.
func (s *Set) allows(i int32) bool {
	return int(i) == len(s.patterns) || s.patterns[i].Allow
}
