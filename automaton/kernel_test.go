package automaton

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReplayLimit checks that a path through new states stores a kernel
// every replayLimit states and replays the rest, and that no state is
// replayLimit or more steps from a stored kernel.
func TestReplayLimit(t *testing.T) {
	ps := []Pattern{{Expr: "/" + strings.Repeat("ab", 40), Priority: 81}, {Expr: "/*b$", Allow: true, Priority: 4, ID: 1}}
	set := NewSet(ps, Options{})
	set.Decide("/" + strings.Repeat("ab", 3*replayLimit))
	d := set.dfa
	stored := 0
	for _, info := range d.states {
		assert.Less(t, info.chain, uint8(replayLimit))
		if info.kernel >= 0 {
			stored++
			assert.Zero(t, info.chain, "a stored kernel starts a chain")
		}
	}
	states := len(d.states)
	require.Equal(t, 2+6*replayLimit, states, "the start state, then a state per byte of the path")
	assert.Equal(t, 1+6, stored, "the start state, then one state in replayLimit of the path's")
}

// TestReplayedKernelsMatch checks that replaying a state gives the
// positions it was built with: for every state of random sets and paths,
// the kernel replayed from its stored ancestor, with nothing kept from
// the last state built, hashes as the state did when it was added.
func TestReplayedKernelsMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 15))
	for range 100 {
		ps := randomPatterns(r, 1+r.IntN(20))
		set := NewSet(ps, Options{})
		for range 20 {
			set.Decide("/" + randomString(r, "ab%$/c", r.IntN(40)))
		}
		d := set.dfa
		d.mu.Lock()
		for n := range int32(len(d.states)) {
			d.memo.state = -1
			info := d.states[n]
			kernel := d.kernelOf(n)
			require.Equal(t, info.hash, uint32(hashState(kernel, info.best)), "state %d (chain %d), patterns %v", n, info.chain, ps)
			assert.Equal(t, kernel, appendKernel(nil, d.prog, decodeKernel(nil, d.prog, kernel)), "a kernel decodes to the set it encodes")
		}
		d.mu.Unlock()
	}
}
