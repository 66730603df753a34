package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/fetch"
)

// fetchRobots fetches the robots.txt at robotsURL as robots fetch does,
// for the crawler agents, read in mode. A connection the guard refused is
// a 403, the request's deadline a 503; any other failure is the fetch's
// answer (a full disallow, as Google's crawler reads it).
func (s *server) fetchRobots(ctx context.Context, robotsURL string, agents []string, mode robots.Mode) (*api.Fetched, *api.Error) {
	f := &fetch.Fetcher{
		Client:       s.client,
		Timeout:      s.fetchTimeout,
		UserAgent:    defaultUserAgent(agents),
		ParseOptions: []robots.Option{robots.WithMode(mode)},
	}
	rec := &bodyRecord{}
	res, err := f.Fetch(context.WithValue(ctx, bodyRecordKey{}, rec), robotsURL)
	if err != nil {
		return nil, api.DeadlineOr(ctx, api.BadRequest("%v", err))
	}
	if refused, ok := errors.AsType[*refusedError](res.Err); ok {
		where := robotsURL
		if res.FinalURL != robotsURL {
			where += fmt.Sprintf(", redirected to %s", res.FinalURL)
		}
		return nil, &api.Error{Status: http.StatusForbidden, Msg: where + ": " + refused.Error()}
	}
	out := &api.Fetched{Result: res}
	if res.Policy == fetch.Conditional {
		out.Body = rec.bytes()
	}
	return out, nil
}

// bodyRecordKey is the context key of the *bodyRecord a fetch's responses
// are copied to.
type bodyRecordKey struct{}

// bodyRecord keeps a copy of the bytes read of the latest response body,
// up to cli.MaxInputBytes and one byte more: the body the fetcher parsed,
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
	room := max(cli.MaxInputBytes+1-b.buf.Len(), 0)
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
