package automaton

import "sync/atomic"

// Lanes is how many paths AllowedLanes walks at once.
const Lanes = 4

// AllowedLanes is AllowedBeforeFragment of each of the paths p. The table
// walks are interleaved, a byte of each in turn, so that their loads
// overlap; they go together until any of them reaches the end of the
// shortest path, a '#', or leaves the rows, and each path is then finished
// on its own.
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
	trans, class := t.trans, t.class[:] // a slice: one nil check here, none a byte
	start := row(d.start)
	sa, sb, sc, se := start, start, start, start
	i := 0
	// As in run, the bounds checks are the exit tests: a lane that left the
	// rows holds a negative entry, past every row; and each class is added
	// to the table's base, off the chain of loads.
	for ; i < n; i++ {
		ba, bb, bc, be := a[i], b[i], c[i], e[i]
		ta, tb, tc, te := trans[class[ba]:], trans[class[bb]:], trans[class[bc]:], trans[class[be]:]
		if sa >= row(len(ta)) || sb >= row(len(tb)) || sc >= row(len(tc)) || se >= row(len(te)) ||
			ba == '#' || bb == '#' || bc == '#' || be == '#' {
			break
		}
		sa = row(uint32(atomic.LoadInt32(&ta[sa])))
		sb = row(uint32(atomic.LoadInt32(&tb[sb])))
		sc = row(uint32(atomic.LoadInt32(&tc[sc])))
		se = row(uint32(atomic.LoadInt32(&te[se])))
	}
	v[0] = s.laneAllows(t, int32(sa), p[0], i)
	v[1] = s.laneAllows(t, int32(sb), p[1], i)
	v[2] = s.laneAllows(t, int32(sc), p[2], i)
	v[3] = s.laneAllows(t, int32(se), p[3], i)
	return v
}

// laneAllows finishes a lane of AllowedLanes that stopped before p[i] in
// entry e. A lane left on an unbuilt or sparse transition is decided again
// from the start, since the lanes keep no state before their last.
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
