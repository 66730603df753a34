package automaton

import (
	"math"
	"sync/atomic"
)

// The transition table holds a row per state that has one: an entry per
// byte class, the end-of-input verdict (endEntry), and the state's number.
// A state with a row is named by its row offset, so the next state is
// trans[s+class]. Every other entry is negative, so one comparison tells
// them from a row: unknown (not built yet), finalState, sparseEntry (a
// state without a row), and settledEntry (a settled state named from one
// that is not, so that a check that needs only the verdict stops there).
//
// A state starts sparse, its transitions a list (columns.go): most states
// of a real group are reached by one path, and a row would be most of
// their memory. An entry that names a sparse state that has since got its
// row is rewritten to the row when next read (known).

// endEntry is a row's end-of-input entry for the verdict best: best<<1,
// with the low bit set when best allows, so that a check ending in a row
// needs no dependent load of the pattern.
func (d *dfa) endEntry(best int32) int32 {
	e := best << 1
	if d.allows(best) {
		e |= 1
	}
	return e
}

// endPattern and endAllows decode an end-of-input entry.
func endPattern(e int32) int32 { return e >> 1 }
func endAllows(e int32) bool   { return e&1 != 0 }

// rowAfter is the bytes checks read in a sparse state before it gets a row.
const rowAfter = 4

const sparseEdgeBytes = 9

const unknown int32 = -1 // the transition has not been built yet

// finalState encodes the final state whose verdict is best.
func finalState(best int32) int32 { return -3 - best }

func finalVerdict(s int32) int32 { return -3 - s }

func (d *dfa) final(e int32) bool { return e <= -3 && e >= finalState(d.none()) }

// sparseEntry returns the entry that names state n while it has no row,
// below every final state; sparseNumber is its inverse.
func (d *dfa) sparseEntry(n int32) int32 { return finalState(d.none()) - 1 - n }

func (d *dfa) sparseNumber(e int32) int32 { return finalState(d.none()) - 1 - e }

func (d *dfa) sparse(e int32) bool { return e < finalState(d.none()) && !settled(e) }

// settledFloor bounds the settled entries from above: they lie in
// [math.MinInt32, settledFloor), where a row offset (< MaxBudget/4 = 1<<28)
// fits twice. Every sparse entry is above it: patterns are fewer than 1<<29
// (1<<17 in 500 KiB) and states fewer than MaxBudget/stateOverhead < 1<<25.
const settledFloor = math.MinInt32 + 1<<29

// settledEntry is the entry that names the row of a settled state from the
// row of a state that is not settled, with the low bit set when it allows.
func settledEntry(row int32, allow bool) int32 {
	e := math.MinInt32 + row<<1
	if allow {
		e |= 1
	}
	return e
}

// settled reports whether entry e is a settled entry; settledRow and
// settledAllows decode one.
func settled(e int32) bool       { return e < settledFloor }
func settledRow(e int32) int32   { return (e - math.MinInt32) >> 1 }
func settledAllows(e int32) bool { return e&1 != 0 }

// stored returns the entry to store in state n's row for a transition to
// entry e: a settled entry when e is the row of a settled state and n is
// not settled, e otherwise. d.mu must be held.
func (d *dfa) stored(n, e int32) int32 {
	if e < 0 || d.states[n].settled {
		return e
	}
	to := &d.states[d.number(e)]
	if !to.settled {
		return e
	}
	return settledEntry(e, d.allows(to.best))
}

// loaded returns the entry that table entry e stands for.
func loaded(e int32) int32 {
	if settled(e) {
		return settledRow(e)
	}
	return e
}

func (d *dfa) entry(n int32) int32 {
	if row := d.rowOf(n); row >= 0 {
		return row
	}
	return d.sparseEntry(n)
}

// number returns the number of the live state that entry e names. d.mu
// must be held.
func (d *dfa) number(e int32) int32 {
	if e >= 0 {
		return d.table.Load().trans[e+d.stride-1]
	}
	return d.sparseNumber(e)
}

// resolve returns entry e, or the row that the sparse state it names has
// since got. d.mu must be held.
func (d *dfa) resolve(e int32) int32 {
	if !d.sparse(e) {
		return e
	}
	return d.entry(d.number(e))
}

// known returns the built transition of state n on class cls, if any,
// rewriting a stale sparse entry to its row. d.mu must be held.
func (d *dfa) known(n, cls int32) (int32, bool) {
	if row := d.rowOf(n); row >= 0 {
		trans := d.table.Load().trans
		i := row + cls
		e := atomic.LoadInt32(&trans[i])
		if e == unknown {
			return 0, false
		}
		e = loaded(e)
		if r := d.resolve(e); r != e {
			atomic.StoreInt32(&trans[i], d.stored(n, r))
			e = r
		}
		return e, true
	}
	e := d.edgeCols.Load()
	if i := findEdge(e, d.cols.Load().head[n], cls); i >= 0 {
		to := d.resolve(e.to[i])
		if to != e.to[i] {
			atomic.StoreInt32(&e.to[i], to)
		}
		return to, true
	}
	return 0, false
}

// record stores the transition of state n on class cls to entry next; false
// when the budget refuses it. d.mu must be held.
func (d *dfa) record(n, cls, next int32) bool {
	if row := d.rowOf(n); row >= 0 {
		atomic.StoreInt32(&d.table.Load().trans[row+cls], d.stored(n, next))
		return true
	}
	if !d.fits(sparseEdgeBytes) {
		d.full.Store(true)
		return false
	}
	d.charge(sparseEdgeBytes)
	d.addEdge(n, uint8(cls), next)
	return true
}

// visit counts a byte read in sparse state n and gives it its row the
// rowAfter-th time. d.mu must be held, but checks count without it.
func (d *dfa) visit(n int32) {
	at := &d.cols.Load().rank[n]
	rank := atomic.LoadInt32(at)
	if rank >= 0 {
		return
	}
	if !countVisit(at, rank) && visitsOf(rank)+1 < rowAfter {
		return
	}
	if !d.rowsFull.Load() && !d.giveRow(n) {
		d.rowsFull.Store(true)
	}
}

// giveRow gives state n its row, filled with the transitions it has; false
// when the row would pass the budget. d.mu must be held.
func (d *dfa) giveRow(n int32) bool {
	newLen := d.tableLen(d.rows+1, d.budget-d.used-d.replayed)
	cost := (newLen - len(d.table.Load().trans)) * 4
	if !d.fits(cost) {
		return false
	}
	d.charge(cost)
	trans := d.growTable(newLen)
	row := int32(d.rows) * d.stride
	d.rows++
	end := d.endOf(n)
	trans[row+d.stride-2] = d.endEntry(end)
	trans[row+d.stride-1] = n
	if c := d.prog.nulClass; c >= 0 {
		trans[row+c] = finalState(end)
	}
	e := d.edgeCols.Load()
	for i := d.cols.Load().head[n]; i >= 0; i = e.next[i] {
		trans[row+int32(e.class[i])] = d.stored(n, d.resolve(e.to[i]))
	}
	// No check can reach the row before an entry naming it, or the state's
	// rank, is stored atomically after these stores.
	d.setRow(n, row)
	return true
}

// tableLen returns the length the table needs to hold n rows, with a
// quarter to spare; near the budget it grows by half of spare, what the
// budget has left, so that it is copied a few times, not once per row, and
// half is left for states.
func (d *dfa) tableLen(n, spare int) int {
	have, need := len(d.table.Load().trans), n*int(d.stride)
	if need <= have {
		return have
	}
	if roomy := need + need/4; (roomy-have)*4 <= spare {
		return roomy
	}
	stride := int(d.stride)
	return max(need, have+spare/8/stride*stride)
}

// growTable returns the table, grown to length n, publishing a copy. An
// old table never gains a row, so every offset in a table is a row in it.
func (d *dfa) growTable(n int) []int32 {
	trans := d.table.Load().trans
	if n > len(trans) {
		grown := make([]int32, n)
		copy(grown, trans)
		for i := len(trans); i < len(grown); i++ {
			grown[i] = unknown
		}
		d.table.Store(&table{trans: grown, class: &d.prog.class, sparseTop: finalState(d.none())})
		trans = grown
	}
	return trans
}
