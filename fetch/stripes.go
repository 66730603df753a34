package fetch

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// maxStripes bounds a counter's memory and the cost of Load.
const maxStripes = 1024

// stripe pads a counter to two cache lines, against adjacent-line
// prefetch.
type stripe struct {
	n atomic.Int64
	_ [120]byte
}

// stripedCounter counts events that many goroutines record at once
// without a cache line they all write. The count is exact, but Load is not
// atomic with concurrent Adds.
type stripedCounter struct {
	stripes []stripe
	mask    uint32
}

func newStripedCounter() *stripedCounter {
	n := stripesFor(runtime.GOMAXPROCS(0))
	return &stripedCounter{stripes: make([]stripe, n), mask: uint32(n - 1)}
}

// stripesFor returns enough stripes that two goroutines rarely share one.
func stripesFor(procs int) int {
	n := 1
	for n < 4*procs && n < maxStripes {
		n *= 2
	}
	return n
}

// Add picks the stripe by the address of a local variable: goroutine
// stacks are kilobytes apart, so it tells goroutines apart cheaply. A
// stack that moves just moves to another stripe. The address is never
// turned back into a pointer.
func (c *stripedCounter) Add() {
	var local byte
	h := uint32((uint64(uintptr(unsafe.Pointer(&local))>>10) * 0x9E3779B97F4A7C15) >> 32)
	c.stripes[h&c.mask].n.Add(1)
}

func (c *stripedCounter) Load() int64 {
	var sum int64
	for i := range c.stripes {
		sum += c.stripes[i].n.Load()
	}
	return sum
}
