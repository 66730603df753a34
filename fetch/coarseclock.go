package fetch

import (
	"sync/atomic"
	"time"
)

// coarseTick is how far behind the real clock the coarse clock may be
// (plus scheduling delays), and so how long past its expiry an entry may
// be served.
const coarseTick = time.Millisecond

const coarseIdleTicks = 1000

// coarseClock is the monotonic clock sampled once per tick by a goroutine,
// so that a cache hit reads the time with one atomic load instead of
// time.Now. The goroutine stops after coarseIdleTicks ticks without a
// read; a read that finds it stopped calls time.Now and restarts it.
type coarseClock struct {
	base    time.Time
	nanos   atomic.Int64 // since base, at the last tick
	read    atomic.Bool  // read since the last tick
	running atomic.Bool
}

var coarse = newCoarseClock()

func newCoarseClock() *coarseClock { return &coarseClock{base: time.Now()} }

func (c *coarseClock) now() int64 {
	if !c.running.Load() {
		return c.start()
	}
	if !c.read.Load() { // avoid writing a shared cache line on every read
		c.read.Store(true)
	}
	return c.nanos.Load()
}

func (c *coarseClock) start() int64 {
	n := c.since(time.Now())
	c.nanos.Store(n)
	c.read.Store(true)
	if c.running.CompareAndSwap(false, true) {
		go c.run()
	}
	return n
}

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

func (c *coarseClock) since(t time.Time) int64 { return int64(t.Sub(c.base)) }
