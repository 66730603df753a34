package automaton

import (
	"slices"
	"sync"
	"sync/atomic"
)

// DefaultBudget is the default memory budget of one Set's lazy DFA. Once
// the next state would pass it, checks that need a missing transition are
// decided again by the segment scanner, in time linear in the path. Kernels
// that states replay are counted too (ReplayedBytes), so the budget also
// bounds the work of building states.
const DefaultBudget = 2 << 20

// MaxBudget caps a budget: the table holds at most MaxBudget/4
// entries, so every row offset stays below 1<<28 and fits the int32
// entries with room for the negative ones.
const MaxBudget = 1 << 30

// stateOverhead is the bookkeeping counted per state: its stateInfo and
// its share of the index at the lowest load (see insert), rounded up.
const stateOverhead = 44

// dfa is a lazily determinised prog. A state is the set of live positions
// after some input, plus best, the pattern that already matched a prefix
// of it (len(patterns) for none). Positions that cannot beat best are
// dropped, and so are a pattern's positions behind one of its live stars,
// which matches all they could. Checks read what is built without the
// mutex (rows.go, columns.go); building takes it.
type dfa struct {
	prog   *prog
	stride int32                 // entries per row: one per byte class, the end-of-input verdict, the state's number
	start  int32                 // the start state's row offset, or a final state
	table  atomic.Pointer[table] // the transition table (rows.go) as checks read it
	// noTable: not even the start state and its row fit the budget, so
	// every check runs on the scanner.
	noTable bool

	meter    *Meter // counts what the dfa allocates; nil counts nothing
	scanOnce sync.Once
	scan     atomic.Pointer[scanner] // built the first time a check needs it

	mu     sync.Mutex
	states []stateInfo // by state number
	arena  []byte      // the stored kernels, each after its length (kernel.go)
	slots  []int32     // open-addressing index of the states by hash: state number + 1, 0 when free
	// cols and edgeCols are read by checks without the mutex (columns.go).
	cols     atomic.Pointer[stateCols]
	edgeCols atomic.Pointer[edgeCols]
	nedges   int32
	rows     int // states with a row
	used     int // bytes held, counted against budget
	// replayed is the bytes of replayed kernels, charged like used (see state).
	replayed int
	budget   int
	// full: a state was refused, so a missing transition is refused
	// without computing its target, which may cost the patterns' bytes.
	full atomic.Bool
	// rowsFull: a row was refused, and none is asked for again, so checks
	// keep reading sparse states without the mutex.
	rowsFull atomic.Bool

	mark []uint32 // scratch for step: mark[q] == gen when q is in the set built
	gen  uint32
	buf  []int32 // scratch for step's output
	in   []int32 // scratch for the positions a step starts from
	out  []int32 // scratch for the positions of the state being added
	cand []int32 // scratch for the positions of a state compared in lookup
	enc  []byte  // scratch for an encoded kernel
	cenc []byte  // scratch for a compared state's encoded kernel
	memo replayMemo
}

// stateInfo is what a state keeps besides its row and its columns.
type stateInfo struct {
	hash   uint32 // the low half of hashState, to skip most kernel compares
	best   int32
	parent int32 // the state it was first reached from, -1 for the start state
	kernel int32 // where arena holds its kernel, or -1 when it is replayed (kernel.go)
	// settled: whatever follows, the verdict is best's (settles).
	settled bool
	via     byte  // the byte read from parent
	chain   uint8 // replay steps from the nearest state with a stored kernel
}

func newDFA(p *prog, budget int, meter *Meter) *dfa {
	d := &dfa{
		prog:   p,
		stride: int32(p.nclass + 2),
		budget: budget,
		meter:  meter,
		slots:  make([]int32, 8),
		mark:   make([]uint32, p.npos()),
		memo:   replayMemo{state: -1},
	}
	d.table.Store(&table{class: &p.class, sparseTop: finalState(d.none())})
	d.cols.Store(newStateCols(0))
	d.edgeCols.Store(newEdgeCols(0))
	d.mu.Lock()
	defer d.mu.Unlock()
	set, best := d.initialSet()
	start, ok := d.state(set, best, -1, 0)
	if ok && !d.final(start) {
		n := d.number(start)
		ok = d.giveRow(n)
		start = d.rowOf(n)
	}
	d.start, d.noTable = start, !ok
	return d
}

func (d *dfa) fixedBytes() int { return 4*cap(d.mark) + 4*cap(d.slots) }

// none is the verdict "no pattern matched".
func (d *dfa) none() int32 { return int32(len(d.prog.patterns)) }

// allows reports whether verdict best allows: best is an allow, or none.
func (d *dfa) allows(best int32) bool {
	return best == d.none() || d.prog.patterns[best].Allow
}

func (d *dfa) initialSet() ([]int32, int32) {
	d.gen++
	out := d.buf[:0]
	for i := range d.prog.patterns {
		out = d.add(out, d.prog.off[i])
	}
	return d.finish(out, d.none())
}

// step returns the state after reading byte c in the state (set, best).
// The set returned is scratch that the next step reuses; set must not be.
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
// beat it or that a live star shadows, and returns the set sorted.
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

// dropShadowed drops from a sorted set the positions a live star shadows.
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

// state returns the entry (rows.go) of the state for (set, best), adding
// it if it is new, as reached from state parent on byte via. It returns
// false when a new state would pass the budget. d.mu must be held.
func (d *dfa) state(set []int32, best, parent int32, via byte) (int32, bool) {
	if len(set) == 0 {
		return finalState(best), true
	}
	// set may be step's scratch, which lookup overwrites when it replays.
	set = append(d.out[:0], set...)
	d.out = set
	d.enc = appendKernel(d.enc[:0], d.prog, set)
	h := uint32(hashState(d.enc, best))
	if n, ok := d.lookup(h, best, d.enc); ok {
		d.memo.keep(n, set)
		return d.entry(n), true
	}
	chain := uint8(0)
	if parent >= 0 {
		chain = d.states[parent].chain + 1
	}
	store := parent < 0 || chain >= replayLimit
	// A replayed kernel is charged too: building the state's transitions
	// steps through every position it names, and the budget bounds that.
	kernelBytes := storedKernelBytes(d.enc)
	if !d.fits(stateOverhead + kernelBytes) {
		d.full.Store(true)
		return 0, false
	}
	if store {
		d.charge(stateOverhead + kernelBytes)
	} else {
		d.charge(stateOverhead)
		d.replayed += kernelBytes
	}
	info := stateInfo{
		hash: h, best: best, parent: parent,
		kernel: -1, settled: d.settles(set, best), via: via, chain: chain,
	}
	end := d.endVerdict(set, best)
	if store {
		info.kernel, info.chain = d.storeKernel(d.enc), 0
	}
	d.states = append(d.states, info)
	n := int32(len(d.states) - 1)
	d.addStateCols(n, end)
	d.insert(n)
	d.memo.keep(n, set)
	return d.entry(n), true
}

func (d *dfa) fits(cost int) bool { return d.used+d.replayed+cost <= d.budget }

func (d *dfa) charge(cost int) {
	d.used += cost
	d.meter.Add(cost)
}

func (d *dfa) lookup(h uint32, best int32, kernel []byte) (int32, bool) {
	mask := uint32(len(d.slots) - 1)
	for i := h & mask; d.slots[i] != 0; i = (i + 1) & mask {
		n := d.slots[i] - 1
		info := &d.states[n]
		if info.hash == h && info.best == best && string(d.kernelOf(n)) == string(kernel) {
			return n, true
		}
	}
	return 0, false
}

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

// settles reports whether every live position belongs to a pattern that
// allows as best does: every verdict the rest of the path can reach is
// best or one of them, so the path is allowed or not as best decides.
func (d *dfa) settles(set []int32, best int32) bool {
	allow := d.allows(best)
	for _, q := range set {
		if d.allows(d.prog.pat[q]) != allow {
			return false
		}
	}
	return true
}

// endVerdict returns the verdict if the input ends in state (set, best).
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

// transition returns the entry of state n on byte c, building the target
// when it is new; false when the budget refuses it. d.mu must be held.
func (d *dfa) transition(n int32, c byte) (int32, bool) {
	cls := int32(d.prog.class[c])
	if cls == d.prog.nulClass {
		// A NUL ends the input: reading it decides as the end does.
		return finalState(d.endOf(n)), true
	}
	if e, ok := d.known(n, cls); ok {
		return e, true
	}
	if d.full.Load() {
		return 0, false
	}
	set, best := d.step(d.positions(n), d.states[n].best, c)
	next, ok := d.state(set, best, n, c)
	if !ok {
		return 0, false
	}
	if !d.record(n, cls, next) {
		return 0, false
	}
	return next, true
}

// advance reads in from live entry s while the table cannot, and returns
// the entry reached and the rest of in: a row that holds the transition
// on rest[0], any live entry when rest is empty, or a final state. ok is
// false when the budget refused a state the path needs.
func (d *dfa) advance(s int32, in string) (next int32, rest string, ok bool) {
	if s, in, ok = d.readBuilt(s, in); ok {
		return s, in, true
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for ; len(in) > 0; in = in[1:] {
		n := d.number(s)
		if d.rowOf(n) < 0 {
			d.visit(n)
		}
		if row := d.rowOf(n); row >= 0 {
			s = row
			if e, ok := d.known(n, int32(d.prog.class[in[0]])); ok && e >= 0 {
				return s, in, true
			}
		}
		if s, ok = d.transition(n, in[0]); !ok {
			return 0, "", false
		}
		if d.final(s) {
			return s, "", true
		}
	}
	return s, "", true
}

// readBuilt is advance over what is built, without the mutex (columns.go).
// With false, it returns where advance must go on under the mutex: a
// transition is missing, a state is due its row, or an entry is stale.
func (d *dfa) readBuilt(s int32, in string) (int32, string, bool) {
	for len(in) > 0 {
		cls := int32(d.prog.class[in[0]])
		if s >= 0 {
			e := loaded(atomic.LoadInt32(&d.table.Load().trans[s+cls]))
			switch {
			case e >= 0 || d.final(e):
				return s, in, true
			case e == unknown:
				return s, in, false
			}
			if r, ok := d.builtRow(e); !ok || r >= 0 {
				return s, in, false // a stale entry, to rewrite under the mutex
			}
			s, in = e, in[1:]
			continue
		}
		c := d.cols.Load()
		n := d.sparseNumber(s)
		if int(n) >= len(c.rank) {
			return s, in, false
		}
		rank := atomic.LoadInt32(&c.rank[n])
		if rank >= 0 {
			s = rank
			continue
		}
		if (countVisit(&c.rank[n], rank) || visitsOf(rank)+1 >= rowAfter) && !d.rowsFull.Load() {
			return s, in, false // time for its row
		}
		if cls == d.prog.nulClass {
			return finalState(c.end[n]), "", true
		}
		e := d.edgeCols.Load()
		i := findEdge(e, atomic.LoadInt32(&c.head[n]), cls)
		if i < 0 {
			return s, in, false
		}
		if s, in = atomic.LoadInt32(&e.to[i]), in[1:]; d.final(s) {
			return s, "", true
		}
	}
	return s, "", true
}

// builtRow returns the row of the sparse state that entry e names, -1
// while it has none; false when the columns loaded are older than it.
func (d *dfa) builtRow(e int32) (int32, bool) {
	c := d.cols.Load()
	n := d.sparseNumber(e)
	if int(n) >= len(c.rank) {
		return 0, false
	}
	return max(atomic.LoadInt32(&c.rank[n]), -1), true
}

// verdictAt returns the verdict if the input ends in live entry s. It
// counts a visit, so a state where checks keep ending gets its row too.
func (d *dfa) verdictAt(t *table, s int32) int32 {
	if s >= 0 {
		return endPattern(t.at(s, d.stride-2))
	}
	if c := d.cols.Load(); int(d.sparseNumber(s)) < len(c.rank) {
		n := d.sparseNumber(s)
		rank := atomic.LoadInt32(&c.rank[n])
		if rank >= 0 {
			return endPattern(atomic.LoadInt32(&d.table.Load().trans[rank+d.stride-2]))
		}
		if !countVisit(&c.rank[n], rank) && visitsOf(rank)+1 < rowAfter || d.rowsFull.Load() {
			return c.end[n]
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	n := d.number(s)
	d.visit(n)
	return d.endOf(n)
}

// scanner returns the segment scanner, built the first time it is needed.
func (d *dfa) scanner() *scanner {
	d.scanOnce.Do(func() {
		sc := newScanner(d.prog.patterns)
		d.meter.Add(sc.bytes())
		d.scan.Store(sc)
	})
	return d.scan.Load()
}

// Stats describes a Set's memory.
type Stats struct {
	States int // states built
	Rows   int // states with a row of the table; the others are sparse
	// Bytes is the Set's memory: the DFA's, as budgeted, plus ScanBytes.
	Bytes int
	// ReplayedBytes is the kernels states replay instead of storing: not
	// memory, but counted against the budget as the work they cost.
	ReplayedBytes int
	Budget        int  // the budget
	Full          bool // a state was refused for the budget; checks that need a missing transition run on the scanner

	Positions   int // positions of the position automaton, all patterns together
	Classes     int // byte classes: one per byte some pattern names, one for the rest
	TableBytes  int // the transition table as allocated: rows of Classes+2 entries
	KernelBytes int // the stored position kernels
	EdgeBytes   int // the transitions of sparse states

	// ScanBytes is the segment scanner's memory, its tables and one
	// check's scratch; 0 until a check first needs the scanner.
	ScanBytes int
	// ScanScratchBytes is the part of ScanBytes each scanner check holds.
	ScanScratchBytes int
}

func (d *dfa) stats() Stats {
	d.mu.Lock()
	defer d.mu.Unlock()
	st := Stats{
		States: len(d.states), Rows: d.rows, Bytes: d.used, ReplayedBytes: d.replayed, Budget: d.budget, Full: d.full.Load(),
		Positions: int(d.prog.npos()), Classes: d.prog.nclass,
		TableBytes: 4 * len(d.table.Load().trans), KernelBytes: len(d.arena), EdgeBytes: d.edgeBytes(),
	}
	if sc := d.scan.Load(); sc != nil {
		st.ScanBytes, st.ScanScratchBytes = sc.bytes(), sc.scratchBytes
		st.Bytes += st.ScanBytes
	}
	return st
}
