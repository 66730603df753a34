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

// run continues a check from the live positions set and verdict best over
// in, starting at piece k, byte i; it returns the verdict.
func (sa *shiftAnd) run(p *prog, set []int32, best int32, in *input, k, i int) int32 {
	bp := sa.pool.Get().(*[]uint64)
	defer sa.pool.Put(bp)
	d := *bp
	clear(d)
	for _, q := range set {
		d[q/64] |= 1 << (q % 64)
	}
	limit := sa.limit(p, best)
	lo, hi := 0, limit
	for ; k < len(in); k, i = k+1, 0 {
		part := in[k]
		for ; i < len(part); i++ {
			if lo, hi = trim(d, lo, hi); lo >= hi {
				return best
			}
			hi = min(hi+1, limit) // a shift may carry into the next word
			if m := sa.step(d, lo, hi, p.class[part[i]]); m >= 0 {
				if pm := p.pat[m]; pm < best {
					best = pm
					limit = sa.limit(p, best)
					clearFrom(d, p.off[best])
					hi = min(hi, limit)
				}
			}
		}
	}
	for w := 0; w < limit; w++ {
		if m := d[w] & sa.end[w]; m != 0 {
			if pm := p.pat[w*64+bits.TrailingZeros64(m)]; pm < best {
				best = pm
			}
			break
		}
	}
	return best
}

// step reads one byte of class c over words [lo, hi) of d, and returns the
// lowest position that completed a prefix match, or -1.
func (sa *shiftAnd) step(d []uint64, lo, hi int, c uint16) int {
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
