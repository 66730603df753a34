package fetch

import (
	"runtime"
	"sync/atomic"
	"unsafe"
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
// Add goes to the stripe of its goroutine's stack, and Load sums them. The count is exact;
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

// Add counts one event, on the stripe of the calling goroutine's stack:
// goroutines run on stacks of their own, kilobytes apart, so the address
// of a local variable tells them apart at the cost of a multiplication
// (a stack that moves as it grows just moves to another stripe). The
// address is only turned into a number, never back into a pointer.
func (c *stripedCounter) Add() {
	var local byte
	h := uint32((uint64(uintptr(unsafe.Pointer(&local))>>10) * 0x9E3779B97F4A7C15) >> 32)
	c.stripes[h&c.mask].n.Add(1)
}

// Load returns the events counted.
func (c *stripedCounter) Load() int64 {
	var sum int64
	for i := range c.stripes {
		sum += c.stripes[i].n.Load()
	}
	return sum
}
