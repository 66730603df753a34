package automaton

// Cursor is one check in progress: Feed hands it the path in any number of
// pieces, and Result gives the verdict, so a caller that transforms the
// path on the way need not build the whole string. A Cursor is used by one
// goroutine and must not be copied after its first Feed.
//
// A Cursor does not keep the pieces it was fed. When the DFA's budget
// refuses a state the path needs, the check must start over on the
// scanner: the Cursor stops reading and NeedsRestart reports it, and the
// caller decides the whole path with Set.DecideParts or Set.Allowed.
type Cursor struct {
	set   *Set
	tab   *table // the table version the check reads
	s     int32  // the live state's entry (rows.go), when mode is live
	mode  cursorMode
	final int32 // the verdict, when mode is done
	scan  scanRun
}

type cursorMode uint8

const (
	live     cursorMode = iota // walking the DFA
	done                       // a final state: the verdict is known
	scanning                   // running on the scanner from the first byte
	restart                    // the DFA refused a state: the path must be decided again
)

// Feed reads the next piece of the path.
func (c *Cursor) Feed(in string) {
	switch c.mode {
	case done, restart:
		return
	case scanning:
		c.feedScanner(in)
		return
	}
	d := c.set.dfa
	s, tab := c.s, c.tab
	for {
		if s >= 0 {
			var n int
			var next int32
			s, n, next = tab.walkFrom(s, in, false)
			if n == len(in) {
				c.s, c.tab = s, tab
				return
			}
			if d.final(next) {
				c.mode, c.final = done, finalVerdict(next)
				return
			}
			if settled(next) {
				// Result needs the deciding pattern, not only the verdict.
				s, in = settledRow(next), in[n+1:]
				continue
			}
			in = in[n:]
		}
		var ok bool
		if s, in, ok = d.advance(s, in); !ok {
			c.mode = restart
			return
		}
		if d.final(s) {
			c.mode, c.final = done, finalVerdict(s)
			return
		}
		tab = d.table.Load()
		if len(in) == 0 {
			c.s, c.tab = s, tab
			return
		}
	}
}

// feedScanner feeds in to the scanner, up to a NUL that ends the input.
func (c *Cursor) feedScanner(in string) {
	cut := false
	if c.set.dfa.prog.nulClass >= 0 {
		in, cut = CutAtNUL(in)
	}
	if !c.scan.feed(in) || cut {
		c.mode, c.final = done, c.scan.end()
	}
}

// NeedsRestart reports that the DFA's budget refused a state the path
// needs: the path must be decided again from its start (Set.DecideParts),
// and Result and Allowed have no verdict to give.
func (c *Cursor) NeedsRestart() bool { return c.mode == restart }

// Allowed reports the verdict for everything fed: false when the winning
// pattern is a disallow, true otherwise. Ask NeedsRestart first; the
// Cursor must not be used after.
func (c *Cursor) Allowed() bool {
	p, ok := c.Result()
	return !ok || p.Allow
}

// Result returns the winning pattern for everything fed, and true, or
// false when none matches. Ask NeedsRestart first; the Cursor must not be
// used after.
func (c *Cursor) Result() (Pattern, bool) {
	var i int32
	switch c.mode {
	case done:
		i = c.final
	case scanning:
		i = c.scan.end()
	case restart:
		return Pattern{}, false
	default:
		i = c.set.dfa.verdictAt(c.tab, c.s)
	}
	return c.set.result(i)
}
