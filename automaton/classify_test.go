package automaton

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// referenceAllows is the verdict of Reference: allowed unless a disallow
// decides.
func referenceAllows(patterns []Pattern, path string) bool {
	p, ok := Reference(patterns, path)
	return !ok || p.Allow
}

// TestClassifyAgreesWithEveryShortPath compares Classify with the verdict
// of every path of up to seven bytes over an alphabet that holds each
// pattern byte and one they do not name, for random sets of patterns:
// a verdict some such path gets must be found, a witness must get its
// verdict, and a verdict no path gets must have no witness once decided.
// Reading every path (explore) finds the shortest witnesses: none is
// longer than the shortest such path.
func TestClassifyAgreesWithEveryShortPath(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const alphabet = "ab/c$"
	paths := []string{"/"}
	for i := 0; i < len(paths) && len(paths[i]) < 7; i++ {
		for _, b := range []byte(alphabet) {
			paths = append(paths, paths[i]+string(b))
		}
	}
	byPatterns := 0
	for range 3000 {
		var patterns []Pattern
		for i := range 1 + r.IntN(4) {
			expr := "/" + randomString(r, "ab/*$", r.IntN(5))
			patterns = append(patterns, Pattern{Expr: expr, Allow: r.IntN(2) == 0, Priority: int32(len(expr)), ID: int32(i)})
		}
		set := NewSet(patterns, Options{})
		shortest := map[bool]string{}
		for _, p := range paths {
			v := referenceAllows(patterns, p)
			if _, ok := shortest[v]; !ok {
				shortest[v] = p
			}
		}
		if _, ok := patternWitnesses(set.patterns, set.scanPath); ok {
			byPatterns++
		}
		for _, explore := range []bool{false, true} {
			c := set.Classify()
			if explore {
				c = set.explore(MaxClassifyStates, MaxClassifyBytes)
			}
			require.True(t, c.Decided, "%v", patterns)
			for _, v := range []bool{true, false} {
				w := c.Disallowed
				if v {
					w = c.Allowed
				}
				if w != "" {
					require.Equal(t, v, referenceAllows(patterns, w), "%v: witness %q", patterns, w)
					require.True(t, strings.HasPrefix(w, "/"))
				}
				s, ok := shortest[v]
				if ok {
					require.NotEmpty(t, w, "%v: %q gets %v, Classify found no such path", patterns, s, v)
				}
				if ok && explore {
					require.LessOrEqual(t, len(w), len(s), "%v: the witness is a shortest path", patterns)
				}
			}
		}
	}
	assert.Greater(t, byPatterns, 1000, "the patterns' own paths decide most sets")
}

func TestClassify(t *testing.T) {
	for _, tt := range []struct {
		name                string
		patterns            []Pattern
		allowed, disallowed string
	}{
		{"no patterns", nil, "/", ""},
		{"all", []Pattern{{Expr: "/", Priority: 1}}, "", "/"},
		{"all but an allow", []Pattern{{Expr: "/", Priority: 1}, {Expr: "/ok", Allow: true, Priority: 3}}, "/ok", "/"},
		{"a directory", []Pattern{{Expr: "/private/", Priority: 9}}, "/", "/private/"},
		{"the end only", []Pattern{{Expr: "/$", Priority: 2}}, "/a", "/"},
		{"a star", []Pattern{{Expr: "/*.pdf$", Priority: 7}}, "/", "/.pdf"},
		{"allow wins a tie", []Pattern{{Expr: "/a", Priority: 2}, {Expr: "/a", Allow: true, Priority: 2}}, "/", ""},
		{"everything allowed back", []Pattern{{Expr: "/", Priority: 1}, {Expr: "/*", Allow: true, Priority: 2}}, "/", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := NewSet(tt.patterns, Options{}).Classify()
			assert.True(t, c.Decided)
			assert.Equal(t, tt.allowed, c.Allowed)
			assert.Equal(t, tt.disallowed, c.Disallowed)
		})
	}
}

// counters are eight disallow patterns that each count their letter up to
// twelve, each with an allow of the same count at the path's end, so that
// no pattern's own path is disallowed and the classifier reads every path:
// they keep more than MaxClassifyStates states apart (C(19, 8) = 75,582
// among the paths of up to twelve bytes) before the first disallowed
// path, fourteen bytes long.
func counters(n int) []Pattern {
	var patterns []Pattern
	for i, l := range "abcdefgh"[:n] {
		expr := "/*" + strings.Repeat(string(l)+"*", 11) + string(l)
		patterns = append(patterns,
			Pattern{Expr: expr, Priority: int32(len(expr)), ID: int32(2 * i)},
			Pattern{Expr: expr + "$", Allow: true, Priority: int32(len(expr) + 1), ID: int32(2*i + 1)})
	}
	return patterns
}

// TestClassifyStopsAtItsBudget: past MaxClassifyStates the class is
// undecided, with the allowed path found.
func TestClassifyStopsAtItsBudget(t *testing.T) {
	set := NewSet(counters(8), Options{})
	_, ok := patternWitnesses(set.patterns, set.scanPath)
	require.False(t, ok, "no pattern's own path is disallowed")
	c := set.Classify()
	assert.False(t, c.Decided)
	assert.Equal(t, "/", c.Allowed)
	assert.Empty(t, c.Disallowed, "not reached within the budget")

	// One counter alone has fourteen states: its disallowed path is found.
	c = NewSet(counters(1), Options{}).Classify()
	assert.True(t, c.Decided)
	assert.Equal(t, "/"+strings.Repeat("a", 12)+"b", c.Disallowed, "twelve a and a byte after them")
}

// TestClassifyBytesBound: the bytes of positions held bound the
// exploration too. The eight counters up to twelve hold many positions a
// state: within the default bounds the disallowed path of one counter
// alone is found; a byte bound below what it needs leaves it undecided.
func TestClassifyBytesBound(t *testing.T) {
	one := NewSet(counters(1), Options{})
	c := one.ClassifyWithin(MaxClassifyStates, MaxClassifyBytes)
	require.True(t, c.Decided)
	c = one.ClassifyWithin(MaxClassifyStates, 64)
	assert.False(t, c.Decided, "fourteen states of a few positions hold more than 64 bytes")
	assert.Empty(t, c.Disallowed)
	c = NewSet(counters(8), Options{}).ClassifyWithin(1<<30, MaxClassifyBytes/64)
	assert.False(t, c.Decided, "no state bound, a quarter MiB of positions")
}

// TestClassifyByPatterns: where the patterns' own paths show both
// verdicts, they are the witnesses, the shortest of them each, though a
// shorter path may exist; where they show one, every path is read.
func TestClassifyByPatterns(t *testing.T) {
	set := NewSet([]Pattern{
		{Expr: "/*aaaa", Priority: 6},
		{Expr: "/b*c$", Priority: 5, ID: 1},
	}, Options{})
	c := set.Classify()
	assert.True(t, c.Decided)
	assert.Equal(t, "/", c.Allowed)
	assert.Equal(t, "/bc", c.Disallowed, "the shorter of /aaaa and /bc")
	set = NewSet([]Pattern{{Expr: "/", Priority: 1}, {Expr: "/$", Allow: true, Priority: 2, ID: 1}}, Options{})
	c = set.Classify()
	assert.True(t, c.Decided)
	assert.Equal(t, "/", c.Allowed)
	assert.Equal(t, "/a", c.Disallowed, "found by reading every path: no pattern's path is disallowed")
}

// TestPatternWitnessesPastTheReferenceBudget: past referenceBudget the
// patterns' own paths are checked by the scanner; the witnesses are the
// ones Reference gives, the shortest of each verdict among those paths.
func TestPatternWitnessesPastTheReferenceBudget(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 6 {
		var patterns []Pattern
		// Short allows, whose paths come first and are all allowed, and
		// longer disallows without a star, whose paths come after them.
		for i := range 3000 {
			allow := r.IntN(3) == 0
			expr := "/" + randomString(r, "ab/*$", 1+r.IntN(3))
			if !allow {
				expr = "/" + randomString(r, "ab/$", 4+r.IntN(5))
			}
			patterns = append(patterns, Pattern{Expr: expr, Allow: allow, Priority: int32(len(expr)), ID: int32(i)})
		}
		// Long starred patterns, whose paths come last, so that Reference's
		// budget covers few of the short paths.
		for i := range 100 {
			expr := fmt.Sprintf("/%s*%d", strings.Repeat("z", 1000), i)
			patterns = append(patterns, Pattern{Expr: expr, Allow: true, Priority: int32(len(expr)), ID: int32(3000 + i)})
		}
		set := NewSet(patterns, Options{})
		want := map[bool]string{}
		// Those paths are allowed, and longer than "/": no witness.
		for _, path := range append([]string{"/"}, patternPaths(patterns[:3000])...) {
			v := referenceAllows(patterns, path)
			if w, ok := want[v]; !ok || len(path) < len(w) || len(path) == len(w) && path < w {
				want[v] = path
			}
		}
		scans := 0
		c, ok := patternWitnesses(set.patterns, func(path string) (Pattern, bool) { scans++; return set.scanPath(path) })
		require.Positive(t, scans, "some paths are past the budget")
		require.Equal(t, want[true] != "" && want[false] != "", ok)
		if ok {
			assert.Equal(t, want[true], c.Allowed)
			assert.Equal(t, want[false], c.Disallowed)
		}
	}
}

// TestClassifyPatternsIsClassify: ClassifyPatterns answers as Classify
// on a Set of the same patterns, and asks for that Set only when the
// patterns' own paths do not decide within referenceBudget's checks by
// Reference. Empty patterns, which a Set drops, are among them.
func TestClassifyPatternsIsClassify(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	built, notBuilt := 0, 0
	for _, n := range []int{1, 3, 10, 300, 3000} {
		for range 3000 / n {
			var patterns []Pattern
			for i := range 1 + r.IntN(n) {
				expr := ""
				if r.IntN(20) > 0 {
					expr = "/" + randomString(r, "ab/*$", r.IntN(6))
				}
				patterns = append(patterns, Pattern{Expr: expr, Allow: r.IntN(3) == 0, Priority: int32(len(expr)), ID: int32(i)})
			}
			set := NewSet(patterns, Options{})
			calls := 0
			c := ClassifyPatterns(patterns, func() *Set { calls++; return set })
			require.Equal(t, set.Classify(), c, "%v", patterns)
			require.LessOrEqual(t, calls, 1, "the Set is asked for once")
			scanned := false
			_, decided := patternWitnesses(patterns, func(path string) (Pattern, bool) { scanned = true; return Reference(patterns, path) })
			byReference := decided && !scanned
			if calls == 0 {
				notBuilt++
			} else {
				built++
			}
			assert.Equal(t, byReference, calls == 0, "the Set is asked for when Reference does not decide within its budget")
		}
	}
	assert.Positive(t, built)
	assert.Positive(t, notBuilt)
}

// TestClassifyPatternsBudget: ClassifyPatterns checks paths by Reference
// within referenceBudget's steps; past them it builds the Set, which
// decides.
func TestClassifyPatternsBudget(t *testing.T) {
	// Every path is allowed but "/zzzzzz", the longest, checked last: the
	// allowed verdict comes at once, the disallowed one only at the end,
	// after a check of every path, each a pass over the patterns.
	patterns := []Pattern{{Expr: "/zzzzzz", Allow: false, Priority: 7, ID: 0}}
	for i := 1; i < 1000; i++ {
		expr := fmt.Sprintf("/%04d", i)
		patterns = append(patterns, Pattern{Expr: expr, Allow: true, Priority: int32(len(expr)), ID: int32(i)})
	}
	want := Classification{Allowed: "/", Disallowed: "/zzzzzz", Decided: true}
	for _, tc := range []struct {
		n     int
		built bool
	}{{8, false}, {100, false}, {1000, true}} {
		// n+1 checks of n patterns, 5 bytes each but one: about 5n² steps.
		require.Equal(t, !tc.built, 5*tc.n*tc.n < max(referenceSteps, referencePasses*5*tc.n), "%d patterns", tc.n)
		built := false
		c := ClassifyPatterns(patterns[:tc.n], func() *Set { built = true; return NewSet(patterns[:tc.n], Options{}) })
		assert.Equal(t, want, c)
		assert.Equal(t, tc.built, built, "%d paths of %d patterns each", tc.n, tc.n)
	}
	built := false
	c := ClassifyPatterns(patterns[1:9], func() *Set { built = true; return NewSet(patterns[1:9], Options{}) })
	assert.True(t, built, "a set whose own paths are all allowed is read through by the Set")
	assert.Equal(t, Classification{Allowed: "/", Decided: true}, c)
}

// TestReferenceBudgetLongStars: a few long patterns of many stars, whose
// every match by Reference takes steps of their length times the path's,
// are checked by Reference for their short paths only; the long ones go
// to the scanner. Counting matches instead, a file of such lines took
// minutes.
func TestReferenceBudgetLongStars(t *testing.T) {
	long := "/" + strings.Repeat("*a", 8000)
	var patterns []Pattern
	for i := range 30 {
		expr := long + string(rune('b'+i))
		patterns = append(patterns, Pattern{Expr: expr, Allow: true, Priority: int32(len(expr)), ID: int32(i)})
	}
	patterns = append(patterns, Pattern{Expr: "/" + strings.Repeat("z", 9000), Priority: 9001, ID: 30})

	b := newReferenceBudget(patterns)
	assert.Equal(t, int64(9001), b.plain)
	assert.Equal(t, int64(30*(len(long)+1)), b.starred)
	left := b.left
	require.True(t, b.take(1), `"/" is checked by Reference`)
	assert.Equal(t, left-b.plain-2*b.starred, b.left)
	require.False(t, b.take(8001), "a path of 8,001 bytes is not")
	assert.False(t, b.take(1), "nor any after it: paths come shortest first")

	built := false
	c := ClassifyPatterns(patterns, func() *Set { built = true; return NewSet(patterns, Options{}) })
	assert.True(t, built)
	assert.Equal(t, NewSet(patterns, Options{}).Classify(), c)
	assert.Equal(t, Classification{Allowed: "/", Disallowed: "/" + strings.Repeat("z", 9000), Decided: true}, c)
}

// patternPaths are the patterns' own paths, as patternWitnesses reads them.
func patternPaths(patterns []Pattern) []string {
	var out []string
	for _, p := range patterns {
		path := strings.ReplaceAll(strings.TrimSuffix(p.Expr, "$"), "*", "")
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		out = append(out, path)
	}
	return out
}

// TestPatternWitnessesScansEachPathOnce: past Reference's budget, a path
// that many patterns share is scanned once.
func TestPatternWitnessesScansEachPathOnce(t *testing.T) {
	lit := strings.Repeat("q", 30)
	var patterns []Pattern
	for i := range 20000 {
		patterns = append(patterns, Pattern{Expr: "/*" + lit, Allow: true, Priority: 32, ID: int32(i)})
	}
	b := newReferenceBudget(patterns)
	require.True(t, b.take(1), `"/" is within the budget`)
	require.False(t, b.take(len(lit)+1), "the patterns' one path is past it")
	set := NewSet(patterns, Options{})
	var scanned []string
	c, ok := patternWitnesses(patterns, func(path string) (Pattern, bool) {
		scanned = append(scanned, path)
		return set.scanPath(path)
	})
	assert.False(t, ok, "every path is allowed")
	assert.Equal(t, []string{"/" + lit}, scanned)
	assert.Equal(t, Classification{Allowed: "/"}, c)
}

// TestPatternWitnessesScanBound: past Reference's budget, own paths are
// scanned within ownPathScanBytes of the patterns' bytes a scan, at least
// minOwnPathScans of them; the exploration decides the rest, as Classify
// does.
func TestPatternWitnessesScanBound(t *testing.T) {
	// Distinct paths, each allowed by its own pattern, and one disallowed
	// path longer than all of them.
	var patterns []Pattern
	for i := range 5000 {
		expr := fmt.Sprintf("/*%s%05d", strings.Repeat("q", 40), i)
		patterns = append(patterns, Pattern{Expr: expr, Allow: true, Priority: int32(len(expr)), ID: int32(i)})
	}
	long := "/" + strings.Repeat("z", 60)
	patterns = append(patterns, Pattern{Expr: long, Priority: int32(len(long)), ID: 5000})
	set := NewSet(patterns, Options{})
	scans := 0
	_, ok := patternWitnesses(patterns, func(path string) (Pattern, bool) { scans++; return set.scanPath(path) })
	assert.False(t, ok, "the disallowed path is past the bound")
	b := newReferenceBudget(patterns)
	assert.Equal(t, int(ownPathScanBytes/(b.plain+b.starred)), scans)
	assert.Less(t, scans, len(patterns))
	assert.Equal(t, minOwnPathScans, (&referenceBudget{starred: 3 * 500 << 10}).scans(), "500 KiB of rules, escaped to three times their bytes")
	c := ClassifyPatterns(patterns, func() *Set { return set })
	assert.Equal(t, set.ClassifyWithin(MaxClassifyStates, MaxClassifyBytes), c)
	assert.True(t, c.Decided)
	assert.Equal(t, "/", c.Allowed)
	assert.NotEmpty(t, c.Disallowed)
}

// FuzzClassifyAgreesWithExploration: for any patterns (one a line, the
// odd lines allows, at most 64), ClassifyPatterns, which tries the
// patterns' own paths first within its budgets, finds the verdicts that
// reading every path finds, and is decided whenever that reading is; each
// witness either gives is a path that Reference gives its verdict.
func FuzzClassifyAgreesWithExploration(f *testing.F) {
	f.Add("/a*b$\n/a\n*")
	f.Add("/\n/$")
	f.Add("/x\n/x*\n/x$\n/x")
	f.Add("/*a*b\n/*b*a\n/ab$")
	f.Add("")
	f.Fuzz(func(t *testing.T, exprs string) {
		ps := fuzzPatterns(exprs)
		if len(ps) > 64 || len(exprs) > 4096 {
			return
		}
		set := NewSet(ps, Options{})
		c := ClassifyPatterns(ps, func() *Set { return set })
		e := set.explore(MaxClassifyStates, MaxClassifyBytes)
		for _, w := range []Classification{c, e} {
			for path, allow := range map[string]bool{w.Allowed: true, w.Disallowed: false} {
				if path == "" {
					continue
				}
				require.True(t, strings.HasPrefix(path, "/") && !strings.ContainsAny(path, "#\x00"), "%q", path)
				require.Equal(t, allow, referenceAllows(ps, path), "%q of %q", path, exprs)
			}
		}
		if e.Decided {
			require.True(t, c.Decided, "%q", exprs)
			require.Equal(t, e.Allowed != "", c.Allowed != "", "%q: an allowed path", exprs)
			require.Equal(t, e.Disallowed != "", c.Disallowed != "", "%q: a disallowed path", exprs)
		}
	})
}

// TestExploreWitnessBytes: a witness the exploration finds holds the bytes
// it read, not their UTF-8 encodings as runes (found by
// FuzzClassifyAgreesWithExploration: "/0000\xa9" was given as
// "/0000\xc2\xa9", which the pattern does not match).
func TestExploreWitnessBytes(t *testing.T) {
	ps := []Pattern{{Expr: "*0000\xa9", Priority: 6}}
	e := NewSet(ps, Options{}).explore(MaxClassifyStates, MaxClassifyBytes)
	assert.Equal(t, Classification{Allowed: "/", Disallowed: "/0000\xa9", Decided: true}, e)
	assert.False(t, referenceAllows(ps, e.Disallowed))
}
