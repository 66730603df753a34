package automaton

import "sync/atomic"

// AllowedPair is Allowed(x, "") and Allowed(y, "") at once: the two table
// walks are interleaved, a byte of each in turn, so that the load of one
// path's next entry proceeds while the other's is awaited. A batch of
// paths is answered two by two. Once either walk leaves the table (a
// state without a row, a transition not built, a settled or final
// state), each path is finished on its own as Allowed finishes it.
func (s *Set) AllowedPair(x, y string) (bool, bool) {
	d := s.dfa
	if d.noTable || d.start < 0 {
		return s.Allowed(x, ""), s.Allowed(y, "")
	}
	trans := *d.trans.Load()
	class := &d.prog.class
	cx, cy := uint(d.start), uint(d.start)
	i, n := 0, min(len(x), len(y))
	for ; i < n; i++ {
		nx := tableEntry(trans, cx, uint(class[x[i]]))
		ny := tableEntry(trans, cy, uint(class[y[i]]))
		if nx >= 1<<31 || ny >= 1<<31 {
			break
		}
		cx, cy = nx, ny
	}
	return s.allowedAfter(trans, int32(cx), x, i), s.allowedAfter(trans, int32(cy), y, i)
}

// allowedAfter is Allowed(p, "") from live state st with a row, which the
// table leads to from the start on p[:i].
func (s *Set) allowedAfter(trans []int32, st int32, p string, i int) bool {
	d := s.dfa
	st, n, next := walk(trans, &d.prog.class, st, p[i:])
	if i+n == len(p) {
		return endAllows(atomic.LoadInt32(&trans[st+d.stride-2]))
	}
	if settled(next) {
		return settledAllows(next)
	}
	if d.final(next) {
		return d.allows(finalVerdict(next))
	}
	return s.allowedFrom(Cursor{set: s, trans: trans, s: st}, p[i+n:], "", p, "")
}
