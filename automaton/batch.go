package automaton

import "sync/atomic"

// Lanes is how many paths AllowedLanes walks at once.
const Lanes = 4

// AllowedLanes is AllowedBeforeFragment of each of the paths p, at once:
// the table walks are interleaved, a byte of each in turn, so that the
// loads of the paths' next entries overlap instead of each waiting for the
// one before. The walks go together up to the end of the shortest path,
// a '#', or a transition that leaves the rows (a state without a row, a
// transition not built, a settled or final state) in any of them; each
// path is then finished on its own from where it stands.
//
// Why four, and why the lanes stop together: on the crawled URLs of the
// corpus (bench: BenchmarkCrawledURLs/AllowedMany), four lanes beat a walk
// of one path at a time, and refilling a lane as soon as its own walk
// stops was slower than either.
func (s *Set) AllowedLanes(p *[Lanes]string) (v [Lanes]bool) {
	d := s.dfa
	if d.noTable || d.start < 0 {
		for k := range p {
			v[k] = s.AllowedBeforeFragment(p[k])
		}
		return v
	}
	t := d.table.Load()
	a, b, c, e := p[0], p[1], p[2], p[3]
	n := min(len(a), len(b), len(c), len(e))
	a, b, c, e = a[:n], b[:n], c[:n], e[:n]
	trans, class := t.trans, t.class
	start := uint(d.start)
	sa, sb, sc, se := start, start, start, start
	i := 0
	// As in run, the bounds checks of the loads are the tests that leave
	// the loop: a lane whose last transition left the rows holds a
	// negative entry, past every row.
	for ; i < n; i++ {
		ba, bb, bc, be := a[i], b[i], c[i], e[i]
		ja, jb, jc, je := sa+uint(class[ba]), sb+uint(class[bb]), sc+uint(class[bc]), se+uint(class[be])
		if ja >= uint(len(trans)) || jb >= uint(len(trans)) || jc >= uint(len(trans)) || je >= uint(len(trans)) ||
			ba == '#' || bb == '#' || bc == '#' || be == '#' {
			break
		}
		sa = uint(uint32(atomic.LoadInt32(&trans[ja])))
		sb = uint(uint32(atomic.LoadInt32(&trans[jb])))
		sc = uint(uint32(atomic.LoadInt32(&trans[jc])))
		se = uint(uint32(atomic.LoadInt32(&trans[je])))
	}
	v[0] = s.laneAllows(t, int32(sa), p[0], i)
	v[1] = s.laneAllows(t, int32(sb), p[1], i)
	v[2] = s.laneAllows(t, int32(sc), p[2], i)
	v[3] = s.laneAllows(t, int32(se), p[3], i)
	return v
}

// laneAllows finishes a lane of AllowedLanes that stopped before p[i] in
// entry e: a live state, read on from there; a settled or final state,
// which decides; or a transition left unbuilt or to a sparse state, whose
// path is decided again from its start (the lanes keep no state before
// their last).
func (s *Set) laneAllows(t *table, e int32, p string, i int) bool {
	d := s.dfa
	switch {
	case e >= 0:
		return s.allowedAfter(t, e, p, i, "", true)
	case settled(e):
		return settledAllows(e)
	case d.final(e):
		return d.allows(finalVerdict(e))
	}
	return s.allowedAfter(t, d.start, p, 0, "", true)
}
