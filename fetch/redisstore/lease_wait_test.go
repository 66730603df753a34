package redisstore_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/fetch"
	"github.com/fastrobots/robots/fetch/redisstore"
)

// A lease key written with SET, not taken, with a TTL under ten lease
// times: Lease respects it as another node's, and each fresh node waits
// its own bound on it (its fetch's 300 ms and two StoreTimeouts of
// 100 ms), not the lease time (4.3 s: two slow calls of 2 s each) nor the
// lease's TTL, then fetches itself.
func TestForgedLeaseIsWaitedOnlyTheNodesBoundInRedis(t *testing.T) {
	const (
		fetchTimeout = 300 * time.Millisecond
		leaseTime    = fetchTimeout + 2*20*fetch.DefaultStoreTimeout
		leaseWait    = fetchTimeout + 2*fetch.DefaultStoreTimeout
	)
	srv := startRedis(t)
	c := srv.client(t)
	ctx := t.Context()
	site := newDisallowAll(t)
	store := redisstore.New(c, redisstore.Options{Prefix: "forged:"})
	lease := "forged:{v1/" + site.srv.URL + "}lease"
	require.NoError(t, c.Set(ctx, lease, "forged", 9*leaseTime).Err())
	token, err := store.Lease(ctx, "v1/"+site.srv.URL, leaseTime)
	require.NoError(t, err, "a lease under ten lease times is not foreign")
	require.Empty(t, token, "held")

	for i := range 3 {
		cache := fetch.NewCache(&fetch.Fetcher{Client: site.srv.Client(), Timeout: fetchTimeout},
			fetch.CacheOptions{Store: store})
		start := time.Now()
		ok, err := fetch.NewChecker(cache).Allowed(ctx, "bot", site.srv.URL+"/x")
		waited := time.Since(start)
		require.NoError(t, err)
		assert.False(t, ok)
		assert.GreaterOrEqual(t, waited, leaseWait, "node %d waited for the holder first", i)
		assert.Less(t, waited, leaseWait+500*time.Millisecond, "node %d waited no longer than its bound", i)
		st := cache.Stats()
		assert.Equal(t, int64(1), st.Fetches, "node %d fetched itself", i)
		assert.Zero(t, st.SharedWrites, "node %d wrote nothing", i)
	}
	assert.Equal(t, 3, site.fetches())
	got, err := c.Get(ctx, lease).Result()
	require.NoError(t, err)
	assert.Equal(t, "forged", got, "the forged lease still holds")
}
