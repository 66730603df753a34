package fetch

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A seeded answer is served without a fetch until it expires, counted
// from its fetch time; then the origin is fetched as for any answer.
func TestCachePutServedUntilExpiry(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, "User-agent: *\nDisallow: /\n")))
	clock := newFakeClock()
	c := newTestCache(t, clock, CacheOptions{})
	fetchedAt := clock.Now().Add(-time.Hour)

	put, err := c.Put(s.URL+"/any/page", 200, []byte(rules), fetchedAt)
	require.NoError(t, err)
	assert.Equal(t, Conditional, put.Policy)
	assert.Equal(t, fetchedAt, put.FetchedAt)
	assert.Equal(t, fetchedAt.Add(DefaultLifetime), put.Expires, "a response without Cache-Control")
	assert.Equal(t, s.URL+"/robots.txt", put.URL)

	ch := NewChecker(c)
	ok, err := ch.Allowed(t.Context(), "Googlebot", s.URL+"/private/x")
	require.NoError(t, err)
	assert.False(t, ok, "the seeded rules decide")
	ok, err = ch.Allowed(t.Context(), "Googlebot", s.URL+"/public")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Zero(t, cnt.get(""), "no fetch while the seeded answer holds")

	clock.Advance(DefaultLifetime - time.Hour)
	ok, err = ch.Allowed(t.Context(), "Googlebot", s.URL+"/public")
	require.NoError(t, err)
	assert.False(t, ok, "expired: the origin's own file, which disallows all, was fetched")
	assert.Equal(t, 1, cnt.get(""))
	st := c.Stats()
	assert.Equal(t, int64(1), st.Fetches)
	assert.Equal(t, int64(2), st.Hits)
}

// Put classifies a status as a fetch does.
func TestCachePutClassifiesStatus(t *testing.T) {
	clock := newFakeClock()
	now := clock.Now()
	for _, tc := range []struct {
		status int
		policy Policy
		reason Reason
	}{
		{200, Conditional, ReasonOK},
		{301, FullAllow, ReasonRedirects},
		{404, FullAllow, ReasonUnavailable},
		{429, FullDisallow, ReasonTooManyRequests},
		{503, FullDisallow, ReasonServerError},
		{0, FullDisallow, ReasonNetwork},
		{999, FullDisallow, ReasonNetwork},
	} {
		c := newTestCache(t, clock, CacheOptions{})
		res, err := c.Put("https://example.test/", tc.status, []byte(rules), now)
		require.NoError(t, err)
		assert.Equal(t, tc.policy, res.Policy, "%d", tc.status)
		assert.Equal(t, tc.reason, res.Reason, "%d", tc.status)
		assert.Equal(t, tc.status, res.Status)
		assert.Equal(t, tc.policy == Conditional, res.Robots != nil, "%d", tc.status)
		assert.Equal(t, tc.reason == ReasonNetwork || tc.reason == ReasonRedirects, res.Err != nil, "%d", tc.status)
		if tc.reason.Failed() {
			assert.Equal(t, now.Add(Freshness{}.RetryAfter(statusOf(res), 0, 1)), res.Expires, "%d: retried", tc.status)
			assert.Equal(t, now, res.FailingSince)
		}
	}
}

func TestCachePutRejectsBadURLs(t *testing.T) {
	c := newTestCache(t, nil, CacheOptions{})
	for _, u := range []string{"", "/relative", "ftp://example.test/", "mailto:x@example.test"} {
		_, err := c.Put(u, 200, nil, time.Now())
		assert.Error(t, err, u)
	}
	assert.Zero(t, c.Stats().Entries)
}

// Seeded failures follow the outage rules: the last good copy is served
// stale, and past Unreachable (30 days) of failures the 30-day rule
// applies: the good copy however old, or without one FullAllow.
func TestCachePutFollowsOutageRules(t *testing.T) {
	clock := newFakeClock()
	t0 := clock.Now()
	day := 24 * time.Hour

	c := newTestCache(t, clock, CacheOptions{})
	_, err := c.Put("http://a.test/", 503, nil, t0)
	require.NoError(t, err)
	res, err := c.Put("http://a.test/", 503, nil, t0.Add(31*day))
	require.NoError(t, err)
	assert.Equal(t, FullAllow, res.Policy)
	assert.Equal(t, ReasonUnreachable, res.Reason)
	assert.Equal(t, t0, res.FailingSince)

	_, err = c.Put("http://b.test/", 200, []byte(rules), t0)
	require.NoError(t, err)
	res, err = c.Put("http://b.test/", 500, nil, t0.Add(time.Hour))
	require.NoError(t, err)
	assert.True(t, res.Stale, "within MaxStale, the good copy serves")
	assert.Equal(t, Conditional, res.Policy)
	res, err = c.Put("http://b.test/", 500, nil, t0.Add(3*day))
	require.NoError(t, err)
	assert.Equal(t, FullDisallow, res.Policy, "past MaxStale and short of 30 days: disallowed")
	res, err = c.Put("http://b.test/", 500, nil, t0.Add(32*day))
	require.NoError(t, err)
	assert.True(t, res.Stale)
	assert.Equal(t, Conditional, res.Policy, "the 30-day rule serves the good copy however old")
}

// An answer older than the origin's latest is ignored.
func TestCachePutNeverRollsBack(t *testing.T) {
	clock := newFakeClock()
	c := newTestCache(t, clock, CacheOptions{})
	newer, err := c.Put("http://a.test/", 404, nil, clock.Now())
	require.NoError(t, err)
	res, err := c.Put("http://a.test/", 200, []byte(rules), clock.Now().Add(-time.Minute))
	require.NoError(t, err)
	assert.Same(t, newer, res)
	assert.Equal(t, 1, c.Stats().Entries)
}

// Seeded entries are charged against MaxMemory and evicted as fetched
// ones are.
func TestCachePutCountsAgainstMaxMemory(t *testing.T) {
	clock := newFakeClock()
	body := []byte("User-agent: *\n" + strings.Repeat("Disallow: /some/path\n", 200))
	probe := newTestCache(t, clock, CacheOptions{})
	_, err := probe.Put("http://a.test/", 200, body, clock.Now())
	require.NoError(t, err)
	one := probe.Stats().Bytes
	assert.Greater(t, one, int64(200*len("/some/path")))

	c := newTestCache(t, clock, CacheOptions{MaxMemory: one*2 + one/2})
	for _, site := range []string{"a", "b", "c", "d"} {
		_, err := c.Put("http://"+site+".test/", 200, body, clock.Now())
		require.NoError(t, err)
	}
	st := c.Stats()
	assert.Equal(t, 2, st.Entries)
	assert.Equal(t, int64(2), st.Evictions)
	assert.LessOrEqual(t, st.Bytes, one*2+one/2)
	assert.Zero(t, st.Fetches)
}
