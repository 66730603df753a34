package survey

import (
	"compress/gzip"
	"io"
	"os"
	"runtime"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/capture"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/methods"
	"github.com/fastrobots/robots/cmd/robots/internal/warctest"
)

// The survey's throughput is measured on a WARC file built from a corpus
// as Common Crawl writes its robots.txt subsets: one gzip member per
// record, each capture a request, a response and a metadata record, with
// redirects, error statuses and HTML pages among the responses. The
// benchmarks compare the survey with a bare decompression pass over the
// same file, through the same gzip library.
//
//	go test -run '^$' -bench 'BenchmarkSurveyWARC' -count 6 ./cmd/robots/internal/survey
//
// use the full corpus in ../shared when it is there (28,515 files) and
// the licensed one in testdata/corpus otherwise; the file is built once and
// kept in the temporary directory (corpusWARC).

// BenchmarkSurveyWARCGunzip is the bare decompression pass: every gzip
// member of the file decompressed and dropped, on one core, as a reader
// of the file must at least do.
func BenchmarkSurveyWARCGunzip(b *testing.B) {
	warctest.Gunzip(b, func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) })
}

// BenchmarkSurveyWARC is the whole survey of the file with the default
// agents, rows written as Parquet, on every core.
func BenchmarkSurveyWARC(b *testing.B) {
	path, captures := warctest.CorpusWARC(b)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	out := b.TempDir()
	cfg := surveyConfig{agents: surveyAgentNames(surveyDefaultAgents), out: out, inputs: []string{path}, format: surveyFormatParquet, workers: runtime.GOMAXPROCS(0)}
	for b.Loop() {
		if code := survey(cfg, io.Discard, io.Discard); code != cli.ExitOK {
			b.Fatalf("survey exited %d", code)
		}
	}
	b.ReportMetric(float64(captures)*float64(b.N)/b.Elapsed().Seconds(), "captures/s")
}

// BenchmarkSurveyCaptureCorpus is the time one worker takes to answer
// every file of the licensed corpus for the default agents: a survey's
// work per capture without its reading and writing.
func BenchmarkSurveyCaptureCorpus(b *testing.B) {
	var captures []*capture.Capture
	if err := warctest.LicensedBodies(0)(func(name string, body []byte) error {
		captures = append(captures, &capture.Capture{Index: len(captures), Input: "corpus", File: name, Site: "s.example", Status: 200, Size: int64(len(body)), Body: body})
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	agents := surveyAgentNames(surveyDefaultAgents)
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range captures {
			surveyCapture(c, agents, false)
		}
	}
	b.ReportMetric(float64(len(captures))*float64(b.N)/b.Elapsed().Seconds(), "captures/s")
}

// BenchmarkSurveyParquet is the time the writer takes to write, as
// Parquet, the rows of every file of the licensed corpus for the default
// agents, each capture with the URL and host a WARC record gives: a
// survey's work per capture on the writer's goroutine.
func BenchmarkSurveyParquet(b *testing.B) {
	var results []*surveyResult
	agents := surveyAgentNames(surveyDefaultAgents)
	if err := warctest.LicensedBodies(0)(func(name string, body []byte) error {
		c := &capture.Capture{Index: len(results), Input: "corpus", File: name, Site: "s.example", Host: "s.example",
			URL: "https://s.example/robots.txt", Status: 200, Size: int64(len(body)), Body: body}
		results = append(results, surveyCapture(c, agents, false))
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	b.ReportAllocs()
	for b.Loop() {
		w, err := newSurveyParquetWriter(dir, ".parquet")
		if err != nil {
			b.Fatal(err)
		}
		for _, res := range results {
			if err := w.write(res); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(results))*float64(b.N)/b.Elapsed().Seconds(), "captures/s")
}

// BenchmarkSurveyCaptureCompare is BenchmarkSurveyCaptureCorpus with
// --compare naming every published method: what the optional columns
// cost a capture.
func BenchmarkSurveyCaptureCompare(b *testing.B) {
	var captures []*capture.Capture
	if err := warctest.LicensedBodies(0)(func(name string, body []byte) error {
		captures = append(captures, &capture.Capture{Index: len(captures), Input: "corpus", File: name, Site: "s.example", Status: 200, Size: int64(len(body)), Body: body})
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	agents := surveyAgentNames(surveyDefaultAgents)
	compare := methods.Methods()
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range captures {
			surveyCapture(c, agents, false, compare...)
		}
	}
	b.ReportMetric(float64(len(captures))*float64(b.N)/b.Elapsed().Seconds(), "captures/s")
}
