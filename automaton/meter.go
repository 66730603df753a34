package automaton

import "sync/atomic"

// Meter counts the bytes of memory that a group of structures holds, as
// they allocate: a parsed file, its rule sets and their automata share one,
// so that a cache can learn cheaply how much the file has grown. A nil
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
