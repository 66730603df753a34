//go:build robotschecked

package automaton

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckedReadPanicsOutOfTable checks that, built with the tag
// robotschecked, a read of the transition table outside it panics with
// outOfTable's message, at the table's last entry + 1 and beyond, and that
// the last entry itself reads: the checked build checks something.
func TestCheckedReadPanicsOutOfTable(t *testing.T) {
	set := NewSet([]Pattern{{Expr: "/a*b", Priority: 4}}, Options{})
	d := set.dfa
	trans := *d.trans.Load()
	n, stride := uint(len(trans)), uint(d.stride)
	require.GreaterOrEqual(t, n, stride, "the start state has a row")
	// From offset last, the widest class reads the table's last entry (the
	// table may hold spare entries past its last row).
	last := n - stride
	assert.Equal(t, uint(uint32(trans[n-1])), tableEntry(trans, last, stride-1), "the last entry of the table reads")
	tests := []struct {
		name   string
		s, cls uint
	}{
		{"one past the last entry", last, stride},
		{"a row past the table", n, 0},
		{"far past the table", 1 << 30, 7},
	}
	for _, tt := range tests {
		msg := fmt.Sprintf("automaton: transition table read out of range: entry %d (row offset %d + class %d) of a table of %d entries", tt.s+tt.cls, tt.s, tt.cls, n)
		assert.PanicsWithError(t, msg, func() { tableEntry(trans, tt.s, tt.cls) }, tt.name)
	}
}

// TestCheckedWalkPanicsOnCorruptTable checks that a check walking a
// corrupted table panics, built with the tag robotschecked, instead of
// reading past it: the start state's transition on '/' is made to name a
// row just past the table's end, as a bug in building rows could.
func TestCheckedWalkPanicsOnCorruptTable(t *testing.T) {
	set := NewSet([]Pattern{{Expr: "/a*b", Priority: 4}}, Options{})
	d := set.dfa
	trans := *d.trans.Load()
	past := int32(len(trans))
	trans[d.start+int32(d.prog.class['/'])] = past
	cls := uint(d.prog.class['a'])
	msg := fmt.Sprintf("automaton: transition table read out of range: entry %d (row offset %d + class %d) of a table of %d entries", uint(past)+cls, past, cls, len(trans))
	assert.PanicsWithError(t, msg, func() { set.Allowed("/ab", "") }, "Set.Allowed")
	assert.PanicsWithError(t, msg, func() { set.Decide("/ab") }, "Set.Decide")
}
