package fetch

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStripesFor(t *testing.T) {
	for _, tc := range []struct{ procs, want int }{
		{1, 4}, {2, 8}, {3, 16}, {64, 256}, {256, maxStripes}, {10000, maxStripes},
	} {
		assert.Equal(t, tc.want, stripesFor(tc.procs), "%d", tc.procs)
	}
}

// The count is exact however many goroutines add at once.
func TestStripedCounterCountsEveryAdd(t *testing.T) {
	c := newStripedCounter()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 1000 {
				c.Add()
			}
		})
	}
	wg.Wait()
	assert.Equal(t, int64(8000), c.Load())
}
