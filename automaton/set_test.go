package automaton

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// budgets exercise every engine: the full lazy DFA, a DFA that fills up
// and falls back midway, and no DFA at all (the start state is refused).
var budgets = []struct {
	name  string
	bytes int
}{
	{"dfa", DefaultBudget},
	{"small", 600},
	{"none", 1},
}

// randomPatterns draws a set of patterns over a small alphabet, with stars,
// '$' anywhere and '%', so that they overlap and tie often.
func randomPatterns(r *rand.Rand, n int) []Pattern {
	ps := make([]Pattern, n)
	for i := range ps {
		expr := randomString(r, "ab%*$/", 7)
		if r.IntN(4) > 0 {
			expr = "/" + expr
		}
		ps[i] = Pattern{Expr: expr, Allow: r.IntN(2) == 0, Priority: int32(len(expr)), ID: int32(i)}
	}
	return ps
}

// checkAgainstReference fails unless Set and Reference give the same verdict and
// the same deciding pattern for path.
func checkAgainstReference(t *testing.T, set *Set, simple reference, path string, ps []Pattern) {
	t.Helper()
	want, wantOK := simple.Decide(path)
	// Allowed walks the table on its own path; it must agree, however the
	// path is split, before and after Decide has built the path's states.
	allowed := !wantOK || want.Allow
	checkAllowed := func() {
		t.Helper()
		for _, cut := range []int{len(path) / 2, 0, len(path)} {
			if got := set.Allowed(path[:cut], path[cut:]); got != allowed {
				t.Fatalf("path %q cut at %d, patterns %v: Set.Allowed = %v, Reference decides %v %+v", path, cut, ps, got, wantOK, want)
			}
		}
	}
	checkAllowed()
	got, gotOK := set.Decide(path)
	if gotOK != wantOK || got != want {
		t.Fatalf("path %q, patterns %v:\nSet decides %v %+v\nSimple decides %v %+v", path, ps, gotOK, got, wantOK, want)
	}
	checkAllowed()
}

func TestSetAgreesWithReference(t *testing.T) {
	for _, b := range budgets {
		t.Run(b.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, uint64(b.bytes)))
			for range 3000 {
				ps := randomPatterns(r, 1+r.IntN(8))
				set, simple := NewSet(ps, Options{Budget: b.bytes}), reference(ps)
				for range 20 {
					checkAgainstReference(t, set, simple, "/"+randomString(r, "ab%$/c", 12), ps)
				}
			}
		})
	}
}

// TestSetWildcardHeavy checks sets where every pattern is full of stars
// against long paths, where states are many and the fallback does most of
// the work.
func TestSetWildcardHeavy(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, b := range budgets {
		for range 200 {
			var ps []Pattern
			for i := range 20 {
				var e strings.Builder
				e.WriteString("/")
				for range 1 + r.IntN(10) {
					e.WriteString(randomString(r, "abc", 2))
					e.WriteByte('*')
				}
				e.WriteString(randomString(r, "abc$", 2))
				ps = append(ps, Pattern{Expr: e.String(), Allow: i%2 == 0, Priority: int32(e.Len()), ID: int32(i)})
			}
			set, simple := NewSet(ps, Options{Budget: b.bytes}), reference(ps)
			for range 10 {
				checkAgainstReference(t, set, simple, "/"+randomString(r, "abcd", 300), ps)
			}
		}
	}
}

func TestSetSpecialCases(t *testing.T) {
	tests := []struct {
		name     string
		patterns []string
		path     string
		want     int // index into patterns, -1 for none
	}{
		{"no patterns", nil, "/a", -1},
		{"star matches at the start", []string{"*"}, "/", 0},
		{"folded stars", []string{"/a**b"}, "/ab", 0},
		{"dollar alone never matches", []string{"$"}, "/", -1},
		{"end anchor", []string{"/a$", "/"}, "/a", 0},
		{"end anchor needs the end", []string{"/a$", "/"}, "/ab", 1},
		{"literal dollar", []string{"/a$b"}, "/a$b", 0},
		{"star then anchor", []string{"/a*$"}, "/abc", 0},
		{"relative never matches", []string{"a"}, "/a", -1},
		{"non-ASCII bytes", []string{"/\xff*\x80$"}, "/\xffxx\x80", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := make([]Pattern, len(tt.patterns))
			for i, e := range tt.patterns {
				ps[i] = Pattern{Expr: e, Priority: int32(len(e)), ID: int32(i)}
			}
			for _, b := range budgets {
				p, ok := NewSet(ps, Options{Budget: b.bytes}).Decide(tt.path)
				if tt.want < 0 {
					assert.False(t, ok, b.name)
					continue
				}
				require.True(t, ok, b.name)
				assert.Equal(t, int32(tt.want), p.ID, b.name)
			}
		})
	}
}

func TestSetDecidePartsIsConcatenation(t *testing.T) {
	ps := []Pattern{{Expr: "/a?b$", Priority: 5, ID: 0}, {Expr: "/*?", Allow: true, Priority: 3, ID: 1}}
	set := NewSet(ps, Options{})
	for _, parts := range [][3]string{{"/a", "?", "b"}, {"", "/a?b", ""}, {"/a?", "", "b"}} {
		p, ok := set.DecideParts(parts[0], parts[1], parts[2])
		require.True(t, ok)
		assert.Equal(t, int32(0), p.ID, "%q", parts)
	}
}

// TestSetBudgetBoundsMemory checks that the DFA never counts more than its
// budget, and says when it refused a state.
func TestSetBudgetBoundsMemory(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var ps []Pattern
	for i := range 100 {
		e := "/" + strings.Repeat("a*", 30) + "b" + fmt.Sprint(i%10)
		ps = append(ps, Pattern{Expr: e, Priority: int32(len(e)), ID: int32(i)})
	}
	const budget = 2 << 10
	set, simple := NewSet(ps, Options{Budget: budget}), reference(ps)
	for range 50 {
		checkAgainstReference(t, set, simple, "/"+randomString(r, "ab0123", 2000), ps)
	}
	st := set.Stats()
	assert.LessOrEqual(t, st.Bytes-st.ScanBytes+st.ReplayedBytes, budget, "the kernels states replay count against the budget as if stored")
	assert.Positive(t, st.ReplayedBytes)
	assert.Equal(t, budget, st.Budget)
	assert.True(t, st.Full, "these paths need more states than the budget holds")
}

// TestSetConcurrentBuild checks that goroutines building states of one Set
// at once all get the verdicts of the simple matcher (run it with -race).
func TestSetConcurrentBuild(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	ps := randomPatterns(r, 40)
	paths := make([]string, 200)
	for i := range paths {
		paths[i] = "/" + randomString(r, "ab%$/c", 16)
	}
	for _, b := range budgets {
		set, simple := NewSet(ps, Options{Budget: b.bytes}), reference(ps)
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range paths {
					path := paths[(i+g*25)%len(paths)]
					got, gotOK := set.Decide(path)
					want, wantOK := simple.Decide(path)
					if got != want || gotOK != wantOK {
						t.Errorf("%s: path %q: %v %+v, want %v %+v", b.name, path, gotOK, got, wantOK, want)
						return
					}
				}
			}()
		}
		wg.Wait()
	}
}

func TestSetDecideDoesNotAllocate(t *testing.T) {
	set := NewSet([]Pattern{{Expr: "/a*b$", Priority: 5}, {Expr: "/a", Allow: true, Priority: 2, ID: 1}}, Options{})
	set.Decide("/aaab") // build the states
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { set.Decide("/aaab") }))
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { set.Allowed("/aa", "ab") }))
}

// fuzzPatterns reads a fuzz target's patterns: one a line, the odd lines
// allows, each of the priority of its length.
func fuzzPatterns(exprs string) []Pattern {
	lines := strings.Split(exprs, "\n")
	ps := make([]Pattern, len(lines))
	for i, e := range lines {
		ps[i] = Pattern{Expr: e, Allow: i%2 == 1, Priority: int32(len(e)), ID: int32(i)}
	}
	return ps
}

func FuzzSetAgreesWithReference(f *testing.F) {
	f.Add("/a*b$\n/a\n*", "/aab", uint16(0))
	f.Add("/%*$\n/\n/a$b", "/a$b", uint16(100))
	f.Fuzz(func(t *testing.T, exprs, path string, budget uint16) {
		ps := fuzzPatterns(exprs)
		if len(ps) > 32 || len(path) > 512 {
			return
		}
		set := NewSet(ps, Options{Budget: int(budget) + 1})
		checkAgainstReference(t, set, reference(ps), path, ps)
	})
}

func TestSetBudgetIsCapped(t *testing.T) {
	ps := []Pattern{{Expr: "/a", Priority: 2}}
	for _, tt := range []struct {
		name   string
		budget int
		want   int
	}{
		{"zero is the default", 0, DefaultBudget},
		{"a budget is kept", 4096, 4096},
		{"past the cap is the cap", math.MaxInt, MaxBudget},
		{"negative is no limit but the cap", -1, MaxBudget},
	} {
		assert.Equal(t, tt.want, NewSet(ps, Options{Budget: tt.budget}).Stats().Budget, tt.name)
	}
}

func TestSetStatsAddUp(t *testing.T) {
	set := NewSet([]Pattern{{Expr: "/*.pdf$", Priority: 7}, {Expr: "/a*b", Allow: true, Priority: 4, ID: 1}}, Options{})
	for _, p := range []string{"/x.pdf", "/ab", "/a/b/c.pdf?x"} {
		set.Decide(p)
	}
	st := set.Stats()
	assert.Equal(t, 7+5, st.Positions, "one per byte of each pattern, less the final $, plus its end")
	assert.Equal(t, 8, st.Classes, "one class each for '/', '.', 'p', 'd', 'f', 'a', 'b', one for every other byte")
	assert.Equal(t, st.Bytes, st.TableBytes+st.KernelBytes+st.EdgeBytes+st.States*stateOverhead)
}

// TestSetEveryByteALiteral covers the largest alphabet: every byte but '*'
// (always an operator) is a literal of some pattern, which makes 256
// classes, the most a class byte holds.
func TestSetEveryByteALiteral(t *testing.T) {
	var ps []Pattern
	for b := range 256 {
		if b == '*' {
			continue
		}
		e := "/" + string([]byte{byte(b)}) + "x"
		ps = append(ps, Pattern{Expr: e, Allow: b%2 == 0, Priority: 3, ID: int32(b)})
	}
	ps = append(ps, Pattern{Expr: "/*$", Priority: 3, ID: 300}, Pattern{Expr: "/**", Priority: 3, ID: 301}) // '*' and '$' as operators
	set, simple := NewSet(ps, Options{}), reference(ps)
	assert.Equal(t, 256, set.Stats().Classes)
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := []byte{'/', byte(r.IntN(256)), byte(r.IntN(256))}
		checkAgainstReference(t, set, simple, string(b), ps)
	}
}

// TestSetEndAtNULAgreesWithReference checks that with EndAtNUL a NUL ends
// the input, whichever engine decides (the DFA, past its budget the
// scanner, or no table at all) and however the path is split: the verdict
// is Reference's on the path cut at its first NUL.
func TestSetEndAtNULAgreesWithReference(t *testing.T) {
	for _, b := range budgets {
		t.Run(b.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(11, uint64(b.bytes)))
			for range 2000 {
				ps := randomPatterns(r, 1+r.IntN(8))
				set, simple := NewSet(ps, Options{Budget: b.bytes, EndAtNUL: true}), reference(ps)
				for range 20 {
					path := "/" + randomString(r, "ab%$/\x00", 12)
					cut := path
					if i := strings.IndexByte(path, 0); i >= 0 {
						cut = path[:i]
					}
					want, wantOK := simple.Decide(cut)
					got, gotOK := set.Decide(path)
					if gotOK != wantOK || got != want {
						t.Fatalf("path %q, patterns %v: Set decides %v %+v, Reference on %q %v %+v", path, ps, gotOK, got, cut, wantOK, want)
					}
					for _, at := range []int{0, len(path) / 2, len(path)} {
						if set.Allowed(path[:at], path[at:]) != (!wantOK || want.Allow) {
							t.Fatalf("path %q split at %d, patterns %v: Allowed disagrees with Reference on %q", path, at, ps, cut)
						}
						cur := set.Start()
						cur.Feed(path[:at])
						cur.Feed(path[at:])
						if cur.NeedsRestart() {
							continue
						}
						if p, ok := cur.Result(); ok != wantOK || p != want {
							t.Fatalf("path %q fed in two at %d, patterns %v: Cursor decides %v %+v", path, at, ps, ok, p)
						}
					}
				}
			}
		})
	}
}
