package compile

import (
	"math/bits"

	"github.com/fastrobots/robots/internal/alloc"
	"github.com/fastrobots/robots/internal/word"
)

// leadFilter tells a cold check, before it looks in a group, whether the
// key of some keyed entry may prefix the path. It holds a hash of each
// key's lead, its first min(len, 8) bytes, and tests the path's lead at
// each length some key's lead has. A path that starts with a key holds the
// key's lead, so a miss is certain and a hit only likely. Most paths of a
// crawl start with no key, even where their group (the second byte) is not
// empty, and a miss skips the group's lookup, its sort on first use and the
// search in it.
type leadFilter struct {
	bits  []uint64
	lens  uint8 // bit n-2: some key's lead has n bytes, 2 ≤ n ≤ 8
	shift uint8 // 64 less the log of the bits' count
}

const (
	// leadBitsPerKey keeps a filter mostly empty: with b bits a key, a
	// path tested at one length hits by chance about once in b.
	leadBitsPerKey = 16
	// leadBitsMax bounds a filter at 8 KiB, which a file of 4,096 keys
	// fills; past that, hits by chance grow.
	leadBitsMax = 1 << 16
)

// newLeadFilter returns the filter of keyed, entries whose keys are at
// least two bytes long.
func newLeadFilter(slab string, keyed []coldEntry) leadFilter {
	n := 64
	for n < leadBitsMax && n < leadBitsPerKey*len(keyed) {
		n <<= 1
	}
	f := leadFilter{bits: make([]uint64, n/64), shift: uint8(64 - bits.TrailingZeros(uint(n)))}
	for i := range keyed {
		lead, l := leadOf(keyed[i].keyOf(slab))
		f.lens |= 1 << (l - 2)
		setBit(f.bits, f.slot(lead, l))
	}
	return f
}

func (f *leadFilter) bytes() int { return alloc.Size(8 * cap(f.bits)) }

// mayPrefix reports false when no key the filter holds prefixes path.
func (f *leadFilter) mayPrefix(path string) bool {
	lead, l := leadOf(path)
	if l < 2 {
		return false // every key is longer
	}
	for lens := f.lens & (1<<(l-1) - 1); lens != 0; lens &= lens - 1 {
		n := bits.TrailingZeros8(lens) + 2
		// The shifts are masked only to tell the compiler they are below 64.
		if hasBit(f.bits, f.slot(lead&(^uint64(0)>>((64-8*n)&63)), n)) {
			return true
		}
	}
	return false
}

// slot hashes a lead of n bytes; n tells apart leads that differ only by
// trailing NULs.
func (f *leadFilter) slot(lead uint64, n int) uint32 {
	return uint32((lead + uint64(n)) * 0x9E3779B97F4A7C15 >> (f.shift & 63))
}

// leadOf returns s[:l] as a little-endian word, zero-padded, and l, which
// is min(len(s), 8).
func leadOf(s string) (lead uint64, l int) {
	if len(s) >= 8 {
		return word.Load(s), 8
	}
	for i := len(s) - 1; i >= 0; i-- {
		lead = lead<<8 | uint64(s[i])
	}
	return lead, len(s)
}
