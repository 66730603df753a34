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

// MapBytes estimates the memory of a Go map of n entries whose key and
// value take slot bytes together: the slots of its groups of eight, kept
// at most seven eighths full and grown by doubling, their control words,
// and the map's header.
func MapBytes(n, slot int) int {
	if n == 0 {
		return 0
	}
	slots := 8
	for slots*7/8 < n {
		slots *= 2
	}
	return slots*slot + slots + 48
}
