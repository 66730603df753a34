package bench

import (
	"errors"
	"testing"
)

// BenchmarkCorpusParse parses every file of the corpus once per op, and
// nothing else: the parsers' throughput on real files (28,515 of them,
// HTML pages served as robots.txt among them). MB/s counts the bytes a
// parser reads: a file is read up to Google's 500 KiB limit, which the
// 14 files above it pass (libraries that read beyond it still count
// only that much).
func BenchmarkCorpusParse(b *testing.B) {
	c := needCorpus(b)
	read := int64(0)
	for i := range c.Len() {
		read += int64(min(len(c.Body(i)), maxRead))
	}
	benchParses(b, c, read)
}

// maxRead is Google's limit of the bytes of a robots.txt that are read.
const maxRead = 500 << 10

func benchParses(b *testing.B, c *Corpus, read int64) {
	for _, lib := range Libs() {
		b.Run(lib.Name(), func(b *testing.B) {
			b.SetBytes(read)
			b.ReportAllocs()
			b.ResetTimer()
			refused := 0
			for range b.N {
				for i := range c.Len() {
					if p, err := parseRecovering(lib, c.Body(i)); p == nil || err != nil {
						refused++
					}
				}
			}
			b.ReportMetric(float64(refused)/float64(b.N), "refused")
		})
	}
}

// errPanic is a parse that panicked.
var errPanic = errors.New("panic while parsing")

// parseRecovering parses body, turning a panic into an error.
func parseRecovering(lib Lib, body []byte) (p Parsed, err error) {
	defer func() {
		if recover() != nil {
			p, err = nil, errPanic
		}
	}()
	return lib.Parse(body)
}
