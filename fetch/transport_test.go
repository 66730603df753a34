package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
)

// site serves robotsTxt at /robots.txt (with robotsStatus) and "page" at
// every other path, counting requests per path and recording when each
// page request arrived and the User-Agent of the robots.txt requests.
type site struct {
	cnt counter

	mu       sync.Mutex
	arrivals []time.Time
	agents   []string
}

func (s *site) handler(robotsStatus int, robotsTxt string) http.HandlerFunc {
	return s.cnt.wrap(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			s.agents = append(s.agents, r.UserAgent())
			text(robotsStatus, robotsTxt)(w, r)
			return
		}
		s.arrivals = append(s.arrivals, time.Now())
		if target, ok := strings.CutPrefix(r.URL.Path, "/go/"); ok {
			http.Redirect(w, r, "/"+target, http.StatusFound)
			return
		}
		_, _ = io.WriteString(w, "page")
	})
}

// transportClient returns a client sending through a Transport over a base
// transport of its own.
func transportClient(t *testing.T, opts TransportOptions) (*http.Client, *Transport) {
	t.Helper()
	base := &http.Transport{MaxIdleConnsPerHost: 64}
	t.Cleanup(base.CloseIdleConnections)
	tr := NewTransport(base, opts)
	return &http.Client{Transport: tr}, tr
}

func get(ctx context.Context, c *http.Client, u string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

func TestTransportDisallowedNeverReachesTheServer(t *testing.T) {
	var st site
	s := serve(t, st.handler(200, "User-agent: *\nDisallow: /private\n\nUser-agent: ExampleBot\nDisallow: /bot-only\n"))
	c, _ := transportClient(t, TransportOptions{Agent: "ExampleBot"})

	for range 3 {
		require.NoError(t, get(t.Context(), c, s.URL+"/public"))
		require.NoError(t, get(t.Context(), c, s.URL+"/private"), "ExampleBot's own group applies")
		err := get(t.Context(), c, s.URL+"/bot-only/page?q=1")
		require.ErrorIs(t, err, ErrDisallowed)
		var de *DisallowedError
		require.ErrorAs(t, err, &de)
		var ue *url.Error
		require.ErrorAs(t, err, &ue, "http.Client wraps it in a *url.Error")
		assert.Equal(t, s.URL+"/bot-only/page?q=1", de.URL)
		assert.Equal(t, "ExampleBot", de.Agent)
		assert.Equal(t, Conditional, de.Policy)
		assert.Equal(t, ReasonOK, de.Reason)
		require.NotNil(t, de.Rule)
		assert.Equal(t, 5, de.Rule.Line)
		assert.Equal(t, s.URL+"/robots.txt", de.RobotsURL)
		assert.Contains(t, err.Error(), "line 5: Disallow: /bot-only")
	}
	// A redirect to a disallowed path is checked at its hop.
	err := get(t.Context(), c, s.URL+"/go/bot-only/x")
	assert.ErrorIs(t, err, ErrDisallowed)

	host := s.Listener.Addr().String()
	assert.Equal(t, map[string]int{
		"":                      8,
		host + "/robots.txt":    1,
		host + "/public":        3,
		host + "/private":       3,
		host + "/go/bot-only/x": 1,
	}, st.cnt.snapshot(), "no disallowed path reached the server")
	assert.Equal(t, []string{DefaultUserAgent("ExampleBot")}, st.agents, "robots.txt is fetched with the crawler's default User-Agent")
}

// The status table holds through the transport: a robots.txt answering
// 5xx or 429 disallows every request, a 4xx allows every one.
func TestTransportHonoursPolicies(t *testing.T) {
	for _, tc := range []struct {
		status int
		reason Reason
	}{{503, ReasonServerError}, {500, ReasonServerError}, {429, ReasonTooManyRequests}, {404, ReasonUnavailable}, {403, ReasonUnavailable}} {
		var st site
		s := serve(t, st.handler(tc.status, "User-agent: *\nDisallow: /\n"))
		c, _ := transportClient(t, TransportOptions{Agent: "ExampleBot", UserAgent: "ExampleBot/1.0 (+https://example.com/bot)"})
		err := get(t.Context(), c, s.URL+"/a")
		if tc.reason.Failed() {
			require.ErrorIs(t, err, ErrDisallowed, tc.status)
			var de *DisallowedError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, FullDisallow, de.Policy, tc.status)
			assert.Equal(t, tc.reason, de.Reason, tc.status)
			assert.Nil(t, de.Rule, tc.status)
			assert.Contains(t, err.Error(), "full disallow: "+tc.reason.String())
			assert.Zero(t, st.cnt.get(s.Listener.Addr().String()+"/a"), tc.status)
		} else {
			require.NoError(t, err, tc.status)
			assert.Equal(t, 1, st.cnt.get(s.Listener.Addr().String()+"/a"), tc.status)
		}
		assert.Equal(t, []string{"ExampleBot/1.0 (+https://example.com/bot)"}, st.agents)
	}
}

func TestTransportPassesRobotsTxt(t *testing.T) {
	var st site
	s := serve(t, st.handler(200, "User-agent: *\nDisallow: /\n"))
	c, tr := transportClient(t, TransportOptions{Agent: "ExampleBot"})
	require.NoError(t, get(t.Context(), c, s.URL+"/robots.txt"))
	require.NoError(t, get(t.Context(), c, s.URL+"/robots.txt?x=1"))
	assert.Equal(t, 2, st.cnt.get(""), "passed through, without a check")
	assert.Zero(t, tr.Checker().Cache().Stats().Fetches)
	assert.ErrorIs(t, get(t.Context(), c, s.URL+"/"), ErrDisallowed)
}

func TestTransportFetchesRobotsOncePerOriginUnderLoad(t *testing.T) {
	var st site
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			time.Sleep(50 * time.Millisecond) // let the requests pile up
		}
		st.handler(200, "User-agent: *\nDisallow: /private\n")(w, r)
	})
	c, _ := transportClient(t, TransportOptions{Agent: "ExampleBot"})
	errs := make([]error, 50)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() {
			path := "/public/"
			if i%2 == 1 {
				path = "/private/"
			}
			errs[i] = get(t.Context(), c, fmt.Sprintf("%s%s%d", s.URL, path, i))
		})
	}
	wg.Wait()
	for i, err := range errs {
		if i%2 == 1 {
			assert.ErrorIs(t, err, ErrDisallowed, i)
		} else {
			assert.NoError(t, err, i)
		}
	}
	host := s.Listener.Addr().String()
	assert.Equal(t, 1, st.cnt.get(host+"/robots.txt"))
	assert.Equal(t, 26, st.cnt.get(""), "robots.txt and the 25 allowed pages")
}

// gaps returns the time between consecutive arrivals.
func (s *site) gaps() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	times := slices.Clone(s.arrivals)
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	var out []time.Duration
	for i := 1; i < len(times); i++ {
		out = append(out, times[i].Sub(times[i-1]))
	}
	return out
}

// spacingAttempts is how many times the spacing is measured before the
// test gives up on a run whose typical gap is within 10 % of the delay.
const spacingAttempts = 3

// Five requests sent at once with Crawl-delay: 0.5 reach the server 0.5 s
// apart, measured by their arrival times.
//
// The pacer never lets two requests go less than the delay apart, but a
// loaded machine (or the race detector) wakes a goroutine late now and
// then: that lengthens one gap, and may shorten the next as the server
// sees it. So every run must be polite: its span no shorter than the
// delays allow (within 10 %), no two requests within half a delay. And
// the typical (median) gap must be within 10 % of the delay in one run of
// spacingAttempts, which only a pacer that waits too long fails every
// time.
func TestTransportCrawlDelaySpacesRequests(t *testing.T) {
	const delay = 500 * time.Millisecond
	var runs [][]time.Duration
	for range spacingAttempts {
		gaps := pacedGaps(t, "User-agent: *\nCrawl-delay: 0.5\n", 5)
		require.Len(t, gaps, 4)
		runs = append(runs, gaps)
		sorted := slices.Sorted(slices.Values(gaps))
		var span time.Duration
		for _, g := range gaps {
			span += g
		}
		least := time.Duration(len(gaps)) * delay
		assert.GreaterOrEqual(t, span, least-least/10, "span of %v, want at least %v", gaps, least)
		assert.Greater(t, sorted[0], delay/2, "no two requests together: %v", gaps)
		if median := sorted[len(sorted)/2]; median-delay <= delay/10 && delay-median <= delay/10 {
			return
		}
	}
	t.Errorf("no run had its median gap within 10 %% of %v: %v", delay, runs)
}

// pacedGaps sends n requests at once through a pacing transport to a
// server with robots.txt robotsTxt, and returns the gaps between their
// arrivals.
func pacedGaps(t *testing.T, robotsTxt string, n int) []time.Duration {
	var st site
	s := serve(t, st.handler(200, robotsTxt))
	c, _ := transportClient(t, TransportOptions{CrawlDelay: true})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { assert.NoError(t, get(t.Context(), c, fmt.Sprintf("%s/%d", s.URL, i))) })
	}
	wg.Wait()
	return st.gaps()
}

// recordingClock is a stepClock that records the sleeps asked of it.
type recordingClock struct {
	stepClock
	mu     sync.Mutex
	sleeps []time.Duration
}

func (c *recordingClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	c.mu.Unlock()
	return c.stepClock.Sleep(ctx, d)
}

// The delay the transport asks of its pacer, for each way a robots.txt
// sets one, on a clock that moves only when slept on.
func TestTransportDelayOfTheCrawlersGroup(t *testing.T) {
	for _, tc := range []struct {
		name, robots string
		opts         TransportOptions
		want         time.Duration
	}{
		{"crawl-delay", "User-agent: *\nCrawl-delay: 0.2\n", TransportOptions{}, 200 * time.Millisecond},
		{"request-rate", "User-agent: *\nRequest-rate: 5/1s\n", TransportOptions{}, 200 * time.Millisecond},
		{"the longer of both", "User-agent: *\nCrawl-delay: 0.1\nRequest-rate: 4/1s\n", TransportOptions{}, 250 * time.Millisecond},
		{"the crawler's group", "User-agent: *\nCrawl-delay: 5\n\nUser-agent: ExampleBot\nCrawl-delay: 0.15\n", TransportOptions{Agent: "ExampleBot"}, 150 * time.Millisecond},
		{"capped", "User-agent: *\nCrawl-delay: 30\n", TransportOptions{MaxDelay: 150 * time.Millisecond}, 150 * time.Millisecond},
		{"capped by default", "User-agent: *\nCrawl-delay: 3600\n", TransportOptions{}, DefaultMaxDelay},
		{"no cap", "User-agent: *\nCrawl-delay: 3600\n", TransportOptions{MaxDelay: -1}, time.Hour},
	} {
		var st site
		s := serve(t, st.handler(200, tc.robots))
		tc.opts.CrawlDelay = true
		c, tr := transportClient(t, tc.opts)
		clock := &recordingClock{stepClock: stepClock{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}}
		tr.pace.clock = clock
		for i := range 3 {
			require.NoError(t, get(t.Context(), c, fmt.Sprintf("%s/%d", s.URL, i)), tc.name)
		}
		assert.Equal(t, []time.Duration{tc.want, tc.want}, clock.sleeps, tc.name)
	}
}

// Without CrawlDelay, or when the groups ask for no delay, requests are not
// spaced: five requests take far less than one delay.
func TestTransportWithoutDelay(t *testing.T) {
	for _, tc := range []struct {
		name, robots string
		pace         bool
	}{{"not asked", "User-agent: *\nCrawl-delay: 2\n", false}, {"no delay set", "User-agent: *\nDisallow: /x\n", true}} {
		var st site
		s := serve(t, st.handler(200, tc.robots))
		c, tr := transportClient(t, TransportOptions{CrawlDelay: tc.pace})
		begin := time.Now()
		for i := range 5 {
			require.NoError(t, get(t.Context(), c, fmt.Sprintf("%s/%d", s.URL, i)))
		}
		assert.Less(t, time.Since(begin), 2*time.Second, tc.name)
		if tr.pace != nil {
			assert.Zero(t, tr.pace.size(), "an origin without a delay takes no state")
		}
	}
}

func TestTransportCancelledWaitReturnsAtOnce(t *testing.T) {
	var st site
	s := serve(t, st.handler(200, "User-agent: *\nCrawl-delay: 10\n"))
	c, _ := transportClient(t, TransportOptions{CrawlDelay: true})
	require.NoError(t, get(t.Context(), c, s.URL+"/first"))

	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(50*time.Millisecond, cancel)
	begin := time.Now()
	err := get(ctx, c, s.URL+"/second")
	waited := time.Since(begin)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Less(t, waited, 2*time.Second, "returns when cancelled, not after the 10 s delay")
	assert.Zero(t, st.cnt.get(s.Listener.Addr().String()+"/second"))

	ctx, cancel = context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	assert.ErrorIs(t, get(ctx, c, s.URL+"/third"), context.DeadlineExceeded)
}

// stepClock is a pacerClock whose Sleep moves the time on at once, by the
// duration asked plus late, as a loaded machine wakes a sleeper late.
type stepClock struct {
	mu   sync.Mutex
	t    time.Time
	late time.Duration
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *stepClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.advance(d + c.late)
	return nil
}

func (c *stepClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// goTimes lets n requests of origin "o" through p one after the other and
// returns when each went.
func goTimes(t *testing.T, p *pacer, c *stepClock, n int, delay time.Duration) []time.Time {
	t.Helper()
	var out []time.Time
	for range n {
		require.NoError(t, p.wait(t.Context(), "o", delay))
		out = append(out, c.Now())
	}
	return out
}

func TestPacerSpacesFromWhenARequestWent(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	const d = 200 * time.Millisecond
	c := &stepClock{t: t0}
	p := newPacer(-1, c)
	assert.Equal(t, []time.Time{t0, t0.Add(d), t0.Add(2 * d), t0.Add(3 * d)}, goTimes(t, p, c, 4, d),
		"the first goes at once, each next one delay after")

	// Woken 30 ms late, a request delays the next from when it went: no
	// gap is ever shorter than the delay.
	c.late = 30 * time.Millisecond
	times := goTimes(t, p, c, 3, d)
	assert.Equal(t, t0.Add(4*d+c.late), times[0])
	assert.Equal(t, d+c.late, times[1].Sub(times[0]))

	// An origin idle for longer than the delay lets the next go at once.
	c.late = 0
	c.advance(time.Hour)
	now := c.Now()
	assert.Equal(t, []time.Time{now}, goTimes(t, p, c, 1, d))
	require.NoError(t, p.wait(t.Context(), "other", d), "origins are paced apart")
	assert.Equal(t, now, c.Now())
}

// A request cancelled while it waits leaves the origin's time as it was:
// the next one is not pushed back by it.
func TestPacerCancelledWaitLeavesTheTurn(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	const d = time.Second
	c := &stepClock{t: t0}
	p := newPacer(-1, c)
	require.NoError(t, p.wait(t.Context(), "o", d))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	assert.ErrorIs(t, p.wait(ctx, "o", d), context.Canceled)
	assert.Equal(t, t0, c.Now(), "it did not sleep")
	require.NoError(t, p.wait(t.Context(), "o", d))
	assert.Equal(t, t0.Add(d), c.Now(), "the next goes a delay after the first")
	assert.Equal(t, 1, p.size())
}

func TestPacerCapsTheDelay(t *testing.T) {
	for _, tc := range []struct {
		maxDelay, delay, want time.Duration
	}{
		{DefaultMaxDelay, time.Hour, DefaultMaxDelay},
		{-1, time.Hour, time.Hour},
		{time.Second, 500 * time.Millisecond, 500 * time.Millisecond},
		{time.Second, 0, 0},
	} {
		t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		c := &stepClock{t: t0}
		p := newPacer(tc.maxDelay, c)
		times := goTimes(t, p, c, 2, tc.delay)
		assert.Equal(t, tc.want, times[1].Sub(times[0]), "%+v", tc)
	}
	tr := NewTransport(nil, TransportOptions{CrawlDelay: true})
	assert.Equal(t, DefaultMaxDelay, tr.pace.maxDelay, "0 means the default")
	assert.Nil(t, NewTransport(nil, TransportOptions{}).pace, "no pacing unless asked")
}

func TestPacerSweepsIdleOrigins(t *testing.T) {
	c := &stepClock{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	p := newPacer(-1, c)
	for i := range 10 * pacerSweepMin {
		require.NoError(t, p.wait(t.Context(), fmt.Sprint(i), time.Millisecond))
		c.advance(time.Millisecond)
	}
	assert.LessOrEqual(t, p.size(), pacerSweepMin+1, "origins whose delay has run are swept as new ones come")

	busy := newPacer(-1, c)
	for i := range 3 * pacerSweepMin {
		require.NoError(t, busy.wait(t.Context(), fmt.Sprint(i), time.Hour))
	}
	assert.Equal(t, 3*pacerSweepMin, busy.size(), "origins whose delay still runs keep their state")
}

// A scheme robots.txt does not govern goes to the base transport as is;
// an http URL without a host is refused before anything is sent.
func TestTransportSchemesAndHosts(t *testing.T) {
	var seen []string
	base := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		seen = append(seen, req.URL.String())
		return &http.Response{StatusCode: 200, Body: http.NoBody, Request: req}, nil
	})
	tr := NewTransport(base, TransportOptions{Agent: "ExampleBot"})
	for _, u := range []string{"ftp://example.com/a", "data:text/plain,hi", "file:///etc/hosts"} {
		req, err := http.NewRequest(http.MethodGet, u, nil)
		require.NoError(t, err)
		resp, err := tr.RoundTrip(req)
		require.NoError(t, err, u)
		assert.Equal(t, 200, resp.StatusCode)
	}
	assert.Equal(t, []string{"ftp://example.com/a", "data:text/plain,hi", "file:///etc/hosts"}, seen)
	assert.Zero(t, tr.Checker().Cache().Stats().Fetches, "no robots.txt fetched for them")

	body := &closeRecorder{Reader: strings.NewReader("payload")}
	req, err := http.NewRequest(http.MethodPost, "http:///a", body)
	require.NoError(t, err)
	_, err = tr.RoundTrip(req)
	assert.ErrorIs(t, err, robots.ErrNoHost)
	assert.True(t, body.closed, "a refused request's body is closed")
	assert.Len(t, seen, 3, "nothing sent")

	_, err = tr.RoundTrip(&http.Request{Method: http.MethodGet})
	assert.Error(t, err)
}

// A disallowed request's body is closed, as RoundTrip must.
func TestTransportClosesRefusedBody(t *testing.T) {
	var st site
	s := serve(t, st.handler(200, "User-agent: *\nDisallow: /form\n"))
	_, tr := transportClient(t, TransportOptions{})
	body := &closeRecorder{Reader: strings.NewReader("payload")}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.URL+"/form", body)
	require.NoError(t, err)
	_, err = tr.RoundTrip(req)
	assert.ErrorIs(t, err, ErrDisallowed)
	assert.True(t, body.closed)
}

// A Checker given in the options decides, with its own fetcher and cache.
func TestTransportUsesTheGivenChecker(t *testing.T) {
	var st site
	s := serve(t, st.handler(200, "User-agent: *\nDisallow: /private\n"))
	checker := NewChecker(NewCache(&Fetcher{Client: testClient(t), UserAgent: "SharedBot/2.0"}, CacheOptions{}))
	c, tr := transportClient(t, TransportOptions{Agent: "ExampleBot", Checker: checker})
	assert.Same(t, checker, tr.Checker())
	require.NoError(t, get(t.Context(), c, s.URL+"/a"))
	assert.ErrorIs(t, get(t.Context(), c, s.URL+"/private"), ErrDisallowed)
	ok, err := checker.Allowed(t.Context(), "OtherBot", s.URL+"/private")
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Equal(t, int64(1), checker.Cache().Stats().Fetches, "one fetch shared by the transport and other callers")
	assert.Equal(t, []string{"SharedBot/2.0"}, st.agents)
}

func TestDisallowedErrorMessage(t *testing.T) {
	e := &DisallowedError{URL: "https://example.com/a", Policy: FullDisallow, Reason: ReasonNetwork}
	assert.Equal(t, `fetch: robots.txt disallows "https://example.com/a" for * (full disallow: network failure)`, e.Error())
	assert.True(t, errors.Is(e, ErrDisallowed))
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

type closeRecorder struct {
	io.Reader
	closed bool
}

func (c *closeRecorder) Close() error { c.closed = true; return nil }

// seededTransport returns a Transport for ExampleBot over a checker whose
// cache holds, fresh, site.example's robots.txt (body) and the answer of a
// server error for down.example, so that no request is sent.
func seededTransport(t *testing.T, body string) *Transport {
	t.Helper()
	cache := NewCache(nil, CacheOptions{})
	_, err := cache.Put("https://site.example/robots.txt", 200, []byte(body), time.Now())
	require.NoError(t, err)
	_, err = cache.Put("http://down.example:8080/robots.txt", 500, nil, time.Now())
	require.NoError(t, err)
	return NewTransport(unsentBase{}, TransportOptions{Agent: "ExampleBot", Checker: NewChecker(cache)})
}

// unsentBase answers every request without sending it.
type unsentBase struct{}

func (unsentBase) RoundTrip(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody}, nil
}

// The check of a warm origin-form request, on the URL built on the stack,
// gives what deciding every URL the server may read gives: the same
// refusal, rule and policy, or none; for a target sent with its escapes
// normalised, as sent and as written.
func TestTransportWarmCheckAgreesWithDecide(t *testing.T) {
	tr := seededTransport(t, "User-agent: *\nDisallow: /private\nAllow: /private/open\nDisallow: /*?sid=\nDisallow: /%C3%BC\nDisallow: /a%2Fb\nDisallow: /%7Eesc\n")
	u := func(host, path, query string) *url.URL {
		return &url.URL{Scheme: "https", Host: host, Path: path, RawQuery: query}
	}
	// The requests sent normalised, and whether each is refused.
	normalisedRefused := map[string]bool{"escaped unreserved": true, "escaped unreserved allowed": false,
		"disallowed as written": true, "lower-case escape": true, "escaped query": true, "escaped dots": true}
	for _, tc := range []struct {
		name string
		req  *http.Request
		warm bool // decided on the warm path
	}{
		{"allowed", builtRequest(u("site.example", "/a", "")), true},
		{"disallowed", builtRequest(u("site.example", "/private/x", "")), true},
		{"allowed by the longer rule", builtRequest(u("site.example", "/private/open/x", "")), true},
		{"query disallowed", builtRequest(u("site.example", "/a", "x=1&sid=2")), true},
		{"query allowed", builtRequest(u("site.example", "/a", "x=1")), true},
		{"empty query", builtRequest(&url.URL{Scheme: "https", Host: "site.example", Path: "/a", ForceQuery: true}), true},
		{"empty path", builtRequest(u("site.example", "", "sid=1")), true},
		{"escaped path", builtRequest(u("site.example", "/ü", "")), true},
		{"escaped slash kept by RawPath", builtRequest(&url.URL{Scheme: "https", Host: "site.example", Path: "/a/b", RawPath: "/a%2Fb"}), true},
		{"Opaque path", builtRequest(&url.URL{Scheme: "https", Host: "site.example", Path: "/a", Opaque: "/private"}), true},
		{"upper-case Host header", builtRequest(u("SITE.example", "/private", "")), false},
		{"default port", builtRequest(u("site.example:443", "/private", "")), false},
		{"absolute form", builtRequest(&url.URL{Scheme: "https", Host: "site.example", Opaque: "//site.example/private"}), false},
		{"server error: full disallow", builtRequest(&url.URL{Scheme: "http", Host: "down.example:8080", Path: "/a"}), true},
		{"escaped unreserved", builtRequest(&url.URL{Scheme: "https", Host: "site.example", Path: "/private", RawPath: "/%70rivate"}), true},
		{"escaped unreserved allowed", builtRequest(&url.URL{Scheme: "https", Host: "site.example", Path: "/~x", RawPath: "/%7ex"}), true},
		{"disallowed as written", builtRequest(&url.URL{Scheme: "https", Host: "site.example", Path: "/~esc", RawPath: "/%7Eesc"}), true},
		{"lower-case escape", builtRequest(&url.URL{Scheme: "https", Host: "site.example", Path: "/a/b", RawPath: "/a%2fb"}), true},
		{"escaped query", builtRequest(u("site.example", "/a", "%73id=1")), true},
		{"escaped dots", builtRequest(&url.URL{Scheme: "https", Host: "site.example", Opaque: "/x/%2e%2E/%70rivate"}), true},
	} {
		w := wireRequestOf(tc.req)
		require.NoError(t, w.check(), tc.name)
		_, normalised := normalisedRefused[tc.name]
		var asked *wireRequest
		if sent, ok := withEscapesNormalised(tc.req, &w); assert.Equal(t, normalised, ok, tc.name) && ok {
			written := w
			w, asked = wireRequestOf(sent), &written
		}
		full := tr.admitFull(t.Context(), w, asked) // keeps the agent's resolution on the entry
		_, _, warm := tr.allowedWarm(&w)
		assert.Equal(t, tc.warm, warm, tc.name)
		assert.Equal(t, full, tr.admit(t.Context(), w, asked), tc.name)
		if refused, ok := normalisedRefused[tc.name]; ok {
			assert.Equal(t, refused, errors.Is(full, ErrDisallowed), tc.name)
		}
	}
}

// A warm allowed request costs the check no allocation: its URL is built
// on the stack and decided without a Verdict.
func TestTransportWarmCheckAllocatesNothing(t *testing.T) {
	tr := seededTransport(t, "User-agent: *\nDisallow: /private\n")
	w := wireRequestOf(builtRequest(&url.URL{Scheme: "https", Host: "site.example", Path: "/shop/item", RawQuery: "id=42&ref=home"}))
	require.NoError(t, tr.admit(t.Context(), w, nil))
	ctx := t.Context()
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { _ = tr.admit(ctx, w, nil) }))
}

// A request whose URL is longer than the room on the stack is decided as
// a short one.
func TestTransportWarmCheckOfALongURL(t *testing.T) {
	tr := seededTransport(t, "User-agent: *\nDisallow: /private\n")
	long := strings.Repeat("x", 2*warmBuffer)
	require.NoError(t, tr.admit(t.Context(), wireRequestOf(builtRequest(&url.URL{Scheme: "https", Host: "site.example", Path: "/" + long})), nil))
	err := tr.admit(t.Context(), wireRequestOf(builtRequest(&url.URL{Scheme: "https", Host: "site.example", Path: "/private/" + long})), nil)
	var de *DisallowedError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "https://site.example/private/"+long, de.URL)
}
