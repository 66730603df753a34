package lint

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkLintCorpus lints every file of the licensed corpus in
// testdata/corpus, as `robots lint` and a survey do: the time is per
// corpus.
func BenchmarkLintCorpus(b *testing.B) {
	names, err := filepath.Glob(filepath.Join("..", "testdata", "corpus", "files*", "*.txt"))
	if err != nil || len(names) == 0 {
		b.Fatalf("the licensed corpus: %d files, %v", len(names), err)
	}
	var bodies [][]byte
	size := 0
	for _, name := range names {
		body, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		bodies = append(bodies, body)
		size += len(body)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, body := range bodies {
			Lint(body)
		}
	}
}
