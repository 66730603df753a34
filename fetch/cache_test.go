package fetch

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
)

// switchable serves robots.txt in the mode set: "ok" serves rules,
// "500"/"503" that status, "reset" resets the connection.
type switchable struct {
	mode atomic.Value
	cnt  counter
}

func newSwitchable(mode string) *switchable {
	s := &switchable{}
	s.mode.Store(mode)
	return s
}

func (s *switchable) set(mode string) { s.mode.Store(mode) }

func (s *switchable) handler() http.HandlerFunc {
	return s.cnt.wrap(func(w http.ResponseWriter, r *http.Request) {
		switch mode := s.mode.Load().(string); mode {
		case "ok":
			text(200, rules)(w, r)
		case "reset":
			c, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_ = c.(*net.TCPConn).SetLinger(0)
				c.Close()
			}
		default:
			var code int
			_, _ = fmt.Sscan(mode, &code)
			text(code, "")(w, r)
		}
	})
}

// pageGetter returns a function that asks cache for pageURL and fails the
// test on an error.
func pageGetter(t *testing.T, cache *Cache, pageURL string) func() *Result {
	return func() *Result {
		t.Helper()
		res, err := cache.Get(t.Context(), pageURL)
		require.NoError(t, err)
		return res
	}
}

func newTestCache(t *testing.T, clock Clock, opts CacheOptions) *Cache {
	return NewCache(fetcher(t, clock), opts)
}

func TestCacheServesUntilExpiry(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, rules, "Cache-Control", "max-age=120")))
	clock := newFakeClock()
	c := newTestCache(t, clock, CacheOptions{})
	for i := range 5 {
		res, err := c.Get(t.Context(), fmt.Sprintf("%s/page/%d", s.URL, i))
		require.NoError(t, err)
		assert.Equal(t, Conditional, res.Policy)
		assert.Equal(t, 2*time.Minute, res.Lifetime())
	}
	assert.Equal(t, 1, cnt.get(""))
	clock.Advance(119 * time.Second)
	_, err := c.Get(t.Context(), s.URL+"/")
	require.NoError(t, err)
	assert.Equal(t, 1, cnt.get(""), "still fresh")
	clock.Advance(time.Second)
	_, err = c.Get(t.Context(), s.URL+"/")
	require.NoError(t, err)
	assert.Equal(t, 2, cnt.get(""), "expired: fetched again")
	st := c.Stats()
	assert.Equal(t, int64(2), st.Fetches)
	assert.Equal(t, int64(5), st.Hits)
	assert.Equal(t, 1, st.Entries)
}

func TestCacheMaxAgeValues(t *testing.T) {
	for _, c := range []struct {
		cc   string
		want time.Duration
	}{
		{"max-age=0", time.Minute},
		{"max-age=90", 90 * time.Second},
		{"max-age=9999999999999", 24 * time.Hour},
		{"max-age=soon", 24 * time.Hour},
		{"no-store", time.Minute},
		{"no-cache", time.Minute},
		{"", 24 * time.Hour},
	} {
		var cnt counter
		s := serve(t, cnt.wrap(text(200, rules, "Cache-Control", c.cc)))
		clock := newFakeClock()
		cache := newTestCache(t, clock, CacheOptions{})
		for range 3 {
			res, err := cache.Get(t.Context(), s.URL+"/a")
			require.NoError(t, err)
			assert.Equal(t, c.want, res.Lifetime(), c.cc)
		}
		clock.Advance(c.want - time.Nanosecond)
		_, _ = cache.Get(t.Context(), s.URL+"/a")
		assert.Equal(t, 1, cnt.get(""), c.cc)
		clock.Advance(time.Nanosecond)
		_, _ = cache.Get(t.Context(), s.URL+"/a")
		assert.Equal(t, 2, cnt.get(""), c.cc)
	}
}

func TestCacheConfiguredBounds(t *testing.T) {
	s := serve(t, text(200, rules, "Cache-Control", "max-age=60"))
	f := fetcher(t, newFakeClock())
	f.Freshness = Freshness{MinLifetime: 10 * time.Minute, MaxLifetime: time.Hour}
	res, err := NewCache(f, CacheOptions{}).Get(t.Context(), s.URL)
	require.NoError(t, err)
	assert.Equal(t, 10*time.Minute, res.Lifetime())
}

// An origin that answers 5xx for 31 days and was never fetched: fully
// disallowed for 30 days, then fully allowed.
func TestCache5xxFor31DaysWithoutCopy(t *testing.T) {
	srv := newSwitchable("500")
	s := serve(t, srv.handler())
	clock := newFakeClock()
	start := clock.Now()
	get := pageGetter(t, newTestCache(t, clock, CacheOptions{}), s.URL+"/page")

	res := get()
	assert.Equal(t, FullDisallow, res.Policy)
	assert.Equal(t, ReasonServerError, res.Reason)
	assert.Equal(t, start, res.FailingSince)
	require.NotNil(t, res.LastFailure)
	assert.Equal(t, 500, res.LastFailure.Status)
	assert.False(t, res.Agent("Googlebot").Allowed(s.URL+"/page"))

	clock.Advance(15 * 24 * time.Hour)
	res = get()
	assert.Equal(t, FullDisallow, res.Policy, "day 15")
	assert.Equal(t, start, res.FailingSince)

	clock.Advance(15 * 24 * time.Hour)
	res = get()
	assert.Equal(t, FullDisallow, res.Policy, "day 30: not yet more than 30 days")

	clock.Advance(24 * time.Hour)
	res = get()
	assert.Equal(t, FullAllow, res.Policy, "day 31")
	assert.Equal(t, ReasonUnreachable, res.Reason)
	assert.Equal(t, start, res.FailingSince)
	assert.True(t, res.Expires.After(clock.Now()), "still retried")
	assert.True(t, res.Agent("Googlebot").Allowed(s.URL+"/page"))
	assert.Equal(t, 4, srv.cnt.get(""))

	// The origin comes back: its rules apply again.
	srv.set("ok")
	clock.Advance(res.Lifetime())
	res = get()
	assert.Equal(t, Conditional, res.Policy)
	assert.True(t, res.FailingSince.IsZero())
	assert.Nil(t, res.LastFailure)
}

// An origin that answers 5xx for 31 days after serving rules: the last good
// copy serves while no more than MaxStale past its expiry, then the origin
// is fully disallowed, and after 30 days of failures the copy serves again.
func TestCache5xxFor31DaysWithCopy(t *testing.T) {
	srv := newSwitchable("ok")
	s := serve(t, srv.handler())
	clock := newFakeClock()
	start := clock.Now()
	get := pageGetter(t, newTestCache(t, clock, CacheOptions{}), s.URL+"/page")
	good := get()
	require.Equal(t, Conditional, good.Policy)

	srv.set("500")
	clock.Advance(25 * time.Hour) // the copy expired an hour ago
	failStart := clock.Now()
	res := get()
	assert.Equal(t, Conditional, res.Policy, "the last good copy keeps serving")
	assert.True(t, res.Stale)
	assert.Same(t, good.Robots, res.Robots)
	assert.Equal(t, failStart, res.FailingSince)
	assert.Equal(t, ReasonServerError, res.LastFailure.Reason)
	assert.Equal(t, failStart.Add(DefaultRetry), res.Expires, "retried like any failure")
	assert.False(t, res.Agent().Allowed(s.URL+"/private/x"))
	assert.True(t, res.Agent().Allowed(s.URL+"/public"))

	// Its staleness is bounded: MaxStale (24 h) past its expiry.
	clock.Advance(22*time.Hour + 55*time.Minute)
	res = get()
	assert.True(t, res.Stale)
	assert.Equal(t, start.Add(48*time.Hour), res.Expires, "served no later than expiry + MaxStale")
	clock.Advance(5 * time.Minute)
	res = get()
	assert.Equal(t, FullDisallow, res.Policy, "past MaxStale")
	assert.False(t, res.Stale)
	assert.False(t, res.Agent().Allowed(s.URL+"/public"))

	clock.Advance(failStart.Add(30*24*time.Hour + time.Minute).Sub(clock.Now()))
	res = get()
	assert.Equal(t, Conditional, res.Policy, "more than 30 days: the last copy")
	assert.True(t, res.Stale)
	assert.Same(t, good.Robots, res.Robots)
	assert.Equal(t, failStart, res.FailingSince)
	assert.True(t, res.Agent().Allowed(s.URL+"/public"))
	assert.False(t, res.Agent().Allowed(s.URL+"/private/x"))
}

func TestCacheNetworkFailureKeepsGoodCopy(t *testing.T) {
	srv := newSwitchable("ok")
	s := serve(t, srv.handler())
	clock := newFakeClock()
	f := fetcher(t, clock)
	f.Timeout = faultTimeout
	c := NewCache(f, CacheOptions{})
	good, err := c.Get(t.Context(), s.URL)
	require.NoError(t, err)

	srv.set("reset")
	clock.Advance(24 * time.Hour)
	res, err := c.Get(t.Context(), s.URL)
	require.NoError(t, err)
	assert.True(t, res.Stale)
	assert.Same(t, good.Robots, res.Robots)
	assert.Equal(t, ReasonNetwork, res.LastFailure.Reason)

	// A copy from a 404 is a good copy too.
	srv.set("404")
	clock.Advance(time.Hour)
	res, err = c.Get(t.Context(), s.URL)
	require.NoError(t, err)
	assert.Equal(t, FullAllow, res.Policy)
	srv.set("reset")
	clock.Advance(25 * time.Hour)
	res, err = c.Get(t.Context(), s.URL)
	require.NoError(t, err)
	assert.Equal(t, FullAllow, res.Policy)
	assert.True(t, res.Stale)
}

func TestCacheBacksOffOnFailures(t *testing.T) {
	for _, c := range []struct {
		mode  string
		waits []time.Duration
	}{
		{"500", []time.Duration{10 * time.Minute, 20 * time.Minute, 40 * time.Minute, 80 * time.Minute, 2 * time.Hour, 2 * time.Hour}},
		{"429", []time.Duration{10 * time.Minute, 20 * time.Minute, 40 * time.Minute}},
		{"503", []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute}},
		{"reset", []time.Duration{10 * time.Minute, 20 * time.Minute}},
	} {
		srv := newSwitchable(c.mode)
		s := serve(t, srv.handler())
		clock := newFakeClock()
		cache := newTestCache(t, clock, CacheOptions{})
		for i, want := range c.waits {
			res, err := cache.Get(t.Context(), s.URL)
			require.NoError(t, err)
			assert.Equal(t, FullDisallow, res.Policy)
			assert.Equal(t, want, res.Expires.Sub(clock.Now()), "%s: failure %d", c.mode, i+1)
			clock.Advance(want)
		}
		assert.Equal(t, len(c.waits), srv.cnt.get(""), c.mode)
	}
}

func TestCacheRetryAfterReplacesBackoff(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(503, "", "Retry-After", "300")))
	clock := newFakeClock()
	c := newTestCache(t, clock, CacheOptions{})
	for range 3 {
		res, err := c.Get(t.Context(), s.URL)
		require.NoError(t, err)
		assert.Equal(t, 5*time.Minute, res.Expires.Sub(clock.Now()))
		clock.Advance(5 * time.Minute)
	}
}

// 1,000 goroutines ask for 50 origins at once: each origin is fetched once.
func TestCacheOneFetchPerOriginUnderLoad(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(100 * time.Millisecond) // keep the fetches in flight while callers pile up
		text(200, "User-agent: *\nDisallow: /"+strings.Split(r.Host, ".")[0]+"/\n")(w, r)
	}))
	f := &Fetcher{Client: clientTo(t, s.Listener.Addr().String(), nil), Timeout: 10 * time.Second}
	c := NewCache(f, CacheOptions{})
	const origins, callers = 50, 1000
	start := make(chan struct{})
	var wg sync.WaitGroup
	var wrong atomic.Int64
	for i := range callers {
		wg.Go(func() {
			<-start
			site := fmt.Sprintf("site%02d", i%origins)
			res, err := c.Get(context.Background(), fmt.Sprintf("http://%s.test/%s/page%d", site, site, i))
			if err != nil || res.Policy != Conditional || res.Agent("bot").Allowed("/"+site+"/x") {
				wrong.Add(1)
			}
		})
	}
	close(start)
	wg.Wait()
	assert.Zero(t, wrong.Load())
	counts := cnt.snapshot()
	assert.Equal(t, origins, counts[""], "requests in all")
	for i := range origins {
		assert.Equal(t, 1, counts[fmt.Sprintf("site%02d.test/robots.txt", i)], "site%02d", i)
	}
	st := c.Stats()
	assert.Equal(t, int64(origins), st.Fetches)
	assert.Equal(t, origins, st.Entries)
}

// A caller that gives up does not fail the fetch the others wait for.
func TestCacheCallerCancellationDoesNotFailOthers(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(300 * time.Millisecond)
		text(200, rules)(w, r)
	}))
	c := newTestCache(t, nil, CacheOptions{})
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	var patient *Result
	var patientErr error
	var wg sync.WaitGroup
	wg.Go(func() { patient, patientErr = c.Get(t.Context(), s.URL+"/b") })
	res, err := c.Get(ctx, s.URL+"/a")
	assert.Nil(t, res)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	wg.Wait()
	require.NoError(t, patientErr)
	assert.Equal(t, Conditional, patient.Policy)
	res, err = c.Get(t.Context(), s.URL+"/c")
	require.NoError(t, err)
	assert.Same(t, patient, res)
	assert.Equal(t, 1, cnt.get(""))
}

func TestCacheEvictsLeastRecentlyUsedByBytes(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, "User-agent: *\n"+strings.Repeat("Disallow: /some/path\n", 200))))
	client := clientTo(t, s.Listener.Addr().String(), nil)
	page := func(site string) string { return "http://" + site + ".test/x" }
	fetches := func(site string) int { return cnt.get(site + ".test/robots.txt") }

	probe := NewCache(&Fetcher{Client: client}, CacheOptions{})
	_, err := probe.Get(t.Context(), page("a"))
	require.NoError(t, err)
	one := probe.Stats().Bytes
	assert.Greater(t, one, int64(200*len("Disallow: /some/path\n")), "the body is counted")

	c := NewCache(&Fetcher{Client: client}, CacheOptions{MaxMemory: one*2 + one/2})
	for _, site := range []string{"a", "b", "a", "c"} { // a is used after b: b goes
		_, err := c.Get(t.Context(), page(site))
		require.NoError(t, err)
	}
	st := c.Stats()
	assert.Equal(t, 2, st.Entries)
	assert.Equal(t, 2*one, st.Bytes)
	assert.Equal(t, int64(1), st.Evictions)
	assert.LessOrEqual(t, st.Bytes, one*2+one/2)
	_, _ = c.Get(t.Context(), page("a"))
	_, _ = c.Get(t.Context(), page("c"))
	assert.Equal(t, 2, fetches("a"), "a: once by the probe, once by the cache")
	assert.Equal(t, 1, fetches("c"))
	_, _ = c.Get(t.Context(), page("b"))
	assert.Equal(t, 2, fetches("b"), "b was evicted and fetched again")

	// An entry larger than the whole cache is served but not kept.
	tiny := NewCache(&Fetcher{Client: client}, CacheOptions{MaxMemory: one / 2})
	for range 2 {
		res, err := tiny.Get(t.Context(), page("d"))
		require.NoError(t, err)
		assert.Equal(t, Conditional, res.Policy)
	}
	assert.Equal(t, 2, fetches("d"))
	assert.Zero(t, tiny.Stats().Entries)
	assert.Zero(t, tiny.Stats().Bytes)
}

// A large file is charged what its parse holds (the values it keeps and a
// record per line, not the body it was read from), and no more than a few
// times its size.
func TestCacheChargesLargeFiles(t *testing.T) {
	body := "User-agent: *\n" + strings.Repeat("Disallow: /a/b/c/d\n", 20000)
	s := serve(t, text(200, body))
	c := newTestCache(t, nil, CacheOptions{})
	res, err := c.Get(t.Context(), s.URL)
	require.NoError(t, err)
	got := c.Stats().Bytes
	assert.GreaterOrEqual(t, got, res.Robots.MemoryBytes(), "the parsed file is charged")
	assert.Greater(t, got, int64(20000*len("/a/b/c/d")), "every value kept is counted")
	assert.Less(t, got, int64(robots.MaxBytes*4))
}

func TestCacheForget(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, rules)))
	c := newTestCache(t, nil, CacheOptions{})
	_, _ = c.Get(t.Context(), s.URL+"/x")
	c.Forget(s.URL + "/y")
	c.Forget("not a URL")
	assert.Zero(t, c.Stats().Entries)
	assert.Zero(t, c.Stats().Bytes)
	_, _ = c.Get(t.Context(), s.URL+"/x")
	assert.Equal(t, 2, cnt.get(""))
}

func TestCacheRejectsBadURLs(t *testing.T) {
	c := NewCache(nil, CacheOptions{})
	_, err := c.Get(t.Context(), "/relative/path")
	assert.ErrorIs(t, err, robots.ErrNoScheme)
	_, err = c.Get(t.Context(), "mailto:a@example.com")
	assert.ErrorIs(t, err, robots.ErrNoHost)
	_, err = c.Get(t.Context(), "ftp://127.0.0.1/file")
	assert.ErrorIs(t, err, ErrUnsupportedURL)
	assert.Zero(t, c.Stats().Entries)
}

// A Fetcher without a deadline of its own (Timeout < 0) must not let one
// stalled fetch hold every caller of its origin: the cache bounds it by
// FetchTimeout, and the stall is a network failure for all of them.
func TestCacheBoundsAFetchWithoutDeadline(t *testing.T) {
	base := rawServer(t, func(c net.Conn, done <-chan struct{}) {
		sleep(10*time.Second, done) // never answers
	})
	f := &Fetcher{Client: testClient(t), Timeout: -1}
	c := NewCache(f, CacheOptions{FetchTimeout: 200 * time.Millisecond})
	start := time.Now()
	var wg sync.WaitGroup
	results := make([]*Result, 4)
	for i := range results {
		wg.Go(func() {
			res, err := c.Get(context.Background(), base+fmt.Sprintf("/page/%d", i))
			assert.NoError(t, err)
			results[i] = res
		})
	}
	wg.Wait()
	assert.Less(t, time.Since(start), 5*time.Second, "the stalled fetch was cut")
	for _, res := range results {
		require.NotNil(t, res)
		assert.Equal(t, FullDisallow, res.Policy)
		assert.Equal(t, ReasonNetwork, res.Reason)
		assert.ErrorIs(t, res.Err, context.DeadlineExceeded)
	}
	assert.Equal(t, int64(1), c.Stats().Fetches, "the callers shared one fetch")
}

// A host with a trailing dot is the same origin as without it: the cache
// keeps one entry and fetches once.
func TestCacheTrailingDotIsTheSameOrigin(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, rules)))
	port := s.Listener.Addr().(*net.TCPAddr).Port
	c := newTestCache(t, nil, CacheOptions{})
	a := pageGetter(t, c, fmt.Sprintf("http://localhost:%d/a", port))()
	b := pageGetter(t, c, fmt.Sprintf("http://localhost.:%d/b", port))()
	assert.Same(t, a, b)
	assert.Equal(t, 1, cnt.get(""))
	assert.Equal(t, 1, c.Stats().Entries)
}
