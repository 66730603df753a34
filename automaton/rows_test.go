package automaton

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRowAfter checks that a state gets its row of the table the
// rowAfter-th time a check reads a byte in it or ends in it, and not
// before: until then its transitions are sparse, and cost
// sparseEdgeBytes each.
func TestRowAfter(t *testing.T) {
	// Each byte of the path leads to a state of its own.
	ps := []Pattern{{Expr: "/abcdefgh", Priority: 9}, {Expr: "/*.pdf$", Allow: true, Priority: 7, ID: 1}}
	set := NewSet(ps, Options{})
	require.Equal(t, 1, set.Stats().Rows, "only the start state has a row at first")
	const path = "/abcdef"
	for i := 1; i < rowAfter; i++ {
		set.Decide(path)
		st := set.Stats()
		assert.Equal(t, 1, st.Rows, "after %d checks", i)
		assert.Equal(t, sparseEdgeBytes*(len(path)-1), st.EdgeBytes, "one sparse transition per byte read after the start state")
	}
	set.Decide(path)
	st := set.Stats()
	assert.Equal(t, 1+len(path), st.Rows, "every state of the path has its row after %d checks", rowAfter)
	assert.GreaterOrEqual(t, st.TableBytes, st.Rows*(st.Classes+2)*4)
	assert.Equal(t, 0.0, testing.AllocsPerRun(10, func() { set.Decide(path) }), "a path whose states have rows is walked without allocating")
}

// TestRowsAgreeWithSparse checks every way a check can cross between
// sparse states and rows: random paths, each decided rowAfter+1 times so
// that its states change kind midway, against the simple matcher, with
// entries naming sparse states that got rows since.
func TestRowsAgreeWithSparse(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	for range 100 {
		ps := randomPatterns(r, 1+r.IntN(20))
		set, simple := NewSet(ps, Options{}), reference(ps)
		paths := make([]string, 30)
		for i := range paths {
			paths[i] = "/" + randomString(r, "ab%$/c", r.IntN(30))
		}
		for range rowAfter + 1 {
			for _, p := range paths {
				checkAgainstReference(t, set, simple, p, ps)
			}
		}
	}
}

// TestRowRefusedStaysSparse checks that a row the budget refuses leaves
// its state sparse, deciding as before, without sending checks to the
// scanner: a sparse state decides as well as one with a row.
func TestRowRefusedStaysSparse(t *testing.T) {
	ps := []Pattern{{Expr: "/" + strings.Repeat("a", 40) + "$", Priority: 42}, {Expr: "/*a", Allow: true, Priority: 3, ID: 1}}
	path := "/" + strings.Repeat("a", 39)
	probe := NewSet(ps, Options{})
	for range rowAfter - 1 {
		probe.Decide(path)
	}
	// Every state and sparse transition is built, and only the start state
	// has a row: the budget leaves room for less than two more rows.
	st := probe.Stats()
	require.Equal(t, 1, st.Rows)
	budget := st.Bytes + st.ReplayedBytes + 4*(st.Classes+2) - 1
	set, simple := NewSet(ps, Options{Budget: budget}), reference(ps)
	for range 2 * rowAfter {
		checkAgainstReference(t, set, simple, path, ps)
	}
	small := set.Stats()
	assert.False(t, small.Full, "no state was refused")
	probe.Decide(path)
	assert.Less(t, small.Rows, probe.Stats().Rows, "some rows were refused")
	assert.LessOrEqual(t, small.Bytes+small.ReplayedBytes, budget)
}

// TestStateOverheadCoversBookkeeping checks that stateOverhead, the bytes
// the budget counts per state besides its row, transitions and kernel,
// holds its stateInfo, its elements of the columns (columns.go: three
// int32) and its most slots of the index: the index doubles when more
// than three quarters full, so it holds at most 8/3 slots of 4 bytes per
// state.
func TestStateOverheadCoversBookkeeping(t *testing.T) {
	columns := 3 * int(unsafe.Sizeof(int32(0))) // stateCols: rank, head, end
	info := int(unsafe.Sizeof(stateInfo{})) + columns
	assert.LessOrEqual(t, info+(8*4+2)/3, stateOverhead)
	set := NewSet([]Pattern{{Expr: "/" + strings.Repeat("ab", 200), Priority: 401}}, Options{})
	set.Decide("/" + strings.Repeat("ab", 200))
	d := set.dfa
	assert.LessOrEqual(t, 4*len(d.slots), len(d.states)*(stateOverhead-info), "the index of %d states", len(d.states))
}

// TestTableLenNearTheBudget checks how the table grows for one more row:
// by a quarter more than the rows need while the budget has room, by half
// of what is left (in whole rows) when it has not, so that rows given near
// the budget do not copy the table once each, and by just the row needed
// when even that half is less.
func TestTableLenNearTheBudget(t *testing.T) {
	d := NewSet([]Pattern{{Expr: "/ab*c", Priority: 5}}, Options{}).dfa
	stride := int(d.stride)
	d.mu.Lock()
	d.growTable(100 * stride)
	d.mu.Unlock()
	const have = 100
	tests := []struct {
		name  string
		rows  int
		spare int // bytes
		want  int // entries
	}{
		{"fits", have, 0, have * stride},
		{"a quarter more", have + 1, 1 << 20, (have + 1) * stride * 5 / 4},
		{"half of what is left", have + 1, 4 * 20 * stride, (have + 10) * stride},
		{"just the row needed", have + 1, 4 * stride, (have + 1) * stride},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, d.tableLen(tt.rows, tt.spare), tt.name)
	}
}

// TestSettledStateStopsTheWalk checks that a check which only asks whether
// the path is allowed stops at the first settled state, and that one which
// asks for the deciding pattern reads on from it without stopping again.
func TestSettledStateStopsTheWalk(t *testing.T) {
	ps := []Pattern{
		{Expr: "/a*z", Priority: 4, ID: 0},              // longer: outranks /a once it matches
		{Expr: "/b*c", Allow: true, Priority: 4, ID: 1}, // the only pattern under /b
		{Expr: "/a", Priority: 2, ID: 2},
	}
	tests := []struct {
		path    string
		stopAt  int // the byte whose transition is settled
		allowed bool
		decider int32 // ID of the deciding pattern, -1 for none
	}{
		// After "/a" the best is the disallow /a, and only the disallow
		// /a*z is live: whatever follows, the path is disallowed.
		{"/axxxxxxz", 1, false, 0},
		{"/axxxxxxy", 1, false, 2},
		// After "/b" only the allow /b*c is live and none matched yet:
		// whatever follows, the path is allowed.
		{"/bxxxxxxc", 1, true, 1},
		{"/bxxxxxxd", 1, true, -1},
	}
	set := NewSet(ps, Options{})
	for range rowAfter + 1 {
		for _, tt := range tests {
			set.Decide(tt.path)
		}
	}
	d := set.dfa
	tab := d.table.Load()
	for _, tt := range tests {
		st, n, next := tab.walkFrom(d.start, tt.path, false)
		require.Equal(t, tt.stopAt, n, "%s: the walk stops where the verdict settles", tt.path)
		require.True(t, settled(next), "%s: the transition is a settled entry", tt.path)
		assert.Equal(t, tt.allowed, settledAllows(next), tt.path)
		assert.Equal(t, int32(-1), st, "%s: a settled stop needs no state", tt.path)
		rest := tt.path[n+1:]
		if _, m, after := tab.walkFrom(settledRow(next), rest, false); m < len(rest) {
			assert.True(t, d.final(after), "%s: after the settled state, the walk stops only at the end or a final state, not at %d", tt.path, after)
		}

		assert.Equal(t, tt.allowed, set.Allowed(tt.path, ""), tt.path)
		p, ok := set.Decide(tt.path)
		if tt.decider < 0 {
			assert.False(t, ok, "%s: no pattern decides", tt.path)
		} else {
			assert.True(t, ok, tt.path)
			assert.Equal(t, tt.decider, p.ID, "%s: the deciding pattern, read past the settled state", tt.path)
		}
	}
}

// TestSettledEntriesRoundTrip checks the settled entries' encoding at the
// ends of its range, and that no other entry falls in it: unknown, final
// states and the lowest sparse entry the limits allow.
func TestSettledEntriesRoundTrip(t *testing.T) {
	for _, row := range []int32{0, 55, MaxBudget/4 - 1} {
		for _, allow := range []bool{false, true} {
			e := settledEntry(row, allow)
			assert.True(t, settled(e), "row %d", row)
			assert.Equal(t, row, settledRow(e))
			assert.Equal(t, allow, settledAllows(e))
			assert.Equal(t, row, loaded(e))
		}
	}
	const patterns = 1<<29 - 1
	d := &dfa{prog: &prog{patterns: make([]Pattern, 0)}}
	lowestSparse := finalState(patterns) - 1 - MaxBudget/stateOverhead
	for _, e := range []int32{unknown, finalState(0), finalState(patterns), lowestSparse, 0} {
		assert.False(t, settled(e), "entry %d", e)
		assert.Equal(t, e, loaded(e))
	}
	assert.False(t, d.sparse(settledEntry(0, true)), "a settled entry is not sparse")
}
