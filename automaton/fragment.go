package automaton

import (
	"strings"
	"sync/atomic"
)

// AllowedBeforeFragment is Allowed(p[:i], "") where i is the index of the
// first '#' of p, or len(p) when it has none: the verdict for the path of
// a URL whose fragment p still holds, read from the URL itself. The walk
// stops at the '#' as at the end, so the fragment costs no search of its
// own: the test of each byte for '#' runs beside the table load the walk
// waits for.
func (s *Set) AllowedBeforeFragment(p string) bool {
	d := s.dfa
	if d.noTable || d.start < 0 {
		return s.Allowed(cutFragment(p), "")
	}
	trans := *d.trans.Load()
	st, n, next := walkToFragment(trans, &d.prog.class, d.start, p)
	if n == len(p) || p[n] == '#' {
		return endAllows(atomic.LoadInt32(&trans[st+d.stride-2]))
	}
	return s.allowedOffTable(trans, st, n, next, p)
}

// allowedBeforeFragmentAfter is AllowedBeforeFragment(p) from live state
// st with a row, which the table leads to from the start on p[:i], a
// prefix of p that holds no '#'.
func (s *Set) allowedBeforeFragmentAfter(trans []int32, st int32, p string, i int) bool {
	st, n, next := walkToFragment(trans, &s.dfa.prog.class, st, p[i:])
	if n += i; n == len(p) || p[n] == '#' {
		return endAllows(atomic.LoadInt32(&trans[st+s.dfa.stride-2]))
	}
	return s.allowedOffTable(trans, st, n, next, p)
}

// allowedOffTable is AllowedBeforeFragment(p) where the walk from the
// start left the table at p[n], before any '#', from live state st to
// entry next.
func (s *Set) allowedOffTable(trans []int32, st int32, n int, next int32, p string) bool {
	if settled(next) {
		return settledAllows(next)
	}
	if s.dfa.final(next) {
		return s.dfa.allows(finalVerdict(next))
	}
	p = cutFragment(p)
	return s.allowedFrom(Cursor{set: s, trans: trans, s: st}, p[n:], "", p, "")
}

// walkToFragment is walk stopping also at the first '#' of in, before its
// transition: it returns n with in[n] == '#' then, and next 0.
func walkToFragment(trans []int32, class *[256]uint8, s int32, in string) (int32, int, int32) {
	cur := uint(s)
	i := 0
	for ; i < len(in) && in[i] != '#'; i++ {
		next := tableEntry(trans, cur, uint(class[in[i]]))
		if next >= 1<<31 {
			return int32(cur), i, int32(uint32(next))
		}
		cur = next
	}
	return int32(cur), i, 0
}

// cutFragment returns p up to its first '#'.
func cutFragment(p string) string {
	if i := strings.IndexByte(p, '#'); i >= 0 {
		return p[:i]
	}
	return p
}
