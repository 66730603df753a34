package automaton

// Lanes is how many paths AllowedLanes walks at once.
const Lanes = 4

// AllowedLanes is AllowedBeforeFragment of each of the paths p, at once:
// the table walks are interleaved, a byte of each in turn, so that the
// loads of the paths' next entries overlap instead of each waiting for the
// one before. The walks go together up to the end of the shortest path,
// a '#', or a transition that leaves the table (a state without a row, a
// transition not built, a settled or final state) in any of them; each
// path is then finished on its own from where it stands.
//
// Why four, and why the lanes stop together: on the crawled URLs of the
// corpus (bench: BenchmarkCrawledURLs/AllowedMany), four lanes beat a walk
// of one path at a time, and refilling a lane with the next path as soon
// as its own stops, so that lengths need not match, was slower than
// either: the bookkeeping at every stop costs more than the overlap wins.
func (s *Set) AllowedLanes(p *[Lanes]string) (v [Lanes]bool) {
	d := s.dfa
	if d.noTable || d.start < 0 {
		for k := range p {
			v[k] = s.AllowedBeforeFragment(p[k])
		}
		return v
	}
	trans := *d.trans.Load()
	class := &d.prog.class
	a, b, c, e := p[0], p[1], p[2], p[3]
	n := min(len(a), len(b), len(c), len(e))
	a, b, c, e = a[:n], b[:n], c[:n], e[:n]
	sa, sb, sc, se := uint(d.start), uint(d.start), uint(d.start), uint(d.start)
	i := 0
	for ; i < n; i++ {
		ba, bb, bc, be := a[i], b[i], c[i], e[i]
		if ba == '#' || bb == '#' || bc == '#' || be == '#' {
			break
		}
		na := tableEntry(trans, sa, uint(class[ba]))
		nb := tableEntry(trans, sb, uint(class[bb]))
		nc := tableEntry(trans, sc, uint(class[bc]))
		ne := tableEntry(trans, se, uint(class[be]))
		if na|nb|nc|ne >= 1<<31 {
			break
		}
		sa, sb, sc, se = na, nb, nc, ne
	}
	v[0] = s.allowedBeforeFragmentAfter(trans, int32(sa), p[0], i)
	v[1] = s.allowedBeforeFragmentAfter(trans, int32(sb), p[1], i)
	v[2] = s.allowedBeforeFragmentAfter(trans, int32(sc), p[2], i)
	v[3] = s.allowedBeforeFragmentAfter(trans, int32(se), p[3], i)
	return v
}
