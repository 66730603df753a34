package compile

import (
	"os"
	"testing"
)

// BenchmarkParse parses the benchmark module's realistic file (about 17
// KB of the commonest line shapes) per op: the quick path's speed.
func BenchmarkParse(b *testing.B) {
	body, err := os.ReadFile("../bench/testdata/realistic.txt")
	if err != nil {
		b.Skip(err)
	}
	for _, quick := range []bool{true, false} {
		name := "general"
		if quick {
			name = "quick"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				parse(body, Options{}, quick)
			}
		})
	}
}
