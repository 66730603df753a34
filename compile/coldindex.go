package compile

import (
	"slices"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/fastrobots/robots/automaton"
)

// coldIndex holds a rule set's patterns by their literal prefix, their
// key: the bytes before the first '*' (and before a final '$'). A pattern
// can match a path only if its key is a prefix of the path. The entries
// are grouped by their key's second byte (the first is nearly always '/'),
// and a group is sorted by key the first time a path needs it: the keys
// that are prefixes of a path are then found by a few binary searches
// (candidates), so a cold check tries those rules alone — on a real file a
// handful, where a group may hold hundreds or thousands, most of which no
// path of a crawl comes near. Keys shorter than two bytes are tried for
// every path.
type coldIndex struct {
	short   []coldEntry // keys of no or one byte
	entries []coldEntry // the rest, grouped by key[1]
	start   [257]int32  // group c is entries[start[c]:start[c+1]]
	sorted  [4]atomic.Uint64
	// star counts the entries whose pattern holds a '*', and starBytes
	// their patterns' bytes: only they need a search in the path.
	star, starBytes int
}

// coldEntry is one pattern a rule is matched as: its own, or the
// directory of an index page (Google's rule).
type coldEntry struct {
	rule, id int32  // the file's rule index; the selection's ID
	key      uint16 // the length of the pattern's key
	dir      bool   // the pattern is the rule's index page's directory, anchored at its end
}

// coldPathMax is the longest path a cold check takes: finding the keys
// that are prefixes of a path compares them with its prefixes.
const coldPathMax = 1 << 10

// literalPrefix returns the length of expr's bytes before its first '*',
// without a final '$'.
func literalPrefix(expr string) int {
	if i := strings.IndexByte(expr, '*'); i >= 0 {
		return i
	}
	return len(strings.TrimSuffix(expr, "$"))
}

// expr returns the entry's pattern, without the '$' of a directory.
func (e *coldEntry) expr(f *File) string {
	p := f.pattern(e.rule, f.rules[e.rule])
	if e.dir {
		p, _ = indexDir(p)
	}
	return p
}

func (e *coldEntry) keyOf(f *File) string { return e.expr(f)[:e.key] }

// buildIndex indexes the rules once and returns the index.
func (rs *RuleSet) buildIndex() *coldIndex {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if ix := rs.index.Load(); ix != nil {
		return ix
	}
	f := rs.file
	ix := &coldIndex{}
	all := make([]coldEntry, 0, rs.rules+rs.rules/8)
	rs.eachRule(func(i, id int32) {
		r := f.rules[i]
		expr := f.pattern(i, r)
		if expr == "" {
			return
		}
		all = ix.add(all, coldEntry{rule: i, id: id, key: uint16(literalPrefix(expr))}, expr)
		if dir, ok := indexDir(expr); ok && r.allow() {
			all = ix.add(all, coldEntry{rule: i, id: id, key: uint16(literalPrefix(dir)), dir: true}, dir)
		}
	})
	var counts [257]int32
	for _, e := range all {
		if e.key >= 2 {
			counts[e.keyOf(f)[1]+1]++
		}
	}
	for c := 1; c < 257; c++ {
		counts[c] += counts[c-1]
	}
	ix.start = counts
	ix.entries = make([]coldEntry, counts[256])
	fill := counts
	for _, e := range all {
		if e.key < 2 {
			ix.short = append(ix.short, e)
			continue
		}
		c := e.keyOf(f)[1]
		ix.entries[fill[c]] = e
		fill[c]++
	}
	rs.opts.Meter.Add(int(unsafe.Sizeof(coldIndex{})) + (cap(ix.entries)+cap(ix.short))*int(unsafe.Sizeof(coldEntry{})))
	rs.index.Store(ix)
	return ix
}

// add appends e, whose pattern is expr, and counts what it costs to try.
func (ix *coldIndex) add(all []coldEntry, e coldEntry, expr string) []coldEntry {
	if strings.IndexByte(expr, '*') >= 0 {
		ix.star++
		ix.starBytes += len(expr)
	}
	return append(all, e)
}

// work bounds the bytes a cold check of path compares: the searches for
// its keys, and Match on every pattern with a star (coldWork).
func (ix *coldIndex) work(path string) int {
	if len(path) > coldPathMax {
		return coldWorkMax + 1
	}
	return coldWork(path, ix.star, ix.starBytes)
}

// group returns the entries whose key's second byte is c, sorted by key;
// it sorts them the first time, under rs.mu.
func (ix *coldIndex) group(rs *RuleSet, c byte) []coldEntry {
	g := ix.entries[ix.start[c]:ix.start[int(c)+1]]
	word, bit := &ix.sorted[c/64], uint64(1)<<(c%64)
	if word.Load()&bit == 0 {
		rs.mu.Lock()
		if word.Load()&bit == 0 {
			f := rs.file
			slices.SortFunc(g, func(a, b coldEntry) int { return strings.Compare(a.keyOf(f), b.keyOf(f)) })
			word.Or(bit)
		}
		rs.mu.Unlock()
	}
	return g
}

// match tries the patterns whose key is a prefix of path.
func (ix *coldIndex) match(m *coldMatch, rs *RuleSet, path string) {
	f := rs.file
	for k := range ix.short {
		e := &ix.short[k]
		if strings.HasPrefix(path, e.keyOf(f)) {
			m.tryEntry(f, e, path)
		}
	}
	if len(path) < 2 {
		return
	}
	candidates(ix.group(rs, path[1]), f, path, func(e *coldEntry) { m.tryEntry(f, e, path) })
}

// candidates calls fn with every entry of the sorted es whose key is a
// prefix of path. Let k be the greatest key at most path[:x]: if k is a
// prefix of it, k's entries are candidates and the others are shorter
// than k; if not, every key that is a prefix of path[:x] is at most as
// long as their common prefix, since a longer one would lie between k and
// path[:x]. Either way x shrinks, and each turn is a binary search.
func candidates(es []coldEntry, f *File, path string, fn func(*coldEntry)) {
	for x := len(path); x >= 2; {
		p := path[:x]
		i, found := slices.BinarySearchFunc(es, p, func(e coldEntry, p string) int { return strings.Compare(e.keyOf(f), p) })
		if found {
			for i+1 < len(es) && es[i+1].keyOf(f) == p {
				i++
			}
		} else {
			i-- // the greatest key below p
		}
		if i < 0 {
			return
		}
		k := es[i].keyOf(f)
		if l := commonPrefix(k, p); l < len(k) {
			x = l
			continue
		}
		for j := i; j >= 0 && es[j].keyOf(f) == k; j-- {
			fn(&es[j])
		}
		x = len(k) - 1
	}
}

// commonPrefix returns the length of the common prefix of a and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// tryEntry tests an entry whose key is a prefix of path.
func (m *coldMatch) tryEntry(f *File, e *coldEntry, path string) {
	expr := e.expr(f)
	p := automaton.Pattern{Expr: expr, Allow: f.rules[e.rule].allow(), Priority: int32(len(expr)), ID: e.id}
	if e.dir {
		p.Priority++ // the directory's pattern ends in the '$' expr lacks
		if m.beats(p) && automaton.MatchAnchored(expr, path) {
			m.best, m.any = p, true
		}
		return
	}
	if m.beats(p) && automaton.Match(expr, path) {
		m.best, m.any = p, true
	}
}
