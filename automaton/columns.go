package automaton

import "sync/atomic"

// What checks read of sparse states and their transitions is kept in
// columns that they read without the mutex. A full column is replaced by a
// longer copy published with one atomic store, never grown in place; an
// element is written before anything that names it is stored, so a check
// finds it, or finds its index past the end of older columns and takes the
// locked path. Elements change later only by atomic stores from less built
// to more, so older columns show an earlier, still true, automaton.
//
// A state's row and its visits share one word (rank), so that counting a
// visit by compare-and-swap can never overwrite a row given meanwhile.

// stateCols are the columns of states, indexed by state number.
type stateCols struct {
	rank []int32 // the row offset, or -1-visits while sparse
	head []int32 // the first sparse transition, -1 for none
	end  []int32 // the verdict if the input ends in the state
}

// edgeCols are the columns of sparse transitions: a state's form a list
// from its head.
type edgeCols struct {
	to    []int32 // the entry the transition leads to
	next  []int32 // the state's next transition, -1 for none
	class []uint8 // the byte class it reads
}

const firstColumns = 2

func grownLen(n int) int { return max(2*n, firstColumns) }

func newStateCols(n int) *stateCols {
	return &stateCols{rank: make([]int32, n), head: make([]int32, n), end: make([]int32, n)}
}

func newEdgeCols(n int) *edgeCols {
	return &edgeCols{to: make([]int32, n), next: make([]int32, n), class: make([]uint8, n)}
}

// addStateCols sets the columns of new state n. d.mu must be held.
func (d *dfa) addStateCols(n, end int32) {
	c := d.cols.Load()
	if int(n) == len(c.rank) {
		grown := newStateCols(grownLen(len(c.rank)))
		for i := range c.rank {
			// Checks may be counting visits in the old columns.
			grown.rank[i] = atomic.LoadInt32(&c.rank[i])
		}
		copy(grown.head, c.head)
		copy(grown.end, c.end)
		d.cols.Store(grown)
		c = grown
	}
	c.rank[n], c.head[n], c.end[n] = -1, -1, end
}

// rowOf returns state n's row offset, -1 while it is sparse.
func (d *dfa) rowOf(n int32) int32 {
	return max(atomic.LoadInt32(&d.cols.Load().rank[n]), -1)
}

// setRow publishes state n's row, complete.
func (d *dfa) setRow(n, row int32) { atomic.StoreInt32(&d.cols.Load().rank[n], row) }

func (d *dfa) endOf(n int32) int32 { return d.cols.Load().end[n] }

// countVisit counts a visit to a sparse state, whose rank was loaded from
// at, unless the CAS loses; it reports whether rowAfter had been reached.
func countVisit(at *int32, rank int32) (reached bool) {
	if visits := -1 - rank; visits >= rowAfter {
		return true
	}
	atomic.CompareAndSwapInt32(at, rank, rank-1)
	return false
}

func visitsOf(rank int32) int32 { return -1 - rank }

// addEdge adds a transition of state n on class cls to entry to, in front
// of its list. d.mu must be held.
func (d *dfa) addEdge(n int32, cls uint8, to int32) {
	e := d.edgeCols.Load()
	i := d.nedges
	if int(i) == len(e.to) {
		grown := newEdgeCols(grownLen(len(e.to)))
		for j := range e.to {
			grown.to[j] = atomic.LoadInt32(&e.to[j])
		}
		copy(grown.next, e.next)
		copy(grown.class, e.class)
		d.edgeCols.Store(grown)
		e = grown
	}
	c := d.cols.Load()
	e.to[i], e.next[i], e.class[i] = to, c.head[n], cls
	d.nedges++
	atomic.StoreInt32(&c.head[n], i)
}

// findEdge returns the index of the transition on class cls in the list
// that starts at head, or -1; -1 too when e is older than the list.
func findEdge(e *edgeCols, head, cls int32) int32 {
	for i := head; i >= 0; i = e.next[i] {
		if int(i) >= len(e.to) {
			return -1
		}
		if int32(e.class[i]) == cls {
			return i
		}
	}
	return -1
}

func (d *dfa) edgeBytes() int { return sparseEdgeBytes * int(d.nedges) }
