//go:build !robotschecked

package automaton

import (
	"sync/atomic"
	"unsafe"
)

// tableEntry returns trans[s+cls], the transition of the state whose row is
// s on byte class cls, loaded atomically as a uint32: every special entry
// (unknown, final, sparse, settled) is negative as an int32 and so at least
// 1<<31 as a uint32, which needs no sign extension. It is walk's one read
// of the table.
//
// In this, the default build, it reads through a raw pointer with no bounds
// check. The read stays in bounds because every live state walk is given
// or reads is a row offset within the table it reads (an old table never
// gains a row) and every class is below the stride. Built with the tag
// robotschecked, read_checked.go's tableEntry checks every read instead.
// The address is computed as (base + 4cls) + 4s so that in walk the class,
// which does not depend on the state, is added off the loop-carried chain.
func tableEntry(trans []int32, s, cls uint) uint {
	return uint(atomic.LoadUint32((*uint32)(unsafe.Add(unsafe.Add(unsafe.Pointer(unsafe.SliceData(trans)), cls*4), s*4))))
}
