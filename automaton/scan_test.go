package automaton

import (
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scanDecide decides path on a scanner of ps, fed in the pieces cuts
// make, and returns the deciding pattern's ID, or -1.
func scanDecide(sc *scanner, path string, cuts ...int) int32 {
	var r scanRun
	r.start(sc)
	last := 0
	for _, c := range append(cuts, len(path)) {
		if !r.feed(path[last:c]) {
			break
		}
		last = c
	}
	i := r.end()
	if i == sc.none {
		return -1
	}
	return sc.patterns[i].ID
}

// TestScannerEdgeCases decides the corner cases of globs and priorities on
// the scanner alone, fed whole and a byte at a time.
func TestScannerEdgeCases(t *testing.T) {
	tests := []struct {
		name     string
		patterns []string
		path     string
		want     int32 // index into patterns, -1 for none
	}{
		{"star alone", []string{"*"}, "/a", 0},
		{"star alone, empty path", []string{"*"}, "", 0},
		{"dollar alone, empty path", []string{"$"}, "", 0},
		{"dollar alone", []string{"$"}, "/", -1},
		{"star dollar", []string{"*$"}, "/a", 0},
		{"only stars", []string{"***"}, "/a", 0},
		{"anchored prefix", []string{"/a$"}, "/a", 0},
		{"anchored prefix, longer path", []string{"/a$"}, "/ab", -1},
		{"anchored root", []string{"/$"}, "/", 0},
		{"anchored root, longer path", []string{"/$"}, "/x", -1},
		{"literal dollar", []string{"/a$b"}, "/a$b", 0},
		{"literal dollar, then anchor", []string{"/a$$"}, "/a$", 0},
		{"dollar piece", []string{"/*$$"}, "/x$", 0},
		{"trailing star, then anchor", []string{"/a*$"}, "/abc", 0},
		{"pieces do not overlap", []string{"/*aa*aa"}, "/aaa", -1},
		{"pieces one after another", []string{"/*aa*aa"}, "/aaaa", 0},
		{"an anchored piece starts after the one before", []string{"/*a*a$"}, "/a", -1},
		{"an anchored piece may start right after", []string{"/*a*a$"}, "/aa", 0},
		{"an anchored piece ends the path", []string{"/*ab$"}, "/abab", 0},
		{"an anchored piece must end it", []string{"/*ab$"}, "/aba", -1},
		{"the same piece twice", []string{"/*ab*ab"}, "/abab", 0},
		{"the same piece twice, once found", []string{"/*ab*ab"}, "/aba", -1},
		{"nested pieces", []string{"/*a", "/*aa", "/*aaa$"}, "/aaa", 2},
		{"nested pieces, not at the end", []string{"/*a", "/*aa", "/*aaa$"}, "/aaab", 1},
		{"the longest wins", []string{"/*b", "/a*b"}, "/ab", 1},
		{"a prefix is a prefix", []string{"/a*b"}, "/xab", -1},
		{"prefix longer than the path", []string{"/abc*"}, "/ab", -1},
		{"a prefix then a piece in it", []string{"/ab*b"}, "/ab", -1},
		{"many prefixes", []string{"/", "/a", "/ab$", "/abc"}, "/ab", 2},
		{"many prefixes, past the anchor", []string{"/", "/a", "/ab$", "/abc"}, "/abd", 1},
		{"a later byte undoes an anchored prefix", []string{"/a$", "/"}, "/ab", 1},
		{"non-ASCII", []string{"/\xff*\x80$"}, "/\xffxx\x80", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := make([]Pattern, len(tt.patterns))
			for i, e := range tt.patterns {
				ps[i] = Pattern{Expr: e, Priority: int32(len(e)), ID: int32(i)}
			}
			sc := newScanner(rank(ps))
			assert.Equal(t, tt.want, scanDecide(sc, tt.path), "whole")
			var cuts []int
			for i := 1; i < len(tt.path); i++ {
				cuts = append(cuts, i)
			}
			assert.Equal(t, tt.want, scanDecide(sc, tt.path, cuts...), "a byte at a time")
			want, ok := reference(ps).Decide(tt.path)
			if !ok {
				want.ID = -1
			}
			assert.Equal(t, want.ID, tt.want, "the definition")
		})
	}
}

// TestScannerAgreesWithReference decides random sets of star-heavy patterns
// over a two-letter alphabet, whose pieces nest and repeat, on the scanner
// alone, against Reference.
func TestScannerAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for range 2000 {
		ps := make([]Pattern, 1+r.IntN(12))
		for i := range ps {
			var e strings.Builder
			if r.IntN(3) > 0 {
				e.WriteString("/" + randomString(r, "ab", 2))
			}
			for range r.IntN(5) {
				e.WriteString("*" + randomString(r, "ab", 3))
			}
			if r.IntN(3) == 0 {
				e.WriteString("$")
			}
			ps[i] = Pattern{Expr: e.String(), Allow: r.IntN(2) == 0, Priority: int32(r.IntN(6)), ID: int32(i)}
		}
		sc, simple := newScanner(rank(ps)), reference(ps)
		for range 10 {
			path := "/" + randomString(r, "ab", 30)
			want, ok := simple.Decide(path)
			if !ok {
				want.ID = -1
			}
			cut := r.IntN(len(path) + 1)
			require.Equal(t, want.ID, scanDecide(sc, path, cut), "patterns %v, path %q", ps, path)
		}
	}
}

// TestScannerStopsEarly checks that a check stops reading once nothing can
// change its verdict, and only then.
func TestScannerStopsEarly(t *testing.T) {
	tests := []struct {
		name     string
		patterns []string
		path     string
		read     int // the bytes read before the check stops, len(path) for all
	}{
		{"the best pattern matched", []string{"/ab", "/*z"}, "/abzzzz", 3},
		{"a better pattern waits", []string{"/a", "/*zz"}, "/abzb", 5},
		{"a better pattern is found", []string{"/a", "/*zz"}, "/azzxxx", 4},
		{"a prefix is still read", []string{"/", "/xxxx"}, "/xxxxyy", 5},
		{"an anchored piece waits for the end", []string{"/*x$"}, "/xyyyy", 6},
		{"an anchored prefix needs one more byte", []string{"/a$"}, "/abbb", 3},
		{"nothing can match", []string{"/a"}, "/bbbb", 2},
	}
	for _, tt := range tests {
		ps := make([]Pattern, len(tt.patterns))
		for i, e := range tt.patterns {
			ps[i] = Pattern{Expr: e, Priority: int32(len(e)), ID: int32(i)}
		}
		var r scanRun
		r.start(newScanner(rank(ps)))
		read := 0
		for read < len(tt.path) && r.feed(tt.path[read:read+1]) {
			read++
		}
		if read < len(tt.path) {
			read++ // the byte at which it stopped
		}
		r.end()
		assert.Equal(t, tt.read, read, tt.name)
	}
}

func TestScannerDoesNotAllocate(t *testing.T) {
	if raceEnabled() {
		t.Skip("under the race detector sync.Pool drops what it is handed at random")
	}
	ps := []Pattern{{Expr: "/*a*b$", Priority: 6}, {Expr: "/*ab*c", Allow: true, Priority: 6, ID: 1}, {Expr: "/a$", Priority: 3, ID: 2}}
	set := NewSet(ps, Options{Budget: 1})
	path := "/" + strings.Repeat("ab", 100) + "c"
	set.Decide(path)
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { set.Decide(path) }))
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { set.Allowed(path[:50], path[50:]) }))
}

// TestSetRestartsOnTheScanner checks that a check the DFA's budget stops
// midway says so, and that Set decides the path again on the scanner.
func TestSetRestartsOnTheScanner(t *testing.T) {
	var ps []Pattern
	for i := range 50 {
		e := "/" + strings.Repeat("*a*b", 1+i%7) + "*" + string(rune('c'+i%20))
		ps = append(ps, Pattern{Expr: e, Allow: i%3 == 0, Priority: int32(len(e)), ID: int32(i)})
	}
	set, simple := NewSet(ps, Options{Budget: 4 << 10}), reference(ps)
	r := rand.New(rand.NewPCG(31, 32))
	restarted := 0
	for range 200 {
		path := "/" + randomString(r, "abcdefghijklmnopqrstuvwxyz", 200)
		cur := set.Start()
		cur.Feed(path)
		if cur.NeedsRestart() {
			restarted++
			_, ok := cur.Result()
			assert.False(t, ok, "no verdict without the path")
		}
		checkAgainstReference(t, set, simple, path, ps)
	}
	assert.Positive(t, restarted)
	st := set.Stats()
	assert.True(t, st.Full)
	assert.Positive(t, st.ScanBytes)
	assert.Equal(t, st.TableBytes+st.KernelBytes+st.EdgeBytes+st.States*stateOverhead+st.ScanBytes, st.Bytes)
}

// TestScannerBytesAreWhatItHolds checks Stats.ScanBytes against the heap:
// the live heap grows by what the scanner reports when it is built, give
// or take the allocator's rounding, and the report stays within 16 bytes
// per pattern byte on the worst shape for it, many short patterns of
// pieces of their own.
func TestScannerBytesAreWhatItHolds(t *testing.T) {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var ps []Pattern
	patternBytes := 0
	for i := range 20000 {
		e := "/*" + string([]byte{alphabet[i%36], alphabet[i/36%36], alphabet[i/1296%36]})
		ps = append(ps, Pattern{Expr: e, Priority: int32(len(e)), ID: int32(i)})
		patternBytes += len(e)
	}
	set := NewSet(ps, Options{Budget: 1})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	set.Decide("/x") // builds the scanner
	runtime.GC()
	runtime.ReadMemStats(&after)
	st := set.Stats()
	grown := int(after.HeapAlloc) - int(before.HeapAlloc)
	t.Logf("ScanBytes %d (scratch %d), heap grew by %d, %.1f bytes per pattern byte",
		st.ScanBytes, st.ScanScratchBytes, grown, float64(st.ScanBytes)/float64(patternBytes))
	if !raceEnabled() { // under the race detector the pool may drop the scratch
		assert.InDelta(t, st.ScanBytes, grown, float64(st.ScanBytes)/10+16<<10)
	}
	assert.LessOrEqual(t, st.ScanBytes, 16*patternBytes+2<<10)
	assert.Equal(t, st.ScanBytes, st.Bytes-st.TableBytes-st.KernelBytes-st.EdgeBytes-st.States*stateOverhead)
	runtime.KeepAlive(set)
}

// TestScannerRebaseDecidesTheSame rebases checks midway, by all they have
// read, with a window shorter than the paths but longer than any piece,
// and checks their verdicts against Reference.
func TestScannerRebaseDecidesTheSame(t *testing.T) {
	const window = 8 // randomPatterns' pieces are at most 7 bytes
	r := rand.New(rand.NewPCG(41, 42))
	for range 3000 {
		ps := randomPatterns(r, 1+r.IntN(8))
		sc, simple := newScanner(rank(ps)), reference(ps)
		path := "/" + randomString(r, "ab%$/c", 40)
		want, ok := simple.Decide(path)
		if !ok {
			want.ID = -1
		}
		var run scanRun
		run.start(sc)
		for cut := 0; cut < len(path) && run.feed(path[cut:cut+1]); cut++ {
			if r.IntN(4) == 0 {
				run.rebase(run.n-run.base, window)
			}
		}
		got := int32(-1)
		if i := run.end(); i != sc.none {
			got = sc.patterns[i].ID
		}
		require.Equal(t, want.ID, got, "patterns %v, path %q", ps, path)
	}
}

// raceEnabled reports whether the test binary was built with -race.
func raceEnabled() bool {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range info.Settings {
		if s.Key == "-race" && s.Value == "true" {
			return true
		}
	}
	return false
}
