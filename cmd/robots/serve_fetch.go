package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
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
	// a conditional policy; empty otherwise.
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

// bodyRecord keeps a copy of the bytes read of the latest response body,
// up to maxInputBytes and one byte more: the body the fetcher parsed,
// since every response before the last was a redirect whose body it did
// not read. The bytes are those the fetcher read: the transport asks for
// gzip and decompresses it (guardedTransport leaves compression on).
type bodyRecord struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// reset starts the copy of a new response.
func (b *bodyRecord) reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Reset()
}

// Write copies p, up to the limit.
func (b *bodyRecord) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	room := max(maxInputBytes+1-b.buf.Len(), 0)
	b.buf.Write(p[:min(len(p), room)])
	return len(p), nil
}

// bytes returns a copy of the body recorded.
func (b *bodyRecord) bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
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
	rec.reset()
	resp.Body = teeReadCloser{Reader: io.TeeReader(resp.Body, rec), Closer: resp.Body}
	return resp, nil
}

// teeReadCloser reads through a TeeReader and closes the body it reads.
type teeReadCloser struct {
	io.Reader
	io.Closer
}
