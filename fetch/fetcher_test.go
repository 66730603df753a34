package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
)

const rules = "User-agent: *\nDisallow: /private/\n\nUser-agent: FooBot\nDisallow: /\n"

func TestFetch2xxIsConditional(t *testing.T) {
	clock := newFakeClock()
	for _, status := range []int{200, 203, 206} {
		s := serve(t, text(status, rules))
		res, err := fetcher(t, clock).Fetch(t.Context(), s.URL+"/robots.txt")
		require.NoError(t, err)
		assert.Equal(t, Conditional, res.Policy, status)
		assert.Equal(t, ReasonOK, res.Reason)
		assert.Equal(t, status, res.Status)
		assert.Equal(t, s.URL+"/robots.txt", res.URL)
		assert.Equal(t, s.URL+"/robots.txt", res.FinalURL)
		assert.Equal(t, len(rules), res.Bytes)
		assert.False(t, res.Truncated)
		assert.Equal(t, clock.Now(), res.FetchedAt)
		assert.Equal(t, 24*time.Hour, res.Lifetime())
		require.NotNil(t, res.Robots)
		assert.False(t, res.Agent().Allowed("/private/x"))
		assert.True(t, res.Agent().Allowed("/public"))
		assert.False(t, res.Agent("FooBot").Allowed("/public"))
	}
}

func TestFetchEmpty2xxAllowsAll(t *testing.T) {
	s := serve(t, text(http.StatusNoContent, ""))
	res, err := fetcher(t, nil).Fetch(t.Context(), s.URL+"/robots.txt")
	require.NoError(t, err)
	assert.Equal(t, Conditional, res.Policy)
	assert.True(t, res.Agent("Googlebot").Allowed("/anything"))
}

// A site without robots.txt that serves an HTML page instead: the page is
// parsed like any robots.txt, and only lines that are valid rules count.
func TestFetchHTMLPageIsParsedAsRobots(t *testing.T) {
	page := "<!DOCTYPE html>\n<html><head><title>Welcome</title></head>\n<body>\n" +
		"<p>User-agent: * is how a group starts</p>\n<pre>\nUser-agent: *\nDisallow: /secret\n</pre>\n" +
		"<a href=\"/private/\">Disallow: /private</a>\n</body></html>\n"
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, page)
	})
	res, err := fetcher(t, nil).Fetch(t.Context(), s.URL+"/robots.txt")
	require.NoError(t, err)
	assert.Equal(t, Conditional, res.Policy)
	a := res.Agent("Googlebot")
	assert.False(t, a.Allowed("/secret/x"), "the valid lines of the <pre> block count")
	assert.True(t, a.Allowed("/private/x"), "a line starting with markup is no rule")
	assert.True(t, a.Allowed("/"))
}

func TestFetch4xxIsFullAllow(t *testing.T) {
	clock := newFakeClock()
	for _, status := range []int{400, 401, 403, 404, 410, 418, 451} {
		s := serve(t, text(status, "User-agent: *\nDisallow: /\n"))
		res, err := fetcher(t, clock).Fetch(t.Context(), s.URL+"/robots.txt")
		require.NoError(t, err)
		assert.Equal(t, FullAllow, res.Policy, status)
		assert.Equal(t, ReasonUnavailable, res.Reason, status)
		assert.Equal(t, status, res.Status)
		assert.Nil(t, res.Robots, "the body of a 4xx is not parsed")
		assert.Equal(t, 24*time.Hour, res.Lifetime(), status)
		assert.True(t, res.Agent("Googlebot").Allowed("/anything"))
	}
}

func TestFetch5xxAnd429AreFullDisallow(t *testing.T) {
	clock := newFakeClock()
	for _, c := range []struct {
		status int
		reason Reason
		retry  time.Duration
	}{
		{429, ReasonTooManyRequests, DefaultRetry},
		{500, ReasonServerError, DefaultRetry},
		{502, ReasonServerError, DefaultRetry},
		{503, ReasonServerError, DefaultRetry503}, // sooner
		{504, ReasonServerError, DefaultRetry},
	} {
		s := serve(t, text(c.status, "User-agent: *\nAllow: /\n"))
		res, err := fetcher(t, clock).Fetch(t.Context(), s.URL+"/robots.txt")
		require.NoError(t, err)
		assert.Equal(t, FullDisallow, res.Policy, c.status)
		assert.Equal(t, c.reason, res.Reason, c.status)
		assert.True(t, res.Reason.Failed())
		assert.Equal(t, c.status, res.Status)
		assert.Equal(t, c.retry, res.Lifetime(), c.status)
		assert.False(t, res.Agent("Googlebot").Allowed("/"))
		assert.False(t, res.Agent().Allowed("/anything"))
	}
	assert.Less(t, DefaultRetry503, DefaultRetry, "a 503 is retried sooner")
}

func TestFetchHonoursRetryAfter(t *testing.T) {
	clock := newFakeClock()
	date := clock.Now().UTC()
	cases := []struct {
		header []string
		want   time.Duration
	}{
		{[]string{"Retry-After", "300"}, 5 * time.Minute},
		{[]string{"Retry-After", date.Add(20 * time.Minute).Format(http.TimeFormat), "Date", date.Format(http.TimeFormat)}, 20 * time.Minute},
		{[]string{"Retry-After", "5"}, DefaultRetry503},      // raised to the floor
		{[]string{"Retry-After", "999999"}, DefaultMaxRetry}, // cut to the ceiling
		{[]string{"Retry-After", "soon"}, DefaultRetry503},   // malformed: the 503 default
		{[]string{"Retry-After", "-60"}, DefaultRetry503},    // malformed
		{[]string{"Retry-After", "99999999999999999999"}, DefaultMaxRetry},
	}
	for _, c := range cases {
		s := serve(t, text(503, "", c.header...))
		res, err := fetcher(t, clock).Fetch(t.Context(), s.URL+"/robots.txt")
		require.NoError(t, err)
		assert.Equal(t, FullDisallow, res.Policy)
		assert.Equal(t, c.want, res.Lifetime(), c.header)
	}
	s := serve(t, text(429, "", "Retry-After", "1800"))
	res, err := fetcher(t, clock).Fetch(t.Context(), s.URL+"/robots.txt")
	require.NoError(t, err)
	assert.Equal(t, 30*time.Minute, res.RetryAfter)
	assert.Equal(t, 30*time.Minute, res.Lifetime())
}

// redirector serves /r/N as a redirect to /r/N-1 and /r/0 as rules.
func redirector(cnt *counter) http.HandlerFunc {
	return cnt.wrap(func(w http.ResponseWriter, r *http.Request) {
		var n int
		if _, err := fmt.Sscanf(r.URL.Path, "/r/%d", &n); err != nil || n == 0 {
			text(200, "User-agent: *\nDisallow: /end\n")(w, r)
			return
		}
		code := []int{301, 302, 303, 307, 308}[n%5]
		http.Redirect(w, r, fmt.Sprintf("/r/%d", n-1), code)
	})
}

func TestFetchFollowsFiveRedirects(t *testing.T) {
	var cnt counter
	s := serve(t, redirector(&cnt))
	res, err := fetcher(t, nil).Fetch(t.Context(), s.URL+"/r/5")
	require.NoError(t, err)
	assert.Equal(t, Conditional, res.Policy)
	assert.Equal(t, 5, res.Redirects)
	assert.Equal(t, s.URL+"/r/0", res.FinalURL)
	assert.Equal(t, s.URL+"/r/5", res.URL)
	assert.False(t, res.Agent().Allowed("/end"))
	assert.Equal(t, 6, cnt.get(""))
}

func TestFetchSixRedirectsIsFullAllow(t *testing.T) {
	var cnt counter
	s := serve(t, redirector(&cnt))
	res, err := fetcher(t, nil).Fetch(t.Context(), s.URL+"/r/6")
	require.NoError(t, err)
	assert.Equal(t, FullAllow, res.Policy)
	assert.Equal(t, ReasonRedirects, res.Reason)
	assert.ErrorIs(t, res.Err, ErrTooManyRedirects)
	assert.Equal(t, 5, res.Redirects)
	assert.Equal(t, s.URL+"/r/1", res.FinalURL)
	assert.Equal(t, 6, cnt.get(""), "six requests, the sixth redirect not followed")
	assert.Zero(t, cnt.get(strings.TrimPrefix(s.URL, "http://")+"/r/0"))
	assert.Equal(t, 24*time.Hour, res.Lifetime())
	assert.True(t, res.Agent().Allowed("/end"))
}

func TestFetchMaxRedirectsIsConfigurable(t *testing.T) {
	var cnt counter
	s := serve(t, redirector(&cnt))
	f := fetcher(t, nil)
	f.MaxRedirects = 7
	res, err := f.Fetch(t.Context(), s.URL+"/r/7")
	require.NoError(t, err)
	assert.Equal(t, Conditional, res.Policy)
	f.MaxRedirects = 1
	res, err = f.Fetch(t.Context(), s.URL+"/r/2")
	require.NoError(t, err)
	assert.Equal(t, FullAllow, res.Policy)
	assert.ErrorIs(t, res.Err, ErrTooManyRedirects)
	f.MaxRedirects = -1
	res, err = f.Fetch(t.Context(), s.URL+"/r/12")
	require.NoError(t, err)
	assert.Equal(t, Conditional, res.Policy, "a negative limit is no limit")
	assert.Equal(t, 12, res.Redirects)
}

func TestFetchRedirectLoopIsFullAllow(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/a" {
			http.Redirect(w, r, "/b", http.StatusFound)
			return
		}
		http.Redirect(w, r, "/a", http.StatusMovedPermanently)
	}))
	res, err := fetcher(t, nil).Fetch(t.Context(), s.URL+"/a")
	require.NoError(t, err)
	assert.Equal(t, FullAllow, res.Policy)
	assert.Equal(t, ReasonRedirects, res.Reason)
	assert.ErrorIs(t, res.Err, ErrRedirectLoop)
	assert.Equal(t, 2, cnt.get(""))

	// A redirect to itself.
	self := serve(t, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, r.URL.Path, http.StatusFound) })
	res, err = fetcher(t, nil).Fetch(t.Context(), self.URL+"/robots.txt")
	require.NoError(t, err)
	assert.Equal(t, FullAllow, res.Policy)
	assert.ErrorIs(t, res.Err, ErrRedirectLoop)
}

func TestFetchRedirectToAnotherHost(t *testing.T) {
	other := serve(t, text(200, "User-agent: *\nDisallow: /moved\n"))
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/robots.txt", http.StatusMovedPermanently)
	})
	res, err := fetcher(t, nil).Fetch(t.Context(), s.URL+"/robots.txt")
	require.NoError(t, err)
	assert.Equal(t, Conditional, res.Policy)
	assert.Equal(t, 1, res.Redirects)
	assert.Equal(t, s.URL+"/robots.txt", res.URL)
	assert.Equal(t, other.URL+"/robots.txt", res.FinalURL)
	assert.False(t, res.Agent().Allowed("/moved/x"), "the rules apply to the origin asked for")
}

func TestFetchUnfollowableRedirectIsFullAllow(t *testing.T) {
	for name, h := range map[string]http.HandlerFunc{
		"no Location":     func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusFound) },
		"300 no Location": func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusMultipleChoices) },
		"to ftp": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "ftp://example.com/robots.txt", http.StatusMovedPermanently)
		},
		"304":               func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotModified) },
		"304 with Location": redirectTo(http.StatusNotModified, "/elsewhere.txt"),
	} {
		var cnt counter
		s := serve(t, cnt.wrap(h))
		res, err := fetcher(t, nil).Fetch(t.Context(), s.URL+"/robots.txt")
		require.NoError(t, err, name)
		assert.Equal(t, FullAllow, res.Policy, name)
		assert.ErrorIs(t, res.Err, ErrBadRedirect, name)
		assert.Equal(t, 1, cnt.get(""), "%s: nothing is followed", name)
	}
}

// Every 3xx but 304 is a redirect when it names where to go, the codes
// net/http does not follow itself (300, 305, 306, 399) included.
func TestFetchEvery3xxWithLocationIsFollowed(t *testing.T) {
	for _, code := range []int{300, 301, 302, 303, 305, 306, 307, 308, 399} {
		mux := http.NewServeMux()
		mux.HandleFunc("/robots.txt", redirectTo(code, "/real.txt"))
		mux.HandleFunc("/real.txt", text(200, "User-agent: *\nDisallow: /x\n"))
		s := httptest.NewServer(mux)
		res, err := fetcher(t, nil).Fetch(t.Context(), s.URL+"/robots.txt")
		s.Close()
		require.NoError(t, err, code)
		assert.Equal(t, Conditional, res.Policy, code)
		assert.Equal(t, 1, res.Redirects, code)
		assert.False(t, res.Agent().Allowed("/x"), code)
	}
}

// A Location that does not parse makes the response invalid, whatever the
// 3xx: it counts as a network failure.
func TestFetchUnparsableLocationIsNetworkFailure(t *testing.T) {
	for _, code := range []int{http.StatusMultipleChoices, http.StatusFound, 399} {
		s := serve(t, redirectTo(code, "http://[::1"))
		assertNetworkFailure(t, faultFetcher(t), s.URL)
	}
}

// redirectTo answers with code and a Location header.
func redirectTo(code int, location string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", location)
		w.WriteHeader(code)
	}
}

// bigRobots returns a body of n bytes: a rule within the first 500 KiB,
// filler, and a rule after 500 KiB.
func bigRobots(n int) []byte {
	var b bytes.Buffer
	b.WriteString("User-agent: *\nDisallow: /early\n")
	line := "# filler filler filler filler filler filler filler filler filler\n"
	for b.Len() < robots.MaxBytes+1000 {
		b.WriteString(line)
	}
	b.WriteString("Disallow: /late\n")
	for b.Len() < n {
		b.WriteString(line)
	}
	return b.Bytes()[:n]
}

func TestFetchReadsAtMost500KiB(t *testing.T) {
	body := bigRobots(2 << 20)
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write(body)
	})
	var read atomic.Int64
	f := &Fetcher{Client: clientTo(t, s.Listener.Addr().String(), &read), Timeout: 5 * time.Second}
	res, err := f.Fetch(t.Context(), s.URL+"/robots.txt")
	require.NoError(t, err)
	assert.Equal(t, Conditional, res.Policy)
	assert.Equal(t, robots.MaxBytes, res.Bytes)
	assert.True(t, res.Truncated)
	a := res.Agent("Googlebot")
	assert.False(t, a.Allowed("/early"))
	assert.True(t, a.Allowed("/late"), "a rule after 500 KiB is ignored")
	assert.Less(t, read.Load(), int64(robots.MaxBytes+64<<10), "bytes read from the server are bounded")
}

func TestFetchMaxBytesIsConfigurable(t *testing.T) {
	s := serve(t, text(200, "User-agent: *\nDisallow: /a\nDisallow: /b\n"))
	f := fetcher(t, nil)
	f.MaxBytes = len("User-agent: *\nDisallow: /a\n")
	res, err := f.Fetch(t.Context(), s.URL+"/robots.txt")
	require.NoError(t, err)
	assert.True(t, res.Truncated)
	assert.Equal(t, f.MaxBytes, res.Bytes)
	assert.False(t, res.Agent().Allowed("/a"))
	assert.True(t, res.Agent().Allowed("/b"))

	f.MaxBytes = -1
	res, err = f.Fetch(t.Context(), s.URL+"/robots.txt")
	require.NoError(t, err)
	assert.False(t, res.Truncated, "a negative limit reads the whole body")
	assert.False(t, res.Agent().Allowed("/b"))
}

// An endless body: the fetch ends as soon as it has its 500 KiB, and the
// server could write only a bounded part of its 64 MiB.
func TestFetchDoesNotReadAnEndlessBody(t *testing.T) {
	var written atomic.Int64
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		chunk := bytes.Repeat([]byte("Disallow: /x\n"), 2520) // 32 KiB
		for range 2048 {                                      // 64 MiB at most
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	})
	start := time.Now()
	res, err := fetcher(t, nil).Fetch(t.Context(), s.URL+"/robots.txt")
	require.NoError(t, err)
	assert.Equal(t, Conditional, res.Policy)
	assert.True(t, res.Truncated)
	assert.Less(t, time.Since(start), 2*time.Second)
	s.Close() // waits for the handler to stop
	assert.Less(t, written.Load(), int64(32<<20), "the server stopped long before the end")
}

// gzipBomb returns a gzip stream that decompresses to a rule, then members
// of 1 MiB of zeros each, then a rule that comes too late.
func gzipBomb(t *testing.T, members int) []byte {
	member := func(data []byte) []byte {
		var b bytes.Buffer
		zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
		require.NoError(t, err)
		_, _ = zw.Write(data)
		require.NoError(t, zw.Close())
		return b.Bytes()
	}
	var out bytes.Buffer
	out.Write(member([]byte("User-agent: *\nDisallow: /early\n")))
	zeros := member(make([]byte, 1<<20))
	for range members {
		out.Write(zeros)
	}
	out.Write(member([]byte("\nDisallow: /late\n")))
	return out.Bytes()
}

func TestFetchGzipBombIsReadBounded(t *testing.T) {
	bomb := gzipBomb(t, 1024) // 1 GiB decompressed
	require.Less(t, len(bomb), 2<<20)
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(bomb)
	})
	for name, configure := range map[string]func(*http.Transport){
		"transport decompresses": func(*http.Transport) {},
		"fetcher decompresses":   func(tr *http.Transport) { tr.DisableCompression = true },
	} {
		var read atomic.Int64
		f := &Fetcher{Client: clientTo(t, s.Listener.Addr().String(), &read, configure), Timeout: 5 * time.Second}
		start := time.Now()
		res, err := f.Fetch(t.Context(), s.URL+"/robots.txt")
		require.NoError(t, err, name)
		assert.Equal(t, Conditional, res.Policy, name)
		assert.Equal(t, robots.MaxBytes, res.Bytes, name)
		assert.True(t, res.Truncated, name)
		assert.False(t, res.Agent().Allowed("/early"), name)
		assert.True(t, res.Agent().Allowed("/late"), name)
		assert.Less(t, read.Load(), int64(256<<10), "%s: compressed bytes read are bounded", name)
		assert.Less(t, time.Since(start), 3*time.Second, name)
	}
}

func TestFetchGzipBody(t *testing.T) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, _ = zw.Write([]byte(rules))
	require.NoError(t, zw.Close())
	for _, disable := range []bool{false, true} {
		s := serve(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(b.Bytes())
		})
		client := clientTo(t, s.Listener.Addr().String(), nil, func(tr *http.Transport) { tr.DisableCompression = disable })
		res, err := (&Fetcher{Client: client}).Fetch(t.Context(), s.URL+"/robots.txt")
		require.NoError(t, err)
		assert.Equal(t, Conditional, res.Policy)
		assert.Equal(t, len(rules), res.Bytes)
		assert.False(t, res.Agent().Allowed("/private/"))
	}
	// A body that claims gzip but is not: no usable response.
	s := serve(t, text(200, "User-agent: *\n", "Content-Encoding", "gzip"))
	client := clientTo(t, s.Listener.Addr().String(), nil, func(tr *http.Transport) { tr.DisableCompression = true })
	res, err := (&Fetcher{Client: client}).Fetch(t.Context(), s.URL+"/robots.txt")
	require.NoError(t, err)
	assert.Equal(t, FullDisallow, res.Policy)
	assert.Equal(t, ReasonNetwork, res.Reason)
}

// assertNetworkFailure checks a fetch of base+"/robots.txt" ends quickly
// as a network failure.
func assertNetworkFailure(t *testing.T, f *Fetcher, base string) *Result {
	t.Helper()
	start := time.Now()
	res, err := f.Fetch(t.Context(), base+"/robots.txt")
	require.NoError(t, err)
	assert.Equal(t, FullDisallow, res.Policy)
	assert.Equal(t, ReasonNetwork, res.Reason)
	assert.Error(t, res.Err)
	assert.Nil(t, res.Robots)
	assert.Equal(t, DefaultRetry, res.Lifetime(), "retried as a 5xx")
	assert.False(t, res.Agent("Googlebot").Allowed("/"))
	assert.Less(t, time.Since(start), 2*time.Second)
	return res
}

func faultFetcher(t *testing.T) *Fetcher {
	return &Fetcher{Client: testClient(t), Timeout: faultTimeout}
}

func TestFetchSlowHeadersTimeOut(t *testing.T) {
	base := rawServer(t, func(c net.Conn, done <-chan struct{}) {
		sleep(5*time.Second, done) // never answers in time
	})
	res := assertNetworkFailure(t, faultFetcher(t), base)
	assert.Zero(t, res.Status)
	assert.ErrorIs(t, res.Err, context.DeadlineExceeded)
}

func TestFetchSlowBodyTimesOut(t *testing.T) {
	base := rawServer(t, func(c net.Conn, done <-chan struct{}) {
		_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\nUser-agent: *\n")
		for range 100 { // one byte every 50 ms: 5 s at most
			if !sleep(50*time.Millisecond, done) {
				return
			}
			if _, err := io.WriteString(c, "#"); err != nil {
				return
			}
		}
	})
	res := assertNetworkFailure(t, faultFetcher(t), base)
	assert.Equal(t, 200, res.Status)
}

func TestFetchConnectionResetMidBody(t *testing.T) {
	base := rawServer(t, func(c net.Conn, done <-chan struct{}) {
		_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\nUser-agent: *\nAllow: /\n")
		sleep(50*time.Millisecond, done)
		_ = c.(*net.TCPConn).SetLinger(0) // close sends RST
	})
	res := assertNetworkFailure(t, faultFetcher(t), base)
	assert.Equal(t, 200, res.Status)
}

// The same reset, through an httptest server and a hijacked connection.
func TestFetchHijackedResetMidBody(t *testing.T) {
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		c, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer c.Close()
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 50000\r\n\r\nUser-agent: *\nAllow: /\n")
		_ = buf.Flush()
		time.Sleep(50 * time.Millisecond)
		_ = c.(*net.TCPConn).SetLinger(0)
	})
	assertNetworkFailure(t, faultFetcher(t), s.URL)
}

func TestFetchTruncatedChunkedBody(t *testing.T) {
	for name, stream := range map[string]string{
		"cut mid-chunk":   "40\r\nUser-agent: *\nAllow: /\n",
		"no last chunk":   "e\r\nUser-agent: *\n\r\n",
		"bad chunk size":  "zz\r\nUser-agent: *\n\r\n0\r\n\r\n",
		"chunk too short": "20\r\nUser-agent: *\n\r\n0\r\n\r\n",
	} {
		s := serve(t, func(w http.ResponseWriter, r *http.Request) {
			c, buf, err := w.(http.Hijacker).Hijack()
			if err != nil {
				return
			}
			defer c.Close()
			_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n" + stream)
			_ = buf.Flush()
		})
		t.Run(name, func(t *testing.T) { assertNetworkFailure(t, faultFetcher(t), s.URL) })
	}
}

func TestFetchShortContentLength(t *testing.T) {
	base := rawServer(t, func(c net.Conn, done <-chan struct{}) {
		_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\nUser-agent: *\nAllow: /\n")
	})
	assertNetworkFailure(t, faultFetcher(t), base)
}

func TestFetchInvalidResponse(t *testing.T) {
	for name, reply := range map[string]string{
		"not HTTP":     "SSH-2.0-OpenSSH_9.6\r\n",
		"bad status":   "HTTP/1.1 abc OK\r\n\r\n",
		"status 999":   "HTTP/1.1 999 Odd\r\nContent-Length: 0\r\n\r\n",
		"empty":        "",
		"bad header":   "HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
		"only headers": "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n",
	} {
		base := rawServer(t, func(c net.Conn, done <-chan struct{}) { _, _ = io.WriteString(c, reply) })
		t.Run(name, func(t *testing.T) { assertNetworkFailure(t, faultFetcher(t), base) })
	}
}

// A status outside 200-599 is the root package's ErrBadStatus, whichever
// package's name errors.Is is given.
func TestFetchBadStatusIsRobotsErrBadStatus(t *testing.T) {
	base := rawServer(t, func(c net.Conn, done <-chan struct{}) {
		_, _ = io.WriteString(c, "HTTP/1.1 999 Odd\r\nContent-Length: 0\r\n\r\n")
	})
	res := assertNetworkFailure(t, faultFetcher(t), base)
	assert.ErrorIs(t, res.Err, robots.ErrBadStatus)
	assert.ErrorIs(t, res.Err, ErrBadStatus)
	assert.ErrorContains(t, res.Err, "999")
}

func TestFetchConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	res := assertNetworkFailure(t, faultFetcher(t), "http://"+addr)
	assert.Zero(t, res.Status)
}

// A DNS failure, injected at the dialer: the test resolves nothing.
func TestFetchDNSFailure(t *testing.T) {
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: "nowhere.test", IsNotFound: true}}
	}}
	f := &Fetcher{Client: &http.Client{Transport: tr}, Timeout: faultTimeout}
	res := assertNetworkFailure(t, f, "http://nowhere.test")
	var dnsErr *net.DNSError
	assert.True(t, errors.As(res.Err, &dnsErr))
}

func TestFetchCallerCancellationIsAnError(t *testing.T) {
	base := rawServer(t, func(c net.Conn, done <-chan struct{}) { sleep(5*time.Second, done) })
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	res, err := (&Fetcher{Client: testClient(t), Timeout: 2 * time.Second}).Fetch(ctx, base+"/robots.txt")
	assert.Nil(t, res)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestFetchUnsupportedURL(t *testing.T) {
	for _, u := range []string{"ftp://example.com/robots.txt", "/robots.txt", "mailto:x@example.com", "http:///robots.txt", "%"} {
		res, err := (&Fetcher{}).Fetch(t.Context(), u)
		assert.Nil(t, res)
		assert.ErrorIs(t, err, ErrUnsupportedURL, u)
	}
}

func TestFetchSendsUserAgent(t *testing.T) {
	got := make(chan string, 1)
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		got <- r.UserAgent()
		text(200, rules)(w, r)
	})
	f := fetcher(t, nil)
	f.UserAgent = "ExampleBot/1.0 (+https://example.com/bot)"
	_, err := f.Fetch(t.Context(), s.URL+"/robots.txt")
	require.NoError(t, err)
	assert.Equal(t, f.UserAgent, <-got)
}

func TestFetchParseOptions(t *testing.T) {
	s := serve(t, text(200, "User-agent: *\nDisallow: /%62%61%7A\n"))
	f := fetcher(t, nil)
	res, err := f.Fetch(t.Context(), s.URL+"/robots.txt")
	require.NoError(t, err)
	assert.True(t, res.Agent().Allowed("/baz"))
	f.ParseOptions = []robots.Option{robots.WithMode(robots.RFC)}
	res, err = f.Fetch(t.Context(), s.URL+"/robots.txt")
	require.NoError(t, err)
	assert.False(t, res.Agent().Allowed("/baz"))
}

// A fetched file's automata get DefaultCacheAutomatonBudget, smaller than
// package robots' default, unless ParseOptions set another budget.
func TestFetchAutomatonBudget(t *testing.T) {
	s := serve(t, text(200, rules))
	f := fetcher(t, nil)
	res, err := f.Fetch(t.Context(), s.URL+"/robots.txt")
	require.NoError(t, err)
	assert.Equal(t, 64<<10, DefaultCacheAutomatonBudget)
	assert.Less(t, DefaultCacheAutomatonBudget, robots.DefaultAutomatonBudget)
	assert.Equal(t, DefaultCacheAutomatonBudget, res.Agent("FooBot").Robots().Stats().Budget)
	f.ParseOptions = []robots.Option{robots.WithAutomatonBudget(1 << 20)}
	res, err = f.Fetch(t.Context(), s.URL+"/robots.txt")
	require.NoError(t, err)
	assert.Equal(t, 1<<20, res.Agent("FooBot").Robots().Stats().Budget)
}

func TestFetchMaxAgeSetsLifetime(t *testing.T) {
	clock := newFakeClock()
	cases := []struct {
		cc   []string
		want time.Duration
	}{
		{nil, 24 * time.Hour},
		{[]string{"max-age=0"}, DefaultMinLifetime},
		{[]string{"max-age=30"}, DefaultMinLifetime},
		{[]string{"max-age=3600"}, time.Hour},
		{[]string{"public, max-age=7200"}, 2 * time.Hour},
		{[]string{`max-age="600"`}, 10 * time.Minute},
		{[]string{"MAX-AGE=600"}, 10 * time.Minute},
		{[]string{"max-age=600, max-age=60"}, 10 * time.Minute},
		{[]string{"max-age=31536000"}, 24 * time.Hour},
		{[]string{"max-age=99999999999999999999999"}, 24 * time.Hour},
		{[]string{"max-age=abc"}, 24 * time.Hour},
		{[]string{"max-age=-5"}, 24 * time.Hour},
		{[]string{"max-age="}, 24 * time.Hour},
		{[]string{"max-age=1.5"}, 24 * time.Hour},
		{[]string{"no-store"}, DefaultMinLifetime},
		{[]string{"no-cache"}, DefaultMinLifetime},
		{[]string{"max-age=3600, no-cache"}, DefaultMinLifetime},
		{[]string{`no-cache="Set-Cookie", max-age=3600`}, time.Hour},
		{[]string{`private="a,max-age=5", max-age=3600`}, time.Hour},
		{[]string{"public", "max-age=300"}, 5 * time.Minute},
	}
	for _, c := range cases {
		var header []string
		for _, v := range c.cc {
			header = append(header, "Cache-Control", v)
		}
		s := serve(t, text(200, rules, header...))
		res, err := fetcher(t, clock).Fetch(t.Context(), s.URL+"/robots.txt")
		require.NoError(t, err)
		assert.Equal(t, c.want, res.Lifetime(), "%q", c.cc)
		assert.Equal(t, clock.Now().Add(c.want), res.Expires)
	}
	// A 4xx is cached by the same rules.
	s := serve(t, text(404, "", "Cache-Control", "max-age=600"))
	res, err := fetcher(t, clock).Fetch(t.Context(), s.URL+"/robots.txt")
	require.NoError(t, err)
	assert.Equal(t, 10*time.Minute, res.Lifetime())
}

func TestFreshnessBounds(t *testing.T) {
	f := Freshness{Lifetime: 2 * time.Hour, MinLifetime: 5 * time.Minute, MaxLifetime: 6 * time.Hour}
	h := func(v string) http.Header { return http.Header{"Cache-Control": {v}} }
	assert.Equal(t, 2*time.Hour, f.LifetimeOf(nil))
	assert.Equal(t, 5*time.Minute, f.LifetimeOf(h("max-age=1")))
	assert.Equal(t, 6*time.Hour, f.LifetimeOf(h("max-age=86400")))
	assert.Equal(t, 3*time.Hour, f.LifetimeOf(h("max-age=10800")))
	assert.Equal(t, 5*time.Minute, f.LifetimeOf(h("no-store")))

	var d Freshness
	assert.Equal(t, 10*time.Minute, d.RetryAfter(500, 0, 1))
	assert.Equal(t, 20*time.Minute, d.RetryAfter(500, 0, 2))
	assert.Equal(t, 80*time.Minute, d.RetryAfter(0, 0, 4))
	assert.Equal(t, 2*time.Hour, d.RetryAfter(500, 0, 50), "backoff is capped")
	assert.Equal(t, time.Minute, d.RetryAfter(503, 0, 1))
	assert.Equal(t, 4*time.Minute, d.RetryAfter(503, 0, 3))
	assert.Equal(t, 7*time.Minute, d.RetryAfter(503, 7*time.Minute, 9), "Retry-After replaces the backoff")
}

// The fetcher's policy for a last response is robots.StatusPolicy's: one
// table for both packages. A 3xx reaches the table when it is not
// followed (a 304, or no Location).
func TestFetchAppliesTheSharedStatusTable(t *testing.T) {
	for _, code := range []int{200, 204, 299, 300, 301, 304, 308, 399, 400, 404, 429, 451, 499, 500, 503, 599} {
		s := serve(t, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(code) // no Location: a 3xx leads nowhere
		})
		res, err := fetcher(t, nil).Fetch(t.Context(), s.URL+"/robots.txt")
		require.NoError(t, err)
		policy, reason := robots.StatusPolicy(code)
		assert.Equal(t, policy, res.Policy, code)
		assert.Equal(t, reason, res.Reason, code)
		assert.Equal(t, code, res.Status)
	}
}
