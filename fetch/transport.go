package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/bytestr"
)

// DefaultMaxDelay caps the pacing delay of a Transport.
const DefaultMaxDelay = time.Minute

// ErrDisallowed is the error a Transport returns, wrapped in a
// *DisallowedError, for a request that robots.txt disallows.
var ErrDisallowed = errors.New("fetch: disallowed by robots.txt")

// DisallowedError is a request that robots.txt disallows. It unwraps to
// ErrDisallowed.
type DisallowedError struct {
	URL   string
	Agent string
	// Policy is Conditional when a rule decided, FullDisallow when the
	// robots.txt could not be fetched (Reason says why).
	Policy Policy
	Reason Reason
	// Rule is the rule that decided; nil under FullDisallow.
	Rule *robots.Rule
	// RobotsURL is the robots.txt that governs URL.
	RobotsURL string
	// SentAs is, when the request was refused for a reading of it other
	// than the one it would have been sent as, the URL as it would have
	// been sent: "http://h/public/../private" for URL "http://h/private",
	// the path a server reads once it removes dot segments, or
	// "http://h/~esc" for URL "http://h/%7Eesc", the request as written
	// before its unreserved escapes were decoded. It is "" when URL is
	// the request as it would have been sent.
	SentAs string
}

func (e *DisallowedError) Error() string {
	agent := e.Agent
	if agent == "" {
		agent = "*"
	}
	why := fmt.Sprintf("%s: %s", e.Policy, e.Reason)
	if e.Rule != nil {
		why = fmt.Sprintf("line %d: Disallow: %s", e.Rule.Line, e.Rule.Value)
	}
	if e.SentAs != "" {
		return fmt.Sprintf("fetch: robots.txt disallows %s (sent as %s) for %s (%s)", strconv.Quote(e.URL),
			strconv.Quote(e.SentAs), agent, why)
	}
	return fmt.Sprintf("fetch: robots.txt disallows %s for %s (%s)", strconv.Quote(e.URL), agent, why)
}

// Unwrap returns ErrDisallowed.
func (e *DisallowedError) Unwrap() error { return ErrDisallowed }

// TransportOptions configure a Transport. Zero fields take the defaults.
type TransportOptions struct {
	// Agent is the crawler's product token, matched against robots.txt
	// user-agent lines ("ExampleBot", not the full User-Agent header); ""
	// means a crawler that only the '*' groups govern.
	Agent string
	// UserAgent is the User-Agent header of the robots.txt requests of the
	// transport's own Checker; "" means DefaultUserAgent(Agent). The
	// requests the transport carries are not changed.
	UserAgent string
	// Checker decides each request. nil means a new Checker whose Fetcher
	// sends through the base transport with UserAgent.
	Checker *Checker
	// CrawlDelay, when true, spaces the requests to each origin by the
	// crawler's groups' Verdict.Delay, capped by MaxDelay.
	CrawlDelay bool
	// MaxDelay caps the space between two requests to one origin: 0 means
	// DefaultMaxDelay, a negative value no cap.
	MaxDelay time.Duration
}

// Transport is an http.RoundTripper that sends only the requests that
// robots.txt allows, and with CrawlDelay, no faster than it asks. It is
// safe for concurrent use.
//
// A disallowed request never reaches the base transport: RoundTrip
// returns a *DisallowedError, which http.Client wraps in a *url.Error;
// errors.Is(err, ErrDisallowed) holds. An http.Client that follows
// redirects asks the transport for every hop, so each is checked.
//
// What is checked is what Go's client writes on the wire: the
// request-target (URL.Opaque when set) on the origin of the Host header,
// and an absolute-form target on its own origin too. A request whose
// target or Host header cannot be checked is refused with a
// *RequestTargetError or a *robots.URLError. Requests for /robots.txt and
// schemes other than http and https pass unchecked. Checker errors are
// returned as is.
//
// A percent-encoded unreserved character (RFC 3986 section 2.3: a letter,
// a digit, '-', '.', '_' or '~') is the same URI as the character itself
// (section 6.2.2.2), and servers decode it: "/%70rivate" is "/private".
// Google's matcher compares a URL's escapes as written, so the transport
// sends the target, path and query, with those escapes decoded and the hex
// digits of every other escape in upper case (section 6.2.2.1), the case
// in which Google's matcher writes a rule's escapes: "/%7euser" goes as
// "/~user", "/a%2fb" as "/a%2Fb". Other escapes stay escapes. It checks
// the target as sent, and as the caller wrote it too, so that it sends no
// request Google's verdict refuses as written. The base transport is handed
// a copy of the request with its own URL; the caller's is not changed.
//
// Servers remove the dot segments of a path before they choose what to
// serve (RFC 3986 section 5.2.4: "/public/../private" is "/private"), and
// Go's client sends them as written. So a path with dot segments must be
// allowed both as sent and with them removed; a segment of dots written
// as %2E counts too ("/a/%2e%2E/b" is "/b"), since many servers decode it
// first. This holds for the target sent, whose escaped dots are decoded,
// and for the target as written. A path whose dot segments leave
// /robots.txt is not checked again.
// Other rewritings some servers make (merging "//", decoding %2F, cutting
// ";" parameters) are not modelled.
//
// With CrawlDelay, the requests to one origin go one at a time, each at
// least the delay after the previous one was sent. A waiting request whose
// context ends returns ctx.Err() at once. Disallowed requests do not wait.
type Transport struct {
	base    http.RoundTripper
	agent   string
	checker *Checker
	pace    *pacer // nil without CrawlDelay
}

// NewTransport returns a Transport sending through base (nil means
// http.DefaultTransport).
func NewTransport(base http.RoundTripper, opts TransportOptions) *Transport {
	if base == nil {
		base = http.DefaultTransport
	}
	t := &Transport{base: base, agent: opts.Agent, checker: opts.Checker}
	if t.checker == nil {
		ua := opts.UserAgent
		if ua == "" {
			ua = DefaultUserAgent(opts.Agent)
		}
		f := &Fetcher{Client: &http.Client{Transport: base}, UserAgent: ua}
		t.checker = NewChecker(NewCache(f, CacheOptions{}))
	}
	if opts.CrawlDelay {
		maxDelay := opts.MaxDelay
		if maxDelay == 0 {
			maxDelay = DefaultMaxDelay
		}
		t.pace = newPacer(maxDelay, realClock{})
	}
	return t
}

// Checker returns the checker that decides the transport's requests.
func (t *Transport) Checker() *Checker { return t.checker }

// RoundTrip sends req through the base transport if robots.txt allows it,
// after its crawl delay when the transport paces; see Transport.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL == nil {
		closeBody(req)
		return nil, errors.New("fetch: request has no URL")
	}
	switch strings.ToLower(req.URL.Scheme) {
	case "http", "https":
	default:
		return t.base.RoundTrip(req)
	}
	if req.URL.Host == "" {
		closeBody(req)
		return nil, &robots.URLError{URL: req.URL.String(), Err: robots.ErrNoHost}
	}
	wire := wireRequestOf(req)
	if err := wire.check(); err != nil {
		closeBody(req)
		return nil, err
	}
	if wire.isRobotsTxt() {
		return t.base.RoundTrip(req)
	}
	var asked *wireRequest
	if sent, ok := withEscapesNormalised(req, &wire); ok {
		written := wire
		req, wire, asked = sent, wireRequestOf(sent), &written
		if wire.isRobotsTxt() {
			return t.base.RoundTrip(req)
		}
	}
	if err := t.admit(req.Context(), wire, asked); err != nil {
		closeBody(req)
		return nil, err
	}
	return t.base.RoundTrip(req)
}

// admit refuses wire, the request as sent, unless robots.txt allows every
// reading of it (checkReadings), and paces by the Host header's origin.
// asked is, when the transport normalised the request's escapes, the
// request as the caller wrote it; nil otherwise.
func (t *Transport) admit(ctx context.Context, wire wireRequest, asked *wireRequest) error {
	if res, allowed, ok := t.allowedWarm(&wire); ok {
		if allowed && t.pace == nil && asked == nil && !mayHaveDotSegment(wire.target) {
			return nil
		}
		agents := [1]string{t.agent} // stays on the stack: agent keeps no list
		a, _ := res.agent(agents[:])
		if !allowed {
			return t.refuse(res, a, &wire)
		}
		if err := t.checkReadings(ctx, &wire, asked); err != nil {
			return err
		}
		if t.pace == nil {
			return nil
		}
		return t.pace.wait(ctx, res.URL, delayOf(a.pacing.crawlDelay, a.pacing.requestRate))
	}
	return t.admitFull(ctx, wire, asked)
}

func (t *Transport) admitFull(ctx context.Context, wire wireRequest, asked *wireRequest) error {
	first, err := t.decide(ctx, wire)
	if err != nil {
		return err
	}
	if err := t.checkReadings(ctx, &wire, asked); err != nil {
		return err
	}
	if t.pace == nil {
		return nil
	}
	return t.pace.wait(ctx, first.Result.URL, first.Delay())
}

// decide refuses wire unless robots.txt allows every URL the server may
// read it as, and returns the verdict of the first.
func (t *Transport) decide(ctx context.Context, wire wireRequest) (Verdict, error) {
	pageURLs, err := wire.pageURLs()
	if err != nil {
		return Verdict{}, err
	}
	var first Verdict
	for i, pageURL := range pageURLs {
		v, err := t.checker.Decide(ctx, t.agent, pageURL)
		if err != nil {
			return Verdict{}, err
		}
		if !v.Allowed {
			return Verdict{}, &DisallowedError{URL: pageURL, Agent: t.agent, Policy: v.Policy, Reason: v.Result.Reason,
				Rule: v.Rule, RobotsURL: v.Result.URL}
		}
		if i == 0 {
			first = v
		}
	}
	return first, nil
}

// checkReadings refuses a request that robots.txt allows as sent, wire,
// but not in another reading of it: as a server reads it once the dot
// segments are removed, or, when asked is not nil, as the caller wrote it,
// with and without its dot segments. It does not pace: the request as
// sent is paced.
func (t *Transport) checkReadings(ctx context.Context, wire, asked *wireRequest) error {
	if resolved, ok := wire.dotsRemoved(); ok {
		if err := t.checkReading(ctx, &resolved, wire); err != nil {
			return err
		}
	}
	if asked == nil {
		return nil
	}
	if err := t.checkReading(ctx, asked, wire); err != nil {
		return err
	}
	if resolved, ok := asked.dotsRemoved(); ok {
		return t.checkReading(ctx, &resolved, wire)
	}
	return nil
}

// checkReading refuses reading, a reading of the request sent as wire,
// unless robots.txt allows it; the error's SentAs is wire's URL. A
// reading of /robots.txt passes.
func (t *Transport) checkReading(ctx context.Context, reading, wire *wireRequest) error {
	if reading.isRobotsTxt() {
		return nil
	}
	var err error
	if res, allowed, warm := t.allowedWarm(reading); warm {
		if allowed {
			return nil
		}
		agents := [1]string{t.agent}
		a, _ := res.agent(agents[:])
		err = t.refuse(res, a, reading)
	} else {
		_, err = t.decide(ctx, *reading)
	}
	var de *DisallowedError
	if errors.As(err, &de) {
		de.SentAs = wire.sentURL()
	}
	return err
}

// warmBuffer is the stack room for a URL checked warm; a longer one
// escapes to the heap.
const warmBuffer = 512

// allowedWarm is Checker.allowedWarm for an origin-form request. It
// builds the URL on the stack, since the check keeps nothing of it.
func (t *Transport) allowedWarm(wire *wireRequest) (res *Result, allowed, ok bool) {
	if !wire.originForm() {
		return nil, false, false
	}
	var buf [warmBuffer]byte
	b := wire.appendOriginForm(buf[:0])
	return t.checker.allowedWarm(t.agent, bytestr.String(b)) // safe: buf is not written again
}

// refuse builds the URL's string and the verdict, which only a refused
// request needs.
func (t *Transport) refuse(res *Result, a *Agent, wire *wireRequest) error {
	pageURL := string(wire.appendOriginForm(nil))
	p, err := readPage(pageURL)
	if err != nil {
		return err
	}
	v := verdict(res, a, &p)
	return &DisallowedError{URL: pageURL, Agent: t.agent, Policy: v.Policy, Reason: v.Result.Reason,
		Rule: v.Rule, RobotsURL: v.Result.URL}
}

// CloseIdleConnections closes the idle connections of the base transport,
// when it has a CloseIdleConnections method; http.Client calls it.
func (t *Transport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// closeBody closes a request's body, as a RoundTripper must even on
// error.
func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// mayHaveDotSegment is the common path's test: a path holding neither
// "/." nor "/%2" has no dot segment, not even one written as %2E.
func mayHaveDotSegment(path string) bool {
	return strings.Contains(path, "/.") || strings.Contains(path, "/%2")
}

// dotsRemoved returns w with the dot segments of its path removed, and
// false when it has none. The path is that of an origin-form target or
// of an absolute-form one, up to any '?'.
func (w *wireRequest) dotsRemoved() (wireRequest, bool) {
	start := 0
	if !w.originForm() {
		_, rest, ok := strings.Cut(w.target, "://")
		if !ok {
			return *w, false
		}
		i := strings.IndexAny(rest, "/?")
		if i < 0 || rest[i] != '/' {
			return *w, false
		}
		start = len(w.target) - len(rest) + i
	}
	end := len(w.target)
	if q := strings.IndexByte(w.target[start:], '?'); q >= 0 {
		end = start + q
	}
	path, ok := removeDotSegments(w.target[start:end])
	if !ok {
		return *w, false
	}
	r := *w
	r.target = w.target[:start] + path + w.target[end:]
	return r, true
}

// sentURL is the URL of the request as sent: its origin-form target on
// the Host header's origin, or its absolute-form target.
func (w *wireRequest) sentURL() string {
	if w.originForm() {
		return string(w.appendOriginForm(nil))
	}
	return w.requestTarget()
}

// removeDotSegments is remove_dot_segments (RFC 3986 section 5.2.4) on an
// escaped path that starts with '/', reading %2E as '.' in a segment of
// dots. It reports false, and returns path, when path has no dot segment.
func removeDotSegments(path string) (string, bool) {
	if !mayHaveDotSegment(path) {
		return path, false
	}
	segs := strings.Split(path[1:], "/")
	out := segs[:0] // out never passes the segment being read
	found := false
	for i, seg := range segs {
		dots := dotSegment(seg)
		if dots == 0 {
			out = append(out, seg)
			continue
		}
		found = true
		if dots == 2 && len(out) > 0 {
			out = out[:len(out)-1]
		}
		if i == len(segs)-1 {
			out = append(out, "") // "/a/.." is "/", "/a/." is "/a/"
		}
	}
	if !found {
		return path, false
	}
	return "/" + strings.Join(out, "/"), true
}

// dotSegment returns 1 for a segment "." and 2 for "..", each dot written
// as '.' or %2E in either case, and 0 for any other segment.
func dotSegment(seg string) int {
	n := 0
	for i := 0; i < len(seg); i++ {
		switch {
		case seg[i] == '.':
		case seg[i] == '%' && i+2 < len(seg) && seg[i+1] == '2' && (seg[i+2] == 'e' || seg[i+2] == 'E'):
			i += 2
		default:
			return 0
		}
		if n++; n > 2 {
			return 0
		}
	}
	return n
}

// pacerSweepMin is the size of the pacing state below which idle origins
// are not swept.
const pacerSweepMin = 1024

// pacer spaces the requests to each origin, one at a time. It spaces
// from when a request was let go rather than when it was due, so every
// gap is at least delay even when a request goes late.
type pacer struct {
	maxDelay time.Duration // negative: no cap
	clock    pacerClock

	mu      sync.Mutex
	origins map[string]*pace
	sweepAt int
}

type pace struct {
	turn  chan struct{} // holds a token while a request waits for its time
	next  time.Time     // guarded by pacer.mu
	users int           // requests holding or waiting for the turn; guarded by pacer.mu
}

// pacerClock lets tests move a fake clock.
type pacerClock interface {
	Now() time.Time
	// Sleep waits for d, or until ctx ends, and returns ctx.Err() then.
	Sleep(ctx context.Context, d time.Duration) error
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	if !sleepCtx(ctx, d) {
		return ctx.Err()
	}
	return nil
}

func newPacer(maxDelay time.Duration, clock pacerClock) *pacer {
	return &pacer{maxDelay: maxDelay, clock: clock, origins: map[string]*pace{}, sweepAt: pacerSweepMin}
}

// wait returns ctx.Err() at once when ctx ends first, leaving the
// origin's next time unchanged.
func (p *pacer) wait(ctx context.Context, key string, delay time.Duration) error {
	if p.maxDelay >= 0 {
		delay = min(delay, p.maxDelay)
	}
	if delay <= 0 {
		return nil
	}
	o := p.enter(key)
	defer p.leave(o)
	select {
	case o.turn <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-o.turn }()
	p.mu.Lock()
	next := o.next
	p.mu.Unlock()
	if d := next.Sub(p.clock.Now()); d > 0 {
		if err := p.clock.Sleep(ctx, d); err != nil {
			return err
		}
	}
	p.mu.Lock()
	o.next = p.clock.Now().Add(delay)
	p.mu.Unlock()
	return nil
}

func (p *pacer) enter(key string) *pace {
	p.mu.Lock()
	defer p.mu.Unlock()
	o := p.origins[key]
	if o == nil {
		if len(p.origins) >= p.sweepAt {
			p.sweep(p.clock.Now())
		}
		o = &pace{turn: make(chan struct{}, 1)}
		p.origins[key] = o
	}
	o.users++
	return o
}

func (p *pacer) leave(o *pace) {
	p.mu.Lock()
	defer p.mu.Unlock()
	o.users--
}

// sweep drops origins that constrain nothing. The next sweep waits until
// the state has doubled, so sweeping costs O(1) per origin added.
func (p *pacer) sweep(now time.Time) {
	for key, o := range p.origins {
		if o.users == 0 && !o.next.After(now) {
			delete(p.origins, key)
		}
	}
	p.sweepAt = max(pacerSweepMin, 2*len(p.origins))
}

func (p *pacer) size() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.origins)
}
