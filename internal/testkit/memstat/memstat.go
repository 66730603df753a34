// Package memstat reads the heap figures the memory tests hold the library
// to: the live heap after a full collection, and the bytes a call
// allocates. It is for tests; nothing in the library imports it.
package memstat

import (
	"math"
	"runtime"
)

// Live returns the live heap after a full collection. It collects twice:
// the second also frees what the first only finalised or moved out of
// sync.Pool's victim caches.
func Live() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// Allocated returns the bytes the process has allocated so far, exactly:
// ReadMemStats flushes the per-thread caches that runtime/metrics reads
// only in whole spans.
func Allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// AllocatedBy returns the bytes fn allocates: the least of two runs,
// since whatever else runs meanwhile can only add to the count.
func AllocatedBy(fn func()) uint64 {
	least := uint64(math.MaxUint64)
	for range 2 {
		before := Allocated()
		fn()
		least = min(least, Allocated()-before)
	}
	return least
}
