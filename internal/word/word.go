// Package word reads eight bytes of a string as one word, for the loops
// that test many bytes at a time. The read is eight indexes of the
// string, bounds-checked once, which the compiler turns into one load.
package word

// Load returns s[0:8] as a little-endian word: s[0] is its lowest byte. s
// must hold eight bytes.
func Load(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// At returns s[i:i+8] as a little-endian word; s must hold eight bytes
// from i. It is Load(s[i:]) for a loop that steps i: a slice of eight
// bytes needs none of the instructions that keep the pointer of a slice
// that may be empty within its string, which s[i:] costs every turn.
func At(s string, i int) uint64 { return Load(s[i : i+8]) }
