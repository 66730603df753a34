package automaton_test

import (
	"testing"

	"github.com/fastrobots/robots/internal/testkit/fuzzgen"
)

// FuzzAutomaton compiles up to 64 patterns (one per line of patterns; bit
// i%64 of allow makes pattern i an allow; priorities are the lengths, or
// the lengths modulo tie+1 to force ties) and decides path, comparing the
// verdict and the deciding pattern with Reference's (fuzzgen.CheckSet).
// Seeds:
// testdata/fuzz/FuzzAutomaton.
func FuzzAutomaton(f *testing.F) {
	f.Add("/a*b$\n/a\n*\n/$\n/a$b", "/aab", uint64(0b10110), uint8(0))
	f.Add("/*.php$\n/fish*\n/**x**y", "/fish.php", uint64(1), uint8(3))
	f.Fuzz(func(t *testing.T, patterns, path string, allow uint64, tie uint8) {
		if len(patterns) > 4096 || len(path) > 4096 {
			return
		}
		if err := fuzzgen.CheckSet(fuzzgen.SetPatterns(patterns, allow, tie), path); err != nil {
			t.Fatal(err)
		}
	})
}
