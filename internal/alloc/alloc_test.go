package alloc

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSizeMatchesTheAllocator checks Size against what append makes: it
// grows a slice's capacity to the size class of what it allocates.
func TestSizeMatchesTheAllocator(t *testing.T) {
	for n := 1; n <= 3*maxSmall; n += 1 + n/64 {
		got := cap(append([]byte(nil), make([]byte, n)...))
		if n <= maxSmall {
			assert.Equal(t, got, Size(n), "%d bytes", n)
		} else {
			assert.GreaterOrEqual(t, Size(n), got, "%d bytes: at least what append reserves", n)
			assert.Less(t, Size(n), n+pageBytes, "%d bytes: within a page", n)
		}
	}
	assert.Equal(t, 0, Size(0))
	assert.Equal(t, 112, Size(104))
}
