package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/nlnwa/gowarc/v3"
)

// The survey's throughput is measured on a WARC file built from a corpus
// as Common Crawl writes its robots.txt subsets: one gzip member per
// record, each capture a request, a response and a metadata record, with
// redirects, error statuses and HTML pages among the responses. The
// benchmarks compare the survey with a bare decompression pass over the
// same file, through the same gzip library.
//
//	go test -run '^$' -bench 'BenchmarkSurveyWARC' -count 6 ./cmd/robots
//
// use the full corpus in ../shared when it is there (28,515 files) and
// the licensed one in testdata/corpus otherwise; the file is built once and
// kept in the temporary directory (corpusWARC).

// benchWARCArchive is the full corpus, when present beside the repository.
const benchWARCArchive = "../../../shared/corpus/robots-corpus.tar.gz"

// benchWARC is the built file, made once a test binary.
var benchWARC struct {
	once     sync.Once
	path     string
	captures int
	err      error
}

// benchWARCVersion names what writeCorpusWARC writes: change it when the
// file it writes changes, so that a file kept from before is not reused.
const benchWARCVersion = "1"

// corpusWARC returns the benchmark's WARC file and the captures it holds.
// The file is kept in the temporary directory, named for the corpus it was
// built from and benchWARCVersion, and built only when it is not there:
// building it takes longer than reading it.
func corpusWARC(b *testing.B) (string, int) {
	b.Helper()
	benchWARC.once.Do(func() {
		from := surveyCorpus
		if fi, err := os.Stat(benchWARCArchive); err == nil {
			from = fmt.Sprintf("%s %d %d", benchWARCArchive, fi.Size(), fi.ModTime().UnixNano())
		}
		sum := sha256.Sum256([]byte(benchWARCVersion + " " + from))
		benchWARC.path = filepath.Join(os.TempDir(), fmt.Sprintf("robots-survey-bench-%x.warc.gz", sum[:6]))
		count := benchWARC.path + ".captures"
		if data, err := os.ReadFile(count); err == nil {
			if n, err := strconv.Atoi(string(data)); err == nil {
				if _, err := os.Stat(benchWARC.path); err == nil {
					benchWARC.captures = n
					return
				}
			}
		}
		tmp := benchWARC.path + ".tmp"
		n, err := writeCorpusWARC(tmp)
		if err == nil {
			err = os.Rename(tmp, benchWARC.path)
		}
		if err == nil {
			err = os.WriteFile(count, []byte(strconv.Itoa(n)), 0o644)
		}
		benchWARC.captures, benchWARC.err = n, err
	})
	if benchWARC.err != nil {
		b.Fatal(benchWARC.err)
	}
	return benchWARC.path, benchWARC.captures
}

// corpusBodies calls each with every file of the full corpus, or of the
// licensed one when the full one is not here, in a fixed order.
func corpusBodies(each func(name string, body []byte) error) error {
	f, err := os.Open(benchWARCArchive)
	if err != nil {
		return licensedBodies(0)(each)
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if hdr.Typeflag != tar.TypeReg || !strings.HasSuffix(hdr.Name, ".txt") {
			continue
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			return err
		}
		if err := each(hdr.Name, body); err != nil {
			return err
		}
	}
}

// licensedBodies gives the first n files of the licensed corpus in
// testdata/corpus, or all of them when n is 0, in a fixed order.
func licensedBodies(n int) func(each func(name string, body []byte) error) error {
	return func(each func(name string, body []byte) error) error {
		names, err := filepath.Glob(filepath.Join(surveyCorpus, "files*", "*.txt"))
		if err != nil || len(names) < n {
			return fmt.Errorf("the licensed corpus: %d files, %v", len(names), err)
		}
		if n > 0 {
			names = names[:n]
		}
		for _, name := range names {
			body, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			if err := each(name, body); err != nil {
				return err
			}
		}
		return nil
	}
}

// writeCorpusWARC writes every corpus file as a capture of its own host,
// site-N.example, with the library's record builder: mostly 200s, and
// every 50th a 301 from http to https (the 200 after it), every 61st a
// 404 page, every 97th a 503, every 101st a 429.
func writeCorpusWARC(path string) (captures int, err error) {
	return writeCorpusWARCFrom(path, corpusBodies)
}

// writeCorpusWARCFrom is writeCorpusWARC of the files bodies gives.
func writeCorpusWARCFrom(path string, bodies func(each func(name string, body []byte) error) error) (captures int, err error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer func() {
		if e := f.Close(); err == nil {
			err = e
		}
	}()
	w := bufio.NewWriterSize(f, 1<<20)
	zw, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
	var rec bytes.Buffer
	member := func(typ gowarc.RecordType, uri, contentType string, block []byte) error {
		rb := gowarc.NewRecordBuilder(typ, gowarc.WithAddMissingRecordId(true), gowarc.WithAddMissingDigest(true))
		rb.AddWarcHeader(gowarc.WarcTargetURI, uri)
		rb.AddWarcHeaderTime(gowarc.WarcDate, time.Date(2025, 6, 1, 12, 30, 0, 0, time.UTC))
		rb.AddWarcHeader(gowarc.ContentType, contentType)
		if _, err := rb.Write(block); err != nil {
			return err
		}
		r, _, err := rb.Build()
		if err != nil {
			return err
		}
		defer r.Close()
		rec.Reset()
		if _, _, err := gowarc.NewMarshaler().Marshal(&rec, r, 0); err != nil {
			return err
		}
		zw.Reset(w)
		if _, err := zw.Write(rec.Bytes()); err != nil {
			return err
		}
		return zw.Close()
	}
	capture := func(uri string, status int, headers string, body []byte) error {
		req := fmt.Sprintf("GET /robots.txt HTTP/1.1\r\nHost: %s\r\nUser-Agent: CCBot/2.0\r\n\r\n", strings.TrimPrefix(strings.TrimPrefix(uri, "https://"), "http://"))
		if err := member(gowarc.Request, uri, "application/http;msgtype=request", []byte(req)); err != nil {
			return err
		}
		resp := fmt.Sprintf("HTTP/1.1 %d Status\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n%s\r\n", status, len(body), headers)
		if err := member(gowarc.Response, uri, "application/http;msgtype=response", append([]byte(resp), body...)); err != nil {
			return err
		}
		captures++
		return member(gowarc.Metadata, uri, "application/warc-fields", []byte("fetchTimeMs: 120\r\n"))
	}
	n := 0
	err = bodies(func(_ string, body []byte) error {
		n++
		host := fmt.Sprintf("site-%d.example", n)
		switch {
		case n%50 == 0:
			if err := capture("http://"+host+"/robots.txt", 301, "Location: https://"+host+"/robots.txt\r\n", nil); err != nil {
				return err
			}
			return capture("https://"+host+"/robots.txt", 200, "", body)
		case n%61 == 0:
			return capture("https://"+host+"/robots.txt", 404, "", []byte("<html><body>Not found</body></html>"))
		case n%97 == 0:
			return capture("https://"+host+"/robots.txt", 503, "", []byte("<html><body>Unavailable</body></html>"))
		case n%101 == 0:
			return capture("https://"+host+"/robots.txt", 429, "", nil)
		}
		return capture("https://"+host+"/robots.txt", 200, "", body)
	})
	if err != nil {
		return captures, err
	}
	return captures, w.Flush()
}

// BenchmarkSurveyWARCGunzip is the bare decompression pass: every gzip
// member of the file decompressed and dropped, on one core, as a reader
// of the file must at least do.
func BenchmarkSurveyWARCGunzip(b *testing.B) {
	path, _ := corpusWARC(b)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		zr, err := gzip.NewReader(bufio.NewReaderSize(f, 256<<10))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, zr); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

// BenchmarkSurveyWARC is the whole survey of the file with the default
// agents, rows written as Parquet, on every core.
func BenchmarkSurveyWARC(b *testing.B) {
	path, captures := corpusWARC(b)
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
	path, captures := corpusWARC(b)
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
			c, err := src.next(take)
			if err != nil {
				break
			}
			if c.err != nil {
				b.Fatalf("%d: %v", c.offset, c.err)
			}
			n++
		}
		src.close()
		if n != captures {
			b.Fatalf("%d captures, want %d", n, captures)
		}
	}
}

// BenchmarkSurveyCaptureCorpus is the time one worker takes to answer
// every file of the licensed corpus for the default agents: a survey's
// work per capture without its reading and writing.
func BenchmarkSurveyCaptureCorpus(b *testing.B) {
	var captures []*capture
	if err := licensedBodies(0)(func(name string, body []byte) error {
		captures = append(captures, &capture{index: len(captures), input: "corpus", file: name, site: "s.example", status: 200, size: int64(len(body)), body: body})
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
