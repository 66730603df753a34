package automaton

import "sync/atomic"

// table is one version of the transition table (rows.go), as checks read
// it: growing the table publishes a new version, and a check keeps the
// version it started on.
//
// Every read of it is a Go slice index, bounds-checked: a state a bug
// made out of the table panics instead of reading past it. The index's
// bounds check is also the test that leaves the walk: every entry that is
// not a row (a special, rows.go) is negative, so as an unsigned offset it
// is past every table, and the walk needs no test of its own.
type table struct {
	trans []int32
	class *[256]uint8
	// sparseTop bounds the sparse entries from above (rows.go): the
	// final state of no pattern.
	sparseTop int32
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
func (t *table) walkFrom(s int32, in string, toFragment bool) (st int32, n int, next int32) {
	var cur uint
	if toFragment {
		cur, n = t.runToFragment(uint(uint32(s)), in)
	} else {
		cur, n = t.run(uint(uint32(s)), in)
	}
	switch {
	case int32(cur) < 0: // the transition on in[n-1] left the rows
		return t.left(s, in, n-1, int32(cur))
	case n < len(in) && !(toFragment && in[n] == '#'):
		panic("automaton: a row offset past the transition table")
	}
	return int32(cur), n, 0
}

// run is walkFrom's loop, the hot loop of every check: from row cur, it
// follows the entries of in's bytes while they name rows, one table load
// per byte, and returns the entry reached and the bytes read.
func (t *table) run(cur uint, in string) (uint, int) {
	trans, class := t.trans, t.class
	for i := 0; i < len(in); i++ {
		j := cur + uint(class[in[i]])
		if j >= uint(len(trans)) {
			return cur, i
		}
		cur = uint(uint32(atomic.LoadInt32(&trans[j])))
	}
	return cur, len(in)
}

// runToFragment is run stopping at a '#' too.
func (t *table) runToFragment(cur uint, in string) (uint, int) {
	trans, class := t.trans, t.class
	for i := 0; i < len(in); i++ {
		b := in[i]
		j := cur + uint(class[b])
		if j >= uint(len(trans)) || b == '#' {
			return cur, i
		}
		cur = uint(uint32(atomic.LoadInt32(&trans[j])))
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
	st, _ := t.run(uint(uint32(s)), in[:n])
	return int32(st), n, e
}
