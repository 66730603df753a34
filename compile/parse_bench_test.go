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

// BenchmarkQuickKey reads the key of each line shape the quick path meets
// per op: the four field names in mixed case, and keys it leaves to the
// general path.
func BenchmarkQuickKey(b *testing.B) {
	lines := []string{
		"Disallow: /a/b/c\n", "Allow: /a/b\n", "User-agent: *\n", "Sitemap: https://x/s.xml\n",
		"disallow: /x\n", "Crawl-delay: 10\n", "Disallowed: /x\n", "user-agent : x\n",
	}
	b.ResetTimer()
	n := 0
	for b.Loop() {
		for _, l := range lines {
			_, k := quickKey(l, 0, len(l))
			n += k
		}
	}
	if n == 0 {
		b.Fatal("no key read")
	}
}
