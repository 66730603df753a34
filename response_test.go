package robots_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
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

// statusServer serves statusBody with the status named by the request's
// path ("/404" answers 404).
func statusServer(t *testing.T) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var code int
		if _, err := fmt.Sscanf(r.URL.Path, "/%d", &code); err != nil {
			http.Error(w, "bad path", http.StatusBadRequest)
			return
		}
		w.Header().Set("Location", "/200") // for the 3xx
		w.WriteHeader(code)
		_, _ = io.WriteString(w, statusBody)
	}))
	t.Cleanup(s.Close)
	return s
}

// noRedirects returns a client that hands 3xx responses back, as a crawler
// that follows redirects itself does.
func noRedirects(t *testing.T) *http.Client {
	t.Helper()
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
}

// trackedBody counts what is read from a body and whether it was closed.
type trackedBody struct {
	io.ReadCloser
	read   int
	closed bool
}

func (b *trackedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read += n
	return n, err
}

func (b *trackedBody) Close() error { b.closed = true; return b.ReadCloser.Close() }

// get fetches u and hands the response to FromResponse through a body
// that tracks reads; the test closes the body, as a caller must.
func get(t *testing.T, c *http.Client, u string, header http.Header, opts ...robots.Option) (*robots.Robots, *trackedBody, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, u, nil)
	require.NoError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	require.NoError(t, err)
	body := &trackedBody{ReadCloser: resp.Body}
	resp.Body = body
	r, ferr := robots.FromResponse(resp, opts...)
	require.NotNil(t, r)
	assert.False(t, body.closed, "FromResponse does not close the body it does not own")
	require.NoError(t, resp.Body.Close())
	return r, body, ferr
}

func TestFromResponseAppliesTheTable(t *testing.T) {
	s := statusServer(t)
	c := noRedirects(t)
	for _, row := range statusRows {
		for _, code := range row.codes {
			if code < 200 || code > 599 {
				continue // not sent by a server here; see TestFromResponseInvalidStatus
			}
			r, body, err := get(t, c, fmt.Sprintf("%s/%d", s.URL, code), nil)
			name := fmt.Sprint(code)
			require.NoError(t, err, name)
			assert.Equal(t, row.policy, r.Policy(), name)
			assert.Equal(t, row.reason, r.Reason(), name)
			if code == http.StatusNoContent {
				assert.True(t, r.Allowed("x", "/private"), "a 204 has no body: an empty file allows all")
				continue
			}
			checkPolicy(t, r, name)
			if row.policy != robots.Conditional {
				assert.Zero(t, body.read, "%s: the body of a %d is not read", name, code)
			}
		}
	}
}

// A client that follows the redirect hands over the final 2xx: its rules.
func TestFromResponseAfterFollowedRedirect(t *testing.T) {
	s := statusServer(t)
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	r, _, err := get(t, &http.Client{Transport: tr}, s.URL+"/301", nil)
	require.NoError(t, err)
	assert.Equal(t, robots.Conditional, r.Policy())
	assert.False(t, r.Allowed("ExampleBot", "/private"))
}

// A status outside 200-599 (here 600, which net/http passes on) is an
// invalid response: a network failure.
func TestFromResponseInvalidStatus(t *testing.T) {
	s := statusServer(t)
	r, body, err := get(t, noRedirects(t), s.URL+"/600", nil)
	assert.ErrorIs(t, err, robots.ErrBadStatus)
	assert.Equal(t, robots.FullDisallow, r.Policy())
	assert.Equal(t, robots.ReasonNetwork, r.Reason())
	assert.Zero(t, body.read)

	r, err = robots.FromResponse(nil)
	assert.ErrorIs(t, err, robots.ErrNoResponse)
	assert.Equal(t, robots.FullDisallow, r.Policy())
	assert.Equal(t, robots.ReasonNetwork, r.Reason())
	assert.False(t, r.Allowed("x", "/"))
}

func TestFromResponseReadsAtMostTheLimit(t *testing.T) {
	const limit = 1000
	// The rule that would disallow /late stands past the limit.
	long := "User-agent: *\nDisallow: /early\n" + strings.Repeat("#", 2*limit) + "\nDisallow: /late\n"
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, long)
	}))
	t.Cleanup(s.Close)
	c := noRedirects(t)

	r, body, err := get(t, c, s.URL, nil, robots.WithMaxBytes(limit))
	require.NoError(t, err)
	assert.Equal(t, limit+1, body.read, "the limit and one byte to learn there is more")
	assert.True(t, r.Truncated())
	assert.Equal(t, limit, r.BodyBytes())
	assert.False(t, r.Allowed("x", "/early"))
	assert.True(t, r.Allowed("x", "/late"), "the tail is not parsed")

	r, body, err = get(t, c, s.URL, nil, robots.WithMaxBytes(len(long)))
	require.NoError(t, err)
	assert.Equal(t, len(long), body.read, "a body of exactly the limit is read whole")
	assert.False(t, r.Truncated())
	assert.False(t, r.Allowed("x", "/late"))

	r, _, err = get(t, c, s.URL, nil, robots.WithMaxBytes(-1))
	require.NoError(t, err)
	assert.False(t, r.Truncated(), "a negative limit reads it all")
	assert.Equal(t, len(long), r.BodyBytes())
}

// The default limit is MaxBytes: an endless body is read to it and no
// further.
func TestFromResponseDefaultLimit(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		line := []byte("Disallow: /x\n")
		for i := 0; i < 2*robots.MaxBytes/len(line); i++ {
			if _, err := w.Write(line); err != nil {
				return
			}
		}
	}))
	t.Cleanup(s.Close)
	r, body, err := get(t, noRedirects(t), s.URL, nil)
	require.NoError(t, err)
	assert.Equal(t, robots.MaxBytes+1, body.read)
	assert.Equal(t, robots.MaxBytes, r.BodyBytes())
	assert.True(t, r.Truncated())
}

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := io.WriteString(zw, s)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

func TestFromResponseGzip(t *testing.T) {
	bomb := "User-agent: *\nDisallow: /early\n" + strings.Repeat("\n", 8<<20) + "Disallow: /late\n"
	bodies := map[string][]byte{
		"/rules": gzipped(t, statusBody),
		"/bomb":  gzipped(t, bomb),
		"/bad":   []byte("this is not gzip"),
		"/cut":   gzipped(t, statusBody)[:20],
	}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(bodies[r.URL.Path])
	}))
	t.Cleanup(s.Close)
	c := noRedirects(t)
	asksGzip := http.Header{"Accept-Encoding": {"gzip"}}

	// The transport decompresses when it asked for gzip itself.
	r, _, err := get(t, c, s.URL+"/rules", nil)
	require.NoError(t, err)
	assert.False(t, r.Allowed("x", "/private"))

	// It leaves the body compressed when the request asked: FromResponse
	// decompresses.
	r, _, err = get(t, c, s.URL+"/rules", asksGzip)
	require.NoError(t, err)
	assert.False(t, r.Allowed("x", "/private"))
	assert.Equal(t, len(statusBody), r.BodyBytes())

	// The limit counts decompressed bytes: 8 MiB of newlines from an
	// 8 KiB body are read to the limit only.
	r, body, err := get(t, c, s.URL+"/bomb", asksGzip)
	require.NoError(t, err)
	assert.True(t, r.Truncated())
	assert.Equal(t, robots.MaxBytes, r.BodyBytes())
	assert.Less(t, body.read, len(bodies["/bomb"]), "the compressed body is not read to its end")
	assert.False(t, r.Allowed("x", "/early"))
	assert.True(t, r.Allowed("x", "/late"))

	// A body that claims gzip and is not, or is cut short, is incomplete
	// data: a network failure.
	for _, path := range []string{"/bad", "/cut"} {
		r, _, err = get(t, c, s.URL+path, asksGzip)
		assert.Error(t, err, path)
		assert.Equal(t, robots.FullDisallow, r.Policy(), path)
		assert.Equal(t, robots.ReasonNetwork, r.Reason(), path)
	}
}

// A body that fails mid-way (the server promises 1000 bytes and hangs up
// after 40) is incomplete data: a network failure, FullDisallow, whatever
// the part that came says.
func TestFromResponseBodyErrorIsNetworkFailure(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	var served atomic.Int32
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
			if _, err := http.ReadRequest(bufio.NewReader(conn)); err == nil {
				_, _ = io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\nAllow: /\n# and then\n")
				served.Add(1)
			}
			conn.Close()
		}
	}()
	r, _, ferr := get(t, noRedirects(t), "http://"+ln.Addr().String()+"/robots.txt", nil)
	assert.ErrorIs(t, ferr, io.ErrUnexpectedEOF)
	assert.Equal(t, robots.FullDisallow, r.Policy())
	assert.Equal(t, robots.ReasonNetwork, r.Reason())
	assert.False(t, r.Allowed("x", "/"))
	assert.Equal(t, int32(1), served.Load())
}

// The Content-Length a server claims sizes no buffer beyond the limit: with
// no limit, a claim of 4 EiB over a short body reads the body, nothing more.
func TestFromResponseDoesNotTrustContentLength(t *testing.T) {
	const body = "User-agent: *\nDisallow: /x\n"
	resp := &http.Response{
		StatusCode:    200,
		ContentLength: 1 << 62,
		Header:        http.Header{},
		Body:          io.NopCloser(strings.NewReader(body)),
	}
	r, err := robots.FromResponse(resp, robots.WithMaxBytes(-1))
	require.NoError(t, err)
	assert.Equal(t, len(body), r.BodyBytes())
	assert.False(t, r.Allowed("x", "/x"))
}
