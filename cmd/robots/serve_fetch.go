package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/fetch"
)

// fetched is a robots.txt the server fetched: the fetcher's answer, and
// the body it parsed, which the fetcher does not keep and the tester shows
// in its editor and lints.
type fetched struct {
	result *fetch.Result
	// body is the body read, up to maxInputBytes and one byte more, under
	// a conditional policy; nil otherwise.
	body []byte
}

// fetchRobots fetches the robots.txt at robotsURL as robots fetch does,
// for the crawler agents, read in mode. A connection the guard refused is
// a 403, the request's deadline a 503; any other failure is the fetch's
// answer (a full disallow, as Google's crawler reads it).
func (s *server) fetchRobots(ctx context.Context, robotsURL string, agents []string, mode robots.Mode) (*fetched, *apiError) {
	f := &fetch.Fetcher{
		Client:       s.client,
		Timeout:      s.fetchTimeout,
		UserAgent:    defaultUserAgent(agents),
		ParseOptions: []robots.Option{robots.WithMode(mode)},
	}
	rec := &bodyRecord{}
	res, err := f.Fetch(context.WithValue(ctx, bodyRecordKey{}, rec), robotsURL)
	if err != nil {
		return nil, deadlineOr(ctx, badRequest("%v", err))
	}
	if refused, ok := errors.AsType[*refusedError](res.Err); ok {
		where := robotsURL
		if res.FinalURL != robotsURL {
			where += fmt.Sprintf(", redirected to %s", res.FinalURL)
		}
		return nil, &apiError{http.StatusForbidden, where + ": " + refused.Error()}
	}
	out := &fetched{result: res}
	if res.Policy == fetch.Conditional {
		out.body = rec.bytes()
	}
	return out, nil
}

// fetchDetailsJSON is what the server adds to fetch --json's fields about
// a fetched robots.txt.
type fetchDetailsJSON struct {
	FinalURL  string `json:"final_url"`
	Redirects int    `json:"redirects"`
	// CacheSeconds is how long the answer may be kept, in seconds: the
	// freshness lifetime of a definite answer, the retry delay of a
	// failure.
	CacheSeconds int64 `json:"cache_seconds"`
	Bytes        int   `json:"bytes"`
	Truncated    bool  `json:"truncated"`
}

// fetchInfoJSON is the robots.txt answer that applied to a request that
// named an origin.
type fetchInfoJSON struct {
	robotsTxtJSON
	fetchDetailsJSON
}

// robotsTxtOf returns fetch --json's fields about the answer r.
func robotsTxtOf(r *fetch.Result) *robotsTxtJSON {
	j := &robotsTxtJSON{RobotsTxt: r.URL, Status: r.Status, Policy: r.Policy.String(), Reason: r.Reason.String()}
	if r.Err != nil {
		j.FetchError = r.Err.Error()
	}
	return j
}

// detailsOf returns the details of the answer r.
func detailsOf(r *fetch.Result) fetchDetailsJSON {
	return fetchDetailsJSON{
		FinalURL: r.FinalURL, Redirects: r.Redirects,
		CacheSeconds: int64(r.Lifetime() / time.Second), Bytes: r.Bytes, Truncated: r.Truncated,
	}
}

// info returns the answer's JSON form.
func (f *fetched) info() *fetchInfoJSON {
	return &fetchInfoJSON{*robotsTxtOf(f.result), detailsOf(f.result)}
}

// bodyRecordKey is the context key of the *bodyRecord a fetch's responses
// are copied to.
type bodyRecordKey struct{}

// bodyRecord keeps a copy of the bytes read of the latest response
// body, up to maxInputBytes+1 after decompression: the body the fetcher
// parsed, since every response before the last was a redirect whose body
// it did not read.
type bodyRecord struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	gzipped bool // the body was read gzip-compressed, to be decompressed here
}

// reset starts the copy of a new response.
func (b *bodyRecord) reset(resp *http.Response) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Reset()
	b.gzipped = !resp.Uncompressed && strings.EqualFold(strings.TrimSpace(resp.Header.Get("Content-Encoding")), "gzip")
}

// Write copies p, up to maxRequestBytes in all: a gzip body past that
// decompresses to more than the fetcher read anyway.
func (b *bodyRecord) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := maxRequestBytes - b.buf.Len(); len(p) > room {
		b.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.buf.Write(p)
}

// bytes returns the body copied, decompressed when it was read
// compressed, up to maxInputBytes+1 bytes.
func (b *bodyRecord) bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.gzipped {
		return bytes.Clone(b.buf.Bytes()[:min(b.buf.Len(), maxInputBytes+1)])
	}
	gz, err := gzip.NewReader(bytes.NewReader(b.buf.Bytes()))
	if err != nil {
		return nil
	}
	out, _ := io.ReadAll(io.LimitReader(gz, maxInputBytes+1)) // a cut stream still gives what it held
	return out
}

// recordingTransport sends requests through next; when a request's
// context holds a *bodyRecord, the bytes read of the response body are
// copied to it.
type recordingTransport struct{ next http.RoundTripper }

func (t recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	rec, _ := req.Context().Value(bodyRecordKey{}).(*bodyRecord)
	if err != nil || rec == nil {
		return resp, err
	}
	rec.reset(resp)
	resp.Body = teeReadCloser{Reader: io.TeeReader(resp.Body, rec), Closer: resp.Body}
	return resp, nil
}

// teeReadCloser reads through a TeeReader and closes the body it reads.
type teeReadCloser struct {
	io.Reader
	io.Closer
}
