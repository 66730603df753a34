package redisstore_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/fetch"
	"github.com/fastrobots/robots/fetch/redisstore"
)

// disallowAll serves "Disallow: /" and counts its requests.
type disallowAll struct {
	srv *httptest.Server
	mu  sync.Mutex
	n   int
}

func newDisallowAll(tb testing.TB) *disallowAll {
	d := &disallowAll{}
	d.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.mu.Lock()
		d.n++
		d.mu.Unlock()
		_, _ = w.Write([]byte("User-agent: *\nDisallow: /\n"))
	}))
	tb.Cleanup(d.srv.Close)
	return d
}

func (d *disallowAll) fetches() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.n
}

// Get sends a value only when it may be an entry: one of
// fetch.MaxSharedValue bytes is read, one byte more is foreign and none
// of it is sent.
func TestGetChecksTheSizeInRedis(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	ctx := t.Context()
	s := redisstore.New(c, redisstore.Options{Prefix: "size:"})
	for _, tc := range []struct {
		size    int64
		foreign bool
	}{{0, false}, {fetch.MaxSharedValue, false}, {fetch.MaxSharedValue + 1, true}, {100 << 20, true}} {
		key := "size:{k}"
		require.NoError(t, c.Del(ctx, key).Err())
		if tc.size > 0 {
			require.NoError(t, c.SetRange(ctx, key, tc.size-1, "x").Err())
		} else {
			require.NoError(t, c.Set(ctx, key, "", 0).Err())
		}
		v, err := s.Get(ctx, "k")
		if tc.foreign {
			assert.ErrorIs(t, err, fetch.ErrForeignValue, "%d bytes", tc.size)
			assert.Nil(t, v)
			continue
		}
		require.NoError(t, err, "%d bytes", tc.size)
		assert.Len(t, v, int(tc.size))
	}
}

// 100 MiB of junk at an entry key is a bad value on every node, not a
// Store error: counted, ignored, and overwritten by the first node's
// entry, which the others then read.
func TestOversizedValueIsOverwritten(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	ctx := t.Context()
	site := newDisallowAll(t)
	key := "big:{v1/" + site.srv.URL + "}"
	require.NoError(t, c.SetRange(ctx, key, 100<<20-1, "x").Err())
	for i := range 3 {
		cache := fetch.NewCache(&fetch.Fetcher{Client: site.srv.Client()},
			fetch.CacheOptions{Store: redisstore.New(c, redisstore.Options{Prefix: "big:"})})
		ok, err := fetch.NewChecker(cache).Allowed(ctx, "bot", site.srv.URL+"/x")
		require.NoError(t, err)
		assert.False(t, ok)
		st := cache.Stats()
		assert.Zero(t, st.StoreErrors, "node %d", i)
		if i == 0 {
			assert.Equal(t, int64(1), st.StoreCorrupt)
			assert.Equal(t, int64(1), st.SharedWrites, "overwritten")
		} else {
			assert.Equal(t, int64(1), st.SharedHits, "node %d reads the entry written", i)
		}
	}
	assert.Equal(t, 1, site.fetches())
	n, err := c.StrLen(ctx, key).Result()
	require.NoError(t, err)
	assert.Less(t, n, int64(fetch.MaxSharedValue))
}

// A lease key that no Lease wrote (a string without an expiry or with one
// more than 10 times the lease time away, a list, a hash) is taken over
// and reported; a lease of another node, with its expiry, is not.
func TestForeignLeaseIsTakenOver(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	ctx := t.Context()
	s := redisstore.New(c, redisstore.Options{Prefix: "lease:"})
	const lease = "lease:{k}lease"
	for name, plant := range map[string]func() error{
		"a string without an expiry": func() error { return c.Set(ctx, lease, "junk", 0).Err() },
		"a list":                     func() error { return c.RPush(ctx, lease, "a").Err() },
		"a hash":                     func() error { return c.HSet(ctx, lease, "f", "v").Err() },
		"a lease for a year":         func() error { return c.Set(ctx, lease, "junk", 365*24*time.Hour).Err() },
		"a lease for 10 min and 1 s": func() error {
			return c.Set(ctx, lease, "junk", 10*time.Minute+time.Second).Err()
		},
	} {
		require.NoError(t, c.Del(ctx, lease).Err())
		require.NoError(t, plant(), name)
		token, err := s.Lease(ctx, "k", time.Minute)
		assert.ErrorIs(t, err, fetch.ErrForeignValue, name)
		assert.Len(t, token, 32, name)
		ttl, err := c.PTTL(ctx, lease).Result()
		require.NoError(t, err)
		assert.Positive(t, ttl, "%s: the lease has an expiry now", name)
		require.NoError(t, s.Put(ctx, "k", token, []byte("v"), time.Minute), name)
	}
	held, err := s.Lease(ctx, "k", time.Minute)
	require.NoError(t, err)
	again, err := s.Lease(ctx, "k", time.Minute)
	require.NoError(t, err, "a lease with an expiry is not foreign")
	assert.Empty(t, again)
	require.NoError(t, s.Release(ctx, "k", held))
	require.NoError(t, c.Set(ctx, lease, "another node's", 10*time.Minute).Err())
	again, err = s.Lease(ctx, "k", time.Minute)
	require.NoError(t, err, "a lease of 10 times the lease time is not foreign")
	assert.Empty(t, again)
}

// Junk at the lease key holds no origin: each node's check takes the
// lease over at once (counted as corrupt), and the entry it writes serves
// the others.
func TestForeignLeaseHoldsNoOrigin(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	ctx := t.Context()
	site := newDisallowAll(t)
	lease := "junk:{v1/" + site.srv.URL + "}lease"
	require.NoError(t, c.Set(ctx, lease, "junk", 0).Err())
	var corrupt, shared int64
	for range 3 {
		cache := fetch.NewCache(&fetch.Fetcher{Client: site.srv.Client()},
			fetch.CacheOptions{Store: redisstore.New(c, redisstore.Options{Prefix: "junk:"})})
		ok, err := fetch.NewChecker(cache).Allowed(ctx, "bot", site.srv.URL+"/x")
		require.NoError(t, err)
		assert.False(t, ok)
		st := cache.Stats()
		corrupt += st.StoreCorrupt
		shared += st.SharedHits
	}
	assert.Equal(t, 1, site.fetches(), "one fetch, no wait for a lease that never ends")
	assert.Equal(t, int64(1), corrupt)
	assert.Equal(t, int64(2), shared)
	n, err := c.Exists(ctx, lease).Result()
	require.NoError(t, err)
	assert.Zero(t, n, "the write released the lease it took over")
}

// Well-formed entries that claim more than a cache could have written are
// bounded on reading: a "404, allow all" a node wrote with a lifetime of
// 100 years serves another node no longer than 24 h; an entry fetched
// 100 years from now is a bad value.
func TestForgedEntriesAreBounded(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	ctx := t.Context()
	var mu sync.Mutex
	status := 404
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.WriteHeader(status)
		_, _ = w.Write([]byte("User-agent: *\nDisallow: /\n"))
	}))
	defer site.Close()
	year := 365 * 24 * time.Hour
	store := redisstore.New(c, redisstore.Options{Prefix: "forged:"})
	newNode := func(clock fetch.Clock, fresh fetch.Freshness) *fetch.Cache {
		return fetch.NewCache(&fetch.Fetcher{Client: site.Client(), Clock: clock, Freshness: fresh},
			fetch.CacheOptions{Store: store, StoreTimeout: 2 * time.Second})
	}
	century := fetch.Freshness{Lifetime: 100 * year, MaxLifetime: 100 * year}

	writer := newNode(nil, century)
	res, err := writer.Get(ctx, site.URL+"/")
	require.NoError(t, err)
	require.Equal(t, fetch.FullAllow, res.Policy)
	mu.Lock()
	status = 200
	mu.Unlock()

	clock := &movableClock{t: time.Now()}
	reader := newNode(clock, fetch.Freshness{})
	res, err = reader.Get(ctx, site.URL+"/")
	require.NoError(t, err)
	assert.Equal(t, fetch.FullAllow, res.Policy, "served while it could be true")
	assert.LessOrEqual(t, res.Expires.Sub(res.FetchedAt), fetch.DefaultMaxLifetime)
	clock.advance(fetch.DefaultMaxLifetime + time.Minute)
	res, err = reader.Get(ctx, site.URL+"/")
	require.NoError(t, err)
	assert.Equal(t, fetch.Conditional, res.Policy, "fetched after 24 h: the real rules")
	assert.False(t, res.Agent("bot").Allowed("/x"))

	future := newNode(&movableClock{t: time.Now().Add(100 * year)}, fetch.Freshness{})
	_, err = future.Get(ctx, site.URL+"/")
	require.NoError(t, err)
	now := newNode(nil, fetch.Freshness{})
	res, err = now.Get(ctx, site.URL+"/")
	require.NoError(t, err)
	st := now.Stats()
	assert.Equal(t, int64(1), st.StoreCorrupt, "fetched 100 years from now: a bad value")
	assert.Equal(t, int64(1), st.Fetches)
	assert.False(t, res.Agent("bot").Allowed("/x"))
}

// movableClock is a fetch.Clock a test moves on.
type movableClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *movableClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *movableClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
