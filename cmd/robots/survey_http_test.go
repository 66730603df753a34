package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nlnwa/gowarc/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/fetch"
)

// surveyTestServer serves files over loopback with http.ServeContent, so
// that Range and If-Range work as a static server's do, and breaks its
// responses as a test asks: cut (the connection closed after some bytes of
// the body), stalled (no more bytes after some), an ETag that changes, a
// server that ignores Range, a status.
type surveyTestServer struct {
	*httptest.Server
	mu       sync.Mutex
	files    map[string][]byte // by path
	status   map[string]int    // a path answered with this status
	requests map[string]int    // requests seen, by path
	ranges   []string          // the Range header of each request, "" for none
	agents   map[string]bool   // User-Agent headers seen
	conns    int               // connections accepted
	cutAt    []string          // the Range that resumes each broken response where it breaks

	// faults, read under mu
	cutAfter    int                // bytes of body a broken response sends (0: none are broken)
	cutFirst    int                // the first cutFirst responses of a path are broken; <0 for all
	stall       bool               // a broken response stalls rather than closing its connection
	ignoreRange bool               // answer every request with the whole object
	etag        func(n int) string // the ETag of a path's n-th response
}

var surveyTestModTime = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)

func newSurveyTestServer(t *testing.T) *surveyTestServer {
	t.Helper()
	s := &surveyTestServer{files: map[string][]byte{}, status: map[string]int{}, requests: map[string]int{}, agents: map[string]bool{}}
	s.etag = func(int) string { return `"v1"` }
	s.Server = httptest.NewUnstartedServer(s)
	s.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			s.mu.Lock()
			s.conns++
			s.mu.Unlock()
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// add serves the local file at /name and returns its URL.
func (s *surveyTestServer) add(t *testing.T, name, local string) string {
	t.Helper()
	data, err := os.ReadFile(local)
	require.NoError(t, err)
	return s.addData(name, data)
}

func (s *surveyTestServer) addData(name string, data []byte) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files["/"+name] = data
	return s.URL + "/" + name
}

func (s *surveyTestServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	n := s.requests[r.URL.Path]
	s.requests[r.URL.Path]++
	s.ranges = append(s.ranges, r.Header.Get("Range"))
	s.agents[r.Header.Get("User-Agent")] = true
	data, ok := s.files[r.URL.Path]
	status := s.status[r.URL.Path]
	broken := s.cutAfter > 0 && (s.cutFirst < 0 || n < s.cutFirst)
	cut, stall, ignore, etag := s.cutAfter, s.stall, s.ignoreRange, s.etag(n)
	s.mu.Unlock()
	switch {
	case status != 0:
		http.Error(w, http.StatusText(status), status)
		return
	case !ok:
		http.NotFound(w, r)
		return
	}
	if ignore {
		r.Header.Del("Range")
		r.Header.Del("If-Range")
	}
	if broken {
		var from int
		fmt.Sscanf(r.Header.Get("Range"), "bytes=%d-", &from)
		s.mu.Lock()
		s.cutAt = append(s.cutAt, fmt.Sprintf("bytes=%d-", from+cut))
		s.mu.Unlock()
	}
	w.Header().Set("ETag", etag)
	var rw http.ResponseWriter = w
	if broken {
		rw = &breakingWriter{ResponseWriter: w, left: cut, stall: stall, r: r}
	}
	http.ServeContent(rw, r, path.Base(r.URL.Path), surveyTestModTime, bytes.NewReader(data))
}

// breakingWriter writes left bytes of a body, then closes the connection
// under it (the client reads an unexpected EOF) or, with stall, sends
// nothing more until the client gives up.
type breakingWriter struct {
	http.ResponseWriter
	left  int
	stall bool
	r     *http.Request
	done  bool
}

var errTestBroken = errors.New("connection broken by the test")

func (b *breakingWriter) Write(p []byte) (int, error) {
	if b.done {
		return 0, errTestBroken
	}
	if len(p) <= b.left {
		b.left -= len(p)
		return b.ResponseWriter.Write(p)
	}
	n, _ := b.ResponseWriter.Write(p[:b.left])
	b.done = true
	rc := http.NewResponseController(b.ResponseWriter)
	rc.Flush()
	if b.stall {
		select {
		case <-b.r.Context().Done():
		case <-time.After(10 * time.Second):
		}
		return n, errTestBroken
	}
	if conn, _, err := rc.Hijack(); err == nil {
		conn.Close()
	}
	return n, errTestBroken
}

// setFaults sets the server's faults under its lock.
func (s *surveyTestServer) setFaults(f func(s *surveyTestServer)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

// withSurveyHTTP runs the test with the http bounds changed by f, and
// restores them after.
func withSurveyHTTP(t *testing.T, f func(c *surveyHTTPConfig)) {
	t.Helper()
	saved := *surveyHTTP
	f(surveyHTTP)
	t.Cleanup(func() { *surveyHTTP = saved })
}

// sameRows asserts that a run over url wrote what a run over local did:
// the capture and agent rows (the input named as the run named it),
// the summary and the exit status.
func sameRows(t *testing.T, local, url string, localRun, httpRun surveyRun) {
	t.Helper()
	require.Equal(t, localRun.code, httpRun.code, httpRun.stderr)
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	require.Equal(t, len(localRun.captures), len(httpRun.captures))
	for i := range localRun.captures {
		want := strings.Replace(localRun.captures[i].raw, `"input":`+q(local), `"input":`+q(url), 1)
		assert.Equal(t, want, httpRun.captures[i].raw)
	}
	require.Equal(t, len(localRun.agents), len(httpRun.agents))
	for i := range localRun.agents {
		want := strings.Replace(localRun.agents[i].raw, `"input":`+q(local), `"input":`+q(url), 1)
		assert.Equal(t, want, httpRun.agents[i].raw)
	}
	assert.Equal(t, localRun.stdout, httpRun.stdout)
	assert.Equal(t, strings.ReplaceAll(localRun.stderr, local, url), httpRun.stderr)
}

// surveyTestWARC is a WARC with a redirect whose target comes before it,
// one whose target comes after it, and, in the .warc.gz, a gzip member
// cut in half between them: the source seeks back to resynchronise and
// opens the input again to read each target.
func surveyTestWARC(t *testing.T, gz bool) string {
	t.Helper()
	a, b, c := corpusFile(t, "files/02144.txt"), corpusFile(t, "files/02148.txt"), corpusFile(t, "files/02948.txt")
	recs := [][]byte{
		buildRecord(t, gowarc.Warcinfo, "", "application/warc-fields", []byte("software: test\r\n")),
		response(t, "https://before.example/robots.txt", 200, "", a),
		response(t, "http://before.example/robots.txt", 301, "Location: https://before.example/robots.txt\r\n", nil),
		response(t, "https://x.example/robots.txt", 200, "", b),
		response(t, "http://after.example/robots.txt", 302, "Location: https://after.example/robots.txt\r\n", nil),
		response(t, "https://y.example/robots.txt", 503, "", []byte("busy")),
		response(t, "https://after.example/robots.txt", 200, "", c),
		response(t, "https://z.example/robots.txt", 200, "", bytes.Repeat(a, 40)),
	}
	name := "crawl.warc"
	var data []byte
	if !gz {
		data = bytes.Join(recs, nil)
	} else {
		name += ".gz"
		for i, r := range recs {
			if i == 4 {
				bad := gzipMember(t, response(t, "https://bad.example/robots.txt", 200, "", b))
				data = append(data, bad[:len(bad)/2]...)
			}
			data = append(data, gzipMember(t, r)...)
		}
	}
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, data, 0o644))
	return p
}

// simpleWARC is a .warc of a few robots.txt responses and no redirect:
// read once, start to end.
func simpleWARC(t *testing.T) string {
	t.Helper()
	var recs [][]byte
	for i, f := range []string{"files/02144.txt", "files/02148.txt", "files/02948.txt", "files/02145.txt"} {
		recs = append(recs, response(t, fmt.Sprintf("https://s%d.example/robots.txt", i), 200, "", corpusFile(t, f)))
	}
	return writeWARC(t, "simple.warc", false, recs...)
}

// TestSurveyHTTPSameRows: an archive (its manifest first, and last: two
// passes), a .warc and a .warc.gz with redirects before and after and a
// bad gzip member, read over http, write exactly the rows the local files
// do; so they do when the server closes the connection in the middle of
// each input's first response, which is resumed with a Range request. The
// requests carry the survey's User-Agent, and the seeks are Range
// requests.
func TestSurveyHTTPSameRows(t *testing.T) {
	srv := newSurveyTestServer(t)
	inputs := map[string]string{
		"first.tar.gz":    buildArchive(t, surveyArchiveFiles, true),
		"last.tgz":        buildArchive(t, surveyArchiveFiles, false),
		"crawl.warc":      surveyTestWARC(t, false),
		"crawl.warc.gz":   surveyTestWARC(t, true),
		"signed.warc.gz":  surveyTestWARC(t, true), // with a query
		"bad-end.warc.gz": "",
	}
	// A .warc.gz that ends in a gzip member cut short.
	data, err := os.ReadFile(inputs["crawl.warc.gz"])
	require.NoError(t, err)
	cutEnd := filepath.Join(t.TempDir(), "bad-end.warc.gz")
	require.NoError(t, os.WriteFile(cutEnd, data[:len(data)-40], 0o644))
	inputs["bad-end.warc.gz"] = cutEnd

	for _, broken := range []bool{false, true} {
		for name, local := range inputs {
			t.Run(fmt.Sprintf("%s/broken=%v", name, broken), func(t *testing.T) {
				url := srv.add(t, name, local)
				if name == "signed.warc.gz" {
					url += "?X-Sig=abc.tar&v=1"
				}
				srv.setFaults(func(s *surveyTestServer) {
					s.requests["/"+name], s.ranges, s.cutAt = 0, nil, nil
					s.cutAfter, s.cutFirst = 0, 0
					if broken {
						// The first two: a first pass may stop before
						// the break, to seek or to start again.
						s.cutAfter, s.cutFirst = len(s.files["/"+name])*2/5, 2
					}
				})
				localRun := runSurveyTest(t, "--agents", "GPTBot,*", local)
				httpRun := runSurveyTest(t, "--agents", "GPTBot,*", url)
				sameRows(t, local, url, localRun, httpRun)
				if broken {
					srv.mu.Lock()
					resumed := 0
					for _, r := range srv.cutAt {
						if slices.Contains(srv.ranges, r) {
							resumed++
						}
					}
					assert.Positive(t, resumed, "a broken response is resumed from the byte reached: %v, %v", srv.cutAt, srv.ranges)
					srv.mu.Unlock()
				}
				if strings.HasPrefix(name, "crawl") {
					rows := warcRows(t, httpRun)
					var targets int
					for _, r := range rows {
						if r.RedirectHops == 1 && r.Error == "" {
							targets++
						}
					}
					assert.Equal(t, 2, targets, "both redirects are followed")
				}
			})
		}
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	assert.Equal(t, map[string]bool{"robots-survey": true}, srv.agents)
}

// TestSurveyHTTPIgnoresRange: a server that answers a Range with the whole
// object, and drops the connection in the middle of each body, can only be
// read from its start: the input is an error row that says so, and the
// run goes on with the next input.
func TestSurveyHTTPIgnoresRange(t *testing.T) {
	srv := newSurveyTestServer(t)
	for _, name := range []string{"crawl.warc.gz", "captures.tar.gz"} {
		t.Run(name, func(t *testing.T) {
			local := surveyTestWARC(t, true)
			if name == "captures.tar.gz" {
				local = buildArchive(t, surveyArchiveFiles, true)
			}
			url := srv.add(t, name, local)
			srv.setFaults(func(s *surveyTestServer) {
				s.ignoreRange, s.cutAfter, s.cutFirst = true, len(s.files["/"+name])/2, -1
			})
			next := buildArchive(t, surveyArchiveFiles, true)
			run := runSurveyTest(t, "--agents", "GPTBot", url, next)
			assert.Equal(t, cli.ExitNegative, run.code, run.stderr)
			var errRows []testCaptureRow
			answered := 0
			for _, c := range run.captures {
				switch {
				case c.Error != "":
					errRows = append(errRows, c)
				case c.Input == next:
					answered++
				}
			}
			require.NotEmpty(t, errRows)
			last := errRows[len(errRows)-1]
			assert.Equal(t, url, last.Input)
			assert.Contains(t, last.Error, "the server ignores Range requests")
			assert.Contains(t, run.stderr, "ignores Range")
			assert.Equal(t, len(surveyArchiveFiles), answered, "the next input is read")
		})
	}
}

// TestSurveyHTTPChanged: an object whose ETag changes between the first
// response and the resumption is an error row, not the two spliced.
func TestSurveyHTTPChanged(t *testing.T) {
	srv := newSurveyTestServer(t)
	local := surveyTestWARC(t, false)
	url := srv.add(t, "crawl.warc", local)
	srv.setFaults(func(s *surveyTestServer) {
		s.cutAfter, s.cutFirst = len(s.files["/crawl.warc"])/2, 1
		s.etag = func(n int) string { return fmt.Sprintf(`"v%d"`, n+1) }
	})
	run := runSurveyTest(t, "--agents", "GPTBot", url)
	assert.Equal(t, cli.ExitNegative, run.code, run.stderr)
	var errRows []testCaptureRow
	for _, c := range run.captures {
		if c.Error != "" {
			errRows = append(errRows, c)
		}
	}
	require.NotEmpty(t, errRows, run.stdout)
	assert.Contains(t, errRows[0].Error, `the object changed since it was first read: ETag "v1", now "v2"`)

	// Last-Modified is the validator when there is no strong ETag.
	srv.setFaults(func(s *surveyTestServer) {
		s.requests["/crawl.warc"] = 0
		s.etag = func(n int) string { return `W/"weak"` }
	})
	f, err := openSurveyHTTP(surveyHTTP, url, &surveyInputState{size: -1})
	require.NoError(t, err)
	defer f.Close()
	assert.Empty(t, f.etag)
	assert.Equal(t, surveyTestModTime.Format(http.TimeFormat), f.validator())
}

// TestSurveyHTTPStall: a body that stops coming is given up after
// surveyHTTPStallTimeout (shortened here) and resumed; a server that
// stalls every response makes the input an error row, within the bound's
// time for each resume allowed. A server that sends no headers is given up
// after surveyHTTPHeaderTimeout.
func TestSurveyHTTPStall(t *testing.T) {
	assert.Equal(t, 30*time.Second, surveyHTTPStallTimeout)
	assert.Equal(t, 30*time.Second, surveyHTTPHeaderTimeout)
	assert.Equal(t, surveyHTTPStallTimeout, surveyHTTP.stallTimeout)
	assert.Equal(t, surveyHTTPHeaderTimeout, surveyHTTP.headerTimeout)
	const bound = 150 * time.Millisecond
	withSurveyHTTP(t, func(c *surveyHTTPConfig) { c.stallTimeout, c.headerTimeout = bound, bound })
	srv := newSurveyTestServer(t)
	local := surveyTestWARC(t, false)
	url := srv.add(t, "crawl.warc", local)

	// One stall, then whole answers: the rows are the local file's.
	srv.setFaults(func(s *surveyTestServer) { s.cutAfter, s.cutFirst, s.stall = 1000, 1, true })
	sameRows(t, local, url, runSurveyTest(t, "--agents", "GPTBot", local), runSurveyTest(t, "--agents", "GPTBot", url))

	// Every response stalls.
	srv.setFaults(func(s *surveyTestServer) { s.requests["/crawl.warc"], s.cutFirst = 0, -1 })
	start := time.Now()
	run := runSurveyTest(t, "--agents", "GPTBot", url)
	elapsed := time.Since(start)
	assert.Equal(t, cli.ExitNegative, run.code, run.stderr)
	assert.Contains(t, run.stderr, fmt.Sprintf("after %d resumes of the input: no byte for %s", surveyHTTPMaxResumes, bound))
	assert.Less(t, elapsed, time.Duration(surveyHTTPMaxResumes+1)*bound+3*time.Second)

	// No headers.
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer slow.Close()
	start = time.Now()
	run = runSurveyTest(t, "--agents", "GPTBot", slow.URL+"/crawl.warc.gz", local)
	assert.Less(t, time.Since(start), bound+3*time.Second)
	assert.Equal(t, cli.ExitNegative, run.code)
	require.NotEmpty(t, run.captures)
	assert.Equal(t, fmt.Sprintf("GET %s/crawl.warc.gz: no response within %s", slow.URL, bound), run.captures[0].Error)
	assert.Equal(t, local, run.captures[len(run.captures)-1].Input, "the next input is read")
}

// TestSurveyHTTPResumeBound: an input is resumed surveyHTTPMaxResumes
// times at most: a server that drops every connection after a sixth of
// the file is read whole, one that drops it after a seventh is an error.
func TestSurveyHTTPResumeBound(t *testing.T) {
	assert.Equal(t, 5, surveyHTTPMaxResumes)
	assert.Equal(t, surveyHTTPMaxResumes, surveyHTTP.maxResumes)
	srv := newSurveyTestServer(t)
	local := simpleWARC(t)
	data, err := os.ReadFile(local)
	require.NoError(t, err)
	size := len(data)
	url := srv.addData("crawl.warc", data)
	localRun := runSurveyTest(t, "--agents", "GPTBot", local)

	per := size/(surveyHTTPMaxResumes+1) + 1 // six responses reach the end
	srv.setFaults(func(s *surveyTestServer) { s.cutAfter, s.cutFirst = per, -1 })
	sameRows(t, local, url, localRun, runSurveyTest(t, "--agents", "GPTBot", url))
	srv.mu.Lock()
	assert.Equal(t, surveyHTTPMaxResumes+1, srv.requests["/crawl.warc"])
	srv.mu.Unlock()

	per = size/(surveyHTTPMaxResumes+2) + 1 // seven would be needed
	srv.setFaults(func(s *surveyTestServer) { s.cutAfter, s.requests["/crawl.warc"] = per, 0 })
	run := runSurveyTest(t, "--agents", "GPTBot", url)
	assert.Equal(t, cli.ExitNegative, run.code)
	assert.Contains(t, run.stderr, fmt.Sprintf("connection lost at byte %d, after %d resumes of the input: unexpected EOF",
		(surveyHTTPMaxResumes+1)*per, surveyHTTPMaxResumes))
}

// TestSurveyHTTPStatus: an input answered 404 or 500, or on a port where
// nothing listens, is an error row and the run exits 1; the other inputs
// are answered. Inputs read to their end share one connection.
func TestSurveyHTTPStatus(t *testing.T) {
	srv := newSurveyTestServer(t)
	a := srv.add(t, "a.warc", surveyTestWARC(t, false))
	b := srv.add(t, "b.warc.gz", surveyTestWARC(t, true))
	srv.mu.Lock()
	srv.status["/broken.tar.gz"] = http.StatusInternalServerError
	srv.mu.Unlock()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	missing, broken, refused := srv.URL+"/missing.warc.gz", srv.URL+"/broken.tar.gz", closed.URL+"/gone.warc"

	run := runSurveyTest(t, "--agents", "GPTBot", a, missing, b, broken, refused)
	assert.Equal(t, cli.ExitNegative, run.code, run.stderr)
	errs := map[string]string{}
	answered := map[string]int{}
	for _, c := range run.captures {
		if c.Error != "" && c.File == "" && c.Offset == 0 {
			errs[c.Input] = c.Error
		} else if c.Error == "" {
			answered[c.Input]++
		}
	}
	assert.Equal(t, "GET "+missing+": 404 Not Found", errs[missing])
	assert.Equal(t, "GET "+broken+": 500 Internal Server Error", errs[broken])
	assert.Contains(t, errs[refused], "connection refused")
	assert.Positive(t, answered[a])
	assert.Positive(t, answered[b])
	assert.Contains(t, run.stderr, "404 Not Found")

	// Two inputs read to their end, one connection.
	srv.mu.Lock()
	srv.conns = 0
	srv.mu.Unlock()
	surveyHTTP.client.CloseIdleConnections()
	simple := srv.add(t, "simple.warc", simpleWARC(t))
	run = runSurveyTest(t, "--agents", "GPTBot", simple, simple)
	assert.Equal(t, cli.ExitOK, run.code, run.stderr)
	assert.Equal(t, 1, srv.conns, "keep-alive")
}

// TestSurveyHTTPUsage: an http(s) INPUT whose path does not end as an
// archive's or a WARC file's is a usage error naming the endings; the
// query does not count.
func TestSurveyHTTPUsage(t *testing.T) {
	dir := t.TempDir()
	for _, in := range []string{"https://example.com/robots.txt", "http://example.com/crawl.warc.gz/", "https://example.com/x?f=a.warc.gz", "https:///a.warc"} {
		r := invoke(run, "", "survey", "--out", dir, in)
		assert.Equal(t, cli.ExitUsage, r.code, in)
		if strings.HasPrefix(in, "https:///") {
			assert.Contains(t, r.stderr, in+": not a URL with a host", in)
			continue
		}
		assert.Contains(t, r.stderr, in+": an http(s) input is read as a stream and its path must end in .warc, .warc.gz, .tar.gz, .tgz\n", in)
	}
	for in, kind := range map[string]string{
		"https://example.com/a/CRAWL.WARC.GZ?sig=x.txt": "warc",
		"http://example.com/a.warc":                     "warc",
		"http://example.com/a.tgz#frag":                 "archive",
		"HTTPS://example.com/a.tar.gz":                  "archive",
	} {
		got, err := surveyKind(in)
		assert.NoError(t, err, in)
		assert.Equal(t, kind, got, in)
	}
}

// TestSurveyHTTPSeek: the file's Seek is lazy and Read asks from where it
// put it; seeking from the end uses the first response's length; reading
// on from where it is sends nothing.
func TestSurveyHTTPSeek(t *testing.T) {
	srv := newSurveyTestServer(t)
	data := []byte(strings.Repeat("0123456789", 100))
	url := srv.addData("x.warc", data)
	f, err := openSurveyHTTP(surveyHTTP, url, &surveyInputState{size: -1})
	require.NoError(t, err)
	defer f.Close()
	buf := make([]byte, 10)
	_, err = f.Read(buf)
	require.NoError(t, err)
	assert.Equal(t, "0123456789", string(buf))
	pos, err := f.Seek(0, 1)
	require.NoError(t, err)
	assert.EqualValues(t, 10, pos)
	pos, err = f.Seek(-5, 2)
	require.NoError(t, err)
	assert.EqualValues(t, 995, pos)
	n, err := f.Read(buf)
	require.NoError(t, err)
	assert.Equal(t, "56789", string(buf[:n]))
	_, err = f.Read(buf)
	assert.Equal(t, "EOF", fmt.Sprint(err))
	_, err = f.Seek(-1, 0)
	assert.Error(t, err)
	srv.mu.Lock()
	assert.Equal(t, []string{"", "bytes=995-"}, srv.ranges)
	srv.mu.Unlock()
}

// TestSurveyProgressETA: --progress gives the bytes of input read and,
// when the inputs' sizes are known (a local archive or WARC file, an
// http input's Content-Length), the share read, which ends at 100%, and
// the time left; a directory's size is not known and no share or ETA is
// given. An archive read in two passes, a WARC resynchronised after a bad
// member and reading its redirects' targets again count each byte once.
func TestSurveyProgressETA(t *testing.T) {
	assert.Equal(t, "robots survey: 12,345 captures, 40.0 of 160.0 MiB read (25%) in 25s, 494 captures/s, ETA 1m15s",
		surveyProgressLine(12345, 40<<20, 160<<20, true, 25*time.Second))
	assert.Equal(t, "robots survey: 3 captures, 0.0 of 0.0 MiB read (100%) in 1s, 3 captures/s",
		surveyProgressLine(3, 0, 0, true, time.Second))
	assert.Equal(t, "robots survey: 1,000 captures, 2.0 MiB in 2s, 500 captures/s",
		surveyProgressLine(1000, 2<<20, 0, false, 2*time.Second))
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1234: "-1,234"} {
		assert.Equal(t, want, groupThousands(n))
	}

	srv := newSurveyTestServer(t)
	archive := buildArchive(t, surveyArchiveFiles, false) // two passes
	warc := surveyTestWARC(t, true)                       // a resync, two redirect targets
	url := srv.add(t, "crawl.warc.gz", warc)
	size := func(p string) int64 {
		fi, err := os.Stat(p)
		require.NoError(t, err)
		return fi.Size()
	}
	// The last report, before the inputs' errors are listed.
	final := regexp.MustCompile(`robots survey: \d+ captures, ([\d.]+) of ([\d.]+) MiB read \((\d+)%\) in \S+, \d+ captures/s, ETA 0s\n(robots survey: [^\n]*(flate|EOF)[^\n]*\n)*$`)
	for _, tt := range []struct {
		name   string
		inputs []string
		size   int64
	}{
		{"archive", []string{archive}, size(archive)},
		{"warc", []string{warc}, size(warc)},
		{"http", []string{url}, size(warc)},
		{"all", []string{archive, url, warc}, size(archive) + 2*size(warc)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := surveyInputBytes.Load()
			run := runSurveyTest(t, append([]string{"--progress", "--agents", "GPTBot"}, tt.inputs...)...)
			require.NotEqual(t, cli.ExitUsage, run.code, run.stderr)
			assert.Equal(t, tt.size, surveyInputBytes.Load()-before, "each byte counted once")
			m := final.FindStringSubmatch(run.stderr)
			require.NotNil(t, m, run.stderr)
			assert.Equal(t, "100", m[3])
			assert.Equal(t, m[1], m[2])
			assert.Equal(t, fmt.Sprintf("%.1f", float64(tt.size)/(1<<20)), m[2])
		})
	}

	// A directory: the bytes, no share, no ETA.
	run := runSurveyTest(t, "--progress", "--agents", "GPTBot", surveyCorpus+"/files_html", archive)
	require.Equal(t, cli.ExitOK, run.code, run.stderr)
	assert.Regexp(t, `robots survey: \d+ captures, [\d.]+ MiB in \S+, \d+ captures/s\n$`, run.stderr)
	assert.NotContains(t, run.stderr, "ETA")
	assert.NotContains(t, run.stderr, "%")
}

// TestSurveyHTTPHopPolicy: the requests of an http(s) input connect
// anywhere its own host and port lead; a request elsewhere, where a
// redirect led, only to a public address, unless the run allows private
// redirects. The decisions, on netip values.
func TestSurveyHTTPHopPolicy(t *testing.T) {
	input, err := url.Parse("http://127.0.0.1:8000/crawl.warc.gz")
	require.NoError(t, err)
	ctx := func(allowPrivate bool) context.Context {
		return context.WithValue(context.Background(), surveyHopKey{}, surveyHop{input: surveyAuthority(input), allowPrivate: allowPrivate})
	}
	parse := func(s string) *url.URL {
		u, err := url.Parse(s)
		require.NoError(t, err)
		return u
	}
	for _, tt := range []struct {
		target, addr string
		kind         string // what the guard refuses it as; "" for through
	}{
		// The input's own host and port, whatever address it is.
		{"http://127.0.0.1:8000/elsewhere.warc", "127.0.0.1:8000", ""},
		{"HTTP://127.0.0.1:8000/x", "169.254.169.254:8000", ""},
		// Elsewhere: public addresses only.
		{"http://127.0.0.1:8001/crawl.warc.gz", "127.0.0.1:8001", "loopback"},
		{"http://127.0.0.2:8000/crawl.warc.gz", "127.0.0.2:8000", "loopback"},
		{"http://169.254.169.254/latest/meta-data/", "169.254.169.254:80", "link-local"},
		{"http://10.0.0.1/x.warc", "10.0.0.1:80", "private"},
		{"http://metadata.internal/x.warc", "[::ffff:10.0.0.1]:80", "private"},
		{"http://[::1]:8000/x.warc", "[::1]:8000", "loopback"},
		{"https://127.0.0.1/crawl.warc.gz", "127.0.0.1:443", "loopback"}, // another port
		{"https://127.0.0.1:8000/crawl.warc.gz", "127.0.0.1:8000", ""},   // the same port, over TLS
		{"https://data.example/crawl.warc.gz", "93.184.215.14:443", ""},
		{"http://[2606:4700::6810:85e5]/x.warc", "[2606:4700::6810:85e5]:80", ""},
	} {
		ap := netip.MustParseAddrPort(tt.addr)
		policy := surveyHopPolicy(ctx(false), parse(tt.target))
		var got error
		if policy != nil {
			got = policy(ap)
		}
		if tt.kind == "" {
			assert.NoError(t, got, "%s at %s", tt.target, tt.addr)
		} else {
			var refused *fetch.AddressError
			require.ErrorAs(t, got, &refused, "%s at %s", tt.target, tt.addr)
			assert.Equal(t, tt.kind, refused.Kind)
		}
		assert.Nil(t, surveyHopPolicy(ctx(true), parse(tt.target)), "--allow-private-redirects: %s", tt.target)
	}
	// A request that says no input is held to the guard.
	assert.NotNil(t, surveyHopPolicy(context.Background(), input))

	for raw, want := range map[string]string{
		"http://Example.ORG/x.warc":      "example.org:80",
		"https://example.org/x.warc":     "example.org:443",
		"https://example.org:8443/x":     "example.org:8443",
		"http://[::1]:8080/x.warc":       "[::1]:8080",
		"http://user@example.org/x.warc": "example.org:80",
	} {
		assert.Equal(t, want, surveyAuthority(parse(raw)), raw)
	}
}

// TestSurveyHTTPRedirectGuard: an input on a loopback server that
// redirects to another loopback server is refused there, no request
// reaching it, and is its input's error row; a redirect on the input's own
// server is followed; with --allow-private-redirects the other server is
// read.
func TestSurveyHTTPRedirectGuard(t *testing.T) {
	other := newSurveyTestServer(t)
	target := other.add(t, "simple.warc", simpleWARC(t))
	named := newSurveyTestServer(t)
	own := named.add(t, "own.warc", simpleWARC(t))
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away.warc":
			http.Redirect(w, r, target, http.StatusFound)
		case "/here.warc":
			http.Redirect(w, r, "/own.warc", http.StatusMovedPermanently)
		case "/own.warc":
			named.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(redirector.Close)
	require.NotEqual(t, surveyAuthority(mustURL(t, redirector.URL)), surveyAuthority(mustURL(t, target)))
	away, here := redirector.URL+"/away.warc", redirector.URL+"/here.warc"
	require.Equal(t, named.URL+"/own.warc", own)

	requests := func() int {
		other.mu.Lock()
		defer other.mu.Unlock()
		return other.requests["/simple.warc"]
	}
	run := runSurveyTest(t, "--agents", "GPTBot", away, here)
	assert.Equal(t, cli.ExitNegative, run.code, run.stderr)
	var refused, read []string
	for _, c := range run.captures {
		switch {
		case c.Input == away && c.Error != "":
			refused = append(refused, c.Error)
		case c.Input == here && c.Error == "":
			read = append(read, c.URL)
		}
	}
	require.Len(t, refused, 1, run.stdout)
	assert.Contains(t, refused[0], "refused to connect to 127.0.0.1: a loopback address is not public")
	assert.Zero(t, requests(), "no request reached the server the redirect led to")
	assert.Len(t, read, 4, "a redirect on the input's own server is followed")

	run = runSurveyTest(t, "--agents", "GPTBot", "--allow-private-redirects", away)
	assert.Equal(t, cli.ExitOK, run.code, run.stderr)
	assert.Len(t, run.captures, 4)
	assert.Positive(t, requests(), "--allow-private-redirects follows it")

	// The flag lasts for its run alone.
	run = runSurveyTest(t, "--agents", "GPTBot", away)
	assert.Equal(t, cli.ExitNegative, run.code, run.stderr)
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	require.NoError(t, err)
	return u
}
