package automaton

import (
	"slices"
	"strings"

	"github.com/fastrobots/robots/internal/alloc"
)

// Set is a compiled rule set: the patterns of one group (or of the groups
// merged for one crawler), decided in one pass over a path by a lazily
// built DFA. It is safe for concurrent use; checks that reach only states
// already built take no lock and allocate nothing.
type Set struct {
	patterns []Pattern // ranked, as rank orders them
	dfa      *dfa
}

// Options tune a Set. The zero value gives the defaults.
type Options struct {
	// Budget is the memory budget of the lazy DFA, in bytes: 0 means
	// DefaultBudget, and a negative value or one above MaxBudget means
	// MaxBudget. Past it, checks are decided in time linear in the path.
	Budget int
	// Meter, when set, counts the memory the Set holds as it allocates.
	Meter *Meter
	// EndAtNUL makes a NUL byte end the input (CutAtNUL), as Google's
	// reference parser reads a path; compile.File.Compile sets it from the
	// file's dialect.
	EndAtNUL bool
}

// Limit returns the budget the options ask for, in bytes.
func (o Options) Limit() int {
	switch {
	case o.Budget == 0:
		return DefaultBudget
	case o.Budget < 0:
		return MaxBudget
	}
	return min(o.Budget, MaxBudget)
}

// NewSet compiles patterns into a Set. Patterns with an empty Expr match
// every path with no priority and decide nothing, so they are dropped.
// Only the start state is built here; the rest is built as checks need it.
func NewSet(patterns []Pattern, opts Options) *Set {
	budget := opts.Limit()
	ranked := rank(patterns)
	p := compileProg(ranked, opts.EndAtNUL)
	s := &Set{patterns: ranked, dfa: newDFA(p, budget, opts.Meter)}
	opts.Meter.Add(setBytes + alloc.SizeOf[Pattern]()*cap(ranked) + p.bytes() + s.dfa.fixedBytes())
	return s
}

var setBytes = alloc.SizeOf[Set]() + alloc.SizeOf[dfa]()

// rank returns the patterns that can decide, ordered so that the first
// match wins (Pattern.Beats, then the caller's order).
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

// Start begins a check.
func (s *Set) Start() Cursor {
	var c Cursor
	s.startIn(&c)
	return c
}

// startIn sets *c, a zero Cursor, to Start's, so that a check can build
// its cursor in its own frame rather than copy Start's result.
func (s *Set) startIn(c *Cursor) {
	c.set = s
	d := s.dfa
	switch {
	case d.noTable:
		c.mode = scanning
		c.scan.start(d.scanner())
	case d.start < 0:
		c.mode, c.final = done, finalVerdict(d.start)
	default:
		c.s, c.tab = d.start, d.table.Load()
	}
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
	var cur Cursor
	s.startIn(&cur)
	cur.Feed(a)
	cur.Feed(b)
	cur.Feed(c)
	if cur.NeedsRestart() {
		return s.result(s.scan(a, b, c))
	}
	return cur.Result()
}

func (s *Set) result(i int32) (Pattern, bool) {
	if int(i) == len(s.patterns) {
		return Pattern{}, false
	}
	return s.patterns[i], true
}

// Stats returns the memory the Set holds so far.
func (s *Set) Stats() Stats { return s.dfa.stats() }

// Allowed reports the verdict for the path a+b: false when the winning
// pattern is a disallow, true when it is an allow or no pattern matches.
func (s *Set) Allowed(a, b string) bool {
	if b == "" {
		return s.allowedOne(a, false)
	}
	return s.allowed(a, b, false)
}

// AllowedBeforeFragment is Allowed(p[:i], "") where i is the index of the
// first '#' of p, or len(p) when it has none: the verdict for a path read
// in place from a URL that still holds its fragment.
func (s *Set) AllowedBeforeFragment(p string) bool { return s.allowedOne(p, true) }

// allowedOne is allowed(p, "", toFragment), deciding itself the walks that
// stay on rows to the end, the '#', or a settled or final state.
func (s *Set) allowedOne(p string, toFragment bool) bool {
	d := s.dfa
	if d.noTable || d.start < 0 {
		return s.allowed(p, "", toFragment)
	}
	t := d.table.Load()
	var cur row
	var n int
	if toFragment {
		cur, n = t.runToFragment(row(uint32(d.start)), p)
	} else {
		cur, n = t.run(row(uint32(d.start)), p)
	}
	switch e := int32(cur); {
	case e >= 0 && (n == len(p) || toFragment && p[n] == '#'):
		return endAllows(t.at(e, d.stride-2))
	case settled(e):
		return settledAllows(e)
	case e < 0 && d.final(e):
		return d.allows(finalVerdict(e))
	}
	return s.allowedAfter(t, d.start, p, 0, "", toFragment)
}

// allowed is Allowed(a, b), or AllowedBeforeFragment(a) with toFragment
// (b is then empty).
func (s *Set) allowed(a, b string, toFragment bool) bool {
	d := s.dfa
	if d.noTable || d.start < 0 {
		if toFragment {
			a = cutFragment(a)
		}
		return s.allowedFrom(s.Start(), a, b, a, b)
	}
	return s.allowedAfter(d.table.Load(), d.start, a, 0, b, toFragment)
}

// allowedAfter is allowed(a, b, toFragment) from row st, which table t
// leads to from the start on a[:i] (holding no '#' when toFragment). Past
// the rows a Cursor reads on, and the scanner if it needs a restart.
func (s *Set) allowedAfter(t *table, st int32, a string, i int, b string, toFragment bool) bool {
	d := s.dfa
	st, n, next := t.walkFrom(st, a[i:], toFragment)
	n += i
	if toFragment {
		if n == len(a) || a[n] == '#' {
			return endAllows(t.at(st, d.stride-2))
		}
		a = cutFragment(a) // what the Cursor and the scanner read
	}
	rest, more := a[n:], b
	if n == len(a) {
		if b == "" {
			return endAllows(t.at(st, d.stride-2))
		}
		st, n, next = t.walkFrom(st, b, false)
		if n == len(b) {
			return endAllows(t.at(st, d.stride-2))
		}
		rest, more = b[n:], ""
	}
	if settled(next) {
		return settledAllows(next)
	}
	if d.final(next) {
		return d.allows(finalVerdict(next))
	}
	return s.allowedFrom(Cursor{set: s, tab: t, s: st}, rest, more, a, b)
}

// allowedFrom feeds rest and then more, what is left of the path a+b, to
// cur, and decides a+b on the scanner when cur needs a restart.
func (s *Set) allowedFrom(cur Cursor, rest, more, a, b string) bool {
	cur.Feed(rest)
	cur.Feed(more)
	if cur.NeedsRestart() {
		return s.dfa.allows(s.scan(a, b, ""))
	}
	return cur.Allowed()
}

func cutFragment(p string) string {
	if i := strings.IndexByte(p, '#'); i >= 0 {
		return p[:i]
	}
	return p
}

func (s *Set) scan(a, b, c string) int32 {
	if s.dfa.prog.nulClass >= 0 {
		a, b, c = cutAtNUL(a, b, c)
	}
	return s.dfa.scanner().decide(a, b, c)
}

func cutAtNUL(a, b, c string) (string, string, string) {
	if a, cut := CutAtNUL(a); cut {
		return a, "", ""
	}
	if b, cut := CutAtNUL(b); cut {
		return a, b, ""
	}
	c, _ = CutAtNUL(c)
	return a, b, c
}
