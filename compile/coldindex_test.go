package compile

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/internal/alloc"
)

// TestSortByKeySortsAGroup sorts the entries of a real-looking group: a
// thousand keys under one long prefix.
func TestSortByKeySortsAGroup(t *testing.T) {
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	r := rand.New(rand.NewPCG(7, 8))
	for range 1000 {
		body.WriteString("Disallow: /about/caltech-media/" + randomBytes(r, "abc-/", r.IntN(30)) + "\n")
	}
	ix, g := indexGroup(body.String(), 'a')
	require.Len(t, g, 1000)
	assert.True(t, sortedByKey(ix, g))
}

// TestSortByKeyByWords sorts groups long enough to be sorted by words
// (wordSortMin), whose keys share prefixes of every length around the
// words' eight bytes, repeat and prefix each other: they come out in the
// strings' order, and every check finds the keys that prefix its path.
func TestSortByKeyByWords(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for n := range 200 {
		shared := "/a" + strings.Repeat("x", n%20)
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		for range wordSortMin + r.IntN(100) {
			body.WriteString("Disallow: " + shared + randomBytes(r, "ab", r.IntN(20)) + "\n")
		}
		ix, g := indexGroup(body.String(), 'a')
		require.GreaterOrEqual(t, len(g), wordSortMin)
		require.True(t, sortedByKey(ix, g), "shared %q:\n%s", shared, body.String())
		for range 20 {
			requireCandidates(t, ix, g, shared+randomBytes(r, "ab", r.IntN(24)), body.String())
		}
	}
}

// TestSortByKeySmallGroups sorts groups too short to be sorted by words,
// whose keys are equal, prefix each other, or differ within and past
// their heads (headLen): they come out in the strings' order, and every
// check finds the keys that prefix its path.
func TestSortByKeySmallGroups(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for n := 1; n < wordSortMin; n++ {
		for range 20 {
			var body strings.Builder
			body.WriteString("User-agent: *\n")
			for range n {
				body.WriteString("Disallow: /a" + randomBytes(r, "ab", r.IntN(12)) + "\n")
			}
			ix, g := indexGroup(body.String(), 'a')
			require.Len(t, g, n)
			require.True(t, sortedByKey(ix, g), "%s", body.String())
			for range 10 {
				requireCandidates(t, ix, g, "/a"+randomBytes(r, "ab", r.IntN(14)), body.String())
			}
		}
	}
}

// TestSortByWordsLongSharedKeys sorts a group whose keys share all but
// their last byte over thousands of bytes: one level of words each eight
// bytes, every key read again at each, which the body's size bounds.
func TestSortByWordsLongSharedKeys(t *testing.T) {
	shared := "/a" + strings.Repeat("x", 6000)
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	for i := range 64 {
		fmt.Fprintf(&body, "Disallow: %s%c\n", shared, 'z'-byte(i%26))
	}
	ix, g := indexGroup(body.String(), 'a')
	require.Len(t, g, 64)
	require.True(t, sortedByKey(ix, g))
	var got []int32
	eachCandidate(g, ix.slab, shared+"q/rest", func(e *coldEntry) { got = append(got, e.id) })
	assert.Len(t, got, 3, "the three rules ending in q")
}

func TestCommonPrefix(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"/a", "", 0},
		{"/a", "/b", 1},
		{"/abcdefgh", "/abcdefgh", 9},
		{"/abcdefgh/x", "/abcdefgh/y", 10},
		{"/abcdefgh/ijklmnop", "/abcdefgh/ijklmnoq", 17},
		{"/abcdefg", "/abcdefgh", 8},
	} {
		assert.Equal(t, c.want, commonPrefix(c.a, c.b), "%q %q", c.a, c.b)
		assert.Equal(t, c.want, commonPrefix(c.b, c.a), "%q %q", c.b, c.a)
	}
}

// TestColdWorkBound checks coldWorkMax: a long path on a few rules is
// still answered cold, and a check whose work exceeds the bound compiles
// the automaton.
func TestColdWorkBound(t *testing.T) {
	f := Parse([]byte("User-agent: *\nDisallow: /a*b\nAllow: /a/\n"), Options{})
	rs := f.Compile(f.Resolve(), automaton.Options{})
	long := "/a/" + strings.Repeat("x", 8<<10)
	for range 3 {
		assert.True(t, rs.Allowed(long, "", ""))
	}
	assert.False(t, rs.Compiled(), "an 8 KiB path on two rules is cold work")

	var body strings.Builder
	body.WriteString("User-agent: *\n")
	for i := range 2000 {
		body.WriteString("Disallow: /*x" + strings.Repeat("y", i%50) + "z\n")
	}
	f = Parse([]byte(body.String()), Options{})
	rs = f.Compile(f.Resolve(), automaton.Options{})
	path := "/" + strings.Repeat("x", 200)
	require.Greater(t, coldWork(len(path), int(rs.rules), int(rs.bytes)), int64(coldWorkMax))
	assert.True(t, rs.Allowed(path, "", ""))
	assert.True(t, rs.Compiled(), "a check past coldWorkMax is the automaton's")
}

// TestCandidatesAreThePrefixKeys checks candidates against every key of a
// group tested one by one, on random keys with shared prefixes and
// repeats.
func TestCandidatesAreThePrefixKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	word := func(n int) string { return randomBytes(r, "ab/", r.IntN(n)) }
	for range 500 {
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		for range 1 + r.IntN(40) {
			body.WriteString("Disallow: /a" + word(6) + "\n")
		}
		ix, g := indexGroup(body.String(), 'a')
		for range 20 {
			requireCandidates(t, ix, g, "/a"+word(8), body.String())
		}
	}
}

// indexGroup parses body and returns the cold index of its rules for any
// agent, with its group c, sorted as a check's first use sorts it.
func indexGroup(body string, c byte) (*coldIndex, []coldEntry) {
	f := Parse([]byte(body), Options{})
	rs := f.Compile(f.Resolve(), automaton.Options{})
	ix := rs.buildIndex()
	return ix, ix.group(rs, c)
}

// sortedByKey reports whether g is in its keys' order as strings.
func sortedByKey(ix *coldIndex, g []coldEntry) bool {
	return slices.IsSortedFunc(g, func(a, b coldEntry) int { return strings.Compare(a.keyOf(ix.slab), b.keyOf(ix.slab)) })
}

// eachCandidate calls fn with each entry of the walk candidates gives.
func eachCandidate(es []coldEntry, slab, path string, fn func(*coldEntry)) {
	for w := candidates(es, slab, path); ; {
		e := w.next(es)
		if e == nil {
			return
		}
		fn(e)
	}
}

// requireCandidates checks that candidates gives, of the group g of ix,
// the entries whose key prefixes path: those and no others.
func requireCandidates(t *testing.T, ix *coldIndex, g []coldEntry, path, body string) {
	t.Helper()
	var want, got []int32
	for i := range g {
		if strings.HasPrefix(path, g[i].keyOf(ix.slab)) {
			want = append(want, g[i].id)
		}
	}
	eachCandidate(g, ix.slab, path, func(e *coldEntry) { got = append(got, e.id) })
	require.ElementsMatch(t, want, got, "%q in\n%s", path, body)
}

// TestMayMatchRulesOutNoMatch checks the quick test of an entry against
// its pattern on random patterns and paths: whenever the pattern matches
// a path that starts with its key, mayMatch lets it through; and it rules
// out a path that lacks the byte the pattern needs.
func TestMayMatchRulesOutNoMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	ruledOut, exact := 0, 0
	for range 300 {
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		for range 1 + r.IntN(8) {
			kind := "Disallow"
			if r.IntN(2) == 0 {
				kind = "Allow"
			}
			body.WriteString(kind + ": /" + randomBytes(r, "ab*$/", r.IntN(6)) + []string{"", "/index.html", "$"}[r.IntN(3)] + "\n")
		}
		f := Parse([]byte(body.String()), Options{})
		rs := f.Compile(f.Resolve(), automaton.Options{})
		ix := rs.buildIndex()
		all := ix.all()
		for range 30 {
			path := "/" + randomBytes(r, "ab$/", r.IntN(8))
			for i := range all {
				e := &all[i]
				expr := e.body(ix.slab)
				if e.anchored() {
					expr += "$"
				}
				if !strings.HasPrefix(path, expr[:e.key]) {
					continue
				}
				matches := automaton.Matches(path, expr)
				if matches {
					require.True(t, e.mayMatch(path), "%q on %q", expr, path)
				} else if !e.mayMatch(path) {
					ruledOut++
				}
				if e.exact() {
					exact++
					require.Equal(t, matches, e.mayMatch(path), "exact %q on %q", expr, path)
				}
			}
		}
	}
	assert.Positive(t, ruledOut, "some paths are ruled out before their pattern is read")
	assert.Positive(t, exact, "some entries are decided without their pattern")
}

// TestKeyStartsIsHasPrefix checks the key test of the short keys, which
// reads the entry, against the key the slab holds.
func TestKeyStartsIsHasPrefix(t *testing.T) {
	f := Parse([]byte("User-agent: *\nDisallow: *a\nDisallow: /*b\nDisallow: a*b\nDisallow: /x/*c\nAllow: /$\n"), Options{})
	ix := f.Compile(f.Resolve(), automaton.Options{}).buildIndex()
	all := ix.all()
	for _, path := range []string{"", "/", "a", "/x/", "/x", "ab"} {
		for i := range all {
			e := &all[i]
			assert.Equal(t, strings.HasPrefix(path, e.keyOf(ix.slab)), e.keyStarts(ix.slab, path), "%q on %q", e.body(ix.slab), path)
		}
	}
}

// TestExactNeed checks which shapes of pattern the need test decides.
func TestExactNeed(t *testing.T) {
	for _, tt := range []struct {
		rest          string
		anchored, dir bool
		exact         bool
	}{
		{"", false, false, true},   // "/private": the key is the pattern
		{"", true, false, false},   // "/private$": the path must end there
		{"*", false, false, true},  // "/a*"
		{"**", true, false, true},  // "/a**$"
		{"*?", false, false, true}, // "/*?"
		{"*f", true, false, true},  // "/*f$"
		{"*a*", true, false, true}, // "/*a*$"
		{"*.pdf", true, false, false},
		{"*a*b", false, false, false},
		{"", true, true, false}, // a directory: anchored
		{"*", true, true, false},
	} {
		assert.Equal(t, tt.exact, exactNeed(tt.rest, tt.anchored, tt.dir), "%q anchored=%v dir=%v", tt.rest, tt.anchored, tt.dir)
	}
}

// TestNeedOf checks the byte needOf picks for each shape of pattern.
func TestNeedOf(t *testing.T) {
	for _, tt := range []struct {
		rest           string
		anchored       bool
		need           byte
		atEnd, hasNeed bool
	}{
		{"*.pdf", true, 'f', true, true},
		{"*.pdf", false, '.', false, true},
		{"*", true, 0, false, false},
		{"**", false, 0, false, false},
		{"", false, 0, false, false},
		{"*a*", true, 'a', false, true},
		{"*/", true, '/', true, true},
		{"*sort=", false, '=', false, true},  // the rarest literal byte
		{"*/feed/", false, 'f', false, true}, // the first of the rarest
		{"*?*sort=", true, '=', true, true},  // anchored: the last
	} {
		need, atEnd, ok := needOf(tt.rest, tt.anchored)
		assert.Equal(t, tt.hasNeed, ok, "%q", tt.rest)
		assert.Equal(t, tt.need, need, "%q", tt.rest)
		assert.Equal(t, tt.atEnd, atEnd, "%q", tt.rest)
	}
}

// TestLongestColdIsTheWorkBound checks the length a cold check compares
// a path's with against the work of paths about it, for indexes of a few
// sizes.
func TestLongestColdIsTheWorkBound(t *testing.T) {
	for _, rules := range []int{1, 20, 3000} {
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		for i := range rules {
			fmt.Fprintf(&body, "Disallow: /%d/*x%s\n", i, strings.Repeat("y", i%40))
		}
		f := Parse([]byte(body.String()), Options{})
		ix := f.Compile(f.Resolve(), automaton.Options{}).buildIndex()
		n := int(ix.coldPathMax)
		require.Positive(t, n, "%d rules", rules)
		for _, l := range []int{0, n / 2, n - 1, n, n + 1, 2 * n} {
			path := strings.Repeat("/", l)
			assert.Equal(t, workOf(ix, path) <= coldWorkMax, l <= n, "%d rules, a path of %d bytes", rules, l)
		}
	}
	f := Parse([]byte("User-agent: *\nDisallow: /\n"), Options{})
	assert.Equal(t, int32(math.MaxInt32), f.Compile(f.Resolve(), automaton.Options{}).buildIndex().coldPathMax, "no entry of two bytes, no star: no path costs")
}

// TestColdGroupsSortConcurrently checks cold checks of one rule set from
// several goroutines at once, which sort its groups the first time each
// needs one (coldIndex.group): every verdict is the automaton's. Under
// the race detector it also holds the group table's sorted marks to
// their atomic reads.
func TestColdGroupsSortConcurrently(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	for range 300 {
		kind := []string{"Disallow", "Allow"}[r.IntN(2)]
		body.WriteString(kind + ": /" + randomBytes(r, "abcdefgh/", 1+r.IntN(10)) + []string{"", "*x", "$", "/index.html"}[r.IntN(4)] + "\n")
	}
	f := Parse([]byte(body.String()), Options{})
	hot := f.Compile(f.Resolve(), automaton.Options{}).Set()
	rs := f.Compile(f.Resolve(), automaton.Options{})
	paths := make([]string, 200)
	for i := range paths {
		paths[i] = "/" + randomBytes(r, "abcdefgh/x", r.IntN(14))
	}
	const workers = 4 // 4*200 checks: all cold (HotAfter)
	errs := make(chan error, workers)
	for w := range workers {
		go func() {
			order := rand.New(rand.NewPCG(uint64(w), 17)).Perm(len(paths))
			for _, k := range order {
				p, ok := hot.DecideParts(paths[k], "", "")
				want := Verdict{ID: p.ID, Allow: p.Allow, Matched: ok}
				if got := rs.Decide(paths[k], "", ""); got != want {
					errs <- fmt.Errorf("%q: cold %+v, automaton %+v", paths[k], got, want)
					return
				}
			}
			errs <- nil
		}()
	}
	for range workers {
		require.NoError(t, <-errs)
	}
	assert.False(t, rs.Compiled(), "the checks were cold")
}

// workOf is indexWork for path on ix, its stars counted anew from the
// entries (those filed by gram included), apart from the tally buildIndex
// kept.
func workOf(ix *coldIndex, path string) int64 {
	entries := ix.all()
	if ix.grams != nil {
		entries = append(entries[:len(entries):len(entries)], ix.grams.filed...)
	}
	star, starBytes := 0, 0
	for i := range entries {
		if e := &entries[i]; strings.IndexByte(e.body(ix.slab), '*') >= 0 {
			star++
			starBytes += int(e.n)
		}
	}
	return indexWork(len(path), star, starBytes, len(ix.keyed()))
}

// TestColdIndexSizes pins the sizes the index is charged by: a coldIndex
// is 80 bytes, and a coldEntry 24, on a 64-bit build; on a 32-bit one the
// charges cover them.
func TestColdIndexSizes(t *testing.T) {
	if !alloc.Wide {
		assert.LessOrEqual(t, unsafe.Sizeof(coldIndex{}), uintptr(coldIndexBytes))
		assert.LessOrEqual(t, unsafe.Sizeof(coldEntry{}), uintptr(coldEntryBytes))
		return
	}
	assert.Equal(t, uintptr(coldIndexBytes), unsafe.Sizeof(coldIndex{}))
	assert.Equal(t, uintptr(coldEntryBytes), unsafe.Sizeof(coldEntry{}))
}

// TestLeadFilterHoldsEveryKey checks that the lead filter never rules out
// a path a key prefixes: keys of every length around a lead's eight
// bytes, with NULs and bytes past ASCII, each tested as the path itself
// and extended.
func TestLeadFilterHoldsEveryKey(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for range 200 {
		var keys []string
		var slab strings.Builder
		var es []coldEntry
		for range 1 + r.IntN(40) {
			k := "/" + randomBytes(r, "ab\x00\xff/", 1+r.IntN(12))
			es = append(es, coldEntry{off: uint32(slab.Len()), key: uint16(len(k)), n: uint16(len(k))})
			slab.WriteString(k)
			keys = append(keys, k)
		}
		f := newLeadFilter(slab.String(), es)
		for _, k := range keys {
			require.True(t, f.mayPrefix(k), "key %q of %q", k, keys)
			p := k + randomBytes(r, "ab\x00\xff/", r.IntN(10))
			require.True(t, f.mayPrefix(p), "path %q of %q", p, keys)
		}
	}
}

// TestLeadFilterRulesOut checks that paths holding no key's lead are
// ruled out: shorter than every key, or differing from each within the
// lead's eight bytes, or past them on a key of eight bytes or less.
func TestLeadFilterRulesOut(t *testing.T) {
	keys := []string{"/admin", "/cgi-bin/", "/search/results"}
	var slab string
	var es []coldEntry
	for _, k := range keys {
		es = append(es, coldEntry{off: uint32(len(slab)), key: uint16(len(k)), n: uint16(len(k))})
		slab += k
	}
	f := newLeadFilter(slab, es)
	assert.Equal(t, 64, 64*len(f.bits), "the least filter")
	for _, p := range []string{"", "/", "/adm", "/about", "/admit/x", "/cgi-bix/", "/search-x"} {
		assert.False(t, f.mayPrefix(p), "%q", p)
	}
	for _, p := range []string{"/admin", "/admins", "/cgi-bin/x", "/search/other"} {
		assert.True(t, f.mayPrefix(p), "%q", p) // the last holds a lead only
	}
}

// TestLeadBitsMax checks the filter's bound: leadBitsPerKey bits a key up
// to leadBitsMax, whatever the number of keys past that.
func TestLeadBitsMax(t *testing.T) {
	for _, c := range []struct{ keys, bits int }{{1, 64}, {5, 128}, {100, 2048}, {4096, leadBitsMax}, {20000, leadBitsMax}} {
		es := make([]coldEntry, c.keys)
		for i := range es {
			es[i] = coldEntry{key: 2, n: 2}
		}
		f := newLeadFilter("/a", es)
		assert.Equal(t, c.bits, 64*len(f.bits), "%d keys", c.keys)
	}
}
