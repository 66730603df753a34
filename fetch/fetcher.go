package fetch

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/usage"
)

// Defaults of Fetcher.
const (
	DefaultTimeout      = 30 * time.Second
	DefaultMaxRedirects = 5
	// DefaultCacheAutomatonBudget is the per-crawler automaton budget, in
	// bytes, of a file the Fetcher parses (robots.WithAutomatonBudget). It
	// is smaller than robots.DefaultAutomatonBudget because a Cache keeps
	// thousands of files; Fetcher.ParseOptions may override it.
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
	// ErrBadStatus: a status outside 200-599. It is robots.ErrBadStatus.
	ErrBadStatus = robots.ErrBadStatus
)

// Fetcher fetches robots.txt files. The zero value is ready to use, with
// http.DefaultClient; set fields before first use and not after. It is
// safe for concurrent use.
//
// Policy, by the status of the last response after redirects
// (robots.StatusPolicy):
//
//	2xx                      Conditional: the body is parsed (only valid lines count)
//	3xx but 304              followed to its Location, whatever the code
//	3xx past MaxRedirects,   FullAllow, as a 404; a Location that does not parse
//	  a loop, or broken        is an invalid response, a network failure
//	304                      FullAllow (Fetch sends no conditional request)
//	4xx except 429           FullAllow
//	429, 5xx                 FullDisallow, retried early (Retry-After honoured)
//	network failure          FullDisallow, as a 5xx
type Fetcher struct {
	// Client sends the requests; nil means http.DefaultClient. Fetcher
	// follows redirects itself: the client's CheckRedirect is not used. A
	// gzip body the transport left compressed is decompressed here; at
	// most MaxBytes decompressed bytes are read.
	Client *http.Client
	// Timeout bounds one Fetch, redirects and body included; 0 means
	// DefaultTimeout, a negative value no bound but ctx's. Running out of
	// time is a network failure.
	Timeout time.Duration
	// MaxBytes is how many bytes of the body are read and parsed. 0 means
	// robots.MaxBytes (500 KiB, Google's limit); negative reads it all.
	MaxBytes int
	// MaxRedirects is how many redirects are followed, across hosts too;
	// one more makes the fetch a 404 (FullAllow). 0 means 5, Google's
	// number; negative means no limit but Timeout and the loop check.
	MaxRedirects int
	// UserAgent is sent as the User-Agent header when not empty.
	UserAgent string
	// Freshness says how long answers hold.
	Freshness Freshness
	// ParseOptions are passed to robots.Parse after
	// robots.WithAutomatonBudget(DefaultCacheAutomatonBudget), which they
	// may override. The body size limit is MaxBytes.
	ParseOptions []robots.Option
	// Clock tells the time; nil means SystemClock().
	Clock Clock
	// Guard, when not nil, decides which addresses the fetches may
	// connect to: each connection, to the URL asked for and after every
	// redirect, is made only if Guard accepts the IP address dialled,
	// after name resolution. PublicOnly refuses every address that is not
	// public. A refused connection is a network failure whose Result.Err
	// wraps ErrRefusedAddress. The requests go through
	// GuardTransport(Client's transport), without a proxy; a transport it
	// cannot guard makes every fetch such a failure. nil connects anywhere
	// Client does: docs/crawling.md says when a crawler wants a Guard.
	Guard AddressPolicy

	guarded guardedClient
}

// fetchConfig is a Fetcher's fields with defaults filled in, read once by
// a Fetch or, for all its fetches, by NewCache.
type fetchConfig struct {
	client       *http.Client  // hands redirects back
	timeout      time.Duration // negative: no bound
	maxBytes     int           // negative: no limit
	maxRedirects int           // negative: no limit
	userAgent    string
	freshness    Freshness
	parse        []robots.Option // the body limit last, so it cannot be overridden
	clock        Clock
}

func (f *Fetcher) config() *fetchConfig {
	c := &fetchConfig{
		client: redirectsBack(f.client()), timeout: f.Timeout, maxRedirects: f.MaxRedirects,
		maxBytes:  cmp.Or(f.MaxBytes, robots.MaxBytes), // as WithMaxBytes reads it
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

func redirectsBack(client *http.Client) *http.Client {
	if client == nil {
		client = http.DefaultClient
	}
	cp := *client
	cp.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &cp
}

func (f *fetchConfig) now() time.Time { return f.clock.Now() }

// Fetch fetches the robots.txt at robotsURL (see robots.URLFor) and
// returns the policy it sets. Every outcome, network failures included, is
// a Result; the error is non-nil only when robotsURL is not an http or
// https URL (ErrUnsupportedURL) or ctx ended first (ctx.Err()). The
// Fetcher's own Timeout running out is a network failure, not an error.
func (f *Fetcher) Fetch(ctx context.Context, robotsURL string) (*Result, error) {
	c := f.config()
	out, err := c.fetchFor(ctx, robotsURL, c.timeout, fetchRequest{})
	return out.res, err
}

// fetchFor tells the caller's ctx ending (an error) apart from timeout
// running out (a network failure).
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
		out.res.FinalURL = robotsURL // share one string in the cache
	}
	if out.res.Reason == ReasonNetwork && parent.Err() != nil {
		return fetched{}, parent.Err()
	}
	return out, nil
}

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
			policy, why := robots.StatusPolicy(resp.StatusCode)
			f.definite(res, policy, why, err, resp.Header)
			return
		}
		visited[next.String()] = true
		res.Redirects++
		u = next
	}
}

// redirects excludes 304, which names no other resource.
func redirects(code int) bool {
	return code >= 300 && code <= 399 && code != http.StatusNotModified
}

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

// errBadLocation marks a Location header that does not parse: an invalid
// response, as net/http's client treats it.
var errBadLocation = errors.New("fetch: Location header does not parse")

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

// success treats a body that fails before its end or MaxBytes as a
// network failure.
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

// contentUsage measures the joined field before joining it, so a
// server's headers cannot make the fetch copy megabytes only to find it
// over usage.MaxValueBytes.
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

func (f *fetchConfig) definite(res *Result, p Policy, why Reason, err error, h http.Header) *Result {
	res.Policy, res.Reason, res.Err = p, why, err
	res.FetchedAt = f.now()
	res.Expires = res.FetchedAt.Add(f.freshness.LifetimeOf(h))
	return res
}

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
