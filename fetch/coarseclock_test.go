package fetch

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// waitFor polls cond until it holds or a generous deadline passes: the
// clock's goroutine runs when the scheduler lets it.
func waitFor(t *testing.T, cond func() bool) bool {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(coarseTick) {
		if cond() {
			return true
		}
	}
	return false
}

// The coarse clock never runs ahead of the real one, and moves on with it.
func TestCoarseClockFollowsTheRealClock(t *testing.T) {
	c := newCoarseClock()
	first := c.now()
	assert.LessOrEqual(t, first, c.since(time.Now()))
	require.True(t, waitFor(t, func() bool { return c.now() > first }), "the clock moves on")
	assert.LessOrEqual(t, c.now(), c.since(time.Now()), "never ahead")
}

// The clock's goroutine stops after coarseIdleTicks ticks unread, and the
// next read starts it again, reading the real clock itself.
func TestCoarseClockStopsWhenIdle(t *testing.T) {
	c := newCoarseClock()
	c.now()
	assert.True(t, c.running.Load())
	idle := coarseIdleTicks * coarseTick
	time.Sleep(idle / 2)
	require.True(t, waitFor(t, func() bool { return !c.running.Load() }), "stops unread")
	before := c.since(time.Now())
	assert.GreaterOrEqual(t, c.now(), before, "a read when stopped is the real time")
	assert.True(t, c.running.Load(), "and starts the goroutine again")
}

// A cache on the real clock reads the coarse one on hits; under another
// Clock, that clock.
func TestCacheUsesCoarseClockOnlyForTheRealClock(t *testing.T) {
	assert.Same(t, coarse, NewCache(nil, CacheOptions{}).coarse)
	assert.Same(t, coarse, NewCache(&Fetcher{Clock: SystemClock()}, CacheOptions{}).coarse)
	assert.Nil(t, NewCache(&Fetcher{Clock: newFakeClock()}, CacheOptions{}).coarse)
}
