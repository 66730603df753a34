package fetch

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The wait on another's lease is the node's fetch bound and two
// StoreTimeouts, whatever the lease; once a Store call was slow, or with
// unbounded Store calls, it is the lease time, which holds two slow calls.
func TestLeaseWaitIsTheNodesOwn(t *testing.T) {
	for _, tc := range []struct {
		name         string
		fetchTimeout time.Duration
		storeTimeout time.Duration
		wait, slow   time.Duration
	}{
		{"Timeout 5 s", 5 * time.Second, 0, 5200 * time.Millisecond, 9 * time.Second},
		{"the defaults", 0, 0, 30200 * time.Millisecond, 34 * time.Second},
		{"StoreTimeout 1 s", 5 * time.Second, time.Second, 7 * time.Second, 45 * time.Second},
		{"no fetch bound", -1, 0, 30200 * time.Millisecond, 34 * time.Second},
		{"no Store bound", 5 * time.Second, -1, 7 * time.Second, 7 * time.Second},
	} {
		c := NewCache(&Fetcher{Timeout: tc.fetchTimeout}, CacheOptions{Store: NewMemoryStore(), StoreTimeout: tc.storeTimeout})
		assert.Equal(t, tc.wait, c.leaseWait(false), tc.name)
		assert.Equal(t, tc.slow, c.leaseWait(true), tc.name)
		assert.Equal(t, c.leaseTime(), c.leaseWait(true), tc.name)
	}
}

// A lease key written, not taken, with a TTL under ten lease times (one
// redisstore respects) holds the origin: each fresh node waits its own
// lease wait, not the lease time nor the lease's TTL, then fetches itself
// and writes nothing. Before the bound, each waited the lease time: 4.3 s
// here.
func TestForgedLeaseIsWaitedOnlyTheNodesBound(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, rules)))
	store := NewMemoryStore()
	newNode := func() *Cache {
		return NewCache(&Fetcher{Client: clientTo(t, s.Listener.Addr().String(), nil), Timeout: 300 * time.Millisecond},
			CacheOptions{Store: store})
	}
	probe := newNode()
	require.Equal(t, 4300*time.Millisecond, probe.leaseTime())
	require.Equal(t, 500*time.Millisecond, probe.leaseWait(false))
	key := storeKey("http://site.test")
	store.mu.Lock()
	store.leases[key] = memoryItem{data: "forged", expires: time.Now().Add(9 * probe.leaseTime())}
	store.mu.Unlock()

	for i := range 3 {
		c := newNode()
		start := time.Now()
		res := getOK(t, c, "http://site.test/")
		waited := time.Since(start)
		assert.False(t, res.Agent("FooBot").Allowed("/a"))
		assert.GreaterOrEqual(t, waited, c.leaseWait(false), "node %d waited for the holder first", i)
		assert.Less(t, waited, c.leaseWait(false)+maxPoll+300*time.Millisecond, "node %d waited no longer than its bound", i)
		st := c.Stats()
		assert.Equal(t, int64(1), st.Fetches, "node %d fetched itself", i)
		assert.Zero(t, st.SharedWrites, "node %d holds no lease to write with", i)
	}
	assert.Equal(t, 3, cnt.get(""))
	store.mu.Lock()
	defer store.mu.Unlock()
	assert.Equal(t, "forged", store.leases[key].data, "the forged lease still holds")
}

// slowAfterStore answers its first calls at once and every later one
// delay late.
type slowAfterStore struct {
	Store
	fast  int64
	delay time.Duration
	calls atomic.Int64
}

func (s *slowAfterStore) wait() {
	if s.calls.Add(1) > s.fast {
		time.Sleep(s.delay)
	}
}

func (s *slowAfterStore) Get(ctx context.Context, key string) ([]byte, error) {
	s.wait()
	return s.Store.Get(ctx, key)
}

func (s *slowAfterStore) Lease(ctx context.Context, key string, ttl time.Duration) (string, error) {
	s.wait()
	return s.Store.Lease(ctx, key, ttl)
}

// A Store that turns slow while a node waits on a live lease makes the
// holder's calls as slow as the waiter's: the waiter then waits the lease
// time, and serves the holder's entry written after its lease wait
// without a second fetch. Its Store is slow from the first poll on here.
func TestLeaseWaitGrowsWhenTheStoreIsSlow(t *testing.T) {
	h := newHeldFetch()
	s := serve(t, h.handler())
	mem := NewMemoryStore()
	holder := node(t, s.Listener.Addr().String(), nil, mem, CacheOptions{})
	const timeout = 50 * time.Millisecond
	waiterStore := &slowAfterStore{Store: mem, fast: 2, delay: 3 * timeout}
	waiter := NewCache(&Fetcher{Client: clientTo(t, s.Listener.Addr().String(), nil), Timeout: 100 * time.Millisecond},
		CacheOptions{Store: waiterStore, StoreTimeout: timeout})
	require.Equal(t, 200*time.Millisecond, waiter.leaseWait(false))

	go func() { _, _ = holder.Get(context.Background(), "http://site.test/") }()
	<-h.fetching
	time.AfterFunc(3*waiter.leaseWait(false), func() { close(h.release) })
	res := getOK(t, waiter, "http://site.test/")
	assert.False(t, res.Agent("FooBot").Allowed("/a"))
	assert.Equal(t, 1, h.cnt.get(""), "the site fetched once")
	st := waiter.Stats()
	assert.Equal(t, int64(1), st.SharedHits)
	assert.Positive(t, st.StoreSlow)
	assert.Zero(t, st.Fetches)
}
