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
	if grown := Live() - before; grown < 8*n {
		t.Errorf("Live grew by %d while %d bytes were kept", grown, 8*n)
	}
	sink = nil
}
