package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/engine"
	"github.com/fastrobots/robots/usage"
)

// Defaults of Fetcher.
const (
	DefaultTimeout      = 30 * time.Second
	DefaultMaxRedirects = 5
	// DefaultCacheAutomatonBudget is the memory budget, in bytes, of the
	// matching automaton of each crawler's rules in a file the Fetcher
	// parses (robots.WithAutomatonBudget): 64 KiB. It is not package
	// robots' DefaultAutomatonBudget (2 MiB), which suits one file parsed
	// alone: a Cache keeps thousands of files, each automaton grows as
	// checks reach new states, and a typical group needs a few KiB. Past
	// the budget a check is decided by the segment scanner, slower but
	// still bounded per byte of the URL; Fetcher.ParseOptions may set
	// another budget.
	DefaultCacheAutomatonBudget = 64 << 10
)

// Errors of Fetch and of Result.Err.
var (
	// ErrUnsupportedURL is returned by Fetch for a URL that is not an
	// absolute http or https URL with a host.
	ErrUnsupportedURL = errors.New("fetch: not an absolute http or https URL")
	// ErrTooManyRedirects: more redirects than Fetcher.MaxRedirects.
	ErrTooManyRedirects = errors.New("fetch: too many redirects")
	// ErrRedirectLoop: a redirect to a URL already requested.
	ErrRedirectLoop = errors.New("fetch: redirect loop")
	// ErrBadRedirect: a 3xx without a usable Location, or to a scheme other
	// than http and https.
	ErrBadRedirect = errors.New("fetch: redirect that cannot be followed")
	// ErrBadStatus: a status outside 200-599. It is robots.ErrBadStatus,
	// so errors.Is finds it whichever package's name is asked for.
	ErrBadStatus = robots.ErrBadStatus
)

// Fetcher fetches robots.txt files. The zero value is ready to use, with
// http.DefaultClient; set fields before first use and not after (a Fetch
// reads them as it starts, NewCache once for all its fetches). It is safe
// for concurrent use.
//
// Policy, after following redirects; the status of the last response goes
// through robots.StatusPolicy, the one definition of this table:
//
//	2xx                      Conditional: the body is parsed (an HTML page too: only valid lines count)
//	3xx but 304              followed to its Location, whatever the code (300 and 305 too)
//	3xx past MaxRedirects,   FullAllow, as a 404 (a loop, a Location that is missing or
//	  a loop, or broken        not http/https, too); a Location that does not parse is an
//	                           invalid response, a network failure, for every 3xx
//	304                      FullAllow: Fetch sends no conditional request, so it leads
//	                           nowhere; a Cache's conditional refresh renews its copy
//	4xx except 429           FullAllow
//	429, 5xx                 FullDisallow, retried early (503 earliest; Retry-After honoured)
//	network failure          FullDisallow, as a 5xx: DNS, refused, TLS, timeout, reset,
//	                           truncated body, invalid response
type Fetcher struct {
	// Client sends the requests; nil means http.DefaultClient. Fetcher
	// follows redirects itself: the client's CheckRedirect is not used.
	// Decompression is the transport's (gzip, when it asked for it); a
	// gzip body the transport left compressed is decompressed here. Either
	// way at most MaxBytes decompressed bytes are read.
	Client *http.Client
	// Timeout bounds one Fetch, redirects and body included; 0 means
	// DefaultTimeout (30 s), a negative value no bound but ctx's. A fetch
	// that runs out of time is a network failure.
	Timeout time.Duration
	// MaxBytes is how many bytes of the body are read and parsed; the rest
	// is neither read nor parsed. 0 means robots.MaxBytes (500 KiB); a
	// negative value reads the whole body.
	MaxBytes int
	// MaxRedirects is how many redirects are followed, across hosts too;
	// one more makes the fetch a 404 (FullAllow). 0 means 5, Google's
	// number; a negative value sets no limit but Timeout and the loop check.
	MaxRedirects int
	// UserAgent is sent as the User-Agent header when not empty.
	UserAgent string
	// Freshness says how long answers hold.
	Freshness Freshness
	// ParseOptions are passed to robots.Parse (robots.WithMode(robots.RFC),
	// say), after robots.WithAutomatonBudget(DefaultCacheAutomatonBudget),
	// which they may override. The body size limit is MaxBytes.
	ParseOptions []robots.Option
	// Clock tells the time; nil means SystemClock().
	Clock Clock
}

// fetchConfig is a Fetcher's fields with every default filled in: what a
// fetch reads. Fetcher.config is the one place that fills them; Fetch
// calls it once per fetch, and a Cache once, when it is made.
type fetchConfig struct {
	client       *http.Client  // the Fetcher's Client, handing redirects back
	timeout      time.Duration // negative: no bound
	maxBytes     int           // negative: no limit
	maxRedirects int           // negative: no limit
	userAgent    string
	freshness    Freshness
	parse        []robots.Option // the options of every parse, the body limit last
	clock        Clock
}

// config returns the Fetcher's configuration with the defaults of its
// zero fields filled in.
func (f *Fetcher) config() *fetchConfig {
	c := &fetchConfig{
		client: redirectsBack(f.Client), timeout: f.Timeout, maxRedirects: f.MaxRedirects,
		maxBytes:  engine.BodyLimit(f.MaxBytes), // as robots.WithMaxBytes reads it
		userAgent: f.UserAgent, freshness: f.Freshness, clock: f.Clock,
	}
	if c.timeout == 0 {
		c.timeout = DefaultTimeout
	}
	if c.maxRedirects == 0 {
		c.maxRedirects = DefaultMaxRedirects
	}
	if c.clock == nil {
		c.clock = SystemClock()
	}
	c.parse = make([]robots.Option, 0, len(f.ParseOptions)+2)
	c.parse = append(c.parse, robots.WithAutomatonBudget(DefaultCacheAutomatonBudget))
	c.parse = append(c.parse, f.ParseOptions...)
	c.parse = append(c.parse, robots.WithMaxBytes(c.maxBytes))
	return c
}

// redirectsBack returns a copy of client (nil: http.DefaultClient) that
// hands redirects back, for the fetcher to follow.
func redirectsBack(client *http.Client) *http.Client {
	if client == nil {
		client = http.DefaultClient
	}
	cp := *client
	cp.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &cp
}

func (f *fetchConfig) now() time.Time { return f.clock.Now() }

// Fetch fetches the robots.txt at robotsURL (see robots.URLFor) and returns
// the policy it sets. Every outcome of the fetch, network failures
// included, is a Result; the error is non-nil only when robotsURL is not an
// http or https URL (ErrUnsupportedURL) or ctx ended before the answer
// came (ctx.Err()). The Fetcher's own Timeout running out is a network
// failure.
func (f *Fetcher) Fetch(ctx context.Context, robotsURL string) (*Result, error) {
	c := f.config()
	out, err := c.fetchFor(ctx, robotsURL, c.timeout, fetchRequest{})
	return out.res, err
}

// fetchFor is Fetch bounded by timeout (none when negative), running out
// of which is a network failure. For a Cache, the request may be
// conditional, and the outcome carries the validators and, when asked,
// the body.
func (f *fetchConfig) fetchFor(ctx context.Context, robotsURL string, timeout time.Duration, rq fetchRequest) (fetched, error) {
	u, err := url.Parse(robotsURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fetched{}, fmt.Errorf("%w: %q", ErrUnsupportedURL, robotsURL)
	}
	parent := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	out := fetched{res: &Result{URL: robotsURL}}
	f.fetch(ctx, u, rq, &out)
	if out.res.FinalURL == robotsURL {
		out.res.FinalURL = robotsURL // one string for both, as a cache keeps them
	}
	if out.res.Reason == ReasonNetwork && parent.Err() != nil {
		return fetched{}, parent.Err()
	}
	return out, nil
}

// fetch follows redirects from u and classifies the last response into
// out.
func (f *fetchConfig) fetch(ctx context.Context, u *url.URL, rq fetchRequest, out *fetched) {
	client := f.client
	res := out.res
	visited := map[string]bool{u.String(): true}
	maxRedirects := f.maxRedirects
	for {
		res.FinalURL = u.String()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			f.failed(res, ReasonNetwork, err, nil)
			return
		}
		if f.userAgent != "" {
			req.Header.Set("User-Agent", f.userAgent)
		}
		conditional := rq.cond.addTo(req)
		resp, err := client.Do(req)
		if err != nil {
			res.Status = 0
			f.failed(res, ReasonNetwork, err, nil)
			return
		}
		res.Status = resp.StatusCode
		if resp.StatusCode == http.StatusNotModified && conditional {
			resp.Body.Close()
			f.notModified(out, rq.cond, resp.Header)
			return
		}
		if !redirects(resp.StatusCode) {
			f.classify(out, resp, rq.keepBody)
			return
		}
		resp.Body.Close()
		next, err := redirectTarget(resp, visited, res.Redirects, maxRedirects)
		if errors.Is(err, errBadLocation) {
			f.failed(res, ReasonNetwork, err, nil)
			return
		}
		if err != nil {
			policy, why := robots.StatusPolicy(resp.StatusCode) // a 3xx not followed leads nowhere
			f.definite(res, policy, why, err, resp.Header)
			return
		}
		visited[next.String()] = true
		res.Redirects++
		u = next
	}
}

// redirects reports whether the fetcher follows a response with this
// status: every 3xx but 304, which answers a conditional request and
// names no other resource.
func redirects(code int) bool {
	return code >= 300 && code <= 399 && code != http.StatusNotModified
}

// notModified completes the outcome of a conditional request the server
// answered with 304: the copy holds, for the lifetime the 304's
// Cache-Control gives, or its own.
func (f *fetchConfig) notModified(out *fetched, cond validators, h http.Header) {
	out.notModified = true
	out.res.Policy, out.res.Reason = Conditional, ReasonOK
	out.res.FetchedAt = f.now()
	if len(h.Values("Cache-Control")) > 0 {
		out.renewFor = f.freshness.LifetimeOf(h)
	}
	out.res.Expires = out.res.FetchedAt.Add(out.renewFor)
	out.valid = cond.renewedBy(h)
}

// classify completes a result from the last response, by the status table
// of robots.StatusPolicy; a 2xx body is kept in out when keepBody is set.
func (f *fetchConfig) classify(out *fetched, resp *http.Response, keepBody bool) *Result {
	res := out.res
	policy, why := robots.StatusPolicy(resp.StatusCode)
	if policy == Conditional {
		return f.success(out, resp, keepBody)
	}
	resp.Body.Close()
	switch {
	case why == ReasonRedirects:
		err := fmt.Errorf("%w: %d to a request that was not conditional", ErrBadRedirect, resp.StatusCode)
		return f.definite(res, policy, why, err, resp.Header)
	case policy == FullAllow:
		return f.definite(res, policy, why, nil, resp.Header)
	case why == ReasonNetwork:
		return f.failed(res, why, fmt.Errorf("%w: %d", ErrBadStatus, resp.StatusCode), nil)
	}
	return f.failed(res, why, nil, resp.Header)
}

// errBadLocation marks a Location header that does not parse: the
// response is invalid, as net/http's client finds for the codes it
// follows itself (301, 302, 303, 307, 308).
var errBadLocation = errors.New("fetch: Location header does not parse")

// redirectTarget returns where a 3xx response leads, or why it is not
// followed.
func redirectTarget(resp *http.Response, visited map[string]bool, done, limit int) (*url.URL, error) {
	if resp.Header.Get("Location") == "" {
		return nil, fmt.Errorf("%w: no Location", ErrBadRedirect)
	}
	next, err := resp.Location()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errBadLocation, err)
	}
	if (next.Scheme != "http" && next.Scheme != "https") || next.Host == "" {
		return nil, fmt.Errorf("%w: to %q", ErrBadRedirect, next.String())
	}
	next.Fragment, next.RawFragment = "", ""
	if limit >= 0 && done >= limit {
		return nil, fmt.Errorf("%w: more than %d", ErrTooManyRedirects, limit)
	}
	if visited[next.String()] {
		return nil, fmt.Errorf("%w: back to %s", ErrRedirectLoop, next.String())
	}
	return next, nil
}

// success reads and parses a 2xx body, as robots.FromResponse does. A body
// that fails before its end or before MaxBytes is a network failure. With
// keepBody, the bytes parsed are kept in out, to be shared.
func (f *fetchConfig) success(out *fetched, resp *http.Response, keepBody bool) *Result {
	defer resp.Body.Close()
	res := out.res
	var capture *bodyCapture
	if keepBody {
		capture = captureBody(resp)
	}
	r, err := robots.FromResponse(resp, f.parse...)
	if err != nil {
		return f.failed(res, ReasonNetwork, err, nil)
	}
	res.Robots = r
	res.Bytes = r.BodyBytes()
	res.Truncated = r.Truncated()
	res.agents = &agentCache{}
	if capture != nil {
		out.body = capture.parsed(res.Bytes)
	}
	out.valid = validatorsOf(res.FinalURL, resp.Header)
	res.ContentUsage = contentUsage(resp.Header)
	return f.definite(res, Conditional, ReasonOK, nil, resp.Header)
}

// contentUsage returns the preference of h's Content-Usage field. Its
// lines are joined as usage.ParseHeader joins them only when the result
// is within usage.MaxValueBytes: a longer value does not parse (every
// category Unknown), and a server's headers cannot make the fetch copy
// megabytes to learn it.
func contentUsage(h http.Header) usage.Preference {
	lines := h.Values(usage.HeaderName)
	n := 0
	for _, l := range lines {
		n += len(l) + len(", ")
	}
	if n-len(", ") > usage.MaxValueBytes {
		return usage.Preference{}
	}
	pref, _ := usage.ParseHeader(lines...)
	return pref
}

// definite completes a result that is an answer from the origin: it holds
// for the lifetime its Cache-Control asks, within Freshness.
func (f *fetchConfig) definite(res *Result, p Policy, why Reason, err error, h http.Header) *Result {
	res.Policy, res.Reason, res.Err = p, why, err
	res.FetchedAt = f.now()
	res.Expires = res.FetchedAt.Add(f.freshness.LifetimeOf(h))
	return res
}

// failed completes a result that is no answer: full disallow until the
// retry.
func (f *fetchConfig) failed(res *Result, why Reason, err error, h http.Header) *Result {
	res.Policy, res.Reason, res.Err = FullDisallow, why, err
	res.Robots, res.agents = nil, nil
	res.FetchedAt = f.now()
	if h != nil {
		res.RetryAfter = parseRetryAfter(h, res.FetchedAt)
	}
	status := res.Status
	if why == ReasonNetwork {
		status = 0
	}
	res.Expires = res.FetchedAt.Add(f.freshness.RetryAfter(status, res.RetryAfter, 1))
	return res
}
