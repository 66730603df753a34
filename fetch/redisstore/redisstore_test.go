package redisstore_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/fetch"
	"github.com/fastrobots/robots/fetch/redisstore"
	"github.com/fastrobots/robots/fetch/storetest"
)

func TestContract(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	storetest.Run(t, func(t *testing.T) fetch.Store {
		return redisstore.New(c, redisstore.Options{Prefix: "contract:" + t.Name() + ":"})
	})
}

// Keys start with the prefix and carry the wire format's version in the
// braces of a cluster's hash tag; the lease has a key of its own, with the
// expiry asked.
func TestKeysAreNamespaced(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	ctx := t.Context()
	s := redisstore.New(c, redisstore.Options{Prefix: "fleetA:"})
	token, err := s.Lease(ctx, "v1/http://a.test", time.Minute)
	require.NoError(t, err)
	assert.Len(t, token, 32)
	keys, err := c.Keys(ctx, "*").Result()
	require.NoError(t, err)
	assert.Equal(t, []string{"fleetA:{v1/http://a.test}lease"}, keys)
	ttl, err := c.PTTL(ctx, keys[0]).Result()
	require.NoError(t, err)
	assert.InDelta(t, float64(time.Minute), float64(ttl), float64(5*time.Second))
	require.NoError(t, s.Put(ctx, "v1/http://a.test", token, []byte("entry"), time.Hour))
	keys, err = c.Keys(ctx, "*").Result()
	require.NoError(t, err)
	assert.Equal(t, []string{"fleetA:{v1/http://a.test}"}, keys, "the lease went with the write")

	other := redisstore.New(c, redisstore.Options{Prefix: "fleetB:"})
	v, err := other.Get(ctx, "v1/http://a.test")
	require.NoError(t, err)
	assert.Nil(t, v, "another prefix sees nothing")
	def := redisstore.New(c, redisstore.Options{})
	_, err = def.Lease(ctx, "k", time.Minute)
	require.NoError(t, err)
	n, err := c.Exists(ctx, redisstore.DefaultPrefix+"{k}lease").Result()
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)

	// A Cache's keys name the version: "v1/" and the origin.
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer site.Close()
	cache := fetch.NewCache(&fetch.Fetcher{Client: site.Client()}, fetch.CacheOptions{Store: redisstore.New(c, redisstore.Options{Prefix: "cache:"})})
	_, err = cache.Get(ctx, site.URL+"/")
	require.NoError(t, err)
	n, err = c.Exists(ctx, "cache:{v1/"+site.URL+"}").Result()
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
}

// A key holding garbage, or a value of another type, is counted and
// ignored by the Cache, and overwritten with its entry.
func TestForeignValuesAreOverwritten(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	ctx := t.Context()
	var mu sync.Mutex
	fetches := 0
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		fetches++
		mu.Unlock()
		_, _ = w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
	}))
	defer site.Close()
	key := "foreign:{v1/" + site.URL + "}"
	for name, plant := range map[string]func() error{
		"garbage string": func() error { return c.Set(ctx, key, "\x00not an entry\xff", 0).Err() },
		"a list":         func() error { return c.RPush(ctx, key, "a", "b").Err() },
		"a hash":         func() error { return c.HSet(ctx, key, "policy", "allow").Err() },
	} {
		require.NoError(t, c.Del(ctx, key).Err())
		require.NoError(t, plant(), name)
		cache := fetch.NewCache(&fetch.Fetcher{Client: site.Client()},
			fetch.CacheOptions{Store: redisstore.New(c, redisstore.Options{Prefix: "foreign:"})})
		ok, err := fetch.NewChecker(cache).Allowed(ctx, "bot", site.URL+"/private/x")
		require.NoError(t, err, name)
		assert.False(t, ok, name)
		st := cache.Stats()
		assert.Equal(t, int64(1), st.Fetches, name)
		assert.Equal(t, int64(1), st.StoreCorrupt, "%s: counted", name)
		assert.Zero(t, st.StoreErrors, name)
		assert.Equal(t, int64(1), st.SharedWrites, "%s: overwritten", name)
		typ, err := c.Type(ctx, key).Result()
		require.NoError(t, err)
		assert.Equal(t, "string", typ, name)

		next := fetch.NewCache(&fetch.Fetcher{Client: site.Client()},
			fetch.CacheOptions{Store: redisstore.New(c, redisstore.Options{Prefix: "foreign:"})})
		_, err = next.Get(ctx, site.URL+"/")
		require.NoError(t, err)
		assert.Equal(t, int64(1), next.Stats().SharedHits, "%s: the entry written is read", name)
	}
	assert.Equal(t, 3, fetches)
}

// With Redis down, a check costs a refused connection and the node
// fetches itself; no check fails.
func TestRedisDownChecksGoOn(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	srv.kill()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("User-agent: *\nDisallow: /" + strings.Split(r.Host, ".")[0] + "/\n"))
	}))
	defer site.Close()
	f := &fetch.Fetcher{Client: dialAllTo(t, site.Listener.Addr().String()), Timeout: 5 * time.Second}
	cache := fetch.NewCache(f, fetch.CacheOptions{Store: redisstore.New(c, redisstore.Options{})})
	checker := fetch.NewChecker(cache)
	for i := range 20 {
		site := fmt.Sprintf("site%d", i)
		ok, err := checker.Allowed(t.Context(), "bot", "http://"+site+".test/"+site+"/x")
		require.NoError(t, err)
		assert.False(t, ok)
	}
	st := cache.Stats()
	assert.Equal(t, int64(20), st.Fetches)
	assert.Positive(t, st.StoreErrors)
}

// dialAllTo returns a client whose every connection goes to target, a
// loopback host:port, whatever host the URL names.
func dialAllTo(tb testing.TB, target string) *http.Client {
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", target)
		},
		MaxIdleConns:        64,
		MaxIdleConnsPerHost: 1,
	}
	tb.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}
