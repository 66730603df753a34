package automaton

import (
	"slices"
	"sync"
	"sync/atomic"
)

// DefaultCacheBytes is the default memory budget of one Set's lazy DFA: the
// transition table, the position sets of its states and their index. States
// are built as checks reach them; once the next state would pass the budget,
// no state is added and checks that need a missing transition finish on the
// bit-parallel simulation (shiftand.go), which runs in time linear in the
// rest of the path. Each state costs 4 bytes per byte class plus 4 per live
// position plus stateOverhead; a 260-rule group typically needs a few
// kilobytes for the paths a crawler sees.
const DefaultCacheBytes = 2 << 20

// stateOverhead is the bookkeeping counted per state besides its row and
// positions: its stateInfo and its entry in the index.
const stateOverhead = 48

// Transition table entries. A live state is its row offset (state number ×
// stride), so the next state is trans[s + class] with no multiplication. A
// final state, one with no live positions left, needs no row: it is a
// negative number that carries its verdict. The hot loop thus tells every
// non-ordinary case apart with one comparison (next < 0).
const unknown int32 = -1 // the transition has not been built yet

// finalState encodes the final state whose verdict is pattern best
// (len(patterns) for none).
func finalState(best int32) int32 { return -3 - best }

// finalVerdict decodes a final state.
func finalVerdict(s int32) int32 { return -3 - s }

// dfa is a lazily determinised prog. A state is the set of live positions
// after some input, plus best, the pattern that already matched a prefix
// of the input (len(patterns) when none has). Positions of patterns that
// rank at or below best are dropped, since they can no longer win, and so
// are positions of a pattern that precede one of its live stars, since the
// star matches everything they could. When no position is left the state
// is final: the rest of the input cannot change the verdict.
//
// Readers walk the table without locking: they load entries atomically, and
// a new state's row is complete before the transition to it is stored. Only
// building a state takes the mutex.
type dfa struct {
	prog   *prog
	stride int32 // entries per row: one per byte class, then the end-of-input verdict
	start  int32 // the start state, possibly final
	trans  atomic.Pointer[[]int32]
	// noTable is set when not even the start state fits the budget; every
	// check then simulates from startSet and startBest.
	noTable   bool
	startSet  []int32
	startBest int32

	simOnce sync.Once
	sim     *shiftAnd // built on the first fallback

	mu     sync.Mutex
	states []stateInfo // by state number
	arena  []int32     // positions of all states, each state's sorted
	index  map[uint64][]int32
	used   int // bytes counted against budget
	budget int
	full   bool // a state was refused for the budget

	mark []uint32 // scratch for step: mark[q] == gen when q is in the set built
	gen  uint32
	buf  []int32
}

type stateInfo struct {
	lo, hi int32 // positions are arena[lo:hi]
	best   int32
}

func newDFA(p *prog, budget int) *dfa {
	d := &dfa{
		prog:   p,
		stride: int32(p.nclass + 1),
		budget: budget,
		index:  map[uint64][]int32{},
		mark:   make([]uint32, p.npos()),
	}
	trans := make([]int32, 0)
	d.trans.Store(&trans)
	d.mu.Lock()
	defer d.mu.Unlock()
	set, best := d.initialSet()
	start, ok := d.state(set, best)
	if !ok {
		d.noTable, d.startSet, d.startBest = true, slices.Clone(set), best
	}
	d.start = start
	return d
}

// none is the verdict "no pattern matched".
func (d *dfa) none() int32 { return int32(len(d.prog.patterns)) }

// initialSet returns the positions live before any input.
func (d *dfa) initialSet() ([]int32, int32) {
	d.gen++
	out := d.buf[:0]
	for i := range d.prog.patterns {
		out = d.add(out, d.prog.off[i])
	}
	return d.finish(out, d.none())
}

// step returns the state after reading byte c in the state (set, best).
func (d *dfa) step(set []int32, best int32, c byte) ([]int32, int32) {
	d.gen++
	out := d.buf[:0]
	for _, q := range set {
		switch {
		case d.prog.kind[q] == starPos:
			out = d.add(out, q)
		case d.prog.matchesOn(q, c):
			out = d.add(out, q+1)
		}
	}
	return d.finish(out, best)
}

// add adds q and its closure to out.
func (d *dfa) add(out []int32, q int32) []int32 {
	for ; q >= 0 && d.mark[q] != d.gen; q = d.prog.closureNext(q) {
		d.mark[q] = d.gen
		out = append(out, q)
	}
	return out
}

// finish records prefix matches in best, drops the positions that cannot
// beat it, drops positions behind a live star of the same pattern, and
// returns the set sorted.
func (d *dfa) finish(set []int32, best int32) ([]int32, int32) {
	p := d.prog
	for _, q := range set {
		if p.freeMatch(q) && p.pat[q] < best {
			best = p.pat[q]
		}
	}
	set = slices.DeleteFunc(set, func(q int32) bool { return p.pat[q] >= best })
	slices.Sort(set)
	set = dropShadowed(p, set)
	d.buf = set[:0]
	return set, best
}

// dropShadowed removes, from a sorted set, every position that precedes a
// live star of its own pattern.
func dropShadowed(p *prog, set []int32) []int32 {
	out := len(set)
	star := int32(-1) // highest live star of the pattern being scanned
	for i := len(set) - 1; i >= 0; i-- {
		q := set[i]
		if i == len(set)-1 || p.pat[q] != p.pat[set[i+1]] {
			star = -1
		}
		if star >= 0 {
			continue
		}
		if p.kind[q] == starPos {
			star = q
		}
		out--
		set[out] = q
	}
	return append(set[:0], set[out:]...)
}

// state returns the state for (set, best), adding it if it is new. It
// returns false when a new state would pass the budget. d.mu must be held.
func (d *dfa) state(set []int32, best int32) (int32, bool) {
	if len(set) == 0 {
		return finalState(best), true
	}
	h := hashState(set, best)
	for _, s := range d.index[h] {
		info := d.states[s/d.stride]
		if info.best == best && slices.Equal(d.arena[info.lo:info.hi], set) {
			return s, true
		}
	}
	cost := int(d.stride)*4 + len(set)*4 + stateOverhead
	if d.used+cost > d.budget {
		d.full = true
		return 0, false
	}
	d.used += cost
	lo := int32(len(d.arena))
	d.arena = append(d.arena, set...)
	d.states = append(d.states, stateInfo{lo: lo, hi: int32(len(d.arena)), best: best})
	s := int32(len(d.states)-1) * d.stride
	trans := d.rowsFor(len(d.states))
	trans[s+d.stride-1] = d.endVerdict(set, best)
	d.index[h] = append(d.index[h], s)
	return s, true
}

// rowsFor returns the table, grown to hold n rows. Growing publishes a copy:
// readers still walking the old one see every transition it had, and take
// the locked path for the rest.
func (d *dfa) rowsFor(n int) []int32 {
	trans := *d.trans.Load()
	if need := n * int(d.stride); need > len(trans) {
		grown := make([]int32, max(need, 2*len(trans)))
		copy(grown, trans)
		for i := len(trans); i < len(grown); i++ {
			grown[i] = unknown
		}
		d.trans.Store(&grown)
		trans = grown
	}
	return trans
}

// endVerdict returns the verdict if the input ends in state (set, best): a
// '$' pattern whose end is live may beat best.
func (d *dfa) endVerdict(set []int32, best int32) int32 {
	for _, q := range set {
		if d.prog.endMatch(q) && d.prog.pat[q] < best {
			best = d.prog.pat[q]
		}
	}
	return best
}

func hashState(set []int32, best int32) uint64 {
	h := uint64(14695981039346656037) ^ uint64(uint32(best))
	for _, q := range set {
		h = (h ^ uint64(uint32(q))) * 1099511628211
	}
	return h
}

// build returns the transition of state s on byte c, building the target
// state if needed. ok is false when the budget refused a new state.
func (d *dfa) build(s int32, c byte) (next int32, trans []int32, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx := s + int32(d.prog.class[c])
	trans = *d.trans.Load()
	if next = atomic.LoadInt32(&trans[idx]); next != unknown {
		return next, trans, true
	}
	info := d.states[s/d.stride]
	set, best := d.step(d.arena[info.lo:info.hi], info.best, c)
	if next, ok = d.state(set, best); !ok {
		return 0, nil, false
	}
	trans = *d.trans.Load()
	atomic.StoreInt32(&trans[idx], next)
	return next, trans, true
}

// loadBits sets in bits the live positions of state s and returns its
// best, for a check that continues on the simulation.
func (d *dfa) loadBits(s int32, bits []uint64) int32 {
	d.mu.Lock()
	defer d.mu.Unlock()
	info := d.states[s/d.stride]
	for _, q := range d.arena[info.lo:info.hi] {
		bits[q/64] |= 1 << (q % 64)
	}
	return info.best
}

// simulator returns the bit-parallel form of the program, built once.
func (d *dfa) simulator() *shiftAnd {
	d.simOnce.Do(func() { d.sim = newShiftAnd(d.prog) })
	return d.sim
}

// Stats describes a Set's lazy DFA.
type Stats struct {
	States int  // states built
	Bytes  int  // bytes counted against the budget
	Budget int  // the budget
	Full   bool // a state was refused for the budget; some checks simulate
}

func (d *dfa) stats() Stats {
	d.mu.Lock()
	defer d.mu.Unlock()
	return Stats{States: len(d.states), Bytes: d.used, Budget: d.budget, Full: d.full}
}
