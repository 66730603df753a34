package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fastrobots/robots/fetch"
)

// DefaultHeaderTimeout bounds the wait for a response's headers, from
// the request's start: connecting, TLS, and the server's answer. A
// request past it fails: the input's first is an error row, a resume is
// tried again while surveyHTTPMaxResumes allows.
const DefaultHeaderTimeout = 30 * time.Second

// DefaultStallTimeout bounds the wait for the next byte of a body: a
// Read of the body that brings no byte for this long gives the
// connection up, and the body is resumed from the byte reached, as after a
// dropped connection. The time the survey itself takes between reads
// (its workers busy) does not count.
const DefaultStallTimeout = 30 * time.Second

// DefaultMaxResumes bounds how many times the bodies read for one
// http(s) input are resumed with a Range request after a connection is
// lost (an unexpected EOF, a reset, a stall), over every pass and re-read
// of the input. Past it the error is the input's: an error row where the
// source was reading.
const DefaultMaxResumes = 5

// surveyHTTPSuffixes are how the path of an http(s) INPUT may end: the
// inputs read as a stream, whose local form is a file.
var surveyHTTPSuffixes = []string{".warc", ".warc.gz", ".tar.gz", ".tgz"}

// HTTPConfig is the client and the limits the http(s) inputs are
// read with.
type HTTPConfig struct {
	Client        *http.Client
	UserAgent     string
	HeaderTimeout time.Duration
	StallTimeout  time.Duration
	MaxResumes    int
	// AllowPrivateRedirects lets a redirect to another host than the
	// input's connect to any address, through the proxy the environment
	// names (--allow-private-redirects).
	AllowPrivateRedirects bool
}

// HTTP reads every http(s) input of the process with one client,
// whose Transports keep connections alive between the requests of an
// input and across inputs. Tests shorten its bounds.
var HTTP = &HTTPConfig{
	Client:        newSurveyHTTPClient(),
	UserAgent:     surveyUserAgent(),
	HeaderTimeout: DefaultHeaderTimeout,
	StallTimeout:  DefaultStallTimeout,
	MaxResumes:    DefaultMaxResumes,
}

// An http(s) INPUT names a host the user chose to read, which may be on a
// private network (a bucket's endpoint, a mirror on the same rack): its
// requests connect wherever that name leads. A redirect is the server's
// choice, not the user's: one to another host is followed only to a
// public address, under the address guard package fetch puts on a
// crawler's connections (fetch.GuardTransport and fetch.PublicOnly),
// which judges the address dialled after name resolution, at every
// connection, so that no name, DNS answer or redirect chain reaches
// loopback, private, link-local (169.254.169.254, a cloud's metadata
// service) or other non-public addresses. The guarded connections use no
// proxy, which would connect for them where the guard cannot see.

// surveyTransport sends a request for the host and port of the input it
// reads (its surveyHop) through named, any other, where a redirect led,
// through guarded: the two keep their connections apart, so that no
// connection made for an input is reused for a redirect elsewhere.
type surveyTransport struct {
	named   http.RoundTripper
	guarded http.RoundTripper
}

// surveyHop is what a request's context says of the input it reads: its
// host and port (surveyAuthority), and whether a redirect elsewhere may
// reach any address.
type surveyHop struct {
	input        string
	allowPrivate bool
}

type surveyHopKey struct{}

func (t *surveyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if surveyHopPolicy(req.Context(), req.URL) == nil {
		return t.named.RoundTrip(req)
	}
	return t.guarded.RoundTrip(req)
}

// CloseIdleConnections closes the idle connections of both transports.
func (t *surveyTransport) CloseIdleConnections() {
	for _, rt := range []http.RoundTripper{t.named, t.guarded} {
		if c, ok := rt.(interface{ CloseIdleConnections() }); ok {
			c.CloseIdleConnections()
		}
	}
}

// surveyHopPolicy returns the address policy a request for u is held to:
// nil, any address, for the host and port of the input the context reads
// or when the run allows private redirects; else fetch.PublicOnly. A
// request with no input in its context is held to it too.
func surveyHopPolicy(ctx context.Context, u *url.URL) fetch.AddressPolicy {
	hop, ok := ctx.Value(surveyHopKey{}).(surveyHop)
	if ok && (hop.allowPrivate || hop.input == surveyAuthority(u)) {
		return nil
	}
	return fetch.PublicOnly
}

// surveyAuthority is the host and port a URL connects to, the host
// lower-cased and the scheme's port filled in: two servers on one address
// are two hosts.
func surveyAuthority(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if strings.EqualFold(u.Scheme, "https") {
			port = "443"
		}
	}
	return net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// newSurveyHTTPClient is the survey's client: the default Transport's
// proxy, dialing and keep-alive for the inputs' own hosts, guarded and
// direct for the hosts redirects lead to, both without transparent
// decompression (a .warc.gz or a .tar.gz is read as the bytes the server
// holds, and a Range counts those bytes).
func newSurveyHTTPClient() *http.Client {
	named := http.DefaultTransport.(*http.Transport).Clone()
	named.DisableCompression = true
	base := named.Clone()
	base.DialContext = nil // the guard's dialer takes its place
	guarded, err := fetch.GuardTransport(base, fetch.PublicOnly)
	if err != nil {
		panic(err) // a transport without a dial function of its own is always guarded
	}
	return &http.Client{Transport: &surveyTransport{named: named, guarded: guarded}}
}

// surveyUserAgent is "robots-survey", and its module's version when the
// binary records one.
func surveyUserAgent() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return "robots-survey/" + info.Main.Version
	}
	return "robots-survey"
}

// IsHTTP reports whether an INPUT is an http(s) URL.
func IsHTTP(input string) bool {
	lower := strings.ToLower(input)
	return strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://")
}

// surveyHTTPPath returns the path of an http(s) INPUT, lower-cased, which
// says how it is read (the query is not part of it), or an error that
// names the endings accepted.
func surveyHTTPPath(input string) (string, error) {
	u, err := url.Parse(input)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%s: not a URL with a host", input)
	}
	p := strings.ToLower(u.Path)
	for _, s := range surveyHTTPSuffixes {
		if strings.HasSuffix(p, s) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: an http(s) input is read as a stream and its path must end in %s",
		input, strings.Join(surveyHTTPSuffixes, ", "))
}

// surveyHTTPFile is an http(s) input read as a file: Read streams one
// response's body, holding no more than the Transport's buffers; Seek
// moves where the next Read starts, which then asks for the rest of the
// object from there with a Range request. A lost connection is resumed
// from the byte reached, with If-Range set to the first response's ETag
// or Last-Modified, so that an object that changed between the requests
// is an error rather than two objects spliced together.
type surveyHTTPFile struct {
	cfg   *HTTPConfig
	url   string
	state *surveyInputState // shared by the files of the input: the resumes spent

	body    io.ReadCloser // the body being read, nil when none
	cancel  context.CancelFunc
	stall   *time.Timer  // cancels the body's request when a Read waits too long
	stalled *atomic.Bool // set when it did

	pos          int64 // the offset of the next byte Read returns
	size         int64 // the object's length, -1 while unknown
	etag         string
	lastModified string
	noRanges     bool  // the server answered a Range with the whole object
	lost         error // why the last body ended early: the next request resumes
	err          error // returned by Read until a Seek
}

// surveyHTTPError is an answer that says the input cannot be read on from
// where it is: asking again would get the same answer.
type surveyHTTPError struct{ msg string }

func (e *surveyHTTPError) Error() string { return e.msg }

func httpErrorf(format string, args ...any) error {
	return &surveyHTTPError{msg: fmt.Sprintf(format, args...)}
}

// errSurveyHTTPClosed is what a closed file's Read returns.
var errSurveyHTTPClosed = errors.New("read of a closed http input")

// openSurveyHTTP opens an http(s) input. The run's first open of it sends
// the first GET: a failure to connect, a timeout or an answer other than
// 2xx is the input's error, and its answer says what object the input is.
// A later open (an archive's second pass, a WARC's redirect target) sends
// nothing until its first Read, from where a Seek put it, and is held to
// that object.
func openSurveyHTTP(cfg *HTTPConfig, input string, st *surveyInputState) (*surveyHTTPFile, error) {
	f := &surveyHTTPFile{cfg: cfg, url: input, state: st, size: -1}
	st.mu.Lock()
	known := st.httpKnown
	f.etag, f.lastModified, f.size = st.httpETag, st.httpLastModified, st.size
	st.mu.Unlock()
	if known {
		return f, nil
	}
	if err := f.request(0, true); err != nil {
		return nil, err
	}
	st.mu.Lock()
	st.httpKnown, st.httpETag, st.httpLastModified = true, f.etag, f.lastModified
	if st.size < 0 {
		st.size = f.size
	}
	st.mu.Unlock()
	return f, nil
}

// validator is what If-Range carries: a strong ETag, else Last-Modified.
func (f *surveyHTTPFile) validator() string {
	if f.etag != "" {
		return f.etag
	}
	return f.lastModified
}

// strongETag returns a response's ETag unless it is weak (W/), which
// If-Range may not carry.
func strongETag(h http.Header) string {
	if e := h.Get("ETag"); !strings.HasPrefix(e, "W/") {
		return e
	}
	return ""
}

// request asks for the object from off and makes its body the one read.
// first is the input's first request, whose answer the later ones are
// held to.
func (f *surveyHTTPFile) request(off int64, first bool) error {
	req, err := http.NewRequest(http.MethodGet, f.url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("User-Agent", f.cfg.UserAgent)
	if off > 0 {
		if f.noRanges || f.state.ignoresRange() {
			f.noRanges = true
			return httpErrorf("the server ignores Range requests: cannot read from byte %d", off)
		}
		v := f.validator()
		if v == "" {
			return httpErrorf("the server gives neither a strong ETag nor Last-Modified: cannot read from byte %d knowing the object is the same", off)
		}
		req.Header.Set("Range", "bytes="+strconv.FormatInt(off, 10)+"-")
		req.Header.Set("If-Range", v)
	}
	hop := surveyHop{input: surveyAuthority(req.URL), allowPrivate: f.cfg.AllowPrivateRedirects}
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), surveyHopKey{}, hop))
	var late atomic.Bool
	timer := time.AfterFunc(f.cfg.HeaderTimeout, func() { late.Store(true); cancel() })
	resp, err := f.cfg.Client.Do(req.WithContext(ctx))
	timer.Stop()
	if late.Load() {
		if err == nil {
			resp.Body.Close()
		}
		cancel()
		return fmt.Errorf("GET %s: no response within %s", f.url, f.cfg.HeaderTimeout)
	}
	if err != nil {
		cancel()
		return err
	}
	if err := f.check(resp, off, first); err != nil {
		resp.Body.Close()
		cancel()
		return err
	}
	stalled := new(atomic.Bool)
	f.body, f.cancel, f.stalled = resp.Body, cancel, stalled
	f.stall = time.AfterFunc(f.cfg.StallTimeout, func() { stalled.Store(true); cancel() })
	f.stall.Stop()
	return nil
}

// check reads a response's status and headers against what was asked and
// what the first response said.
func (f *surveyHTTPFile) check(resp *http.Response, off int64, first bool) error {
	if first {
		if resp.StatusCode < 200 || resp.StatusCode > 299 || resp.StatusCode == http.StatusPartialContent {
			return fmt.Errorf("GET %s: %s", f.url, resp.Status)
		}
		f.etag, f.lastModified = strongETag(resp.Header), resp.Header.Get("Last-Modified")
		f.size = resp.ContentLength
		return nil
	}
	switch {
	case resp.StatusCode == http.StatusPartialContent && off > 0:
		start, total, ok := parseContentRange(resp.Header.Get("Content-Range"))
		if !ok || start != off {
			return httpErrorf("asked for bytes from %d, got Content-Range %q", off, resp.Header.Get("Content-Range"))
		}
		if total >= 0 && f.size >= 0 && total != f.size {
			return httpErrorf("the object changed since it was first read: %d bytes, now %d", f.size, total)
		}
		if f.size < 0 {
			f.size = total
		}
		return nil
	case resp.StatusCode >= 200 && resp.StatusCode <= 299 && resp.StatusCode != http.StatusPartialContent:
		if err := f.same(resp); err != nil {
			return err
		}
		if off > 0 {
			f.noRanges = true
			f.state.mu.Lock()
			f.state.httpNoRanges = true
			f.state.mu.Unlock()
			return httpErrorf("the server ignores Range requests (it answered %s): cannot read from byte %d", resp.Status, off)
		}
		return nil
	}
	return httpErrorf("GET %s from byte %d: %s", f.url, off, resp.Status)
}

// same says whether a whole object's response is the object first read:
// its ETag, else its Last-Modified, and its length.
func (f *surveyHTTPFile) same(resp *http.Response) error {
	switch {
	case f.etag != "" && strongETag(resp.Header) != f.etag:
		return httpErrorf("the object changed since it was first read: ETag %s, now %s", f.etag, orNone(resp.Header.Get("ETag")))
	case f.etag == "" && f.lastModified != "" && resp.Header.Get("Last-Modified") != f.lastModified:
		return httpErrorf("the object changed since it was first read: Last-Modified %s, now %s", f.lastModified, orNone(resp.Header.Get("Last-Modified")))
	case f.size >= 0 && resp.ContentLength >= 0 && resp.ContentLength != f.size:
		return httpErrorf("the object changed since it was first read: %d bytes, now %d", f.size, resp.ContentLength)
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// parseContentRange reads "bytes START-END/TOTAL"; total is -1 for "*".
func parseContentRange(s string) (start, total int64, ok bool) {
	rest, found := strings.CutPrefix(s, "bytes ")
	if !found {
		return 0, 0, false
	}
	span, size, found := strings.Cut(rest, "/")
	first, _, found2 := strings.Cut(span, "-")
	if !found || !found2 {
		return 0, 0, false
	}
	start, err := strconv.ParseInt(first, 10, 64)
	if err != nil || start < 0 {
		return 0, 0, false
	}
	total = -1
	if size != "*" {
		if total, err = strconv.ParseInt(size, 10, 64); err != nil {
			return 0, 0, false
		}
	}
	return start, total, true
}

// Read reads the body from the current offset, asking for it when no body
// is open there, and resumes a lost connection from the byte reached.
func (f *surveyHTTPFile) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		if f.err != nil {
			return 0, f.err
		}
		if f.body == nil {
			if f.size >= 0 && f.pos >= f.size {
				f.err = io.EOF
				continue
			}
			f.err = f.open()
			continue
		}
		f.stall.Reset(f.cfg.StallTimeout)
		n, err := f.body.Read(p)
		f.stall.Stop()
		f.pos += int64(n)
		if err == nil {
			return n, nil
		}
		switch {
		case f.stalled.Load():
			f.lost = fmt.Errorf("no byte for %s", f.cfg.StallTimeout)
		case err == io.EOF && f.size >= 0 && f.pos < f.size:
			f.lost = io.ErrUnexpectedEOF
		case err == io.EOF:
			f.err = io.EOF
			// Read to its end: the connection goes back to the
			// Transport's pool, which cancelling the request could
			// keep it from.
			f.cancel = func() {}
		default:
			f.lost = err
		}
		f.closeBody()
		if n > 0 {
			return n, nil
		}
	}
}

// open asks for the object from the current offset: after a Seek, or to
// resume a body that ended early, while the input's resumes last.
func (f *surveyHTTPFile) open() error {
	for {
		if f.lost != nil {
			f.state.mu.Lock()
			spent := f.state.resumes < f.cfg.MaxResumes
			if spent {
				f.state.resumes++
			}
			f.state.mu.Unlock()
			if !spent {
				return fmt.Errorf("connection lost at byte %d, after %d resumes of the input: %w", f.pos, f.cfg.MaxResumes, f.lost)
			}
		}
		err := f.request(f.pos, false)
		if err == nil {
			f.lost = nil
			return nil
		}
		var answer *surveyHTTPError
		if f.lost == nil || errors.As(err, &answer) {
			return err
		}
		f.lost = err // a resume that could not connect: tried again
	}
}

// Seek sets the offset of the next Read. The request is sent by that
// Read, so that what cannot be read from there is Read's error, which the
// sources turn into an error row.
func (f *surveyHTTPFile) Seek(offset int64, whence int) (int64, error) {
	abs := offset
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		abs += f.pos
	case io.SeekEnd:
		if f.size < 0 {
			return 0, errors.New("seek from the end of an http input of unknown length")
		}
		abs += f.size
	default:
		return 0, errors.New("seek: bad whence")
	}
	if abs < 0 {
		return 0, errors.New("seek to a negative offset")
	}
	if f.err == errSurveyHTTPClosed {
		return 0, f.err
	}
	if abs == f.pos && f.err == nil {
		return abs, nil
	}
	f.closeBody()
	f.pos, f.err, f.lost = abs, nil, nil
	return abs, nil
}

func (f *surveyHTTPFile) closeBody() {
	if f.body == nil {
		return
	}
	f.stall.Stop()
	f.cancel()
	f.body.Close()
	f.body, f.cancel = nil, nil
}

func (f *surveyHTTPFile) Close() error {
	f.closeBody()
	f.err = errSurveyHTTPClosed
	return nil
}
