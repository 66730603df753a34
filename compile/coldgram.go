package compile

import (
	"math/bits"
	"strings"

	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/internal/alloc"
	"github.com/fastrobots/robots/internal/word"
)

// gramIndex holds a cold index's star patterns by what they require of a
// path beyond their key, since many may share a key or have none
// ("/*?*sort=", one rule per faceted-search parameter). A path holds every
// literal piece of a pattern it matches, so each pattern is filed under a
// two-byte substring of its pieces, its gram, chosen to be rare in paths
// (gramRarity), and a check tries only the patterns filed under a gram the
// path holds. Grams are hashed into buckets: a collision costs time, never
// a wrong verdict, since every candidate is matched in full. Patterns with
// no piece of two bytes ("/*?*&*") stay in the prefix index, and so do
// those whose key few others share (fileByGram).
//
// It is built only for gramMin star patterns or more: for fewer, trying
// them costs less than reading the path's grams.
type gramIndex struct {
	filed []coldEntry // by bucket: bucket j holds filed[start[j]:start[j+1]]
	start []int32     // per non-empty bucket, in bucket order, and the end
	used  [gramWords]uint64
	// rank[w] counts the non-empty buckets of the words before w.
	rank [gramWords]uint16
}

const (
	// gramBuckets is enough that a path's grams rarely share a bucket with
	// the patterns', few enough that a check's bitmap of them is cheap.
	gramBuckets = 1 << gramBits
	gramBits    = 10
	gramWords   = gramBuckets / 64

	gramMin = 16
)

func gramBucket(a, b byte) uint32 {
	return (uint32(a)<<8 | uint32(b)) * 0x9E3779B1 >> (32 - gramBits)
}

// fileByGram moves the entries that have a gram into a new gramIndex,
// but for those whose key few others share (keyShareMax): their key finds
// them in the prefix index, among few candidates, where a gram of theirs
// may be shared by many patterns under other keys ("/uk/listing/*/stubs/*"
// and the same for twenty countries).
func fileByGram(slab string, all []coldEntry) ([]coldEntry, *gramIndex) {
	const none = gramBuckets
	gi := &gramIndex{}
	var counts [gramBuckets]int32
	var sharing [keySlots]uint16 // entries with a gram by a hash of their key
	buckets := make([]uint16, len(all))
	for i := range all {
		e := &all[i]
		buckets[i] = none
		if g, ok := rarestGram(e.glob(slab).Tail()); ok {
			buckets[i] = uint16(gramBucket(g[0], g[1]))
			k := &sharing[keySlot(e.keyOf(slab))]
			*k = min(*k+1, keyShareMax+1)
		}
	}
	for i := range all {
		e := &all[i]
		if b := buckets[i]; b != none {
			if e.key >= 2 && sharing[keySlot(e.keyOf(slab))] <= keyShareMax {
				buckets[i] = none
				continue
			}
			counts[b]++
			setBit(gi.used[:], uint32(b))
		}
	}
	gi.start = bucketStarts(counts[:], gi.used[:], gi.rank[:])
	n := gi.start[len(gi.start)-1]
	gi.filed = make([]coldEntry, n)
	rest := all[:0]
	for i, e := range all {
		if b := buckets[i]; b != none {
			gi.filed[counts[b]] = e
			counts[b]++
		} else {
			rest = append(rest, e)
		}
	}
	return rest, gi
}

// keyShareMax is the most entries with a gram that may share a key and
// stay in the prefix index: a check whose path starts with the key tries
// them all.
const keyShareMax = 16

// keySlots is the size of fileByGram's table of keys: two keys in one slot
// count as one, which only files more entries by gram.
const (
	keySlots    = 1 << keySlotBits
	keySlotBits = 10
)

// keySlot hashes a key by its length and its first and last eight bytes.
func keySlot(key string) uint32 {
	var h uint64
	if len(key) >= 8 {
		h = word.Load(key) ^ bits.RotateLeft64(word.At(key, len(key)-8), 29)
	} else {
		for i := 0; i < len(key); i++ {
			h = h<<8 | uint64(key[i])
		}
	}
	h ^= uint64(len(key)) << 56
	return uint32((h * 0x9E3779B97F4A7C15) >> (64 - keySlotBits))
}

func (gi *gramIndex) bytes() int {
	return alloc.Size(alloc.SizeOf[gramIndex]()) + alloc.Size(cap(gi.filed)*coldEntryBytes) + alloc.Size(4*cap(gi.start))
}

// match tries the patterns filed under the path's grams: each bucket that
// a gram of the path falls in and the index uses, once. It tests each gram
// against the index's buckets as it reads it, since most grams of a path
// fall in no used bucket.
func (gi *gramIndex) match(m *coldMatch, slab string, path string) {
	if len(path) < 2 {
		return
	}
	used := &gi.used
	var tried [gramWords]uint64
	prev := path[0]
	for i := 1; i < len(path); i++ {
		c := path[i]
		b := gramBucket(prev, c)
		prev = c
		if hasBit(used[:], b) && !hasBit(tried[:], b) {
			setBit(tried[:], b)
			gi.tryBucket(m, slab, b, path)
		}
	}
}

// tryBucket tries the patterns of used bucket b on path.
func (gi *gramIndex) tryBucket(m *coldMatch, slab string, b uint32, path string) {
	w := b / 64
	j := int(gi.rank[w]) + bits.OnesCount64(gi.used[w]&(1<<(b%64)-1))
	tryPrefixed(m, slab, gi.filed[gi.start[j]:gi.start[j+1]], path)
}

// tryPrefixed tries those of es whose key path starts with.
func tryPrefixed(m *coldMatch, slab string, es []coldEntry, path string) {
	for k := range es {
		m.tryEntry(slab, &es[k], path, false)
	}
}

// keyStarts reports whether path starts with the entry's key; a key of
// one byte, as most short keys are ("/"), is read from the head.
func (e *coldEntry) keyStarts(slab string, path string) bool {
	switch e.key {
	case 0:
		return true
	case 1:
		return path != "" && path[0] == byte(e.headHi>>8)
	}
	return strings.HasPrefix(path, e.keyOf(slab))
}

// rarestGram returns the two adjacent literal bytes of tail, a Glob's,
// least likely in a path; ok is false when there are none.
func rarestGram(tail string) (g [2]byte, ok bool) {
	best := -1
	for i := 0; i+1 < len(tail); i++ {
		a, b := tail[i], tail[i+1]
		if a == '*' || b == '*' {
			continue
		}
		if r := int(gramRarity[a]) + int(gramRarity[b]); r > best {
			best, g = r, [2]byte{a, b}
		}
	}
	return g, best >= 0
}

// gramRarity scores how seldom a byte appears in URL paths. It need only
// be roughly right: a poor choice costs tries, not verdicts.
var gramRarity = func() (r [256]uint8) {
	for c := range r {
		r[c] = 5
	}
	for c := '0'; c <= '9'; c++ {
		r[c] = 3
	}
	for c := 'a'; c <= 'z'; c++ {
		r[c] = 2
	}
	for _, c := range []byte("?=&_%") {
		r[c] = 4
	}
	for _, c := range []byte("-.") {
		r[c] = 2
	}
	for _, c := range []byte("etaoinsrl") {
		r[c] = 1
	}
	r['/'] = 0
	return r
}()

// pathGrams is the set of a path's grams, read the first time a check
// with no index needs it to rule out a star pattern.
type pathGrams struct {
	set  [gramWords]uint64
	done bool // read
}

// read sets the buckets of path's grams.
func (g *pathGrams) read(path string) {
	for i := 0; i+1 < len(path); i++ {
		setBit(g.set[:], gramBucket(path[i], path[i+1]))
	}
	g.done = true
}

// match reports whether expr matches path, ruling it out first by the
// path's grams. The pattern is read only here: most rules a first check
// tries differ from the path in their first two bytes.
func (g *pathGrams) match(expr, path string) bool {
	p := automaton.ReadGlob(expr)
	return g.mayMatch(p, path) && p.Match(path)
}

// mayMatch reports false when pattern p cannot match path: the two bytes
// after its first star, or the last two of its body, are literal and the
// path does not hold them side by side.
func (g *pathGrams) mayMatch(p automaton.Glob, path string) bool {
	s, body := p.Star, p.Body
	if s+2 >= len(body) { // a pattern with no star, too
		return true
	}
	if !g.done {
		g.read(path)
	}
	return g.holds(body[s+1], body[s+2]) && g.holds(body[len(body)-2], body[len(body)-1])
}

func (g *pathGrams) holds(a, b byte) bool {
	if a == '*' || b == '*' {
		return true
	}
	return hasBit(g.set[:], gramBucket(a, b))
}
