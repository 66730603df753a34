package automaton

import "sync/atomic"

// table is one version of the transition table (rows.go); a check keeps
// the version it started on. Every read is bounds-checked, so a bad state
// panics rather than reading past the table, and the bounds check also
// ends the walk: an entry that is not a row is negative, past every table
// as an unsigned offset.
//
// The walks hold an entry as a row, a uint64 whatever GOARCH is: a
// negative entry widened to 64 bits plus a byte class stays above 2^32,
// past every table, where a 32-bit uint would wrap to a small offset and
// walk rows that have nothing to do with the path.
type table struct {
	trans []int32
	class *[256]uint8
	// sparseTop bounds the sparse entries from above: finalState(none).
	sparseTop int32
}

// row is an entry of the table as the walks hold it: a uint64 on every
// architecture (see table).
type row = uint64

func (t *table) at(s, cls int32) int32 { return atomic.LoadInt32(&t.trans[s+cls]) }

// walkFrom follows the rows from live state s over in. It stops at the
// end of in, returning the state reached and n == len(in), or at the first
// byte in[n] whose transition is not a row, returning that transition and,
// when it is unknown or sparse, the state before in[n] (-1 otherwise).
// With toFragment, it stops before in's first '#' too, with next 0.
func (t *table) walkFrom(s int32, in string, toFragment bool) (st int32, n int, next int32) {
	var cur row
	if toFragment {
		cur, n = t.runToFragment(row(uint32(s)), in)
	} else {
		cur, n = t.run(row(uint32(s)), in)
	}
	switch {
	case int32(cur) < 0: // the transition on in[n-1] left the rows
		return t.left(s, in, n-1, int32(cur))
	case n < len(in) && !(toFragment && in[n] == '#'):
		panic("automaton: a row offset past the transition table")
	}
	return int32(cur), n, 0
}

// run is the hot loop of every check: from row cur, it follows in's bytes
// while they name rows, and returns the entry reached and the bytes read.
//
// It reads trans[cur+class] as trans[class:][cur]: the class is added to
// the table's base, beside the chain of loads, where cur+class put an add
// on the chain before every load. The bound is the same: cur is past
// trans[class:] exactly when cur+class is past trans, and a walk runs on
// a table that holds a row, so trans[class:] is never out of range.
func (t *table) run(cur row, in string) (row, int) {
	trans, class := t.trans, t.class[:] // a slice: one nil check here, none a byte
	for i := 0; i < len(in); i++ {
		tc := trans[class[in[i]]:]
		if cur >= row(len(tc)) {
			return cur, i
		}
		cur = row(uint32(atomic.LoadInt32(&tc[cur])))
	}
	return cur, len(in)
}

// runToFragment is run stopping at a '#' too.
func (t *table) runToFragment(cur row, in string) (row, int) {
	trans, class := t.trans, t.class[:] // a slice: one nil check here, none a byte
	for i := 0; i < len(in); i++ {
		b := in[i]
		tc := trans[class[b]:]
		if cur >= row(len(tc)) || b == '#' {
			return cur, i
		}
		cur = row(uint32(atomic.LoadInt32(&tc[cur])))
	}
	return cur, len(in)
}

// left returns walkFrom's answer for a walk from s that left the rows on
// in[n], to entry e. The state before in[n] is found again by walking
// in[:n]: an entry that names a row never changes.
func (t *table) left(s int32, in string, n int, e int32) (int32, int, int32) {
	if e != unknown && (e >= t.sparseTop || settled(e)) {
		return -1, n, e // final or settled: the verdict needs no state
	}
	st, _ := t.run(row(uint32(s)), in[:n])
	return int32(st), n, e
}
