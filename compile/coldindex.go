package compile

import (
	"cmp"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/internal/alloc"
	"github.com/fastrobots/robots/internal/word"
)

// coldIndex holds a rule set's patterns by their literal prefix, their
// key: the bytes before the first '*' (and before a final '$'). A pattern
// can match a path only if its key is a prefix of the path. The entries
// are grouped by their key's second byte (the first is nearly always '/'),
// and a group is sorted by key the first time a path needs it: the keys
// that are prefixes of a path are then found by one binary search and a
// walk up a chain of prefixes (candidates), so a cold check tries those
// rules alone — on a real file a handful, where a group may hold hundreds
// or thousands, most of which no path of a crawl comes near. Keys shorter
// than two bytes are tried for every path. When a rule set holds many
// patterns with a star, those that require two bytes after their key are
// filed by them instead (gramIndex): hundreds of them may share a key, or
// have none.
type coldIndex struct {
	// A check reads every field: on a crawl each line it reads is a
	// cache miss, so they are kept within 80 bytes, the object's size.

	// slab holds every entry's pattern (coldEntry.off): the file's arena,
	// which holds the patterns that needed no escaping, followed by the
	// escaped ones when the rules have any. A check reads the patterns
	// from it without going through the rules and the file: on a crawl,
	// each such hop is a cache miss.
	slab string
	// entries are the index's entries, in one array: first the nShort
	// whose key has no or one byte, then the others, grouped by key[1]
	// (table).
	entries []coldEntry
	// table holds the groups, in one array a check reads: groupWords
	// words whose bit c says the group of byte c is not empty, then, per
	// non-empty group in byte order, where it begins in entries, with
	// groupSorted set once it is sorted (read and set atomically), then
	// the end.
	table       []int32
	grams       *gramIndex // star patterns filed by gram, when there are many (coldgram.go)
	nShort      int32
	coldPathMax int32 // the longest path whose work is within coldWorkMax (indexWork), found once
}

// coldIndexBytes is the size of a coldIndex (TestColdIndexSizes).
const coldIndexBytes = 80

// groupWords is the number of words of a group table's bitmap.
const groupWords = 256 / 32

// groupSorted marks in a group table a group that is sorted. An index
// holds fewer entries than a file bytes, far fewer than it.
const groupSorted = 1 << 30

// all returns the index's entries.
func (ix *coldIndex) all() []coldEntry {
	return ix.entries
}

// short returns the entries whose key has no or one byte.
func (ix *coldIndex) short() []coldEntry { return ix.entries[:ix.nShort] }

// keyed returns the entries grouped by their key's second byte.
func (ix *coldIndex) keyed() []coldEntry { return ix.all()[ix.nShort:] }

// groupTable returns the table of groups of the non-short entries of
// all, which must be grouped and follow nShort short ones, whose count
// of entries of each key's second byte is counts.
func groupTable(counts *[256]int32, nShort int32) []int32 {
	var used [groupWords]int32
	groups := 0
	for c, n := range counts {
		if n > 0 {
			used[c/32] |= 1 << (c % 32)
			groups++
		}
	}
	t := make([]int32, groupWords, groupWords+groups+1)
	copy(t, used[:])
	sum := nShort
	for _, n := range counts {
		if n > 0 {
			t = append(t, sum)
			sum += n
		}
	}
	return append(t, sum)
}

// coldEntryBytes is the size of a coldEntry, which a cold index is
// charged per entry (TestColdIndexSizes).
const coldEntryBytes = 24

// coldEntry is one pattern a rule is matched as: its own, or the
// directory of an index page (Google's rule), without the '$' that
// anchors it, found in the index's slab. A pattern, escaped, holds at
// most three times MaxLineBytes, which n holds.
type coldEntry struct {
	off uint32 // the pattern is slab[off:off+n]
	id  int32  // the selection's ID
	up  int32  // in a sorted group, the entry of its nearest prefix (linkPrefixes)
	// headLo and headHi are the key's head (headOf), split so that an
	// entry needs no 8-byte alignment: a search compares most keys with a
	// path, and a key of up to headLen bytes in full, without reading the
	// slab, whose every key read is a cache miss on a crawl.
	headLo uint32
	headHi uint16
	n      uint16 // the pattern's length
	key    uint16 // the length of its key
	flags  entryFlags
	// need is a byte every path the pattern matches holds after its key
	// (needOf), where the flags' needAt says. A check tests it before it
	// reads the pattern. An entry is 24 bytes.
	need byte
}

// headLen is the longest key an entry's head holds in full, given its
// group's byte, the key's second.
const headLen = 7

// headOf returns the head of s, the bytes that tell apart the keys of a
// group, whose second byte is the same: the first, and the five after the
// second (s[2:headLen]), padded with zeros, as a big-endian word whose low
// 16 bits are zero. Of two strings of one group, the one whose head is
// less is less. Equal heads decide nothing past headLen bytes, nor, as
// padding and a NUL byte look alike, between two strings of which one is
// shorter.
func headOf(s string) uint64 {
	if len(s) >= 8 {
		w := bits.ReverseBytes64(word.Load(s)) // s[0:8], s[0] the top byte
		return w&(0xFF<<56) | w<<8&(1<<56-1<<16)
	}
	var w uint64
	if len(s) > 0 {
		w = uint64(s[0]) << 56
	}
	for i := 2; i < len(s); i++ {
		w |= uint64(s[i]) << (64 - 8*i)
	}
	return w
}

// headIndex is the byte of a string that byte b of its head (from the
// top) holds.
func headIndex(b int) int {
	if b == 0 {
		return 0
	}
	return b + 1
}

// head returns headOf the entry's key.
func (e *coldEntry) head() uint64 { return uint64(e.headHi)<<48 | uint64(e.headLo)<<16 }

// setHead sets the entry's head to headOf its key.
func (e *coldEntry) setHead(key string) {
	h := headOf(key)
	e.headHi, e.headLo = uint16(h>>48), uint32(h>>16)
}

// compareKey compares the entry's key with path, whose head is ph and
// whose second byte is the key's (the entry's group), as strings.Compare
// would. It reads the slab only when both are longer than headLen and
// their heads are equal.
func (e *coldEntry) compareKey(slab, path string, ph uint64) int {
	switch kh := e.head(); {
	case kh < ph:
		return -1
	case kh > ph:
		return 1
	case e.key <= headLen || len(path) <= headLen:
		// One is a prefix of the other, or both are equal.
		return cmp.Compare(int(e.key), len(path))
	}
	// Not strings.Compare: path would escape, and with it the buffer a
	// cold check may have joined it in.
	switch k, p := slab[e.off+headLen:e.off+uint32(e.key)], path[headLen:]; {
	case k < p:
		return -1
	case k > p:
		return 1
	}
	return 0
}

// commonKeyPrefix returns the length of the common prefix of the entry's
// key and path, whose head is ph and whose second byte is the key's, as
// commonPrefix would. It reads the slab only when both are longer than
// headLen and their heads are equal.
func (e *coldEntry) commonKeyPrefix(slab, path string, ph uint64) int {
	n := min(int(e.key), len(path))
	if x := e.head() ^ ph; x != 0 {
		// A difference past n is padding against a byte, or a byte past n.
		return min(headIndex(bits.LeadingZeros64(x)/8), n)
	}
	if n <= headLen {
		return n
	}
	return headLen + commonPrefix(slab[e.off+headLen:e.off+uint32(e.key)], path[headLen:])
}

// entryFlags are the bits of a coldEntry's flags.
type entryFlags uint8

const (
	// entryDir: the pattern is the rule's index page's directory, anchored
	// at its end.
	entryDir entryFlags = 1 << iota
	// entryAllow: the rule is an allow.
	entryAllow
	// entryExact: on a path that starts with the key, mayMatch decides the
	// pattern (exactNeed): it matches whenever the path holds its need,
	// and the pattern is not read. "/*?", "/*&*", "/private" are such; "/*.pdf$" is not.
	entryExact
	// needShift places the entry's needPlace (needAt) in its flags.
	needShift = iota
)

// needAt returns where a path must hold the entry's need.
func (e *coldEntry) needAt() needPlace { return needPlace(e.flags >> needShift) }

// setNeed sets the entry's need and where a path must hold it.
func (e *coldEntry) setNeed(b byte, at needPlace) {
	e.need, e.flags = b, e.flags&(1<<needShift-1)|entryFlags(at)<<needShift
}

func (e *coldEntry) dir() bool   { return e.flags&entryDir != 0 }
func (e *coldEntry) allow() bool { return e.flags&entryAllow != 0 }
func (e *coldEntry) exact() bool { return e.flags&entryExact != 0 }

// entryFlagsOf returns the flags of an entry of a rule, allow or not,
// for its pattern or its index page's directory (dir).
func entryFlagsOf(allow, dir bool) entryFlags {
	var f entryFlags
	if allow {
		f |= entryAllow
	}
	if dir {
		f |= entryDir
	}
	return f
}

// needPlace is where a path must hold an entry's need byte.
type needPlace uint8

const (
	needNone     needPlace = iota // the pattern needs no byte past its key
	needAnywhere                  // somewhere past the key
	needAtEnd                     // as its last byte
)

// mayMatch is a quick test that may rule the entry out for path before
// its pattern is read: false when path lacks the byte the pattern needs
// past its key, or is shorter than the key. On a crawl most paths match
// no pattern, and reading each from the slab costs a cache miss.
func (e *coldEntry) mayMatch(path string) bool {
	switch {
	case len(path) < int(e.key):
		return false
	case e.needAt() == needNone:
		return true
	case e.needAt() == needAtEnd:
		return len(path) > int(e.key) && path[len(path)-1] == e.need
	}
	return strings.IndexByte(path[e.key:], e.need) >= 0
}

// exactNeed reports whether mayMatch decides a pattern on a path that
// starts with its key: rest, the pattern past its key (without the '$'
// that anchors it when anchored), holds no literal byte and is not
// anchored empty, which would ask the path to end at the key; or holds
// one literal byte, after a star, the need needOf picks: "*c" and "*c*"
// match a rest that holds c, "*c" anchored one that ends in c. A
// directory's pattern is anchored at its end, and never exact.
func exactNeed(rest string, anchored, dir bool) bool {
	if dir {
		return false
	}
	literals := 0
	for i := 0; i < len(rest); i++ {
		if rest[i] != '*' {
			literals++
		}
	}
	switch literals {
	case 0:
		return rest != "" || !anchored
	case 1:
		return rest[0] == '*'
	}
	return false
}

// needOf returns a byte that every path a pattern matches holds past the
// pattern's key of key bytes, rest being the pattern past the key,
// without the '$' that anchors it at its end when anchored: its last
// byte, when the pattern is anchored and that byte is literal (atEnd);
// else, of its literal bytes, which the path holds somewhere past the
// key, the first of the rarest in paths (gramRarity): "*sort=" needs '=',
// which rules out more paths than 's'. ok is false when rest holds none.
func needOf(rest string, anchored bool) (b byte, atEnd, ok bool) {
	if n := len(rest); anchored && n > 0 && rest[n-1] != '*' {
		return rest[n-1], true, true
	}
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; c != '*' && (!ok || gramRarity[c] > gramRarity[b]) {
			b, ok = c, true
		}
	}
	return b, false, ok
}

// A pattern of MaxLineBytes, escaped, must fit coldEntry.n (this fails to
// compile otherwise).
var _ [1<<16 - 1 - 3*MaxLineBytes]struct{}

// expr returns the entry's pattern, without the '$' of a directory.
func (e *coldEntry) expr(slab string) string { return slab[e.off : e.off+uint32(e.n)] }

// keyOf returns the entry's key.
func (e *coldEntry) keyOf(slab string) string { return slab[e.off : e.off+uint32(e.key)] }

// group returns the key's second byte, by which the entry is grouped
// when its key has one.
func (e *coldEntry) group(slab string) byte { return slab[e.off+1] }

// buildIndex indexes the rules once and returns the index.
func (rs *RuleSet) buildIndex() *coldIndex {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if ix := rs.index.Load(); ix != nil {
		return ix
	}
	ix := &coldIndex{}
	scratch := entryScratch.Get().(*[]coldEntry)
	var stars starTally
	all := ix.collect(rs, (*scratch)[:0], &stars)
	if stars.star >= gramMin {
		all, ix.grams = fileByGram(ix.slab, all)
		rs.meter.Add(ix.grams.bytes())
	}
	var counts [256]int32
	for _, e := range all {
		if e.key < 2 {
			ix.nShort++
			continue
		}
		counts[e.group(ix.slab)]++
	}
	ix.table = groupTable(&counts, ix.nShort)
	entries := make([]coldEntry, len(all))
	next, short := counts, int32(0) // where the next entry of each group goes
	for c, start := 0, ix.nShort; c < len(next); c++ {
		next[c], start = start, start+counts[c]
	}
	for _, e := range all {
		if e.key < 2 {
			entries[short] = e
			short++
			continue
		}
		entries[next[e.group(ix.slab)]] = e
		next[e.group(ix.slab)]++
	}
	ix.entries = entries
	*scratch = all[:0]
	entryScratch.Put(scratch)
	if len(ix.slab) != len(rs.file.body) { // escaped patterns follow the arena
		rs.meter.Add(alloc.Size(len(ix.slab)))
	}
	rs.meter.Add(alloc.Size(coldIndexBytes) + alloc.Size(cap(entries)*coldEntryBytes) + alloc.Size(4*cap(ix.table)))
	ix.coldPathMax = longestCold(stars, len(ix.keyed()))
	rs.index.Store(ix)
	return ix
}

// longestCold returns the longest path whose work (indexWork) is within
// coldWorkMax, on an index of keyed entries whose stars are stars, by a
// binary search on the path's length, which work never decreases with;
// math.MaxInt32 when every path's is.
func longestCold(stars starTally, keyed int) int32 {
	within := func(n int) bool { return indexWork(n, stars.star, stars.starBytes, keyed) <= coldWorkMax }
	// Any entry costs a path of n bytes at least (n+1)/8, and a star
	// n+1: no path of 16*coldWorkMax bytes is within, unless nothing
	// costs.
	hi := 16 * coldWorkMax
	if within(hi) {
		return math.MaxInt32
	}
	if !within(0) {
		return -1
	}
	lo := 0 // within(lo) holds, within(hi) does not
	for hi-lo > 1 {
		if mid := int(uint(lo+hi) >> 1); within(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return int32(lo)
}

// entryScratch holds the buffers buildIndex collects entries in.
var entryScratch = sync.Pool{New: func() any { return new([]coldEntry) }}

// starTally counts the entries whose pattern holds a '*', and their
// patterns' bytes: only they need a search in the path.
type starTally struct{ star, starBytes int }

// collect appends the entries of the rule set's rules to all, and counts
// those with a star; it sets the slab their patterns are read from.
func (ix *coldIndex) collect(rs *RuleSet, all []coldEntry, stars *starTally) []coldEntry {
	f := rs.file
	var escaped []byte // the escaped patterns, after the arena in the slab
	rs.eachRule(func(i, id int32) {
		r := f.rules[i]
		expr := f.pattern(i, r)
		if expr == "" {
			return
		}
		off := r.off
		if r.isEscaped() {
			off = uint32(len(f.body) + len(escaped))
			escaped = append(escaped, expr...)
		}
		all = stars.add(all, coldEntry{off: off, id: id, flags: entryFlagsOf(r.allow(), false)}, expr)
		if !r.allow() {
			return
		}
		if dir, ok := indexDir(expr); ok {
			all = stars.add(all, coldEntry{off: off, id: id, flags: entryFlagsOf(true, true)}, dir)
		}
	})
	ix.slab = f.body
	if escaped != nil {
		ix.slab = f.body + string(escaped)
	}
	return all
}

// add appends e, whose pattern is expr, with its key, and counts what it
// costs to try.
func (t *starTally) add(all []coldEntry, e coldEntry, expr string) []coldEntry {
	key := strings.IndexByte(expr, '*')
	if key >= 0 {
		t.star++
		t.starBytes += len(expr)
	} else {
		key = len(strings.TrimSuffix(expr, "$"))
	}
	e.key, e.n = uint16(key), uint16(len(expr))
	e.setHead(expr[:key])
	rest, anchored := expr[key:], e.dir()
	if !e.dir() {
		rest, anchored = strings.CutSuffix(rest, "$")
	}
	need, atEnd, ok := needOf(rest, anchored)
	switch {
	case atEnd:
		e.setNeed(need, needAtEnd)
	case ok:
		e.setNeed(need, needAnywhere)
	}
	if exactNeed(rest, anchored, e.dir()) {
		e.flags |= entryExact
	}
	return append(all, e)
}

// indexWork bounds the bytes a cold check of a path of pathLen bytes
// compares, on an index of entries entries, star of them holding a star in
// starBytes bytes: Match on every pattern with a star (coldWork), and the
// search for its keys among the entries (candidates): a binary search
// whose comparisons read at most the path, then at most every entry, each
// compared with at most the path. buildIndex turns it into a longest path
// once (longestCold), which a check compares its path's length with.
//
// It also bounds the groups a check sorts: an index of n entries costs at
// least n/16 for any path, so one that passes coldWorkMax holds fewer than
// maxSortedEntries, whose index within a group fits indexBits.
func indexWork(pathLen, star, starBytes, entries int) int {
	return coldWork(pathLen, star, starBytes) + (pathLen+1)*(bits.Len(uint(entries))+entries)/16
}

// maxSortedEntries bounds the entries of an index whose groups a cold
// check may sort: 16 times coldWorkMax (indexWork). sortKeys packs an entry's
// index within its group in indexBits, which holds it only because of
// this bound (this fails to compile otherwise).
const maxSortedEntries = 16 * coldWorkMax

var _ [indexMask + 1 - maxSortedEntries]struct{}

// group returns the entries whose key's second byte is c, sorted by key;
// it sorts them the first time, under rs.mu.
func (ix *coldIndex) group(rs *RuleSet, c byte) []coldEntry {
	t := ix.table
	used := uint32(t[c/32])
	if used&(1<<(c%32)) == 0 {
		return nil
	}
	j := groupWords + bits.OnesCount32(used&(1<<(c%32)-1))
	for _, w := range t[:c/32] {
		j += bits.OnesCount32(uint32(w))
	}
	lo, hi := atomic.LoadInt32(&t[j]), atomic.LoadInt32(&t[j+1])&^groupSorted
	g := ix.entries[lo&^groupSorted : hi]
	if lo&groupSorted == 0 {
		rs.mu.Lock()
		if atomic.LoadInt32(&t[j])&groupSorted == 0 {
			sortByKey(ix.slab, g)
			linkPrefixes(ix.slab, g)
			atomic.OrInt32(&t[j], groupSorted)
		}
		rs.mu.Unlock()
	}
	return g
}

// bucketIndex returns the place of bucket b among the non-empty buckets of
// a bitmap, used, whose rank counts the non-empty buckets before each of
// its words; ok is false when b is empty.
func bucketIndex(used []uint64, rank []uint16, b uint32) (j int, ok bool) {
	if !hasBit(used, b) {
		return 0, false
	}
	w := b / 64
	return int(rank[w]) + bits.OnesCount64(used[w]&(1<<(b%64)-1)), true
}

// setBit sets bit b of the bitmap words.
func setBit(words []uint64, b uint32) { words[b/64] |= 1 << (b % 64) }

// hasBit reports whether bit b of the bitmap words is set.
func hasBit(words []uint64, b uint32) bool { return words[b/64]&(1<<(b%64)) != 0 }

// bucketStarts ranks the non-empty buckets that used marks, counts[b]
// being the entries of bucket b, turns counts into where each bucket
// begins, and returns those places for the non-empty buckets, then the
// end.
func bucketStarts(counts []int32, used []uint64, rank []uint16) []int32 {
	rankWords(used, rank)
	last := len(used) - 1
	start := make([]int32, 0, int(rank[last])+bits.OnesCount64(used[last])+1)
	sum := int32(0)
	for w, word := range used {
		for ; word != 0; word &= word - 1 {
			b := w*64 + bits.TrailingZeros64(word)
			start = append(start, sum)
			counts[b], sum = sum, sum+counts[b]
		}
	}
	return append(start, sum)
}

// rankWords sets rank[w] to the bits of used before word w.
func rankWords(used []uint64, rank []uint16) {
	for w := 1; w < len(used); w++ {
		rank[w] = rank[w-1] + uint16(bits.OnesCount64(used[w-1]))
	}
}

// sortByKey sorts the entries of a group by key. It is a radix sort whose
// digits are five bytes of the keys, packed with an entry's index into a
// uint64 so that each level is a sort of plain numbers; the bytes all keys
// of a level share are skipped ("/about/media/..." a thousand times), so
// that a level reads each key's bytes about once.
func sortByKey(slab string, g []coldEntry) {
	if len(g) <= smallGroup {
		slices.SortFunc(g, func(a, b coldEntry) int { return strings.Compare(a.keyOf(slab), b.keyOf(slab)) })
		return
	}
	keys := make([]string, len(g))
	words := make([]uint64, len(g))
	for i := range g {
		keys[i], words[i] = g[i].keyOf(slab), uint64(i)
	}
	sortKeys(keys, words, 0)
	sorted := make([]coldEntry, len(g))
	for i, w := range words {
		sorted[i] = g[w&indexMask]
	}
	copy(g, sorted)
}

const (
	// smallGroup is the most entries sorted by comparing their keys: the
	// sort of the standard library sorts so few by insertion, without
	// allocating.
	smallGroup = 12

	digitBytes = 5
	// indexBits holds an entry's index within its group, below its digit:
	// 24 bits, enough only because a check sorts no group of an index of
	// maxSortedEntries or more (coldWorkMax).
	indexBits = 64 - 8*digitBytes
	indexMask = 1<<indexBits - 1
)

// sortKeys sorts words, the indices into keys of keys that share their
// first depth bytes. A run of keys with the same digit is sorted at the
// next digit, unless one of them ends inside this one: then the digit's
// padding may equal a longer key's NUL bytes, and the run is sorted by
// comparing the keys (on real files, a run of one key repeated).
func sortKeys(keys []string, words []uint64, depth int) {
	if len(words) < 2 {
		return
	}
	depth += sharedPrefix(keys, words, depth)
	for i, w := range words {
		k := w & indexMask
		words[i] = digitAt(keys[k], depth)<<indexBits | k
	}
	slices.Sort(words)
	end := depth + digitBytes
	for i := 0; i < len(words); {
		j := i + 1
		for j < len(words) && words[j]>>indexBits == words[i]>>indexBits {
			j++
		}
		run := words[i:j]
		i = j
		if len(run) < 2 {
			continue
		}
		if slices.ContainsFunc(run, func(w uint64) bool { return len(keys[w&indexMask]) <= end }) {
			slices.SortFunc(run, func(a, b uint64) int { return strings.Compare(keys[a&indexMask], keys[b&indexMask]) })
			continue
		}
		sortKeys(keys, run, end)
	}
}

// sharedPrefix returns how many bytes past depth all the keys words index
// have in common.
func sharedPrefix(keys []string, words []uint64, depth int) int {
	first := keys[words[0]&indexMask]
	n := len(first) - depth
	for _, w := range words[1:] {
		n = commonPrefix(first[depth:depth+n], keys[w&indexMask][depth:])
		if n == 0 {
			break
		}
	}
	return n
}

// digitAt returns key[depth:depth+digitBytes], padded with zeros, as a
// big-endian number.
func digitAt(key string, depth int) uint64 {
	if depth+8 <= len(key) {
		return bits.ReverseBytes64(word.Load(key[depth:])) >> (64 - 8*digitBytes)
	}
	var b [8]byte
	if depth < len(key) {
		copy(b[8-digitBytes:], key[depth:])
	}
	return binary.BigEndian.Uint64(b[:])
}

// match tries the patterns whose key is a prefix of path.
func (ix *coldIndex) match(m *coldMatch, rs *RuleSet, path string) {
	slab := ix.slab
	tryPrefixed(m, slab, ix.short(), path)
	if ix.grams != nil {
		ix.grams.match(m, slab, path)
	}
	if len(path) < 2 {
		return
	}
	candidates(ix.group(rs, path[1]), slab, path, func(e *coldEntry) { m.tryEntry(slab, e, path, true) })
}

// candidates calls fn with every entry of the sorted es whose key is a
// prefix of path. The keys that are prefixes of path lie between the
// first of them and path, so each is a prefix of k, the greatest key at
// most path: they are the entries of k's chain of prefixes (up, set by
// linkPrefixes) no longer than k's common prefix with path. One binary
// search finds k; the chain is walked from there.
func candidates(es []coldEntry, slab string, path string, fn func(*coldEntry)) {
	ph := headOf(path)
	i, found := searchKey(es, slab, path, ph)
	if found {
		for i+1 < len(es) && es[i+1].compareKey(slab, path, ph) == 0 {
			i++
		}
	} else {
		i-- // the greatest key below path
	}
	if i < 0 {
		return
	}
	l := es[i].commonKeyPrefix(slab, path, ph)
	for ; i >= 0; i = int(es[i].up) {
		if int(es[i].key) <= l {
			fn(&es[i])
		}
	}
}

// searchKey returns the place of the first entry of the sorted es whose
// key is at least path, whose head is ph, and whether it equals path. It
// is slices.BinarySearchFunc written out: a comparison called through a
// func value would make path escape, and with it the buffer a cold check
// may have joined it in.
func searchKey(es []coldEntry, slab string, path string, ph uint64) (int, bool) {
	lo, hi := 0, len(es)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if es[mid].compareKey(slab, path, ph) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, lo < len(es) && es[lo].compareKey(slab, path, ph) == 0
}

// linkPrefixes sets the up link of each entry of the sorted es: the
// nearest entry before it whose key is a prefix of its own (-1 for none).
// Following up from an entry visits every entry whose key is a prefix of
// its key: of two prefixes of one key the shorter is a prefix of the
// longer, and sorts before it.
func linkPrefixes(slab string, es []coldEntry) {
	var chain []int32 // the previous entry and its chain of prefixes
	for i := range es {
		k := es[i].keyOf(slab)
		for len(chain) > 0 && !strings.HasPrefix(k, es[chain[len(chain)-1]].keyOf(slab)) {
			chain = chain[:len(chain)-1]
		}
		es[i].up = -1
		if len(chain) > 0 {
			es[i].up = chain[len(chain)-1]
		}
		chain = append(chain, int32(i))
	}
}

// commonPrefix returns the length of the common prefix of a and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := word.Load(a[i:]) ^ word.Load(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for ; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// tryEntry tests an entry on path, whose key path is known to start
// with when keyed. The tests that read only the entry come first, the
// slab last: an exact entry whose key is known is decided by mayMatch
// alone, without reading its pattern.
func (m *coldMatch) tryEntry(slab string, e *coldEntry, path string, keyed bool) {
	if !e.mayMatch(path) {
		return
	}
	p := e.pattern(slab)
	if !m.beats(p) || !keyed && !e.keyStarts(slab, path) {
		return
	}
	if e.exact() || m.matches(e, p.Expr, path) {
		m.best, m.any = p, true
	}
}

// pattern returns the entry's pattern as a cold check ranks it, its
// priority being the length of the rule's pattern (a directory's with the
// '$' it ends in). Its Expr shares the slab: it is not read here.
func (e *coldEntry) pattern(slab string) automaton.Pattern {
	p := automaton.Pattern{Expr: e.expr(slab), Allow: e.allow(), Priority: int32(e.n), ID: e.id}
	if e.dir() {
		p.Priority++ // the directory's pattern ends in the '$' expr lacks
	}
	return p
}

// matches tests an entry, whose pattern is expr, on a path that starts
// with its key: what follows the key in each, the key being the pattern's
// bytes before its first star.
func (m *coldMatch) matches(e *coldEntry, expr, path string) bool {
	rest, tail := expr[e.key:], path[e.key:]
	if e.dir() {
		return automaton.MatchAnchored(rest, tail)
	}
	return automaton.Match(rest, tail)
}
