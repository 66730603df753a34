// Package warctest builds the WARC files the survey's tests and
// benchmarks read: records written with the WARC library's own builder
// and marshaler, files of them as .warc or .warc.gz (one gzip member a
// record, as Common Crawl writes them), and a file of every corpus body
// as a crawl's robots.txt captures, with redirects and error statuses.
// It is a test kit: no command imports it.
package warctest

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

	"github.com/nlnwa/gowarc/v3"
	"github.com/stretchr/testify/require"
)

// root is the repository's root, found from this file's path so that
// the corpus is found from any package's tests.
var root = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..")
}()

// LicensedCorpus is the licensed real-world corpus in the repository.
var LicensedCorpus = filepath.Join(root, "testdata", "corpus")

// Date is the fetch time the test records carry.
var Date = time.Date(2025, 6, 1, 12, 30, 0, 0, time.UTC)

// Record builds one WARC record with the library's builder and
// writes it with its marshaler.
func Record(t testing.TB, typ gowarc.RecordType, uri, contentType string, block []byte) []byte {
	t.Helper()
	rb := gowarc.NewRecordBuilder(typ, gowarc.WithAddMissingRecordId(true), gowarc.WithAddMissingDigest(true))
	// A record ID of the record's own content, not a random one, so that
	// a file's bytes, and what a cut member decompresses to, are the same
	// every run.
	id := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%s\x00%s\x00%s", typ, uri, contentType, block)))
	rb.AddWarcHeader(gowarc.WarcRecordID, fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", id[0:4], id[4:6], id[6:8], id[8:10], id[10:16]))
	if uri != "" {
		rb.AddWarcHeader(gowarc.WarcTargetURI, uri)
	}
	rb.AddWarcHeaderTime(gowarc.WarcDate, Date)
	rb.AddWarcHeader(gowarc.ContentType, contentType)
	_, err := rb.Write(block)
	require.NoError(t, err)
	rec, _, err := rb.Build()
	require.NoError(t, err)
	defer rec.Close()
	var b bytes.Buffer
	_, _, err = gowarc.NewMarshaler().Marshal(&b, rec, 0)
	require.NoError(t, err)
	return b.Bytes()
}

// Response is a Response record for uri: the status line and headers,
// then the body.
func Response(t testing.TB, uri string, status int, headers string, body []byte) []byte {
	t.Helper()
	http := fmt.Sprintf("HTTP/1.1 %d Status\r\nContent-Type: text/plain\r\n%s\r\n", status, headers)
	return Record(t, gowarc.Response, uri, "application/http;msgtype=Response", append([]byte(http), body...))
}

// Write writes records as a .warc, or as a .warc.gz with one gzip
// member per record, and returns its path.
func Write(t testing.TB, name string, gz bool, records ...[]byte) string {
	t.Helper()
	var b bytes.Buffer
	for _, r := range records {
		if gz {
			b.Write(GzipMember(t, r))
		} else {
			b.Write(r)
		}
	}
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, b.Bytes(), 0o644))
	return p
}

func GzipMember(t testing.TB, p []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, err := zw.Write(p)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return b.Bytes()
}

func CorpusFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(LicensedCorpus, name))
	require.NoError(t, err)
	return b
}

// BlockLen is the Content-Length a marshalled record states.
func BlockLen(rec []byte) int {
	var n int
	i := bytes.Index(rec, []byte("Content-Length: "))
	fmt.Sscanf(string(rec[i+len("Content-Length: "):]), "%d", &n)
	return n
}

// SharedArchive is the full corpus, when present beside the repository.
var SharedArchive = filepath.Join(root, "..", "shared", "corpus", "robots-corpus.tar.gz")

// benchWARC is the built file, made once a test binary.
var benchWARC struct {
	once     sync.Once
	path     string
	captures int
	err      error
}

// benchWARCVersion names what WriteCorpusWARC writes: change it when the
// file it writes changes, so that a file kept from before is not reused.
const benchWARCVersion = "1"

// CorpusWARC returns the benchmark's WARC file and the captures it holds.
// The file is kept in the temporary directory, named for the corpus it was
// built from and benchWARCVersion, and built only when it is not there:
// building it takes longer than reading it.
func CorpusWARC(b testing.TB) (string, int) {
	b.Helper()
	benchWARC.once.Do(func() {
		from := LicensedCorpus
		if fi, err := os.Stat(SharedArchive); err == nil {
			from = fmt.Sprintf("%s %d %d", SharedArchive, fi.Size(), fi.ModTime().UnixNano())
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
		n, err := WriteCorpusWARC(tmp)
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

// CorpusBodies calls each with every file of the full corpus, or of the
// licensed one when the full one is not here, in a fixed order.
func CorpusBodies(each func(name string, body []byte) error) error {
	f, err := os.Open(SharedArchive)
	if err != nil {
		return LicensedBodies(0)(each)
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

// LicensedBodies gives the first n files of the licensed corpus in
// testdata/corpus, or all of them when n is 0, in a fixed order.
func LicensedBodies(n int) func(each func(name string, body []byte) error) error {
	return func(each func(name string, body []byte) error) error {
		names, err := filepath.Glob(filepath.Join(LicensedCorpus, "files*", "*.txt"))
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

// WriteCorpusWARC writes every corpus file as a capture of its own host,
// site-N.example, with the library's record builder: mostly 200s, and
// every 50th a 301 from http to https (the 200 after it), every 61st a
// 404 page, every 97th a 503, every 101st a 429.
func WriteCorpusWARC(path string) (captures int, err error) {
	return WriteCorpusWARCFrom(path, CorpusBodies)
}

// WriteCorpusWARCFrom is WriteCorpusWARC of the files bodies gives.
func WriteCorpusWARCFrom(path string, bodies func(each func(name string, body []byte) error) error) (captures int, err error) {
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
		if err := member(gowarc.Response, uri, "application/http;msgtype=Response", append([]byte(resp), body...)); err != nil {
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

// Gunzip times the bare decompression pass over the corpus WARC file
// (CorpusWARC): every gzip member decompressed by the reader open makes
// and dropped, on one core, as a reader of the file must at least do.
// Each library's benchmark calls it with its own reader, so that the
// passes differ in the library alone.
func Gunzip(b *testing.B, open func(io.Reader) (io.Reader, error)) {
	path, _ := CorpusWARC(b)
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
		zr, err := open(bufio.NewReaderSize(f, 256<<10))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, zr); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}
