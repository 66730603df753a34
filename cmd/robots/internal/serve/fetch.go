package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/fetch"
	"github.com/fastrobots/robots/internal/gzipbody"
)

// fetchRobots fetches the robots.txt at robotsURL as robots fetch does,
// for the crawler agents, read in mode. A connection the guard refused is
// a 403, the request's deadline a 503, and so is a body the memory bound
// has no room for (fetchMemory); any other failure is the fetch's answer
// (a full disallow, as Google's crawler reads it). The bytes the fetch
// holds are taken from s.bodies as they come, and counted in *held, which
// the caller gives back once it no longer holds them.
func (s *server) fetchRobots(ctx context.Context, robotsURL string, agents []string, mode robots.Mode, held *int64) (*api.Fetched, *api.Error) {
	f := &fetch.Fetcher{
		Client:       s.client,
		Timeout:      s.fetchTimeout,
		UserAgent:    api.DefaultUserAgent(agents),
		ParseOptions: api.ParseOptions(mode),
	}
	rec := &bodyRecord{budget: s.bodies}
	defer func() { *held += rec.taken }()
	if !rec.reserve(0) {
		return nil, errFetchesBusy
	}
	res, err := f.Fetch(context.WithValue(ctx, bodyRecordKey{}, rec), robotsURL)
	if err != nil {
		return nil, api.DeadlineOr(ctx, api.BadRequest("%v", err))
	}
	if errors.Is(res.Err, errFetchMemory) {
		return nil, errFetchesBusy
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

// Every byte a fetch brings in is held in the same bound as request
// bodies (maxBodyMemory): a robots.txt sent slowly holds what it has sent
// for up to fetchTimeout, and fetches run before a request is admitted,
// so a crowd of them would otherwise hold memory without bound. A fetch
// takes its share of the bound before each read of the body, for the
// bytes that read may bring (the fetcher has made room for them already),
// and keeps it until its request is answered; one that finds too little
// left stops, and its request is answered 503 with Retry-After.
const (
	// fetchHeldPerByte is what the server holds for each byte of a body
	// fetched: the fetcher's buffer, grown by doubling, with the one it
	// outgrew until it is collected, the copy kept for the answer, and the
	// parsed file (TestServeFetchMemory measures it).
	fetchHeldPerByte = 4
	// fetchBaseBytes is what a fetch holds besides its body: the
	// transport's buffers, a gzip reader, the parse's fixed part.
	fetchBaseBytes = 64 << 10
)

// errFetchMemory ends a fetch whose body finds the bound spent; the
// fetcher reports it as the fetch's failure.
var errFetchMemory = errors.New("robots serve: no room to hold the body fetched")

// errFetchesBusy is the answer to a request whose fetch found the bound
// spent.
var errFetchesBusy = &api.Error{Status: http.StatusServiceUnavailable,
	Msg: "the server holds too many fetched robots.txt bodies: retry after " + strconv.Itoa(retryAfterSeconds) + " s"}

// bodyRecordKey is the context key of the *bodyRecord a fetch's responses
// are copied to.
type bodyRecordKey struct{}

// bodyRecord keeps a copy of the bytes read of the latest response body,
// up to cli.MaxInputBytes and one byte more: the body the fetcher parsed,
// since every response before the last was a redirect whose body it did
// not read. The bytes are those the fetcher read: the transport asks for
// gzip and decompresses it (guardedTransport leaves compression on). It
// takes what the fetch holds from budget, taken bytes in all.
type bodyRecord struct {
	budget *bodyBudget

	mu    sync.Mutex
	buf   []byte
	taken int64
}

// reserve takes from the budget what the fetch holds once it has read n
// bytes of a body (at most cli.MaxInputBytes+1: the fetcher reads no more),
// beyond what it took already; false when the budget has no room.
func (b *bodyRecord) reserve(n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	want := int64(fetchBaseBytes) + int64(fetchHeldPerByte)*int64(min(max(n, 0), cli.MaxInputBytes+1))
	if want <= b.taken {
		return true
	}
	if !b.budget.take(want - b.taken) {
		return false
	}
	b.taken = want
	return true
}

// reset starts the copy of a new response.
func (b *bodyRecord) reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = b.buf[:0]
}

// write copies p, up to the limit.
func (b *bodyRecord) write(p []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	room := max(cli.MaxInputBytes+1-len(b.buf), 0)
	b.buf = append(b.buf, p[:min(len(p), room)]...)
}

// bytes returns the body recorded. The fetch is over: nothing writes to
// it again.
func (b *bodyRecord) bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf
}

// recordingTransport sends requests through next; when a request's
// context holds a *bodyRecord, the bytes read of the response body are
// copied to it, each read taking its room in the record's budget first.
type recordingTransport struct{ next http.RoundTripper }

func (t recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	rec, _ := req.Context().Value(bodyRecordKey{}).(*bodyRecord)
	if err != nil || rec == nil {
		return resp, err
	}
	rec.reset()
	// What the fetcher allocates before its first read: the length
	// declared, when within the limit; a body it decompresses itself may
	// grow to the limit whatever its compressed reads are.
	declared := 0
	switch n := resp.ContentLength; {
	case gzipbody.Compressed(resp):
		declared = cli.MaxInputBytes + 1
	case n > 0 && n <= cli.MaxInputBytes:
		declared = int(n) + 1
	}
	if !rec.reserve(declared) {
		resp.Body.Close()
		return nil, errFetchMemory
	}
	resp.Body = &recordedBody{body: resp.Body, rec: rec}
	return resp, nil
}

// recordedBody is a response body whose reads take their room in rec's
// budget before they are made, and are copied to rec.
type recordedBody struct {
	body io.ReadCloser
	rec  *bodyRecord
	read int
}

func (r *recordedBody) Read(p []byte) (int, error) {
	if !r.rec.reserve(r.read + len(p)) {
		return 0, errFetchMemory
	}
	n, err := r.body.Read(p)
	r.read += n
	r.rec.write(p[:n])
	return n, err
}

func (r *recordedBody) Close() error { return r.body.Close() }
