package automaton

import (
	"sync/atomic"
	"unsafe"
)

// Cursor is one check in progress: Feed hands it the path in any number of
// pieces, and Result gives the verdict. A caller that must transform the
// path on the way (escaping it, say) feeds the pieces as it makes them,
// without building the whole string. A Cursor is a value; it is used by one
// goroutine and must not be copied after its first Feed.
type Cursor struct {
	set   *Set
	trans []int32
	s     int32 // the live state, when mode is live
	mode  cursorMode
	final int32 // the verdict, when mode is done
	sim   simRun
}

type cursorMode uint8

const (
	live      cursorMode = iota // walking the DFA
	done                        // a final state: the verdict is known
	simulated                   // walking the bit-parallel simulation
)

// Feed reads the next piece of the path.
func (c *Cursor) Feed(in string) {
	switch c.mode {
	case done:
		return
	case simulated:
		c.feedSim(in)
		return
	}
	d := c.set.dfa
	s, trans := c.s, c.trans
	for {
		var n int
		var next int32
		s, n, next = walk(trans, &d.prog.class, s, in)
		if n == len(in) {
			c.s, c.trans = s, trans
			return
		}
		if next == unknown {
			var ok bool
			if next, trans, ok = d.build(s, in[n]); !ok {
				c.toSim(s)
				c.feedSim(in[n:])
				return
			}
		}
		if next < 0 {
			c.mode, c.final = done, finalVerdict(next)
			return
		}
		s, in = next, in[n+1:]
	}
}

// walk follows built transitions from live state s over in. It stops at
// the end of in, returning the state reached and n == len(in), or at the
// first byte in[n] whose transition is not an ordinary live state,
// returning the state before it and that transition (unknown or final).
// It is the hot loop of every check: one table load per byte, and one
// comparison to leave it.
func walk(trans []int32, class *[256]uint8, s int32, in string) (int32, int, int32) {
	// The table is read through a raw pointer: the address of trans[s+c] is
	// computed as (base + 4c) + 4s, so that the byte's class, which does not
	// depend on the state, is added off the loop-carried chain. Entries are
	// read as uint32, which needs no sign extension: every special entry
	// (unknown, final) is negative as an int32 and so at least 1<<31. The
	// reads stay in bounds because every live state is a row offset below
	// len(trans) (growTable publishes a table before any offset into it) and
	// every class is below the stride.
	base := unsafe.Pointer(unsafe.SliceData(trans))
	cur := uint(s)
	for i := 0; i < len(in); i++ {
		row := unsafe.Add(base, uint(class[in[i]])*4)
		next := uint(atomic.LoadUint32((*uint32)(unsafe.Add(row, cur*4))))
		if next >= 1<<31 {
			return int32(cur), i, int32(uint32(next))
		}
		cur = next
	}
	return int32(cur), len(in), 0
}

// toSim moves the check from DFA state s to the simulation.
func (c *Cursor) toSim(s int32) {
	d := c.set.dfa
	c.mode = simulated
	c.sim.start(d.simulator(), d.prog)
	c.sim.setBest(d.loadBits(s, c.sim.bits()))
}

func (c *Cursor) feedSim(in string) {
	if !c.sim.feed(in) {
		c.mode, c.final = done, c.sim.end()
	}
}

// Allowed reports the verdict for everything fed: false when the winning
// pattern is a disallow, true when it is an allow or no pattern matches.
// The Cursor must not be used after.
func (c *Cursor) Allowed() bool {
	p, ok := c.Result()
	return !ok || p.Allow
}

// Result returns the winning pattern for everything fed, and true, or
// false when no pattern matches. The Cursor must not be used after.
func (c *Cursor) Result() (Pattern, bool) {
	var i int32
	switch c.mode {
	case done:
		i = c.final
	case simulated:
		i = c.sim.end()
	default:
		i = atomic.LoadInt32(&c.trans[c.s+c.set.dfa.stride-1])
	}
	if int(i) == len(c.set.patterns) {
		return Pattern{}, false
	}
	return c.set.patterns[i], true
}
