package automaton

import (
	"math/rand/v2"
	"testing"
)

// TestAllowedPairAgreesWithSimple checks AllowedPair against Simple on
// random patterns and paths of unequal lengths, under every budget, before
// and after the paths' states are built.
func TestAllowedPairAgreesWithSimple(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 25))
	for _, b := range budgets {
		for range 200 {
			ps := randomPatterns(r, 1+r.IntN(12))
			set, simple := NewSet(ps, Options{Budget: b.bytes}), NewSimple(ps)
			for range 20 {
				x, y := "/"+randomString(r, "ab%$/c", 30), "/"+randomString(r, "ab%$/c", 30)
				for range 3 {
					gx, gy := set.AllowedPair(x, y)
					px, okx := simple.Decide(x)
					py, oky := simple.Decide(y)
					if wx, wy := !okx || px.Allow, !oky || py.Allow; gx != wx || gy != wy {
						t.Fatalf("%s: patterns %v, paths %q %q: AllowedPair %v %v, Simple %v %v", b.name, ps, x, y, gx, gy, wx, wy)
					}
				}
			}
		}
	}
	set := NewSet([]Pattern{{Expr: "/a*b$", Priority: 5}}, Options{})
	set.AllowedPair("/aab", "/ab/c")
	if n := testing.AllocsPerRun(100, func() { set.AllowedPair("/aab", "/ab/c") }); n != 0 {
		t.Errorf("AllowedPair allocates %v times", n)
	}
}
