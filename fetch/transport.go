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

// DefaultMaxDelay caps the pacing delay of a Transport: a Crawl-delay or
// Request-rate asking for longer waits this long between requests.
const DefaultMaxDelay = time.Minute

// ErrDisallowed is the error a Transport returns for a request that
// robots.txt disallows; errors.Is finds it through the *DisallowedError
// that carries it, and through the *url.Error that http.Client wraps
// that in.
var ErrDisallowed = errors.New("fetch: disallowed by robots.txt")

// DisallowedError is a request that robots.txt disallows: which URL, for
// which crawler, and what decided. It unwraps to ErrDisallowed.
type DisallowedError struct {
	URL   string
	Agent string
	// Policy is Conditional when a rule decided, FullDisallow when the
	// robots.txt could not be fetched (Reason says why).
	Policy Policy
	Reason Reason
	// Rule is the rule that decided, with its line (Rule.Line); nil under
	// FullDisallow.
	Rule *robots.Rule
	// RobotsURL is the robots.txt that governs URL.
	RobotsURL string
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
	// transport's own Checker; "" means DefaultUserAgent(Agent), as the
	// robots command sends. The transport does not change the requests it
	// carries: set their User-Agent as usual.
	UserAgent string
	// Checker decides each request. nil means the transport's own: a
	// Checker over a Cache over a Fetcher that sends through the base
	// transport with UserAgent. A Checker given here fetches with its own
	// Fetcher, and may be shared with other transports and callers.
	Checker *Checker
	// CrawlDelay, when true, spaces the requests to each origin by the
	// Crawl-delay or Request-rate of the crawler's groups (Verdict.Delay),
	// capped by MaxDelay. Requests to an origin whose groups set neither
	// are not delayed.
	CrawlDelay bool
	// MaxDelay caps the space between two requests to one origin: 0 means
	// DefaultMaxDelay (1 min), a negative value no cap.
	MaxDelay time.Duration
}

// Transport is an http.RoundTripper that sends only the requests that
// robots.txt allows, and with CrawlDelay, no faster than it asks. It is
// safe for concurrent use.
//
// For each request it asks its Checker whether Agent may fetch the URL,
// which fetches the origin's robots.txt once and caches it (see Cache). A
// disallowed request never reaches the base transport: RoundTrip returns a
// *DisallowedError, which http.Client wraps in a *url.Error; errors.Is(err,
// ErrDisallowed) holds. An http.Client that follows redirects asks the
// transport for every hop, so each is checked.
//
// What is checked is what Go's client writes on the wire: the
// request-target URL.RequestURI() gives (URL.Opaque when set, not
// URL.Path) on the origin of the Host header (req.Host when set, else
// URL.Host). An absolute-form target, which an Opaque of "//host/path"
// gives, names its own origin, and is checked there too. A target that
// is neither a path nor an absolute http(s) URL, or holds a space, a
// control byte or '#', is refused with a *RequestTargetError
// (ErrRequestTarget); a Host header Go's client would drop (it holds '/',
// '@', '?' or another byte no host has) with a *robots.URLError wrapping
// robots.ErrBadHost.
//
// What passes without a check:
//
//   - a request whose request-target is /robots.txt itself;
//   - a scheme other than http and https: robots.txt governs neither, and
//     the base transport handles such a request, or refuses it, as it
//     would without this one.
//
// A request whose http or https URL has no host cannot be matched to a
// robots.txt: RoundTrip refuses it with a *robots.URLError wrapping
// robots.ErrNoHost. An error of the Checker (the request's context ended
// while it fetched robots.txt) is returned as is.
//
// With CrawlDelay, the requests to one origin go one at a time, each at
// least the delay after the previous one went to the base transport; the
// others queue. A waiting request whose context ends returns ctx.Err() at
// once, and the next in line takes its turn. The robots.txt request and
// disallowed requests do not wait and delay nothing. The pacing state of
// an origin lasts only while a request waits or its delay runs: idle
// origins are swept as the state grows.
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
	if err := t.admit(req.Context(), wire); err != nil {
		closeBody(req)
		return nil, err
	}
	return t.base.RoundTrip(req)
}

// admit returns nil once the request wire may be sent: robots.txt allows
// every URL the server may read it as and, when the transport paces, its
// slot on the Host header's origin has come.
func (t *Transport) admit(ctx context.Context, wire wireRequest) error {
	if res, allowed, ok := t.allowedWarm(&wire); ok {
		if allowed && t.pace == nil {
			return nil // most requests: no agent to look up
		}
		agents := [1]string{t.agent} // on the stack: agent keeps no list
		a, _ := res.agent(agents[:])
		if !allowed {
			return t.refuse(res, a, &wire)
		}
		return t.pace.wait(ctx, res.URL, delayOf(a.pacing.crawlDelay, a.pacing.requestRate))
	}
	return t.admitFull(ctx, wire)
}

// admitFull is admit for any request: it builds every URL the server may
// read the request as, and asks the Checker's Decide about each.
func (t *Transport) admitFull(ctx context.Context, wire wireRequest) error {
	pageURLs, err := wire.pageURLs()
	if err != nil {
		return err
	}
	var first Verdict
	for i, pageURL := range pageURLs {
		v, err := t.checker.Decide(ctx, t.agent, pageURL)
		if err != nil {
			return err
		}
		if !v.Allowed {
			return &DisallowedError{URL: pageURL, Agent: t.agent, Policy: v.Policy, Reason: v.Result.Reason,
				Rule: v.Rule, RobotsURL: v.Result.URL}
		}
		if i == 0 {
			first = v
		}
	}
	if t.pace == nil {
		return nil
	}
	return t.pace.wait(ctx, first.Result.URL, first.Delay())
}

// warmBuffer is the room on the stack for the URL of a request checked
// warm; a longer URL is built on the heap.
const warmBuffer = 512

// allowedWarm decides, as admit would, the request wire on the path a
// warm crawler takes most: an origin-form target on a plain origin
// (rawurl.Split) that the cache holds fresh with the agent's resolution
// kept on its entry (Checker.allowedWarm). It builds the URL on the
// stack: the check keeps nothing of it. It returns the answer and whether
// robots.txt allows the URL; ok is false, and nothing is counted, for any
// other request, which admit decides in full.
func (t *Transport) allowedWarm(wire *wireRequest) (res *Result, allowed, ok bool) {
	if !wire.originForm() {
		return nil, false, false
	}
	var buf [warmBuffer]byte
	b := wire.appendOriginForm(buf[:0])
	return t.checker.allowedWarm(t.agent, bytestr.String(b)) // buf is not written again
}

// refuse returns the error of the origin-form request wire, which a, the
// agent's resolution on the answer res, disallows: its verdict names the
// rule. Only a refused request pays for the URL's string and the verdict.
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

// closeBody closes a request's body, as a RoundTripper must even when it
// sends nothing.
func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// pacerSweepMin is the size of the pacing state below which idle origins
// are not swept: sweeping a small map costs more than it saves.
const pacerSweepMin = 1024

// pacer spaces the requests to each origin: one request of an origin at a
// time waits for its turn, and the next may start delay after the previous
// one was let go. Spacing from the moment a request was let go, rather
// than from when it was due, keeps every gap at least delay even when a
// request is let go late.
type pacer struct {
	maxDelay time.Duration // negative: no cap
	clock    pacerClock

	mu      sync.Mutex
	origins map[string]*pace
	sweepAt int
}

// pace is the state of one origin.
type pace struct {
	turn  chan struct{} // holds a token while a request waits for its time
	next  time.Time     // when the next request may go
	users int           // requests holding or waiting for the turn
}

// pacerClock tells the time and sleeps; tests move a fake one.
type pacerClock interface {
	Now() time.Time
	// Sleep waits for d, or until ctx ends, and returns ctx.Err() then.
	Sleep(ctx context.Context, d time.Duration) error
}

// realClock is the system's clock.
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

// wait returns when a request to the origin key may go, delay after the
// previous one went, and keeps the origin for delay after it; or returns
// ctx.Err() at once when ctx ends first, leaving the origin's time as it
// was.
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

// enter returns the state of key, counting one more user of it.
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

// sweep drops the origins that no request holds and whose next time has
// come: they constrain nothing. The next sweep waits until the state has
// doubled, so sweeping costs O(1) per origin added.
func (p *pacer) sweep(now time.Time) {
	for key, o := range p.origins {
		if o.users == 0 && !o.next.After(now) {
			delete(p.origins, key)
		}
	}
	p.sweepAt = max(pacerSweepMin, 2*len(p.origins))
}

// size returns the number of origins the pacer holds state for.
func (p *pacer) size() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.origins)
}
