package automaton

import "sync/atomic"

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

// Start begins a check.
func (s *Set) Start() Cursor {
	c := Cursor{set: s}
	d := s.dfa
	switch {
	case d.noTable:
		c.mode = simulated
		c.sim.start(d.simulator(), d.prog)
		for _, q := range d.startSet {
			c.sim.bits()[q/64] |= 1 << (q % 64)
		}
		c.sim.setBest(d.startBest)
	case d.start < 0:
		c.mode, c.final = done, finalVerdict(d.start)
	default:
		c.s, c.trans = d.start, *d.trans.Load()
	}
	return c
}

// Done reports whether the verdict is settled whatever follows, so that
// the caller may stop feeding.
func (c *Cursor) Done() bool { return c.mode == done }

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
	s, trans, class := c.s, c.trans, &d.prog.class
	for i := 0; i < len(in); i++ {
		next := atomic.LoadInt32(&trans[s+int32(class[in[i]])])
		if next < 0 {
			if next == unknown {
				var ok bool
				if next, trans, ok = d.build(s, in[i]); !ok {
					c.toSim(s)
					c.feedSim(in[i:])
					return
				}
			}
			if next < 0 {
				c.mode, c.final = done, finalVerdict(next)
				return
			}
		}
		s = next
	}
	c.s, c.trans = s, trans
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
