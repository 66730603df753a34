package automaton

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"unsafe"
)

// BenchmarkLoadChain measures the floor of walk on this machine: a chain
// of loads in which each address comes from the load before, read as walk
// reads the table (an atomic load through a pointer), over a 4 KiB table
// that stays in the L1 cache, as a rule set's rows do. Its ns/load is the
// least a check costs per byte of the path while it reads one entry per
// byte; docs/benchmarks.md compares the `*` group's checks with it.
func BenchmarkLoadChain(b *testing.B) {
	const entries = 1024
	// A random cycle through every entry, so no prefetcher guesses the next.
	order := rand.New(rand.NewPCG(1, 2)).Perm(entries)
	next := make([]uint32, entries)
	for i, e := range order {
		next[e] = uint32(order[(i+1)%entries])
	}
	base := unsafe.Pointer(unsafe.SliceData(next))
	const chain = 256
	cur := uint(0)
	b.ResetTimer()
	for range b.N {
		for range chain {
			cur = uint(atomic.LoadUint32((*uint32)(unsafe.Add(base, cur*4))))
		}
	}
	b.StopTimer()
	if cur >= entries {
		b.Fatal("the chain left the table")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chain), "ns/load")
}
