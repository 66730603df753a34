package capture

import (
	"io"
	"os"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/warctest"
	"github.com/klauspost/compress/gzip"
)

// The source's throughput is measured on the survey's benchmark file
// (warctest.CorpusWARC):
//
//	go test -run '^$' -bench 'BenchmarkSurveyWARCSource' -count 6 ./cmd/robots/internal/capture

// BenchmarkSurveyWARCGunzipKlauspost is the bare decompression pass
// through the gzip library the WARC source reads members with,
// github.com/klauspost/compress/gzip: every member of the file
// decompressed and dropped, on one core. Package survey's
// BenchmarkSurveyWARCGunzip is the same pass through compress/gzip.
func BenchmarkSurveyWARCGunzipKlauspost(b *testing.B) {
	warctest.Gunzip(b, func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) })
}

// BenchmarkSurveyWARCSource is the WARC source alone: every record framed
// and parsed, each robots.txt response's body read and the redirects
// followed, nothing answered. It is the part of a survey that cannot be
// spread over more than two cores within one file: one decompresses the
// members, one parses their records.
func BenchmarkSurveyWARCSource(b *testing.B) { benchWARCSource(b, false) }

// BenchmarkSurveyWARCSourceLibrary is BenchmarkSurveyWARCSource with every
// record read by the library: what quickRecord saves.
func BenchmarkSurveyWARCSourceLibrary(b *testing.B) { benchWARCSource(b, true) }

func benchWARCSource(b *testing.B, libraryOnly bool) {
	path, captures := warctest.CorpusWARC(b)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	for b.Loop() {
		src, err := openWARCSource(path, true)
		if err != nil {
			b.Fatal(err)
		}
		src.libraryOnly = libraryOnly
		index := 0
		take := func() (int, bool) { index++; return index - 1, true }
		n := 0
		for {
			c, err := src.Next(take)
			if err != nil {
				break
			}
			if c.Err != nil {
				b.Fatalf("%d: %v", c.Offset, c.Err)
			}
			n++
		}
		src.Close()
		if n != captures {
			b.Fatalf("%d captures, want %d", n, captures)
		}
	}
}

// BenchmarkSurveyOpenDirectory lists the licensed corpus's directory and
// tells each file what it is from its first bytes (sniffFile), as a
// directory INPUT is opened before its first capture is read:
//
//	bench/cputime.sh cmd/robots/internal/capture BenchmarkSurveyOpenDirectory 100
func BenchmarkSurveyOpenDirectory(b *testing.B) {
	for b.Loop() {
		s, err := openDirSource(warctest.LicensedCorpus)
		if err != nil {
			b.Fatal(err)
		}
		if s.warcs || len(s.files) < 2000 {
			b.Fatalf("%d files, WARC %v", len(s.files), s.warcs)
		}
	}
}
