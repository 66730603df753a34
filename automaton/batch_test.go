package automaton

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// referenceBeforeFragment is Reference's verdict for p up to its first '#'.
func referenceBeforeFragment(simple reference, p string) bool {
	p, _, _ = strings.Cut(p, "#")
	m, ok := simple.Decide(p)
	return !ok || m.Allow
}

// TestAllowedBeforeFragmentAgreesWithReference checks AllowedBeforeFragment
// and AllowedLanes against Reference deciding each path cut at its '#', on
// random patterns and paths of unequal lengths that hold '#' anywhere,
// under every budget, before and after the paths' states are built.
func TestAllowedBeforeFragmentAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	for _, b := range budgets {
		for range 200 {
			ps := randomPatterns(r, 1+r.IntN(12))
			set, simple := NewSet(ps, Options{Budget: b.bytes}), reference(ps)
			for range 10 {
				var lanes [Lanes]string
				for k := range lanes {
					lanes[k] = "/" + randomString(r, "ab%$/c#", 30)
				}
				for range 3 {
					got := set.AllowedLanes(&lanes)
					for k, p := range lanes {
						want := referenceBeforeFragment(simple, p)
						if one := set.AllowedBeforeFragment(p); one != want {
							t.Fatalf("%s: patterns %v, path %q: AllowedBeforeFragment %v, Reference %v", b.name, ps, p, one, want)
						}
						if got[k] != want {
							t.Fatalf("%s: patterns %v, paths %q: lane %d: AllowedLanes %v, Reference %v", b.name, ps, lanes, k, got[k], want)
						}
					}
				}
			}
		}
	}
}

// TestAllowedBeforeFragmentStops: the walk ends at the first '#' as at the
// end of the path, wherever the '#' is, and both checks allocate nothing.
func TestAllowedBeforeFragmentStops(t *testing.T) {
	set := NewSet([]Pattern{{Expr: "/a$", Priority: 2}, {Expr: "/a#", Priority: 3, Allow: true}}, Options{})
	tests := []struct {
		path string
		want bool
	}{
		{"/a", false}, {"/a#", false}, {"/a#b", false}, {"/a##", false}, {"/ab#", true},
		{"/#a", true}, {"/", true}, {"#/a", true}, {"", true},
	}
	for _, tt := range tests {
		if got := set.AllowedBeforeFragment(tt.path); got != tt.want {
			t.Errorf("AllowedBeforeFragment(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
	lanes := [Lanes]string{"/a#b", "/ab#", "/a", "/#a"}
	if got := set.AllowedLanes(&lanes); got != [Lanes]bool{false, true, false, true} {
		t.Errorf("AllowedLanes(%q) = %v", lanes, got)
	}
	if n := testing.AllocsPerRun(100, func() { set.AllowedLanes(&lanes) }); n != 0 {
		t.Errorf("AllowedLanes allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { set.AllowedBeforeFragment("/a#b") }); n != 0 {
		t.Errorf("AllowedBeforeFragment allocates %v times", n)
	}
}
