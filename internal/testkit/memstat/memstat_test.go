package memstat

import "testing"

var sink []byte

// TestAllocatedBySeesAnAllocation checks that AllocatedBy counts at least
// what fn allocates and that Live sees a kept allocation.
func TestAllocatedBySeesAnAllocation(t *testing.T) {
	const n = 1 << 20
	if got := AllocatedBy(func() { sink = make([]byte, n) }); got < n {
		t.Errorf("AllocatedBy = %d, want at least %d", got, n)
	}
	sink = nil
	before := Live()
	sink = make([]byte, 8*n)
	// Whatever else the process held at the first reading and dropped
	// before the second (the testing package's own bookkeeping, tens of
	// bytes) comes off the growth; liveSlack leaves room for it.
	const liveSlack = 64 << 10
	if grown := Live() - before; grown < 8*n-liveSlack {
		t.Errorf("Live grew by %d while %d bytes were kept", grown, 8*n)
	}
	sink = nil
}
