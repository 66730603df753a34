package automaton

import (
	"slices"
	"sync"
	"sync/atomic"
)

// DefaultBudget is the default memory budget of one Set's lazy DFA: its
// states, their rows of the transition table, their sparse transitions and
// their stored kernels. States are built as checks reach them; once the
// next state would pass the budget, no state is added and checks that need
// a missing transition are decided again from the start by the segment
// scanner (scan.go), whose time is linear in the path whatever the
// patterns are. A state costs stateOverhead, plus sparseEdgeBytes per
// transition until it has a row, plus 4 bytes per byte class once it has
// one (rows.go), plus its encoded kernel (kernel.go: about a byte per live
// star). The kernel is memory for one state in replayLimit or so, which
// stores it; for the others it is counted all the same (ReplayedBytes),
// because building their transitions steps through every position it
// names: so the budget bounds the work of building states as it did when
// every state stored its kernel.
const DefaultBudget = 2 << 20

// MaxBudget caps a budget: the table holds at most MaxBudget/4
// entries, so every row offset stays below 1<<28 and fits the int32
// entries with room for the negative ones.
const MaxBudget = 1 << 30

// stateOverhead is the bookkeeping counted per state: its stateInfo (32
// bytes) and its share of the index (up to 11 bytes of slots at the lowest
// load, see insert), rounded up.
const stateOverhead = 44

// dfa is a lazily determinised prog. A state is the set of live positions
// after some input, plus best, the pattern that already matched a prefix
// of the input (len(patterns) when none has). Positions of patterns that
// rank at or below best are dropped, since they can no longer win, and so
// are positions of a pattern that precede one of its live stars, since the
// star matches everything they could. When no position is left the state
// is final: the rest of the input cannot change the verdict.
//
// A state is first sparse: its transitions are a short list, read under
// the mutex. Once checks have read rowAfter bytes in it, it gets a row of
// the transition table, which checks walk without locking: they load
// entries atomically, and a row is complete before any entry leads to it.
// Building states, adding transitions and giving rows take the mutex.
type dfa struct {
	prog   *prog
	stride int32                 // entries per row: one per byte class, the end-of-input verdict, the state's number
	start  int32                 // the start state's row offset, or a final state
	table  atomic.Pointer[table] // the transition table (rows.go) as checks read it
	// noTable is set when not even the start state and its row fit the
	// budget; every check then runs on the scanner.
	noTable bool

	meter    *Meter // counts what the dfa allocates; nil counts nothing
	scanOnce sync.Once
	scan     atomic.Pointer[scanner] // built the first time a check needs it

	mu     sync.Mutex
	states []stateInfo // by state number
	arena  []byte      // the stored kernels, each after its length (kernel.go)
	slots  []int32     // open-addressing index of the states by hash: state number + 1, 0 when free
	// cols and edgeCols are what checks read of sparse states without
	// the mutex (columns.go); nedges is the transitions edgeCols holds.
	cols     atomic.Pointer[stateCols]
	edgeCols atomic.Pointer[edgeCols]
	nedges   int32
	rows     int // states with a row
	used     int // bytes held, counted against budget
	// replayed is the bytes of the kernels that replayed states do not
	// store, counted against budget all the same (see state).
	replayed int
	budget   int
	// full is set once a state was refused for the budget. From then on
	// a transition not yet built is refused without computing its target:
	// a target's positions can number as many as the patterns' bytes, and
	// the check is better off on the scanner than paying for them.
	full atomic.Bool
	// rowsFull is set once a row was refused for the budget: the state
	// stays sparse, which decides as well, and no row is asked for again,
	// so that checks keep reading sparse states without the mutex.
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

// stateInfo is what a state keeps besides its row and what checks read
// without the mutex: its row offset, visits, first sparse transition and
// end verdict are in the columns (columns.go).
type stateInfo struct {
	hash   uint32 // the low half of hashState, to skip most kernel compares
	best   int32
	parent int32 // the state it was first reached from, -1 for the start state
	kernel int32 // where arena holds its kernel, or -1 when it is replayed (kernel.go)
	// settled is set when every live position belongs to a pattern whose
	// verdict allows as best's does (settles): whatever follows, the path
	// is allowed or not as it would be if it ended here.
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

// fixedBytes returns the memory of what a dfa holds besides its states,
// which the budget counts: the marks of its scratch, one per position,
// and its index's first slots.
func (d *dfa) fixedBytes() int { return 4*cap(d.mark) + 4*cap(d.slots) }

// none is the verdict "no pattern matched".
func (d *dfa) none() int32 { return int32(len(d.prog.patterns)) }

// allows reports whether verdict best allows: best is an allow, or none.
func (d *dfa) allows(best int32) bool {
	return best == d.none() || d.prog.patterns[best].Allow
}

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

// state returns the entry (rows.go) of the state for (set, best), adding
// it if it is new, as reached from state parent on byte via. It returns
// false when a new state would pass the budget. d.mu must be held.
func (d *dfa) state(set []int32, best, parent int32, via byte) (int32, bool) {
	if len(set) == 0 {
		return finalState(best), true
	}
	// set may be step's scratch, which comparing with a replayed state
	// (lookup) overwrites.
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
	// A state's positions cost the budget whether it stores them or not:
	// building its transitions steps through every one of them, so the
	// budget, which bounds the states a set of many live positions may
	// build, bounds their work too. Only a stored kernel is memory.
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

// fits reports whether cost more bytes stay within the budget.
func (d *dfa) fits(cost int) bool { return d.used+d.replayed+cost <= d.budget }

// charge counts cost bytes held against the budget and the meter.
func (d *dfa) charge(cost int) {
	d.used += cost
	d.meter.Add(cost)
}

// lookup returns the number of the state with hash h, best and kernel, if
// there is one. The index is probed linearly from h.
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

// settles reports whether the state (set, best) has settled whether the
// path is allowed: every live position belongs to a pattern that allows
// as best does. Every verdict the rest of the path can reach is best or
// one of those patterns, so it allows as best does.
func (d *dfa) settles(set []int32, best int32) bool {
	allow := d.allows(best)
	for _, q := range set {
		if d.allows(d.prog.pat[q]) != allow {
			return false
		}
	}
	return true
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

// transition returns the entry of state n on byte c, building the target
// state when it is new; false when the budget refused it, or refuses every
// new transition (full). d.mu must be held.
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

// advance reads in from s, a live state's entry, while the table cannot:
// while the state is sparse or its row lacks the transition on the next
// byte. It returns the entry reached and the rest of in: a row offset whose
// transition on rest[0] the row holds, any live entry when rest is empty,
// or a final state. It counts the bytes read in sparse states and gives a
// state its row the rowAfter-th time. ok is false when the budget refused
// a state the path needs.
//
// It reads what is built without the mutex (readBuilt), and takes it only
// to build: a transition, a state, a row, or the rewrite of an entry that
// names a state that has since got its row.
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

// readBuilt is advance over what is built, without the mutex: it follows
// the transitions of sparse states and counts their visits (columns.go).
// It returns advance's answer and true, or, with false, the entry reached
// so far and the rest of in, from which advance builds under the mutex:
// when a transition is missing, when a sparse state's visits call for its
// row, or when a row names a sparse state that has since got its row.
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
// while it has none; false when the columns loaded do not hold the state.
func (d *dfa) builtRow(e int32) (int32, bool) {
	c := d.cols.Load()
	n := d.sparseNumber(e)
	if int(n) >= len(c.rank) {
		return 0, false
	}
	return max(atomic.LoadInt32(&c.rank[n]), -1), true
}

// verdictAt returns the verdict if the input ends in the live state whose
// entry is s. Ending in a sparse state counts as reading in it (visit), so
// a state where checks keep ending gets its row too; the mutex is taken
// only to give it.
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
	Rows   int // states with a row of the table; the others are sparse
	// Bytes is the memory the Set holds: the DFA's, counted against the
	// budget (TableBytes + KernelBytes + EdgeBytes + stateOverhead per
	// state), plus ScanBytes.
	Bytes int
	// ReplayedBytes is the kernels that states replay instead of storing:
	// not memory, but counted against the budget with Bytes, since they
	// measure the work of building those states' transitions.
	ReplayedBytes int
	Budget        int  // the budget
	Full          bool // a state was refused for the budget; checks that need a missing transition run on the scanner

	Positions   int // positions of the position automaton, all patterns together
	Classes     int // byte classes: one per byte some pattern names, one for the rest
	TableBytes  int // the transition table as allocated: rows of Classes+2 entries
	KernelBytes int // the stored position kernels
	EdgeBytes   int // the transitions of sparse states

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
