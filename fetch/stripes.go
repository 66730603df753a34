package fetch

import (
	"math/rand/v2"
	"runtime"
	"sync/atomic"
)

// maxStripes bounds the stripes of a hit counter: past it, more stripes
// would cost memory and Stats time for little less sharing.
const maxStripes = 1024

// stripe is one counter on a cache line (two, against adjacent-line
// prefetch) of its own.
type stripe struct {
	n atomic.Int64
	_ [120]byte
}

// stripedCounter counts events that many goroutines record at once, such
// as cache hits, without a cache line that every one of them writes: each
// Add goes to a stripe picked at random (the runtime's per-thread
// generator, no shared state), and Load sums them. The count is exact;
// only its reading, which sums, is not atomic with the adds under way.
type stripedCounter struct {
	stripes []stripe
	mask    uint32
}

// newStripedCounter returns a counter with four stripes per processor
// (GOMAXPROCS when called), a power of two, at most maxStripes, so that
// two goroutines rarely write one stripe at once.
func newStripedCounter() *stripedCounter {
	n := stripesFor(runtime.GOMAXPROCS(0))
	return &stripedCounter{stripes: make([]stripe, n), mask: uint32(n - 1)}
}

// stripesFor returns the stripes for procs processors: 4 × procs rounded
// up to a power of two, at most maxStripes.
func stripesFor(procs int) int {
	n := 1
	for n < 4*procs && n < maxStripes {
		n *= 2
	}
	return n
}

// Add counts one event.
func (c *stripedCounter) Add() { c.stripes[rand.Uint32()&c.mask].n.Add(1) }

// Load returns the events counted.
func (c *stripedCounter) Load() int64 {
	var sum int64
	for i := range c.stripes {
		sum += c.stripes[i].n.Load()
	}
	return sum
}
