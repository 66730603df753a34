package compile

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkParseReport times, per op, a parse alone (Parse), Google's
// report alone (NewReport), both read apart, and both from one pass
// (ParseReport), on the benchmark module's realistic file and on every
// file of the licensed corpus: what recording the report in the parse
// costs, and what it saves a caller that wants both.
func BenchmarkParseReport(b *testing.B) {
	realistic, err := os.ReadFile("../bench/testdata/realistic.txt")
	if err != nil {
		b.Fatal(err)
	}
	names, err := filepath.Glob(filepath.Join("..", "testdata", "corpus", "files*", "*.txt"))
	if err != nil || len(names) == 0 {
		b.Fatalf("the licensed corpus: %d files, %v", len(names), err)
	}
	var corpus [][]byte
	for _, name := range names {
		body, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		corpus = append(corpus, body)
	}
	for _, w := range []struct {
		name   string
		bodies [][]byte
	}{{"realistic", [][]byte{realistic}}, {"corpus", corpus}} {
		size := int64(0)
		for _, body := range w.bodies {
			size += int64(min(len(body), DefaultMaxBytes))
		}
		for _, how := range []struct {
			name string
			read func([]byte)
		}{
			{"parse", func(body []byte) { Parse(body, Options{}) }},
			{"report", func(body []byte) { NewReport(body, Options{}) }},
			{"parse+report", func(body []byte) { Parse(body, Options{}); NewReport(body, Options{}) }},
			{"parsereport", func(body []byte) { ParseReport(body, Options{}) }},
		} {
			b.Run(w.name+"/"+how.name, func(b *testing.B) {
				b.SetBytes(size)
				b.ReportAllocs()
				for b.Loop() {
					for _, body := range w.bodies {
						how.read(body)
					}
				}
			})
		}
	}
}
