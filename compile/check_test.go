package compile

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/automaton"
)

// TestColdChecksCountToHotAfter checks the count that sends a rule set
// to its automaton: HotAfter cold checks build nothing, the next builds
// it, and checks that race are never counted more than once each, so
// that they reach HotAfter no earlier than checks made in turn.
func TestColdChecksCountToHotAfter(t *testing.T) {
	f := Parse([]byte("User-agent: *\nDisallow: /private/\nAllow: /private/ok\nDisallow: /*.pdf$\n"), Options{})
	paths := []string{"/private/x", "/a/b.pdf", "/private/ok", "/index.html"}

	rs := f.Compile(f.Resolve(), automaton.Options{})
	for i := range HotAfter {
		rs.Decide(paths[i%len(paths)], "", "")
	}
	require.Nil(t, rs.set.Load(), "HotAfter cold checks build no automaton")
	assert.Equal(t, int32(HotAfter), rs.checks.Load())
	assert.False(t, rs.Decide("/private/x", "", "").Allowed())
	assert.NotNil(t, rs.set.Load(), "the check after HotAfter builds the automaton")

	rs = f.Compile(f.Resolve(), automaton.Options{})
	const workers = 8
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range HotAfter / workers {
				p := paths[(i+w)%len(paths)]
				assert.Equal(t, p != "/private/x" && p != "/a/b.pdf", rs.Decide(p, "", "").Allowed(), p)
			}
		})
	}
	wg.Wait()
	assert.Nil(t, rs.set.Load(), "HotAfter checks from %d goroutines build no automaton", workers)
	n := rs.checks.Load()
	assert.Positive(t, n)
	assert.LessOrEqual(t, n, int32(HotAfter), "no check is counted twice")
}
