package serve

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/api"
)

// decodeJSON reads the body of r, a JSON object, into dst: at most
// api.MaxRequestBytes, no field dst lacks, no key twice, nothing after the
// object. The body is read whole first, so that the duplicate keys
// encoding/json lets through can be looked for in it. It returns the
// number of bytes read.
func decodeJSON(w http.ResponseWriter, r *http.Request, dst any) (int, *api.Error) {
	if err := checkJSONContentType(r.Header.Get("Content-Type")); err != nil {
		return 0, err
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, api.MaxRequestBytes))
	if err != nil {
		return len(body), api.JSONError(err)
	}
	return len(body), api.DecodeBody(body, dst)
}

// Limits of the reading of a body over api.MaxRequestBytes, once it is
// refused. A client that sends its whole body before it reads the answer
// (most simple clients do) would get a connection reset instead of the
// 413 if the server closed with the rest unread: the kernel resets a
// connection closed with data still to read, and the reset destroys the
// answer the client had not read yet. So the server reads on and throws
// away what follows, up to a bound, and closes once the client is done.
const (
	// maxDrainBytes bounds what is read and thrown away of a refused
	// body: 32 MiB lets a naive client of a large upload read its 413,
	// and costs the server time on the wire, not memory (it is read
	// into a small buffer). A body declared larger is not read at all.
	maxDrainBytes = 32 << 20
	// drainTimeout bounds the time the server reads a refused body.
	drainTimeout = 10 * time.Second
)

// maxBodyMemory bounds the request bodies the server holds at once, read
// or being read: a connection sending a body slowly holds what it has
// sent, up to api.MaxRequestBytes, for readTimeout, and connections are many
// (maxConnections). 256 MiB is 256 bodies of the largest size, what the
// server held at most when it served 256 connections at a time; a body
// declares its size (Content-Length) and takes that much of the bound, a
// chunked one api.MaxRequestBytes. A request that finds too little left is
// answered 503 with Retry-After at once, before its body is read.
const maxBodyMemory = 256 << 20

// bodyBudget counts the bytes of request bodies held at once.
type bodyBudget struct {
	mu        sync.Mutex
	used, max int64
}

// take takes n bytes of the budget, or reports that there are not as
// many left.
func (b *bodyBudget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.max {
		return false
	}
	b.used += n
	return true
}

// give gives back n bytes taken.
func (b *bodyBudget) give(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
}

// bodySize returns what the body of r takes of the budget: its declared
// size, or api.MaxRequestBytes when it does not declare one.
func bodySize(r *http.Request) int64 {
	if r.ContentLength >= 0 {
		return min(r.ContentLength, api.MaxRequestBytes)
	}
	return api.MaxRequestBytes
}

// errBodiesBusy is the answer to a request whose body finds the budget
// spent.
var errBodiesBusy = &api.Error{Status: http.StatusServiceUnavailable,
	Msg: "the server is reading too many request bodies: retry after " + strconv.Itoa(retryAfterSeconds) + " s"}

// errBodyTooLarge is the answer to a body over api.MaxRequestBytes.
var errBodyTooLarge = api.JSONError(&http.MaxBytesError{Limit: api.MaxRequestBytes})

// refuseBody answers err, a 413 for a body over api.MaxRequestBytes, and
// closes the connection cleanly: it reads and throws away the rest of
// the body, up to maxDrainBytes and for s.drainTimeout at most, so that a
// client still sending reads the answer rather than a reset. A client
// that waits for "100 Continue" before sending gets the answer in place
// of it, and sends nothing: there is nothing to read.
func (s *server) refuseBody(w http.ResponseWriter, r *http.Request, err *api.Error) {
	rc := http.NewResponseController(w)
	// Read the body after the answer is written; by default the server
	// gives up on a large unread body once the answer starts.
	_ = rc.EnableFullDuplex()
	var b bytes.Buffer
	_ = api.NewJSONEncoder(&b).Encode(requestErrorJSON{err.Msg})
	h := w.Header()
	h.Set("Connection", "close")
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(err.Status)
	_, _ = w.Write(b.Bytes())
	_ = rc.Flush()
	if r.ContentLength > maxDrainBytes || strings.EqualFold(r.Header.Get("Expect"), "100-continue") {
		return
	}
	_ = rc.SetReadDeadline(time.Now().Add(s.drainTimeout))
	_, _ = io.CopyN(io.Discard, r.Body, maxDrainBytes)
}

// checkJSONContentType refuses a body that is not declared JSON. A page
// of another site can post a form or text/plain to the server without the
// browser asking the server first; it cannot post JSON so.
func checkJSONContentType(ct string) *api.Error {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return &api.Error{Status: http.StatusUnsupportedMediaType, Msg: "the request body must be JSON, sent with Content-Type: application/json"}
	}
	return nil
}

// robotsURLOf returns the URL of the robots.txt that governs pageURL, or
// why it cannot be fetched.
func robotsURLOf(pageURL string) (string, *api.Error) {
	if err := api.CheckFetchURL(pageURL); err != nil {
		return "", api.BadRequest("%s", api.ShortenEcho(err.Error(), pageURL))
	}
	u, err := robots.URLFor(pageURL)
	if err != nil {
		return "", api.BadRequest("%s", api.ShortenEcho(err.Error(), pageURL))
	}
	return u, nil
}
