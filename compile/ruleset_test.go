package compile

import (
	"fmt"
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

// TestColdAgreesWithCompiled checks the cold tier, unindexed and indexed,
// against the compiled automaton on random files and paths, and on the
// paths of fewer than two bytes: files of a few rules of any shape, and
// files with enough star patterns to be filed by gram (coldgram.go).
func TestColdAgreesWithCompiled(t *testing.T) {
	for _, c := range []struct {
		name            string
		seed            uint64
		alphabet        string
		files, paths, n int // n: the most bytes of a path after its '/'
		rules           func(body *strings.Builder, r *rand.Rand, word func(int) string)
		grams           bool // the index files patterns by gram
	}{
		{"prefixes", 3, "/ab*$.?%i", 2000, 20, 10, func(body *strings.Builder, r *rand.Rand, word func(int) string) {
			for range 1 + r.IntN(12) {
				v := word(8)
				if r.IntN(3) > 0 {
					v = "/" + v
				}
				if r.IntN(8) == 0 {
					v += "/index.html"
				}
				writeRule(body, r, v)
			}
		}, false},
		{"grams", 9, "/ab*$?=&i.", 300, 30, 16, func(body *strings.Builder, r *rand.Rand, word func(int) string) {
			for range gramMin + r.IntN(40) {
				writeRule(body, r, []string{"/*", "*", "/a*", "/ab/*"}[r.IntN(4)]+word(6))
			}
			for range r.IntN(8) {
				writeRule(body, r, "/"+word(6))
			}
		}, true},
		{"copies", 13, "/ab*$?=&i.", 300, 30, 16, func(body *strings.Builder, r *rand.Rand, word func(int) string) {
			// The same star rules under many keys, as a site writes them
			// once per country, and some under one key.
			tails := []string{"*" + word(4), "*/" + word(3) + "*", "*?" + word(3)}
			for range gramMin + r.IntN(30) {
				writeRule(body, r, "/"+word(3)+"/"+tails[r.IntN(len(tails))])
			}
			for range r.IntN(3 * keyShareMax) {
				writeRule(body, r, "/ab/*"+word(5))
			}
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(c.seed, c.seed+1))
			word := func(n int) string { return randomBytes(r, c.alphabet, 1+r.IntN(n)) }
			for range c.files {
				var body strings.Builder
				body.WriteString("User-agent: *\n")
				c.rules(&body, r, word)
				ix := requireColdAgrees(t, body.String(), c.paths, func() string { return "/" + word(c.n) })
				if c.grams {
					require.NotNil(t, ix.grams, "%s", body.String())
				}
			}
		})
	}
}

// TestFileByGramKeepsFewSharedKeys checks where star patterns are filed:
// under their key, in the prefix index, when few share it, as a site's
// copies of its rules for each country do; by gram when many do, or when
// the key is shorter than two bytes.
func TestFileByGramKeepsFewSharedKeys(t *testing.T) {
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	for _, cc := range strings.Fields("uk au ca de fr it jp nl pl es mx se nz ie dk no fi be at ch") {
		body.WriteString("Disallow: /" + cc + "/listing/*/stubs/*\nDisallow: /" + cc + "/listing/*/similar?*\n")
	}
	for i := range keyShareMax + 1 {
		fmt.Fprintf(&body, "Disallow: /shop/*?*facet%d=\n", i)
	}
	body.WriteString("Disallow: /*.pdf$\n")
	f := Parse([]byte(body.String()), Options{})
	rs := f.Compile(f.Resolve(), automaton.Options{})
	ix := rs.buildIndex()
	require.NotNil(t, ix.grams)
	var filed []string
	for _, e := range ix.grams.filed {
		filed = append(filed, e.keyOf(ix.slab))
	}
	assert.ElementsMatch(t, append(slices.Repeat([]string{"/shop/"}, keyShareMax+1), "/"), filed)
	assert.Len(t, ix.group(rs, 'u'), 2, "/uk/listing/'s two rules, under their key")
}

// writeRule writes an allow or a disallow of v, at random.
func writeRule(body *strings.Builder, r *rand.Rand, v string) {
	kind := "Disallow"
	if r.IntN(2) == 0 {
		kind = "Allow"
	}
	body.WriteString(kind + ": " + v + "\n")
}

// requireColdAgrees checks that cold checks of body's rules, tested one by
// one and indexed, decide n paths as the compiled automaton does, and
// returns the index.
func requireColdAgrees(t *testing.T, body string, n int, path func() string) *coldIndex {
	t.Helper()
	f := Parse([]byte(body), Options{})
	sel := f.Resolve()
	hot := f.Compile(sel, automaton.Options{})
	hot.Set()
	cold := f.Compile(sel, automaton.Options{})
	ix := cold.buildIndex()
	short := []string{"", "/", "a"} // shorter than a group's byte
	for i := range n + len(short) {
		var p string
		if i < len(short) {
			p = short[i]
		} else {
			p = path()
		}
		want := hot.Decide(p, "", "")
		var m coldMatch
		cold.matchAll(&m, p)
		require.Equal(t, want, m.verdict(), "unindexed: %q on\n%s", p, body)
		m = coldMatch{}
		ix.match(&m, cold, p)
		require.Equal(t, want, m.verdict(), "indexed: %q on\n%s", p, body)
	}
	return ix
}

func TestColdIndexCandidates(t *testing.T) {
	keys := []string{"/", "/a", "/a", "/ab", "/abc", "/b", "/ac", "/abd", "/abcd/e", "/abcd/e/fg", "x"}
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	for _, k := range keys {
		body.WriteString("Disallow: " + k + "\n")
	}
	f := Parse([]byte(body.String()), Options{})
	rs := f.Compile(f.Resolve(), automaton.Options{})
	ix := rs.buildIndex()
	for path, want := range map[string][]string{
		"/abcd/e/f": {"/", "/a", "/a", "/ab", "/abc", "/abcd/e"},
		"/abz":      {"/", "/a", "/a", "/ab"},
		"/b":        {"/", "/b"},
		"x":         {"x"},
		"/ac":       {"/", "/a", "/a", "/ac"},
		"/":         {"/"},
	} {
		var got []string
		for k := range ix.short() {
			if strings.HasPrefix(path, ix.short()[k].keyOf(ix.slab)) {
				got = append(got, ix.short()[k].keyOf(ix.slab))
			}
		}
		if len(path) >= 2 {
			eachCandidate(ix.group(rs, path[1]), ix.slab, path, func(e *coldEntry) { got = append(got, e.keyOf(ix.slab)) })
		}
		assert.ElementsMatch(t, want, got, "%q", path)
	}
}

// TestPathGramsMayMatch pins what the first check's filter rules out: a
// star pattern whose literal bytes after the star, or at its end, the path
// does not hold side by side; and nothing it cannot tell.
func TestPathGramsMayMatch(t *testing.T) {
	tests := []struct {
		expr, path string
		may        bool
	}{
		{"/*?sort=", "/shoes?color=red", false},
		{"/*?sort=", "/shoes?sort=price", true},
		{"/*.pdf$", "/doc/a.pdf", true},
		{"/*.pdf$", "/doc/a.html", false},
		{"/*.pdf$", "/doc/a.p/df", true},  // both grams, apart: Match decides
		{"/*.pdf", "/doc/a.pd", false},    // the last two bytes
		{"/shop/*-x", "/shop/a-x", true},  // the first star anywhere
		{"/shop/*-x", "/shop/a_x", false}, // "-x" is missing
		{"/a*", "/b", true},               // nothing after the star
		{"/*a$", "/b", true},              // one byte after the star
		{"/*a*b", "/c", true},             // a star after one byte
		{"/private", "/public", true},     // no star: Match decides
		{"*", "", true},
	}
	for _, tt := range tests {
		var g pathGrams
		assert.Equal(t, tt.may, g.mayMatch(automaton.ReadGlob(tt.expr), tt.path), "%q on %q", tt.expr, tt.path)
	}
}

// TestRuleSetCountsItsRules: Compile counts the selected groups' rules and
// the bytes of their values, which decide whether a first cold check
// matches every rule or indexes them (coldWork); rules far down a file
// count their values' bytes, not their records' other bits.
func TestRuleSetCountsItsRules(t *testing.T) {
	var body strings.Builder
	body.WriteString("User-agent: a\nDisallow: /not-counted\n\nUser-agent: *\n")
	values := []string{"/x", "/*.pdf$", "/private/", "/p?q="}
	for i, v := range values {
		body.WriteString(strings.Repeat("# filler\n", 40*i))
		body.WriteString("Disallow: " + v + "\n")
	}
	f := Parse([]byte(body.String()), Options{})
	rs := f.Compile(f.Resolve(), automaton.Options{})
	want := 0
	for _, v := range values {
		want += len(v)
	}
	assert.Equal(t, int32(len(values)), rs.rules)
	assert.Equal(t, int32(want), rs.bytes)
}

func TestJoinPath(t *testing.T) {
	long := strings.Repeat("x", coldJoinBytes)
	tests := []struct {
		a, b, c string
		stack   bool // joined in the buffer
	}{
		{"/a", "", "", false},
		{"", "/a", "", false},
		{"", "", "/a", false},
		{"/", "?q", "", true},
		{"/a", "?", "q", true},
		{"/", ";s", "?q", true},
		{"/", long, "", false},
		{"", "", "", false},
	}
	for _, tt := range tests {
		var buf [coldJoinBytes]byte
		got := joinPath(buf[:0], tt.a, tt.b, tt.c)
		assert.Equal(t, tt.a+tt.b+tt.c, got)
		assert.Equal(t, tt.stack, len(got) > 0 && unsafe.StringData(got) == &buf[0], "%q %q %q", tt.a, tt.b, tt.c)
	}
}

// TestRuleSetMeteredIsItsMeters checks that Metered reads the meter the
// rule set counts on: its options' Meter, else its file's, moving as the
// rule set builds; and 0 when there is none.
func TestRuleSetMeteredIsItsMeters(t *testing.T) {
	const body = "User-agent: *\nDisallow: /a*b\nAllow: /a$\n"
	var fileMeter, own automaton.Meter
	f := Parse([]byte(body), Options{Meter: &fileMeter})
	byFile := f.Compile(f.Resolve("bot"), automaton.Options{})
	byOwn := f.Compile(f.Resolve("bot"), automaton.Options{Meter: &own})
	assert.Equal(t, fileMeter.Bytes(), byFile.Metered(), "the file's meter")
	assert.Equal(t, own.Bytes(), byOwn.Metered(), "the options' meter")
	before := byFile.Metered()
	byFile.Set()
	assert.Greater(t, byFile.Metered(), before, "compiling counts the automaton on the file's meter")
	assert.Equal(t, fileMeter.Bytes(), byFile.Metered())

	bare := Parse([]byte(body), Options{})
	rs := bare.Compile(bare.Resolve("bot"), automaton.Options{})
	rs.Set()
	assert.Zero(t, rs.Metered(), "no meter, nothing counted")
}

// TestRuleSetVerbatimIsTheDialects checks that the rule set's verbatim,
// which checks read from it, is its file's dialect's.
func TestRuleSetVerbatimIsTheDialects(t *testing.T) {
	for _, mode := range []Mode{Google, RFC} {
		f := Parse([]byte("User-agent: *\nDisallow: /a\n"), Options{Mode: mode})
		rs := f.Compile(f.Resolve("bot"), automaton.Options{})
		assert.Equal(t, mode.Dialect().Verbatim(), rs.verbatim, "%v", mode)
	}
	assert.NotEqual(t, Google.Dialect().Verbatim(), RFC.Dialect().Verbatim(), "the modes differ, or this test tells nothing")
}

// TestRuleSetCheckFieldsShareALine pins the layout RuleSet's doc states:
// the fields every check reads lie in its first 32 bytes, and its size
// class is a multiple of 32, so that every rule set starts at a multiple
// of 32 bytes and those fields never straddle two cache lines; the class
// stays 96 bytes, what a cache charges a site for it.
func TestRuleSetCheckFieldsShareALine(t *testing.T) {
	var rs RuleSet
	for _, f := range []struct {
		name         string
		offset, size uintptr
	}{
		{"set", unsafe.Offsetof(rs.set), unsafe.Sizeof(rs.set)},
		{"index", unsafe.Offsetof(rs.index), unsafe.Sizeof(rs.index)},
		{"checks", unsafe.Offsetof(rs.checks), unsafe.Sizeof(rs.checks)},
		{"normalize", unsafe.Offsetof(rs.normalize), unsafe.Sizeof(rs.normalize)},
		{"endAtNUL", unsafe.Offsetof(rs.endAtNUL), unsafe.Sizeof(rs.endAtNUL)},
		{"verbatim", unsafe.Offsetof(rs.verbatim), unsafe.Sizeof(rs.verbatim)},
	} {
		assert.LessOrEqual(t, f.offset+f.size, uintptr(32), "%s is read by every check", f.name)
	}
	class := alloc.Size(ruleSetBytes)
	assert.Zero(t, class%32, "a rule set of %d bytes is allocated in %d", ruleSetBytes, class)
	if alloc.Wide {
		assert.Equal(t, 96, class, "the bytes a cache charges for a rule set")
	} else {
		assert.LessOrEqual(t, class, 96, "a 32-bit build's rule set is no larger")
	}
}
