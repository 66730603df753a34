package automaton

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuiltReadsTakeNoLock checks paths whose states are built and
// sparse while the mutex is held elsewhere: the checks read the built
// transitions without it. (Only building takes it, and giving a state
// its row, which these checks do not reach: each state of a path of
// literals is read once per check, and they check it fewer than rowAfter
// times.)
func TestBuiltReadsTakeNoLock(t *testing.T) {
	ps := []Pattern{
		{Expr: "/private/", Priority: 9},
		{Expr: "/private/ok", Allow: true, Priority: 11, ID: 1},
		{Expr: "/pub", Priority: 4, ID: 2},
	}
	simple := reference(ps)
	for _, path := range []string{"/privat", "/private/o", "/private/ok", "/private/x", "/pu", "/pubs", "/q", "/"} {
		set := NewSet(ps, Options{})
		set.Decide(path) // builds its states: one visit each
		decideWhileLocked(t, set, simple, path, rowAfter-2)
	}
}

// decideWhileLocked checks path n times against simple while it holds the
// mutex of set's automaton, failing if a check waits for it.
func decideWhileLocked(t *testing.T, set *Set, simple reference, path string, n int) {
	t.Helper()
	d := set.dfa
	d.mu.Lock()
	defer d.mu.Unlock()
	done := make(chan error)
	go func() {
		for range n {
			got, gotOK := set.Decide(path)
			if want, wantOK := simple.Decide(path); got != want || gotOK != wantOK {
				done <- fmt.Errorf("path %q: %v %+v, want %v %+v", path, gotOK, got, wantOK, want)
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(time.Minute):
		t.Fatalf("path %q: a check waited for the mutex", path)
	}
}

// TestColumnsGrowUnderReads checks many goroutines against a set whose
// columns grow as they read (far more states and transitions than the
// first columns hold), each check against the simple matcher (run it
// with -race).
func TestColumnsGrowUnderReads(t *testing.T) {
	var ps []Pattern
	for i := range 30 {
		ps = append(ps, Pattern{Expr: fmt.Sprintf("/%c*%c/", 'a'+i%26, 'a'+(i*7)%26), Allow: i%3 == 0, Priority: int32(10 + i), ID: int32(i)})
	}
	var paths []string
	for i := range 300 {
		paths = append(paths, fmt.Sprintf("/%c%c/%d/%c", 'a'+i%26, 'a'+(i*5)%26, i, 'a'+(i*3)%26))
	}
	set, simple := NewSet(ps, Options{}), reference(ps)
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range rowAfter + 1 {
				for i := range paths {
					p := paths[(i+g*50+round)%len(paths)]
					got, gotOK := set.Decide(p)
					if want, wantOK := simple.Decide(p); got != want || gotOK != wantOK {
						t.Errorf("path %q: %v %+v, want %v %+v", p, gotOK, got, wantOK, want)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	st := set.Stats()
	assert.Greater(t, st.States, 8*firstColumns, "the state columns grew, three times at least")
	assert.Greater(t, st.EdgeBytes/sparseEdgeBytes, 8*firstColumns, "the transition columns grew, three times at least")
}

// TestStatesLeftSparseTakeNoLock: once the budget has refused a row
// (rowsFull), states that checks keep visiting stay sparse, and reading
// them takes no mutex however often they are read.
func TestStatesLeftSparseTakeNoLock(t *testing.T) {
	ps := []Pattern{
		{Expr: "/private/", Priority: 9},
		{Expr: "/private/ok", Allow: true, Priority: 11, ID: 1},
	}
	simple := reference(ps)
	for _, path := range []string{"/private/o", "/private/ok", "/q"} {
		set := NewSet(ps, Options{})
		set.Decide(path)             // builds its states: one visit each
		set.dfa.rowsFull.Store(true) // as giveRow does when the budget refuses a row
		decideWhileLocked(t, set, simple, path, 4*rowAfter)
	}
}
