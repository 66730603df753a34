package compile

import (
	"cmp"
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

// coldIndex holds a rule set's patterns by their key, the literal bytes
// before the first '*' (and a final '$'): a pattern can match a path only
// if its key prefixes the path. Entries are grouped by their key's second
// byte (the first is nearly always '/'), and a group is sorted the first
// time a path needs it (candidates), which a path that holds no key's
// lead never does (leadFilter). Keys shorter than two bytes are tried for
// every path. When many patterns hold a star, those with a gram are
// filed in a gramIndex instead, but for those whose key few others share
// (fileByGram).
type coldIndex struct {
	// A check reads every field: keep them within coldIndexBytes.

	// slab holds every entry's pattern: the file's arena, then the escaped
	// patterns if any, so that a check need not go through the rules.
	slab string
	// entries holds the nShort short entries, then the others by key[1].
	entries []coldEntry
	// table holds groupWords bitmap words whose bit c says group c is not
	// empty, then, per non-empty group in byte order, where it begins in
	// entries, with groupSorted set (atomically) once sorted, then the end.
	table       []int32
	grams       *gramIndex // star patterns filed by gram, when there are many
	leads       leadFilter // the keyed entries' leads
	nShort      int32
	coldPathMax int32 // the longest path whose indexWork is within coldWorkMax
}

// coldIndexBytes is the size of a coldIndex (TestColdIndexSizes).
const coldIndexBytes = 112

const groupWords = 256 / 32

// groupSorted marks a sorted group; it is above any entry index, since an
// index holds fewer entries than a file bytes.
const groupSorted = 1 << 30

func (ix *coldIndex) all() []coldEntry {
	return ix.entries
}

func (ix *coldIndex) short() []coldEntry { return ix.entries[:ix.nShort] }

func (ix *coldIndex) keyed() []coldEntry { return ix.all()[ix.nShort:] }

// groupTable returns an index's table (coldIndex.table) for the groups g
// counted, visiting only the groups used, and turns g's counts into where
// each group's next entry goes.
func groupTable(g *groupTally) []int32 {
	groups := 0
	for _, w := range g.used {
		groups += bits.OnesCount32(w)
	}
	t := make([]int32, groupWords, groupWords+groups+1)
	for i, w := range g.used {
		t[i] = int32(w)
	}
	sum := g.short
	for w, used := range g.used {
		for ; used != 0; used &= used - 1 {
			c := w*32 + bits.TrailingZeros32(used)
			n := g.counts[c]
			g.counts[c] = sum
			t = append(t, sum)
			sum += n
		}
	}
	return append(t, sum)
}

// coldEntryBytes is the size of a coldEntry (TestColdIndexSizes).
const coldEntryBytes = 24

// coldEntry is one pattern a rule is matched as: its own, or the
// directory of an index page (Google's rule), anchored. It keeps the
// pattern's Glob as the index read it (glob): body, key and anchor. An
// escaped pattern holds at most three times MaxLineBytes, which n holds.
type coldEntry struct {
	off uint32 // the body is slab[off:off+n]
	id  int32  // the selection's ID
	up  int32  // in a sorted group, the entry of its nearest prefix (linkPrefixes)
	// headLo and headHi are the key's head (headOf), split so that an
	// entry needs no 8-byte alignment.
	headLo uint32
	headHi uint16
	n      uint16 // the length of the body, the pattern without its '$'
	key    uint16 // the length of its key
	flags  entryFlags
	// need is a byte every path the pattern matches holds past its key.
	need byte
}

// headLen is the longest key an entry's head holds in full, given its
// group's byte, the key's second.
const headLen = 7

// headOf returns s[0] and s[2:headLen], the bytes that tell apart a
// group's keys, zero-padded, as the top of a big-endian word. Within a
// group, a lesser head is a lesser string; equal heads decide nothing past
// headLen bytes, nor, as padding and a NUL look alike, between lengths.
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

// headIndex returns the index in a string of byte b of its head.
func headIndex(b int) int {
	if b == 0 {
		return 0
	}
	return b + 1
}

func (e *coldEntry) head() uint64 { return uint64(e.headHi)<<48 | uint64(e.headLo)<<16 }

func (e *coldEntry) setHead(key string) {
	h := headOf(key)
	e.headHi, e.headLo = uint16(h>>48), uint32(h>>16)
}

// compareKey compares the entry's key with path, whose head is ph and
// whose second byte is the key's, as strings.Compare would. It reads the
// slab only when both are longer than headLen and their heads are equal.
func (e *coldEntry) compareKey(slab, path string, ph uint64) int {
	switch kh := e.head(); {
	case kh < ph:
		return -1
	case kh > ph:
		return 1
	}
	return e.compareAfterHead(slab, path)
}

// compareAfterHead is compareKey of a path whose head equals the key's.
func (e *coldEntry) compareAfterHead(slab, path string) int {
	if e.key <= headLen || len(path) <= headLen {
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

// commonKeyPrefix is commonPrefix of the entry's key and path, reading
// the slab only as compareKey does.
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

type entryFlags uint8

const (
	// entryDir: the pattern is the directory of the rule's index page.
	entryDir entryFlags = 1 << iota
	entryAllow
	entryAnchored
	// entryExact: on a path that starts with the key, mayMatch decides the
	// pattern (exactNeed), which is not read: "/*?", "/*&*", "/private"
	// are such; "/*.pdf$" is not.
	entryExact
	needShift = iota
)

func (e *coldEntry) needAt() needPlace { return needPlace(e.flags >> needShift) }

func (e *coldEntry) setNeed(b byte, at needPlace) {
	e.need, e.flags = b, e.flags&(1<<needShift-1)|entryFlags(at)<<needShift
}

func (e *coldEntry) dir() bool      { return e.flags&entryDir != 0 }
func (e *coldEntry) allow() bool    { return e.flags&entryAllow != 0 }
func (e *coldEntry) exact() bool    { return e.flags&entryExact != 0 }
func (e *coldEntry) anchored() bool { return e.flags&entryAnchored != 0 }

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

type needPlace uint8

const (
	needNone     needPlace = iota // the pattern needs no byte past its key
	needAnywhere                  // somewhere past the key
	needAtEnd                     // as its last byte
)

// mayMatch reports false when path is shorter than the key or lacks the
// byte the pattern needs past it.
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
// starts with its key: whether rest, the pattern past its key without its
// '$', holds no literal byte (and is not anchored empty) or only its need,
// after a star ("*c", "*c*"). A directory's pattern is never exact.
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

// needOf returns a byte every path a pattern matches holds past its key,
// rest being the pattern past the key without its '$' when anchored: the
// last byte, when anchored and literal (atEnd); else the rarest of its
// literal bytes (gramRarity). ok is false when rest holds no literal.
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

// A pattern of MaxLineBytes, escaped, must fit coldEntry.n.
var _ [1<<16 - 1 - 3*MaxLineBytes]struct{}

func (e *coldEntry) body(slab string) string { return slab[e.off : e.off+uint32(e.n)] }

// glob returns the entry's pattern as read when the index was built.
func (e *coldEntry) glob(slab string) automaton.Glob {
	return automaton.Glob{Body: e.body(slab), Star: int(e.key), Anchored: e.anchored()}
}

func (e *coldEntry) keyOf(slab string) string { return slab[e.off : e.off+uint32(e.key)] }

func (e *coldEntry) group(slab string) byte { return slab[e.off+1] }

func (rs *RuleSet) buildIndex() *coldIndex {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if ix := rs.index.Load(); ix != nil {
		return ix
	}
	ix := &coldIndex{}
	scratch := entryScratch.Get().(*[]coldEntry)
	var stars starTally
	var groups groupTally
	all := ix.collect(rs, (*scratch)[:0], &stars, &groups)
	if stars.star >= gramMin {
		all, ix.grams = fileByGram(ix.slab, all)
		rs.meter.Add(ix.grams.bytes())
		groups = groupTally{} // counted again without the entries filed by gram
		for i := range all {
			groups.add(&all[i], all[i].keyOf(ix.slab))
		}
	}
	ix.nShort = groups.short
	ix.table = groupTable(&groups)
	entries := make([]coldEntry, len(all))
	next, short := &groups.counts, int32(0)
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
	ix.leads = newLeadFilter(ix.slab, ix.keyed())
	*scratch = all[:0]
	entryScratch.Put(scratch)
	if len(ix.slab) != len(rs.file.body) { // the escaped patterns are a new string
		rs.meter.Add(alloc.Size(len(ix.slab)))
	}
	rs.meter.Add(alloc.Size(coldIndexBytes) + alloc.Size(cap(entries)*coldEntryBytes) + alloc.Size(4*cap(ix.table)) + ix.leads.bytes())
	ix.coldPathMax = longestCold(stars, len(ix.keyed()))
	rs.index.Store(ix)
	return ix
}

// longestCold returns the length of the longest path whose indexWork is
// within coldWorkMax, or math.MaxInt32 when every path's is.
func longestCold(stars starTally, keyed int) int32 {
	within := func(n int) bool { return indexWork(n, stars.star, stars.starBytes, keyed) <= coldWorkMax }
	// An entry costs a path of n bytes at least (n+1)/8 and a star n+1, so
	// no path of 16*coldWorkMax bytes is within unless nothing costs.
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

var entryScratch = sync.Pool{New: func() any { return new([]coldEntry) }}

type starTally struct{ star, starBytes int }

// groupTally counts the entries of each group of an index (the key's
// second byte), and the short ones, as collect makes them.
type groupTally struct {
	counts [256]int32
	used   [groupWords]uint32 // bit c: counts[c] > 0
	short  int32
}

func (t *groupTally) add(e *coldEntry, key string) {
	if e.key < 2 {
		t.short++
		return
	}
	c := key[1]
	t.counts[c]++
	t.used[c/32] |= 1 << (c % 32)
}

// collect appends the rule set's entries to all and sets the slab.
func (ix *coldIndex) collect(rs *RuleSet, all []coldEntry, stars *starTally, groups *groupTally) []coldEntry {
	f := rs.file
	var escaped []byte
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
		all = stars.add(all, coldEntry{off: off, id: id, flags: entryFlagsOf(r.allow(), false)}, automaton.ReadGlob(expr), groups)
		if !r.allow() {
			return
		}
		if dir, ok := indexDir(expr); ok {
			all = stars.add(all, coldEntry{off: off, id: id, flags: entryFlagsOf(true, true)}, dirGlob(dir), groups)
		}
	})
	ix.slab = f.body
	if escaped != nil {
		ix.slab = f.body + string(escaped)
	}
	return all
}

func (t *starTally) add(all []coldEntry, e coldEntry, g automaton.Glob, groups *groupTally) []coldEntry {
	if g.Starred() {
		t.star++
		t.starBytes += len(g.Body)
	}
	e.key, e.n = uint16(g.Star), uint16(len(g.Body))
	if g.Anchored {
		e.flags |= entryAnchored
	}
	e.setHead(g.Key())
	rest, anchored := g.Tail(), g.Anchored
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
	groups.add(&e, g.Key())
	return append(all, e)
}

// indexWork bounds the bytes a cold check compares on an index: Match on
// every star pattern, plus a search and a walk of at most every entry,
// each reading at most the path.
func indexWork(pathLen, star, starBytes, entries int) int64 {
	return coldWork(pathLen, star, starBytes) + (int64(pathLen)+1)*int64(bits.Len(uint(entries))+entries)/16
}

// hasGroup reports whether some entry's key has c for its second byte.
func (ix *coldIndex) hasGroup(c byte) bool { return uint32(ix.table[c/32])&(1<<(c%32)) != 0 }

// group returns the entries whose key's second byte is c, sorted by key.
// The first check to need a group sorts it under rs.mu; the sorted bit is
// set atomically after, so a check that sees it reads the group unlocked.
func (ix *coldIndex) group(rs *RuleSet, c byte) []coldEntry {
	if !ix.hasGroup(c) {
		return nil
	}
	t := ix.table
	j := groupWords + bits.OnesCount32(uint32(t[c/32])&(1<<(c%32)-1))
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

func setBit(words []uint64, b uint32) { words[b/64] |= 1 << (b % 64) }

func hasBit(words []uint64, b uint32) bool { return words[b/64]&(1<<(b%64)) != 0 }

// bucketStarts turns counts into where each bucket begins, and returns
// those places for the non-empty buckets, then the end.
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

func rankWords(used []uint64, rank []uint16) {
	for w := 1; w < len(used); w++ {
		rank[w] = rank[w-1] + uint16(bits.OnesCount64(used[w-1]))
	}
}

// sortByKey sorts a group by key, comparing heads first as a check does
// (compareKey): most keys of a group differ within their heads.
func sortByKey(slab string, g []coldEntry) {
	if len(g) >= wordSortMin {
		sortByWords(slab, g, 0, make([]keyedEntry, len(g)), make([]coldEntry, len(g)))
		return
	}
	slices.SortFunc(g, func(a, b coldEntry) int { return a.compareKey(slab, b.keyOf(slab), b.head()) })
}

// wordSortMin is the shortest group sortByKey sorts by words: in a long
// group, keys often share more than a head (the pages of one directory),
// so that compareKey would read the slab at every comparison.
const wordSortMin = 32

type keyedEntry struct {
	word uint64 // the key's eight bytes past those its run shares (wordAfter)
	rest int32  // how many of the key's bytes are past them, at most 9
	i    int32  // the entry's index in its run
}

// sortByWords sorts g, whose keys share their first p bytes, by the next
// eight bytes of each and then by length, where a key ends within them:
// that is the keys' order, as a key that ends before another's bytes
// differ is the lesser. Runs that tie on both, their keys longer still,
// are sorted by the eight bytes after. ks and tmp are scratch as long as g.
func sortByWords(slab string, g []coldEntry, p int, ks []keyedEntry, tmp []coldEntry) {
	ks = ks[:len(g)]
	for i := range g {
		key := g[i].keyOf(slab)
		ks[i] = keyedEntry{wordAfter(key, p), int32(min(len(key)-p, 9)), int32(i)}
	}
	slices.SortFunc(ks, func(a, b keyedEntry) int {
		if a.word != b.word {
			return cmp.Compare(a.word, b.word)
		}
		return cmp.Compare(a.rest, b.rest)
	})
	tmp = tmp[:len(g)]
	for j, k := range ks {
		tmp[j] = g[k.i]
	}
	copy(g, tmp)
	for lo := 0; lo < len(g); {
		hi := lo + 1
		for hi < len(g) && ks[hi].word == ks[lo].word && ks[hi].rest == ks[lo].rest {
			hi++
		}
		if hi-lo > 1 && ks[lo].rest == 9 {
			sortByWords(slab, g[lo:hi], p+8, ks[lo:hi], tmp[lo:hi])
		}
		lo = hi
	}
}

// wordAfter returns key[p:p+8] as a big-endian word, zero-padded.
func wordAfter(key string, p int) uint64 {
	if p+8 <= len(key) {
		return bits.ReverseBytes64(word.At(key, p))
	}
	var w uint64
	for i := p; i < p+8; i++ {
		w <<= 8
		if i < len(key) {
			w |= uint64(key[i])
		}
	}
	return w
}

func (ix *coldIndex) match(m *coldMatch, rs *RuleSet, path string) {
	slab := ix.slab
	tryPrefixed(m, slab, ix.short(), path)
	if ix.grams != nil {
		ix.grams.match(m, slab, path)
	}
	if len(path) < 2 || !ix.hasGroup(path[1]) || !ix.leads.mayPrefix(path) {
		return // no key prefixes path: its group need not be found, nor sorted
	}
	es := ix.group(rs, path[1])
	for w := candidates(es, slab, path); ; {
		e := w.next(es)
		if e == nil {
			return
		}
		m.tryEntry(slab, e, path, true)
	}
}

// candidateWalk visits the entries of a sorted group whose key prefixes a
// path: those of the chain of prefixes (linkPrefixes) from entry i, the
// greatest key at most the path, no longer than l, its key's common
// prefix with the path. It is a walk, not a callback, so that a check's
// loop over the candidates calls nothing but tryEntry.
type candidateWalk struct{ i, l int }

// candidates returns the walk of the entries of the sorted es whose key
// prefixes path.
func candidates(es []coldEntry, slab string, path string) candidateWalk {
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
		return candidateWalk{i: -1}
	}
	return candidateWalk{i, es[i].commonKeyPrefix(slab, path, ph)}
}

// next returns the walk's next entry of es, or nil at its end.
func (w *candidateWalk) next(es []coldEntry) *coldEntry {
	for w.i >= 0 {
		e := &es[w.i]
		w.i = int(e.up)
		if int(e.key) <= w.l {
			return e
		}
	}
	return nil
}

// searchKey is slices.BinarySearchFunc of path, whose head is ph, in es,
// written out: a func value would make path, and the buffer a cold check
// may have joined it in, escape.
func searchKey(es []coldEntry, slab string, path string, ph uint64) (int, bool) {
	lo, hi := 0, len(es)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		// compareKey, with the heads compared here: most steps end there.
		if kh := es[mid].head(); kh < ph || kh == ph && es[mid].compareAfterHead(slab, path) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, lo < len(es) && es[lo].compareKey(slab, path, ph) == 0
}

// linkPrefixes sets each entry's up link to the nearest entry before it
// whose key prefixes its own, or -1. Following the links visits every such
// entry, since prefixes of one key prefix each other and sort by length.
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

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := word.At(a, i) ^ word.At(b, i); x != 0 {
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

// tryEntry tests an entry on path, which is known to start with its key
// when keyed; the slab is read last.
func (m *coldMatch) tryEntry(slab string, e *coldEntry, path string, keyed bool) {
	if !e.mayMatch(path) {
		return
	}
	p := e.pattern()
	if !m.beats(p) || !keyed && !e.keyStarts(slab, path) {
		return
	}
	if e.exact() || e.glob(slab).MatchTail(path[e.key:]) {
		m.best, m.any = p, true
	}
}

// pattern returns what ranks the entry's pattern: its priority is the
// length of the pattern, '$' included, and its Expr is left out.
func (e *coldEntry) pattern() automaton.Pattern {
	p := automaton.Pattern{Allow: e.allow(), Priority: int32(e.n), ID: e.id}
	if e.anchored() {
		p.Priority++
	}
	return p
}
