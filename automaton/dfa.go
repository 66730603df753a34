package automaton

import (
	"encoding/binary"
	"slices"
	"sync"
	"sync/atomic"
)

// DefaultBudget is the default memory budget of one Set's lazy DFA: the
// transition table, the position sets of its states and their index. States
// are built as checks reach them; once the next state would pass the budget,
// no state is added and checks that need a missing transition are decided
// again from the start by the segment scanner (scan.go), whose time is
// linear in the path whatever the patterns are. Each state costs 4 bytes per byte class, plus its
// encoded kernel (about a byte per live star or progressing position, see
// appendKernel), plus stateOverhead.
const DefaultBudget = 2 << 20

// MaxBudget caps a budget: the table holds at most MaxBudget/4
// entries, so every row offset stays below 1<<28 and fits the int32
// entries with room for the negative ones.
const MaxBudget = 1 << 30

// stateOverhead is the bookkeeping counted per state besides its row and
// positions: its stateInfo (16 bytes) and its share of the index (up to
// 11 bytes of slots at the lowest load), rounded up with room to spare.
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
	// check then runs on the scanner.
	noTable bool

	meter    *Meter // counts what the dfa allocates; nil counts nothing
	scanOnce sync.Once
	scan     atomic.Pointer[scanner] // built the first time a check needs it

	mu     sync.Mutex
	states []stateInfo // by state number
	arena  []byte      // the kernels of all states, encoded by appendKernel
	slots  []int32     // open-addressing index of the states by hash: state number + 1, 0 when free
	used   int         // bytes counted against budget
	budget int
	// full is set once a state was refused for the budget. From then on
	// a transition not yet built is refused without computing its target:
	// a target's positions can number as many as the patterns' bytes, and
	// the check is better off on the scanner than paying for them.
	full atomic.Bool

	mark []uint32 // scratch for step: mark[q] == gen when q is in the set built
	gen  uint32
	buf  []int32 // scratch for step's output
	in   []int32 // scratch for the expanded set a step starts from
	enc  []byte  // scratch for an encoded kernel
}

type stateInfo struct {
	lo, hi int32 // the state's kernel is arena[lo:hi]
	best   int32
	hash   uint32 // the low half of hashState, to skip most kernel compares
}

func newDFA(p *prog, budget int, meter *Meter) *dfa {
	d := &dfa{
		prog:   p,
		stride: int32(p.nclass + 1),
		budget: budget,
		meter:  meter,
		slots:  make([]int32, 8),
		mark:   make([]uint32, p.npos()),
	}
	trans := make([]int32, 0)
	d.trans.Store(&trans)
	d.mu.Lock()
	defer d.mu.Unlock()
	set, best := d.initialSet()
	start, ok := d.state(set, best)
	d.start, d.noTable = start, !ok
	return d
}

// fixedBytes returns the memory of what a dfa holds besides its states,
// which the budget counts: the marks of its scratch, one per position,
// and its index's first slots.
func (d *dfa) fixedBytes() int { return 4*cap(d.mark) + 4*cap(d.slots) }

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
	d.enc = appendKernel(d.enc[:0], d.prog, set)
	h := uint32(hashState(d.enc, best))
	if n, ok := d.lookup(h, best, d.enc); ok {
		return n * d.stride, true
	}
	cost := len(d.enc) + stateOverhead
	newLen := d.tableLen(len(d.states)+1, d.budget-d.used-cost)
	cost += (newLen - len(*d.trans.Load())) * 4
	if d.used+cost > d.budget {
		d.full.Store(true)
		return 0, false
	}
	d.used += cost
	d.meter.Add(cost)
	lo := int32(len(d.arena))
	d.arena = append(d.arena, d.enc...)
	d.states = append(d.states, stateInfo{lo: lo, hi: int32(len(d.arena)), best: best, hash: h})
	d.insert(int32(len(d.states) - 1))
	s := int32(len(d.states)-1) * d.stride
	trans := d.growTable(newLen)
	end := d.endVerdict(set, best)
	trans[s+d.stride-1] = end
	if c := d.prog.nulClass; c >= 0 {
		// A NUL ends the input: reading it decides as the end does.
		trans[s+c] = finalState(end)
	}
	return s, true
}

// lookup returns the number of the state with hash h, best and kernel, if
// there is one. The index is probed linearly from h.
func (d *dfa) lookup(h uint32, best int32, kernel []byte) (int32, bool) {
	mask := uint32(len(d.slots) - 1)
	for i := h & mask; d.slots[i] != 0; i = (i + 1) & mask {
		n := d.slots[i] - 1
		info := &d.states[n]
		if info.hash == h && info.best == best && string(d.arena[info.lo:info.hi]) == string(kernel) {
			return n, true
		}
	}
	return 0, false
}

// insert adds state n to the index, doubling the index first when it would
// be more than three quarters full.
func (d *dfa) insert(n int32) {
	if 4*len(d.states) > 3*len(d.slots) {
		d.slots = make([]int32, 2*len(d.slots))
		for m := range int32(len(d.states) - 1) {
			d.place(m)
		}
	}
	d.place(n)
}

func (d *dfa) place(n int32) {
	mask := uint32(len(d.slots) - 1)
	i := d.states[n].hash & mask
	for d.slots[i] != 0 {
		i = (i + 1) & mask
	}
	d.slots[i] = n + 1
}

// tableLen returns the length the transition table needs to hold n rows:
// its length if they fit, otherwise a quarter more than n rows need, or
// just what they need when the quarter would pass spare, the bytes the
// budget has left. The budget is charged for the table's full length, so
// the memory it counts is the memory the table holds.
func (d *dfa) tableLen(n, spare int) int {
	have, need := len(*d.trans.Load()), n*int(d.stride)
	if need <= have {
		return have
	}
	roomy := need + need/4
	if (roomy-have)*4 > spare {
		return need
	}
	return roomy
}

// growTable returns the table, grown to length n. Growing publishes a
// copy: readers still walking the old one see every transition it had,
// and take the locked path for the rest. An old table never gains an
// entry, so every offset in a table is a row within it.
func (d *dfa) growTable(n int) []int32 {
	trans := *d.trans.Load()
	if n > len(trans) {
		grown := make([]int32, n)
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

func hashState(kernel []byte, best int32) uint64 {
	h := uint64(14695981039346656037) ^ uint64(uint32(best))
	for _, b := range kernel {
		h = (h ^ uint64(b)) * 1099511628211
	}
	return h
}

// positions returns the live positions of live state s, decoded into
// scratch that the next call reuses. d.mu must be held.
func (d *dfa) positions(s int32) []int32 {
	info := d.states[s/d.stride]
	d.in = decodeKernel(d.in[:0], d.prog, d.arena[info.lo:info.hi])
	return d.in
}

// A state's positions are stored as its kernel: the sorted set without the
// positions that follow a star of the set (a star's closure always holds
// them, so they are implied), each written as the unsigned varint of its
// distance from the previous one. Most states of a real group are a
// background of star positions plus a little progress; their kernels cost
// about a byte per live star, against eight bytes per star and follower
// when stored as int32. Two states are equal exactly when their kernels
// and bests are.

// appendKernel appends the encoded kernel of a sorted, closed set.
func appendKernel(dst []byte, p *prog, set []int32) []byte {
	prev := int32(-1)
	for i, q := range set {
		if i > 0 && set[i-1] == q-1 && p.kind[q-1] == starPos {
			continue
		}
		dst = binary.AppendUvarint(dst, uint64(q-prev))
		prev = q
	}
	return dst
}

// decodeKernel appends the sorted, closed set of an encoded kernel.
func decodeKernel(dst []int32, p *prog, kernel []byte) []int32 {
	q := int32(-1)
	for len(kernel) > 0 {
		delta, n := binary.Uvarint(kernel)
		kernel = kernel[n:]
		q += int32(delta)
		dst = append(dst, q)
		if p.kind[q] == starPos {
			dst = append(dst, q+1)
		}
	}
	return dst
}

// build returns the transition of state s on byte c, building the target
// state if needed. ok is false when the budget refused a new state, or
// refuses every new transition (full).
func (d *dfa) build(s int32, c byte) (next int32, trans []int32, ok bool) {
	if d.full.Load() {
		return 0, nil, false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	idx := s + int32(d.prog.class[c])
	trans = *d.trans.Load()
	if next = atomic.LoadInt32(&trans[idx]); next != unknown {
		return next, trans, true
	}
	if d.full.Load() {
		return 0, nil, false
	}
	set, best := d.step(d.positions(s), d.states[s/d.stride].best, c)
	if next, ok = d.state(set, best); !ok {
		return 0, nil, false
	}
	trans = *d.trans.Load()
	atomic.StoreInt32(&trans[idx], next)
	return next, trans, true
}

// scanner returns the segment scanner of the patterns, built once.
func (d *dfa) scanner() *scanner {
	d.scanOnce.Do(func() {
		sc := newScanner(d.prog.patterns)
		d.meter.Add(sc.bytes())
		d.scan.Store(sc)
	})
	return d.scan.Load()
}

// Stats describes a Set's memory: its lazy DFA and, once a check has
// needed it, its scanner.
type Stats struct {
	States int // states built
	// Bytes is the memory the Set holds: the DFA's, counted against the
	// budget (TableBytes + KernelBytes + bookkeeping), plus ScanBytes.
	Bytes  int
	Budget int  // the budget
	Full   bool // a state was refused for the budget; checks that need a missing transition run on the scanner

	Positions   int // positions of the position automaton, all patterns together
	Classes     int // byte classes: one per byte some pattern names, one for the rest
	TableBytes  int // the transition table as allocated: rows of Classes+1 entries
	KernelBytes int // the encoded position kernels of all states

	// ScanBytes is the segment scanner's memory, as allocated: its tables
	// and the scratch of one check. It is 0 until a check first needs the
	// scanner.
	ScanBytes int
	// ScanScratchBytes is the part of ScanBytes that a check holds while
	// it runs on the scanner; each check running at the same time holds
	// one.
	ScanScratchBytes int
}

func (d *dfa) stats() Stats {
	d.mu.Lock()
	defer d.mu.Unlock()
	st := Stats{
		States: len(d.states), Bytes: d.used, Budget: d.budget, Full: d.full.Load(),
		Positions: int(d.prog.npos()), Classes: d.prog.nclass,
		TableBytes: 4 * len(*d.trans.Load()), KernelBytes: len(d.arena),
	}
	if sc := d.scan.Load(); sc != nil {
		st.ScanBytes, st.ScanScratchBytes = sc.bytes(), sc.scratchBytes
		st.Bytes += st.ScanBytes
	}
	return st
}
