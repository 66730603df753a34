package automaton

import (
	"math/bits"
	"sync"
)

// shiftAnd is the bit-parallel form of a prog: one bit per position, in
// position order, 64 to a word. Reading a byte moves every live literal
// position that names it one bit up (a shift), keeps every live star, and
// adds the position after each star reached. One step costs a few word
// operations per 64 positions, so a check costs O(len(path) × positions/64)
// whatever the patterns hold: linear in the path, with no state to build.
// It is the fallback of the lazy DFA once the DFA's budget is spent.
type shiftAnd struct {
	words int
	lit   [][]uint64 // per byte class: positions whose literal is in it
	star  []uint64   // star positions
	free  []uint64   // ends of patterns that match a prefix
	end   []uint64   // ends of '$' patterns
	pool  sync.Pool  // *[]uint64 scratch of words length
}

func newShiftAnd(p *prog) *shiftAnd {
	n := int(p.npos())
	words := (n + 63) / 64
	sa := &shiftAnd{
		words: words,
		lit:   make([][]uint64, p.nclass),
		star:  make([]uint64, words),
		free:  make([]uint64, words),
		end:   make([]uint64, words),
	}
	for c := range sa.lit {
		sa.lit[c] = make([]uint64, words)
	}
	for q := range n {
		w, bit := q/64, uint64(1)<<(q%64)
		switch {
		case p.kind[q] == starPos:
			sa.star[w] |= bit
		case p.kind[q] == litPos:
			sa.lit[p.class[p.lit[q]]][w] |= bit
		case p.anchored[p.pat[q]]:
			sa.end[w] |= bit
		default:
			sa.free[w] |= bit
		}
	}
	sa.pool.New = func() any { b := make([]uint64, words); return &b }
	return sa
}

// simRun is a check in progress on the simulation.
type simRun struct {
	sa     *shiftAnd
	p      *prog
	buf    *[]uint64 // from sa.pool; live positions, one bit each
	best   int32
	lo, hi int // the words of buf that may be non-zero
	limit  int // words holding positions of patterns that rank above best
}

// start begins a run; the caller sets the live positions in r.bits() and
// then calls setBest.
func (r *simRun) start(sa *shiftAnd, p *prog) {
	r.sa, r.p = sa, p
	r.buf = sa.pool.Get().(*[]uint64)
	clear(*r.buf)
}

func (r *simRun) bits() []uint64 { return *r.buf }

// setBest records the verdict so far and the word range to scan.
func (r *simRun) setBest(best int32) {
	r.best = best
	r.limit = r.sa.limit(r.p, best)
	r.lo, r.hi = 0, r.limit
}

// feed reads in; it reports false once no position is live, when nothing
// more can change the verdict.
func (r *simRun) feed(in string) bool {
	d := *r.buf
	for i := 0; i < len(in); i++ {
		if r.lo, r.hi = trim(d, r.lo, r.hi); r.lo >= r.hi {
			return false
		}
		r.hi = min(r.hi+1, r.limit) // a shift may carry into the next word
		m := r.sa.step(d, r.lo, r.hi, r.p.class[in[i]])
		if m >= 0 && r.p.pat[m] < r.best {
			r.best = r.p.pat[m]
			r.limit = r.sa.limit(r.p, r.best)
			clearFrom(d, r.p.off[r.best])
			r.hi = min(r.hi, r.limit)
		}
	}
	return true
}

// end returns the verdict if the input ends here, and releases the run.
func (r *simRun) end() int32 {
	d := *r.buf
	best := r.best
	for w := r.lo; w < r.hi; w++ {
		if m := d[w] & r.sa.end[w]; m != 0 {
			best = min(best, r.p.pat[w*64+bits.TrailingZeros64(m)])
			break
		}
	}
	r.sa.pool.Put(r.buf)
	r.buf = nil
	return best
}

// step reads one byte of class c over words [lo, hi) of d, and returns the
// lowest position that completed a prefix match, or -1.
func (sa *shiftAnd) step(d []uint64, lo, hi int, c uint8) int {
	lit := sa.lit[c]
	var shiftCarry, closeCarry uint64
	match := -1
	for w := lo; w < hi; w++ {
		x := d[w] & lit[w]
		y := x<<1 | shiftCarry | d[w]&sa.star[w]
		shiftCarry = x >> 63
		s := y & sa.star[w]
		y |= s<<1 | closeCarry
		closeCarry = s >> 63
		d[w] = y
		if m := y & sa.free[w]; m != 0 && match < 0 {
			match = w*64 + bits.TrailingZeros64(m)
		}
	}
	return match
}

// limit returns the number of words that hold positions of patterns that
// rank above best.
func (sa *shiftAnd) limit(p *prog, best int32) int {
	return int(p.off[best]+63) / 64
}

// clearFrom clears every bit at or above position q.
func clearFrom(d []uint64, q int32) {
	w := int(q / 64)
	if w >= len(d) {
		return
	}
	d[w] &= 1<<(q%64) - 1
	clear(d[w+1:])
}

// trim narrows [lo, hi) to the words that are not zero.
func trim(d []uint64, lo, hi int) (int, int) {
	for lo < hi && d[lo] == 0 {
		lo++
	}
	for hi > lo && d[hi-1] == 0 {
		hi--
	}
	return lo, hi
}
