package bench

import (
	"testing"

	"github.com/fastrobots/robots"
)

// BenchmarkReport times Google's line-by-line report (robots.ReportOf)
// against parsing alone (robots.Parse), on testdata/realistic.txt (≈17 KB)
// and on every file of the corpus per op, and, on the corpus, the parse
// that records the report in its own pass (WithReport), as lint and the
// survey read a file. The report reads the lines the parser reads and
// classifies every one of them, comments and blank lines included; its
// target is at most 1.5× a parse.
func BenchmarkReport(b *testing.B) {
	body, _ := workload(b)
	b.Run("realistic/parse", func(b *testing.B) { benchEach(b, [][]byte{body}, parseOnly) })
	b.Run("realistic/report", func(b *testing.B) { benchEach(b, [][]byte{body}, reportOnly) })
	c := needCorpus(b)
	bodies := make([][]byte, c.Len())
	for i := range bodies {
		bodies[i] = c.Body(i)
	}
	b.Run("corpus/parse", func(b *testing.B) { benchEach(b, bodies, parseOnly) })
	b.Run("corpus/report", func(b *testing.B) { benchEach(b, bodies, reportOnly) })
	b.Run("corpus/withreport", func(b *testing.B) { benchEach(b, bodies, parseWithReport) })
}

func parseOnly(body []byte) int  { return robots.Parse(body).Lines() }
func reportOnly(body []byte) int { return robots.ReportOf(body).LastLine }
func parseWithReport(body []byte) int {
	return robots.Parse(body, robots.WithReport()).Report().LastLine
}

// benchEach runs fn over every body per op; MB/s counts the bytes read.
func benchEach(b *testing.B, bodies [][]byte, fn func([]byte) int) {
	read := int64(0)
	for _, body := range bodies {
		read += int64(min(len(body), maxRead))
	}
	b.SetBytes(read)
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for range b.N {
		for _, body := range bodies {
			n += fn(body)
		}
	}
	sink += n
}
