package survey

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nlnwa/gowarc/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/cmd/robots/internal/capture"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/cmd/robots/internal/warctest"
)

// withSurveyHTTP runs the test with the http bounds changed by f, and
// restores them after.
func withSurveyHTTP(t *testing.T, f func(c *capture.HTTPConfig)) {
	t.Helper()
	saved := *capture.HTTP
	f(capture.HTTP)
	t.Cleanup(func() { *capture.HTTP = saved })
}

// sameRows asserts that a run over url wrote what a run over local did:
// the capture and agent rows (the input named as the run named it),
// the summary and the exit status.
func sameRows(t *testing.T, local, url string, localRun, httpRun surveyRun) {
	t.Helper()
	require.Equal(t, localRun.Code, httpRun.Code, httpRun.Stderr)
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
	assert.Equal(t, localRun.Stdout, httpRun.Stdout)
	assert.Equal(t, strings.ReplaceAll(localRun.Stderr, local, url), httpRun.Stderr)
}

// surveyTestWARC is a WARC with a redirect whose target comes before it,
// one whose target comes after it, and, in the .warc.gz, a gzip member
// cut in half between them: the source seeks back to resynchronise and
// opens the input again to read each target.
func surveyTestWARC(t *testing.T, gz bool) string {
	t.Helper()
	a, b, c := warctest.CorpusFile(t, "files/02144.txt"), warctest.CorpusFile(t, "files/02148.txt"), warctest.CorpusFile(t, "files/02948.txt")
	recs := [][]byte{
		warctest.Record(t, gowarc.Warcinfo, "", "application/warc-fields", []byte("software: test\r\n")),
		warctest.Response(t, "https://before.example/robots.txt", 200, "", a),
		warctest.Response(t, "http://before.example/robots.txt", 301, "Location: https://before.example/robots.txt\r\n", nil),
		warctest.Response(t, "https://x.example/robots.txt", 200, "", b),
		warctest.Response(t, "http://after.example/robots.txt", 302, "Location: https://after.example/robots.txt\r\n", nil),
		warctest.Response(t, "https://y.example/robots.txt", 503, "", []byte("busy")),
		warctest.Response(t, "https://after.example/robots.txt", 200, "", c),
		warctest.Response(t, "https://z.example/robots.txt", 200, "", bytes.Repeat(a, 40)),
	}
	name := "crawl.warc"
	var data []byte
	if !gz {
		data = bytes.Join(recs, nil)
	} else {
		name += ".gz"
		for i, r := range recs {
			if i == 4 {
				bad := warctest.GzipMember(t, warctest.Response(t, "https://bad.example/robots.txt", 200, "", b))
				data = append(data, bad[:len(bad)/2]...)
			}
			data = append(data, warctest.GzipMember(t, r)...)
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
		recs = append(recs, warctest.Response(t, fmt.Sprintf("https://s%d.example/robots.txt", i), 200, "", warctest.CorpusFile(t, f)))
	}
	return warctest.Write(t, "simple.warc", false, recs...)
}

// TestSurveyHTTPSameRows: an archive (its manifest first, and last: two
// passes), a .warc and a .warc.gz with redirects before and after and a
// bad gzip member, read over http, write exactly the rows the local files
// do; so they do when the server closes the connection in the middle of
// each input's first response, which is resumed with a Range request. The
// requests carry the survey's User-Agent, and the seeks are Range
// requests.
func TestSurveyHTTPSameRows(t *testing.T) {
	srv := warctest.NewServer(t)
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
				url := srv.Add(t, name, local)
				if name == "signed.warc.gz" {
					url += "?X-Sig=abc.tar&v=1"
				}
				srv.SetFaults(func(s *warctest.Server) {
					s.Requests["/"+name], s.Ranges, s.CutAt = 0, nil, nil
					s.CutAfter, s.CutFirst = 0, 0
					if broken {
						// The first two: a first pass may stop before
						// the break, to seek or to start again.
						s.CutAfter, s.CutFirst = len(s.Files["/"+name])*2/5, 2
					}
				})
				localRun := runSurveyTest(t, "--agents", "GPTBot,*", local)
				httpRun := runSurveyTest(t, "--agents", "GPTBot,*", url)
				sameRows(t, local, url, localRun, httpRun)
				if broken {
					srv.Mu.Lock()
					resumed := 0
					for _, r := range srv.CutAt {
						if slices.Contains(srv.Ranges, r) {
							resumed++
						}
					}
					assert.Positive(t, resumed, "a broken response is resumed from the byte reached: %v, %v", srv.CutAt, srv.Ranges)
					srv.Mu.Unlock()
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
	srv.Mu.Lock()
	defer srv.Mu.Unlock()
	assert.Equal(t, map[string]bool{"robots-survey": true}, srv.Agents)
}

// TestSurveyHTTPIgnoresRange: a server that answers a Range with the whole
// object, and drops the connection in the middle of each body, can only be
// read from its start: the input is an error row that says so, and the
// run goes on with the next input.
func TestSurveyHTTPIgnoresRange(t *testing.T) {
	srv := warctest.NewServer(t)
	for _, name := range []string{"crawl.warc.gz", "captures.tar.gz"} {
		t.Run(name, func(t *testing.T) {
			local := surveyTestWARC(t, true)
			if name == "captures.tar.gz" {
				local = buildArchive(t, surveyArchiveFiles, true)
			}
			url := srv.Add(t, name, local)
			srv.SetFaults(func(s *warctest.Server) {
				s.IgnoreRange, s.CutAfter, s.CutFirst = true, len(s.Files["/"+name])/2, -1
			})
			next := buildArchive(t, surveyArchiveFiles, true)
			run := runSurveyTest(t, "--agents", "GPTBot", url, next)
			assert.Equal(t, cli.ExitNegative, run.Code, run.Stderr)
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
			assert.Contains(t, run.Stderr, "ignores Range")
			assert.Equal(t, len(surveyArchiveFiles), answered, "the next input is read")
		})
	}
}

// TestSurveyHTTPChanged: an object whose ETag changes between the first
// response and the resumption is an error row, not the two spliced.
func TestSurveyHTTPChanged(t *testing.T) {
	srv := warctest.NewServer(t)
	local := surveyTestWARC(t, false)
	url := srv.Add(t, "crawl.warc", local)
	srv.SetFaults(func(s *warctest.Server) {
		s.CutAfter, s.CutFirst = len(s.Files["/crawl.warc"])/2, 1
		s.ETag = func(n int) string { return fmt.Sprintf(`"v%d"`, n+1) }
	})
	run := runSurveyTest(t, "--agents", "GPTBot", url)
	assert.Equal(t, cli.ExitNegative, run.Code, run.Stderr)
	var errRows []testCaptureRow
	for _, c := range run.captures {
		if c.Error != "" {
			errRows = append(errRows, c)
		}
	}
	require.NotEmpty(t, errRows, run.Stdout)
	assert.Contains(t, errRows[0].Error, `the object changed since it was first read: ETag "v1", now "v2"`)

}

// TestSurveyHTTPStall: a body that stops coming is given up after
// capture.DefaultStallTimeout (shortened here) and resumed; a server that
// stalls every response makes the input an error row, within the bound's
// time for each resume allowed. A server that sends no headers is given up
// after capture.DefaultHeaderTimeout.
func TestSurveyHTTPStall(t *testing.T) {
	assert.Equal(t, 30*time.Second, capture.DefaultStallTimeout)
	assert.Equal(t, 30*time.Second, capture.DefaultHeaderTimeout)
	assert.Equal(t, capture.DefaultStallTimeout, capture.HTTP.StallTimeout)
	assert.Equal(t, capture.DefaultHeaderTimeout, capture.HTTP.HeaderTimeout)
	const bound = 150 * time.Millisecond
	withSurveyHTTP(t, func(c *capture.HTTPConfig) { c.StallTimeout, c.HeaderTimeout = bound, bound })
	srv := warctest.NewServer(t)
	local := surveyTestWARC(t, false)
	url := srv.Add(t, "crawl.warc", local)

	// One stall, then whole answers: the rows are the local file's.
	srv.SetFaults(func(s *warctest.Server) { s.CutAfter, s.CutFirst, s.Stall = 1000, 1, true })
	sameRows(t, local, url, runSurveyTest(t, "--agents", "GPTBot", local), runSurveyTest(t, "--agents", "GPTBot", url))

	// Every response stalls.
	srv.SetFaults(func(s *warctest.Server) { s.Requests["/crawl.warc"], s.CutFirst = 0, -1 })
	start := time.Now()
	run := runSurveyTest(t, "--agents", "GPTBot", url)
	elapsed := time.Since(start)
	assert.Equal(t, cli.ExitNegative, run.Code, run.Stderr)
	assert.Contains(t, run.Stderr, fmt.Sprintf("after %d resumes of the input: no byte for %s", capture.DefaultMaxResumes, bound))
	assert.Less(t, elapsed, time.Duration(capture.DefaultMaxResumes+1)*bound+3*time.Second)

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
	assert.Equal(t, cli.ExitNegative, run.Code)
	require.NotEmpty(t, run.captures)
	assert.Equal(t, fmt.Sprintf("GET %s/crawl.warc.gz: no response within %s", slow.URL, bound), run.captures[0].Error)
	assert.Equal(t, local, run.captures[len(run.captures)-1].Input, "the next input is read")
}

// TestSurveyHTTPResumeBound: an input is resumed capture.DefaultMaxResumes
// times at most: a server that drops every connection after a sixth of
// the file is read whole, one that drops it after a seventh is an error.
func TestSurveyHTTPResumeBound(t *testing.T) {
	assert.Equal(t, 5, capture.DefaultMaxResumes)
	assert.Equal(t, capture.DefaultMaxResumes, capture.HTTP.MaxResumes)
	srv := warctest.NewServer(t)
	local := simpleWARC(t)
	data, err := os.ReadFile(local)
	require.NoError(t, err)
	size := len(data)
	url := srv.AddData("crawl.warc", data)
	localRun := runSurveyTest(t, "--agents", "GPTBot", local)

	per := size/(capture.DefaultMaxResumes+1) + 1 // six responses reach the end
	srv.SetFaults(func(s *warctest.Server) { s.CutAfter, s.CutFirst = per, -1 })
	sameRows(t, local, url, localRun, runSurveyTest(t, "--agents", "GPTBot", url))
	srv.Mu.Lock()
	assert.Equal(t, capture.DefaultMaxResumes+1, srv.Requests["/crawl.warc"])
	srv.Mu.Unlock()

	per = size/(capture.DefaultMaxResumes+2) + 1 // seven would be needed
	srv.SetFaults(func(s *warctest.Server) { s.CutAfter, s.Requests["/crawl.warc"] = per, 0 })
	run := runSurveyTest(t, "--agents", "GPTBot", url)
	assert.Equal(t, cli.ExitNegative, run.Code)
	assert.Contains(t, run.Stderr, fmt.Sprintf("connection lost at byte %d, after %d resumes of the input: unexpected EOF",
		(capture.DefaultMaxResumes+1)*per, capture.DefaultMaxResumes))
}

// TestSurveyHTTPStatus: an input answered 404 or 500, or on a port where
// nothing listens, is an error row and the run exits 1; the other inputs
// are answered. Inputs read to their end share one connection.
func TestSurveyHTTPStatus(t *testing.T) {
	srv := warctest.NewServer(t)
	a := srv.Add(t, "a.warc", surveyTestWARC(t, false))
	b := srv.Add(t, "b.warc.gz", surveyTestWARC(t, true))
	srv.Mu.Lock()
	srv.Status["/broken.tar.gz"] = http.StatusInternalServerError
	srv.Mu.Unlock()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	missing, broken, refused := srv.URL+"/missing.warc.gz", srv.URL+"/broken.tar.gz", closed.URL+"/gone.warc"

	run := runSurveyTest(t, "--agents", "GPTBot", a, missing, b, broken, refused)
	assert.Equal(t, cli.ExitNegative, run.Code, run.Stderr)
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
	assert.Contains(t, run.Stderr, "404 Not Found")

	// Two inputs read to their end, one connection.
	srv.Mu.Lock()
	srv.Conns = 0
	srv.Mu.Unlock()
	capture.HTTP.Client.CloseIdleConnections()
	simple := srv.Add(t, "simple.warc", simpleWARC(t))
	run = runSurveyTest(t, "--agents", "GPTBot", simple, simple)
	assert.Equal(t, cli.ExitOK, run.Code, run.Stderr)
	assert.Equal(t, 1, srv.Conns, "keep-alive")
}

// TestSurveyHTTPUsage: an http(s) INPUT whose path does not end as an
// archive's or a WARC file's is a usage error naming the endings; the
// query does not count.
func TestSurveyHTTPUsage(t *testing.T) {
	dir := t.TempDir()
	for _, in := range []string{"https://example.com/robots.txt", "http://example.com/crawl.warc.gz/", "https://example.com/x?f=a.warc.gz", "https:///a.warc"} {
		r := clitest.Invoke(Run, "", "--out", dir, in)
		assert.Equal(t, cli.ExitUsage, r.Code, in)
		if strings.HasPrefix(in, "https:///") {
			assert.Contains(t, r.Stderr, in+": not a URL with a host", in)
			continue
		}
		assert.Contains(t, r.Stderr, in+": an http(s) input is read as a stream and its path must end in .warc, .warc.gz, .tar.gz, .tgz\n", in)
	}
	for in, kind := range map[string]string{
		"https://example.com/a/CRAWL.WARC.GZ?sig=x.txt": "warc",
		"http://example.com/a.warc":                     "warc",
		"http://example.com/a.tgz#frag":                 "archive",
		"HTTPS://example.com/a.tar.gz":                  "archive",
	} {
		got, err := capture.Kind(in)
		assert.NoError(t, err, in)
		assert.Equal(t, kind, got, in)
	}
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

	srv := warctest.NewServer(t)
	archive := buildArchive(t, surveyArchiveFiles, false) // two passes
	warc := surveyTestWARC(t, true)                       // a resync, two redirect targets
	url := srv.Add(t, "crawl.warc.gz", warc)
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
			before := capture.BytesRead()
			run := runSurveyTest(t, append([]string{"--progress", "--agents", "GPTBot"}, tt.inputs...)...)
			require.NotEqual(t, cli.ExitUsage, run.Code, run.Stderr)
			assert.Equal(t, tt.size, capture.BytesRead()-before, "each byte counted once")
			m := final.FindStringSubmatch(run.Stderr)
			require.NotNil(t, m, run.Stderr)
			assert.Equal(t, "100", m[3])
			assert.Equal(t, m[1], m[2])
			assert.Equal(t, fmt.Sprintf("%.1f", float64(tt.size)/(1<<20)), m[2])
		})
	}

	// A directory: the bytes, no share, no ETA.
	run := runSurveyTest(t, "--progress", "--agents", "GPTBot", warctest.LicensedCorpus+"/files_html", archive)
	require.Equal(t, cli.ExitOK, run.Code, run.Stderr)
	assert.Regexp(t, `robots survey: \d+ captures, [\d.]+ MiB in \S+, \d+ captures/s\n$`, run.Stderr)
	assert.NotContains(t, run.Stderr, "ETA")
	assert.NotContains(t, run.Stderr, "%")
}

// TestSurveyHTTPRedirectGuard: an input on a loopback server that
// redirects to another loopback server is refused there, no request
// reaching it, and is its input's error row; a redirect on the input's own
// server is followed; with --allow-private-redirects the other server is
// read.
func TestSurveyHTTPRedirectGuard(t *testing.T) {
	other := warctest.NewServer(t)
	target := other.Add(t, "simple.warc", simpleWARC(t))
	named := warctest.NewServer(t)
	own := named.Add(t, "own.warc", simpleWARC(t))
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
	require.NotEqual(t, mustURL(t, redirector.URL).Host, mustURL(t, target).Host, "another port: another authority")
	away, here := redirector.URL+"/away.warc", redirector.URL+"/here.warc"
	require.Equal(t, named.URL+"/own.warc", own)

	requests := func() int {
		other.Mu.Lock()
		defer other.Mu.Unlock()
		return other.Requests["/simple.warc"]
	}
	run := runSurveyTest(t, "--agents", "GPTBot", away, here)
	assert.Equal(t, cli.ExitNegative, run.Code, run.Stderr)
	var refused, read []string
	for _, c := range run.captures {
		switch {
		case c.Input == away && c.Error != "":
			refused = append(refused, c.Error)
		case c.Input == here && c.Error == "":
			read = append(read, c.URL)
		}
	}
	require.Len(t, refused, 1, run.Stdout)
	assert.Contains(t, refused[0], "refused to connect to 127.0.0.1: a loopback address is not public")
	assert.Zero(t, requests(), "no request reached the server the redirect led to")
	assert.Len(t, read, 4, "a redirect on the input's own server is followed")

	run = runSurveyTest(t, "--agents", "GPTBot", "--allow-private-redirects", away)
	assert.Equal(t, cli.ExitOK, run.Code, run.Stderr)
	assert.Len(t, run.captures, 4)
	assert.Positive(t, requests(), "--allow-private-redirects follows it")

	// The flag lasts for its run alone.
	run = runSurveyTest(t, "--agents", "GPTBot", away)
	assert.Equal(t, cli.ExitNegative, run.Code, run.Stderr)
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	require.NoError(t, err)
	return u
}
