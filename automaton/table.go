package automaton

import "sync/atomic"

// table is one version of the transition table (rows.go), as checks read
// it: growing the table publishes a new version, and a check keeps the
// version it started on.
//
// Every read of it is a Go slice index, bounds-checked: a state a bug
// made out of the table panics instead of reading past it. The check
// costs the walk nothing because of the layout of next: next[b] is
// trans[class[b]:], so the entry of row s on byte b is next[b][s], and
// the one comparison the index makes, s against len(next[b]), is also
// the one that leaves the walk, since every entry that is not a row (a
// special, rows.go) is negative, past every length as an unsigned index.
// The walk's loop-carried chain is then the load alone, as it would be
// through a raw pointer; with the class added to the state before the
// index, as trans[s+class[b]], checks were about a fifth slower.
type table struct {
	trans []int32
	// next[b] is trans[class[b]:], except next['#'], which is empty: a
	// walk that stops at a fragment (walkFrom with toFragment) stops
	// there with no test of its own, and the others read the '#' entry
	// through trans.
	next  [256][]int32
	class *[256]uint8
	// sparseTop bounds the sparse entries from above (rows.go): the
	// final state of no pattern.
	sparseTop int32
}

// tableBytes is the memory of a table besides trans: the views of next.
const tableBytes = 256*24 + 32

// newTable returns the version of the table whose entries are trans.
func newTable(trans []int32, class *[256]uint8, sparseTop int32) *table {
	t := &table{trans: trans, class: class, sparseTop: sparseTop}
	for b := range t.next {
		if b != '#' && int(class[b]) < len(trans) {
			t.next[b] = trans[class[b]:]
		}
	}
	return t
}

// at returns the entry of row s on byte class cls.
func (t *table) at(s, cls int32) int32 { return atomic.LoadInt32(&t.trans[s+cls]) }

// walkFrom follows the transitions of rows from live state s over in. It
// stops at the end of in, returning the state reached and n == len(in),
// or at the first byte in[n] whose transition is not a live state with a
// row, returning that transition (unknown, final, sparse or settled) and,
// when it is unknown or sparse, the state before in[n], where building
// goes on (-1 otherwise). With toFragment, it stops at in's first '#'
// too, before its transition, returning n with in[n] == '#' and next 0.
//
// It is the hot loop of every check: one table load per byte, and one
// comparison to leave the loop, which is the load's bounds check.
func (t *table) walkFrom(s int32, in string, toFragment bool) (st int32, n int, next int32) {
	cur, n := t.run(uint(uint32(s)), in)
	for n < len(in) && int32(cur) >= 0 {
		// in[n] is a '#' (or cur a row past the table, a bug the read
		// below panics on).
		if toFragment && in[n] == '#' {
			return int32(cur), n, 0
		}
		cur = uint(uint32(t.at(int32(cur), int32(t.class[in[n]]))))
		var m int
		cur, m = t.run(cur, in[n+1:])
		n += 1 + m
	}
	if int32(cur) < 0 { // the transition on in[n-1] left the rows
		return t.left(s, in, n-1, int32(cur))
	}
	return int32(cur), n, 0
}

// run is walkFrom's loop: it follows the entries of row cur over in while
// next indexes them, and returns the entry reached and the bytes read.
func (t *table) run(cur uint, in string) (uint, int) {
	_ = t.next // one nil check, before the loop
	for i := 0; i < len(in); i++ {
		if row := t.next[in[i]]; cur < uint(len(row)) {
			cur = uint(uint32(atomic.LoadInt32(&row[cur])))
			continue
		}
		return cur, i
	}
	return cur, len(in)
}

// left returns walkFrom's answer for a walk from s whose transition on
// in[n] left the rows, to entry e. The loop keeps no state but the one it
// is in, so the state before in[n] is found again, by walking in[:n],
// when the caller needs it: entries of rows never change once they name a
// row, so the walk reaches the same state.
func (t *table) left(s int32, in string, n int, e int32) (int32, int, int32) {
	if e != unknown && (e >= t.sparseTop || settled(e)) {
		return -1, n, e // final or settled: the verdict needs no state
	}
	st, _, _ := t.walkFrom(s, in[:n], false)
	return st, n, e
}
