package capture

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fastrobots/robots/cmd/robots/internal/warctest"
	"github.com/nlnwa/gowarc/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readWARCCaptures reads every capture of a WARC file, through quickRecord
// or through the library alone, as comparable strings.
func readWARCCaptures(t *testing.T, path string, libraryOnly bool) []string {
	out, _ := readWARCCapturesCounted(t, path, libraryOnly)
	return out
}

// readWARCCapturesCounted is readWARCCaptures that also says how many
// records quickRecord handed to the library.
func readWARCCapturesCounted(t *testing.T, path string, libraryOnly bool) ([]string, int) {
	t.Helper()
	_, gz := isWARC(path)
	src, err := openWARCSource(path, gz)
	require.NoError(t, err)
	defer src.Close()
	src.libraryOnly = libraryOnly
	index := 0
	take := func() (int, bool) { index++; return index - 1, true }
	var out []string
	for {
		c, err := src.Next(take)
		if err != nil {
			break
		}
		out = append(out, fmt.Sprintf("%d %q status=%d size=%d body=%x err=%v offset=%d host=%q time=%q skipped=%d redirect=%q/%d/%d/%q",
			c.Index, c.URL, c.Status, c.Size, c.Body, c.Err, c.Offset, c.Host, c.FetchTime, c.Skipped,
			c.RedirectTarget, c.RedirectStatus, c.RedirectHops, c.RedirectError))
	}
	return out, src.handedOver
}

// TestSurveyWARCQuickAgreesWithLibrary reads WARC files through the
// survey's quick reader of plain records and through the library alone:
// the captures, error rows and counts are the same, for every capture of
// the licensed corpus (with redirects, 404, 503 and 429 responses, and
// request and metadata records) and for records that are not plain or
// not whole: an LF-only HTTP header, a folded WARC field, a WARC-Date that
// is no RFC 3339, a payload that is no HTTP, a request or a response
// whose Content-Length lies, a record without its end, a header
// past surveyPeekBytes, a field given twice, a Content-Length that is no
// length; and a body longer than the reader's buffer, which the fields
// must not be read after. The odd records are read as a .warc.gz and as a
// plain .warc.
func TestSurveyWARCQuickAgreesWithLibrary(t *testing.T) {
	corpus := filepath.Join(t.TempDir(), "corpus.warc.gz")
	n, err := warctest.WriteCorpusWARCFrom(corpus, warctest.LicensedBodies(600))
	require.NoError(t, err)
	require.Greater(t, n, 600)

	robots := warctest.CorpusFile(t, "files/02144.txt")
	ok := warctest.Response(t, "https://ok.example/robots.txt", 200, "", robots)
	setField := func(rec []byte, old, new string) []byte {
		require.Contains(t, string(rec), old)
		return bytes.Replace(rec, []byte(old), []byte(new), 1)
	}
	cl := func(rec []byte) string { // the record's Content-Length line
		i := bytes.Index(rec, []byte("Content-Length: "))
		j := bytes.Index(rec[i:], []byte("\r\n"))
		return string(rec[i : i+j])
	}
	lfHeader := warctest.Response(t, "https://lf.example/robots.txt", 200, "", robots)
	lfHeader = setField(lfHeader, "HTTP/1.1 200 Status\r\nContent-Type: text/plain\r\n\r\n", "HTTP/1.1 200 Status\nContent-Type: text/plain\n\n")
	lfHeader = setField(lfHeader, cl(lfHeader), fmt.Sprintf("Content-Length: %d", warctest.BlockLen(lfHeader)-3))
	folded := setField(warctest.Response(t, "https://folded.example/robots.txt", 200, "", robots), "WARC-Target-URI:", "X-Note: a\r\n  folded line\r\nWARC-Target-URI:")
	badDate := setField(warctest.Response(t, "https://date.example/robots.txt", 200, "", robots), "WARC-Date: 2025-06-01T12:30:00Z", "WARC-Date: June 1st")
	notHTTP := warctest.Record(t, gowarc.Response, "https://nothttp.example/robots.txt", "application/http;msgtype=response", []byte("no status line here\r\n\r\nbody"))
	req := warctest.Record(t, gowarc.Request, "https://short.example/robots.txt", "application/http;msgtype=request", []byte("GET /robots.txt HTTP/1.1\r\nHost: short.example\r\n\r\n"))
	shortReq := setField(req, cl(req), fmt.Sprintf("Content-Length: %d", warctest.BlockLen(req)+50))
	resp := warctest.Response(t, "https://short.example/robots.txt", 200, "", robots)
	shortResp := setField(resp, cl(resp), fmt.Sprintf("Content-Length: %d", warctest.BlockLen(resp)+50))
	noEnd := bytes.TrimSuffix(warctest.Response(t, "https://noend.example/robots.txt", 200, "", robots), []byte("\r\n\r\n"))
	longHeader := setField(warctest.Response(t, "https://longheader.example/robots.txt", 200, "", robots), "WARC-Target-URI:", "X-Padding: "+strings.Repeat("x", surveyPeekBytes)+"\r\nWARC-Target-URI:")
	twice := setField(warctest.Response(t, "https://twice.example/robots.txt", 200, "", robots), "WARC-Target-URI:", "WARC-Type: request\r\nWARC-Target-URI:")
	big := warctest.Response(t, "https://big.example/robots.txt", 200, "", bytes.Repeat([]byte("Disallow: /a-path-of-some-length/\n"), 9000))
	longReq := setField(req, cl(req), fmt.Sprintf("Content-Length: %d", warctest.BlockLen(req)-10))
	negative := setField(resp, cl(resp), "Content-Length: -5")
	oddRecords := [][]byte{big, ok, lfHeader, ok, folded, badDate, notHTTP, shortReq, ok, shortResp, ok, noEnd, ok, longHeader, twice, ok, longReq, ok, negative, ok}
	odd := warctest.Write(t, "odd.warc.gz", true, oddRecords...)
	oddPlain := warctest.Write(t, "odd.warc", false, oddRecords...)

	for _, path := range []string{corpus, odd, oddPlain} {
		quick, handedOver := readWARCCapturesCounted(t, path, false)
		if path == corpus {
			assert.Zero(t, handedOver, "every record of the corpus file is plain: none is left to the library")
		} else {
			// The short response is framed as a record whose length
			// lies: neither reads it.
			assert.Equal(t, 3, handedOver, "the LF-only HTTP header, the date, the payload that is no HTTP")
		}
		library := readWARCCaptures(t, path, true)
		require.Equal(t, len(library), len(quick), path)
		for i := range library {
			assert.Equal(t, library[i], quick[i], "%s: capture %d", filepath.Base(path), i)
		}
	}
	for _, path := range []string{odd, oddPlain} {
		rows := strings.Join(readWARCCaptures(t, path, false), "\n")
		for _, want := range []string{"lf.example", "folded.example", "date.example", "err=Content-Length", "nothttp.example", `err=Content-Length "-5" is no length`, "noend.example"} {
			assert.Contains(t, rows, want, "the odd records are read, or are error rows")
		}
		assert.NotContains(t, rows, "short.example", "a record whose length lies is not read")
	}
}

// FuzzSurveyWARCQuick holds quickRecord to the library: any bytes, as the
// records of a plain file, of one gzip member and as one gzip member a
// line, give the same captures and error rows read either way.
func FuzzSurveyWARCQuick(f *testing.F) {
	rec := []byte("WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:1>\r\n" +
		"WARC-Date: 2025-06-01T12:30:00Z\r\nWARC-Target-URI: https://a.example/robots.txt\r\n" +
		"Content-Type: application/http;msgtype=response\r\nContent-Length: 52\r\n\r\n" +
		"HTTP/1.1 200 OK\r\n\r\nUser-agent: *\nDisallow: /private\n\r\n\r\n")
	req := []byte("WARC/1.1\r\nWARC-Type: request\r\nWARC-Record-ID: <urn:uuid:2>\r\n" +
		"WARC-Date: 2025-06-01T12:30:00Z\r\nWARC-Target-URI: https://a.example/robots.txt\r\n" +
		"Content-Type: application/http;msgtype=request\r\nContent-Length: 44\r\n\r\n" +
		"GET /robots.txt HTTP/1.1\r\nHost: a.example\r\n\r\n\r\n\r\n")
	f.Add(rec)
	f.Add(append(append([]byte{}, req...), rec...))
	f.Add(rec[:len(rec)-10])
	f.Add(req[:len(req)-10])
	f.Fuzz(func(t *testing.T, data []byte) {
		defer endsWithin(t, data)()
		dir := t.TempDir()
		var one, lines bytes.Buffer
		zw := gzip.NewWriter(&one)
		zw.Write(data)
		zw.Close()
		for _, l := range bytes.SplitAfter(data, []byte("\r\n\r\n\r\n\r\n")) {
			zw.Reset(&lines)
			zw.Write(l)
			zw.Close()
		}
		for name, b := range map[string][]byte{"plain.warc": data, "one.warc.gz": one.Bytes(), "lines.warc.gz": lines.Bytes()} {
			p := filepath.Join(dir, name)
			require.NoError(t, os.WriteFile(p, b, 0o644))
			quick := readWARCCaptures(t, p, false)
			library := readWARCCaptures(t, p, true)
			require.Equal(t, library, quick, name)
		}
	})
}

// fuzzHangBound is how long one input of a fuzz target over a reader may
// take before it is reported as a hang: the fuzzer itself reports none.
const fuzzHangBound = 20 * time.Second

// endsWithin fails the test, naming data, when the caller has not
// returned within fuzzHangBound: defer endsWithin(t, data)().
func endsWithin(t *testing.T, data []byte) (done func()) {
	finished := make(chan struct{})
	go func() {
		select {
		case <-finished:
		case <-time.After(fuzzHangBound):
			buf := make([]byte, 1<<20)
			panic(fmt.Sprintf("no end after %s on %q\n%s", fuzzHangBound, data, buf[:runtime.Stack(buf, true)]))
		}
	}()
	return func() { close(finished) }
}
