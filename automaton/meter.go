package automaton

import "sync/atomic"

// Meter counts the bytes of memory that a group of structures holds, as
// they allocate: a parsed file, the rule sets compiled from it and their
// automata share one, so that a cache holding the file can learn, with one
// atomic load, how much it has grown since it was last charged. A nil
// *Meter counts nothing. It is safe for concurrent use.
type Meter struct{ n atomic.Int64 }

// Add counts n more bytes.
func (m *Meter) Add(n int) {
	if m != nil {
		m.n.Add(int64(n))
	}
}

// Bytes returns the bytes counted so far.
func (m *Meter) Bytes() int64 {
	if m == nil {
		return 0
	}
	return m.n.Load()
}
