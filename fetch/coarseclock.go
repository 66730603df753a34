package fetch

import (
	"sync/atomic"
	"time"
)

// coarseTick is how often the coarse clock reads the real one, and so how
// far behind it may be (plus scheduling delays). An entry may be served
// that long past its expiry; expiries are minutes to hours apart.
const coarseTick = time.Millisecond

// coarseIdleTicks is how many ticks pass without a read before the coarse
// clock's goroutine stops; the next read starts it again.
const coarseIdleTicks = 1000

// coarseClock is the real clock read once per tick by a goroutine of its
// own, so that a cache hit reads the time with one atomic load instead of
// a call to time.Now. It counts nanoseconds on the monotonic clock since
// base. Its goroutine runs only while the clock is read: it stops after
// coarseIdleTicks ticks without a read, and a read that finds it stopped
// reads time.Now itself and starts it again.
type coarseClock struct {
	base    time.Time
	nanos   atomic.Int64 // since base, at the last tick
	read    atomic.Bool  // read since the last tick
	running atomic.Bool
}

// coarse is the coarse clock of every Cache on the real clock.
var coarse = newCoarseClock()

func newCoarseClock() *coarseClock { return &coarseClock{base: time.Now()} }

// now returns the time since base, at most a tick (and the scheduling of
// the clock's goroutine) behind the real clock.
func (c *coarseClock) now() int64 {
	if !c.running.Load() {
		return c.start()
	}
	if !c.read.Load() { // written once per tick, not at every read
		c.read.Store(true)
	}
	return c.nanos.Load()
}

// start reads the real clock and starts the goroutine unless another
// read has just started it.
func (c *coarseClock) start() int64 {
	n := c.since(time.Now())
	c.nanos.Store(n)
	c.read.Store(true)
	if c.running.CompareAndSwap(false, true) {
		go c.run()
	}
	return n
}

// run updates nanos every tick until the clock has gone unread for
// coarseIdleTicks ticks.
func (c *coarseClock) run() {
	t := time.NewTicker(coarseTick)
	defer t.Stop()
	idle := 0
	for range t.C {
		c.nanos.Store(c.since(time.Now()))
		if c.read.Swap(false) {
			idle = 0
		} else if idle++; idle >= coarseIdleTicks {
			c.running.Store(false)
			return
		}
	}
}

// since returns t on the clock's scale: nanoseconds since base, saturated
// at the bounds of a Duration.
func (c *coarseClock) since(t time.Time) int64 { return int64(t.Sub(c.base)) }
