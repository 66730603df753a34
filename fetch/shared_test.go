package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
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

// node returns a Cache of its own, over a client of its own dialling
// every host to target, sharing store. Unless opts say otherwise, Store
// calls get 5 s: an in-memory Store answers at once, but a loaded machine
// may pause a test for longer than the default 100 ms.
func node(t *testing.T, target string, clock Clock, store Store, opts CacheOptions) *Cache {
	t.Helper()
	opts.Store = store
	if opts.StoreTimeout == 0 {
		opts.StoreTimeout = 5 * time.Second
	}
	f := &Fetcher{Client: clientTo(t, target, nil), Timeout: 2 * time.Second, Clock: clock}
	return NewCache(f, opts)
}

func getOK(t *testing.T, c *Cache, u string) *Result {
	t.Helper()
	res, err := c.Get(t.Context(), u)
	require.NoError(t, err)
	return res
}

// Two nodes: the second takes the first's entry and fetches nothing; each
// parses the body itself.
func TestSharedEntryServesAnotherNode(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, rules, "Cache-Control", "max-age=600", "ETag", `"r1"`)))
	store := NewMemoryStore()
	clock := newFakeClock()
	a := node(t, s.Listener.Addr().String(), clock, store, CacheOptions{})
	b := node(t, s.Listener.Addr().String(), clock, store, CacheOptions{})

	ra := getOK(t, a, "http://site.test/x")
	rb := getOK(t, b, "http://site.test/y")
	assert.Equal(t, 1, cnt.get(""), "one fetch for two nodes")
	assert.NotSame(t, ra.Robots, rb.Robots, "each node parses the body")
	assert.Equal(t, ra.Policy, rb.Policy)
	assert.Equal(t, ra.Bytes, rb.Bytes)
	assert.Equal(t, ra.Expires.UnixNano(), rb.Expires.UnixNano())
	assert.Equal(t, ra.FinalURL, rb.FinalURL)
	for _, p := range []string{"/private/a", "/public"} {
		for _, agent := range []string{"FooBot", "Other"} {
			assert.Equal(t, ra.Agent(agent).Allowed(p), rb.Agent(agent).Allowed(p), "%s %s", agent, p)
		}
	}
	sa, sb := a.Stats(), b.Stats()
	assert.Equal(t, int64(1), sa.Fetches)
	assert.Equal(t, int64(1), sa.SharedWrites)
	assert.Equal(t, int64(0), sb.Fetches)
	assert.Equal(t, int64(1), sb.SharedHits)

	getOK(t, b, "http://site.test/z")
	assert.Equal(t, int64(1), b.Stats().Hits, "then b answers from its own level")
}

// Nodes asking for the same origins at once: one takes each lease, the
// others wait for its entry. Every origin is fetched once.
func TestSharedLeaseOneFetchPerOriginAcrossNodes(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(50 * time.Millisecond) // keep fetches in flight while the others arrive
		text(200, "User-agent: *\nDisallow: /"+strings.Split(r.Host, ".")[0]+"/\n")(w, r)
	}))
	store := NewMemoryStore()
	const nodes, origins = 4, 20
	caches := make([]*Cache, nodes)
	for i := range caches {
		caches[i] = node(t, s.Listener.Addr().String(), nil, store, CacheOptions{StoreTimeout: time.Second})
	}
	var wg sync.WaitGroup
	var wrong atomic.Int64
	for n, c := range caches {
		for o := range origins {
			wg.Go(func() {
				site := fmt.Sprintf("site%02d", (o+n*5)%origins)
				res, err := c.Get(context.Background(), "http://"+site+".test/")
				if err != nil || res.Agent("bot").Allowed("/"+site+"/x") {
					wrong.Add(1)
				}
			})
		}
	}
	wg.Wait()
	assert.Zero(t, wrong.Load())
	counts := cnt.snapshot()
	for o := range origins {
		assert.Equal(t, 1, counts[fmt.Sprintf("site%02d.test/robots.txt", o)], "site%02d", o)
	}
	var shared, fetches int64
	for _, c := range caches {
		st := c.Stats()
		shared += st.SharedHits
		fetches += st.Fetches
	}
	assert.Equal(t, int64(origins), fetches)
	assert.Equal(t, int64(nodes*origins-origins), shared)
}

// A value at the key that is not an entry for the origin is ignored,
// counted, and overwritten by the node's fetch.
func TestSharedCorruptValueIsOverwritten(t *testing.T) {
	foreign, err := (&sharedEntry{origin: "http://other.test", good: &sharedCopy{
		url: "http://other.test/robots.txt", status: 404, policy: FullAllow, reason: ReasonUnavailable,
		fetchedAt: time.Now(), expires: time.Now().Add(time.Hour)}}).encode()
	require.NoError(t, err)
	valid, err := (&sharedEntry{origin: "http://site.test", good: &sharedCopy{
		url: "http://site.test/robots.txt", status: 404, policy: FullAllow, reason: ReasonUnavailable,
		fetchedAt: time.Now(), expires: time.Now().Add(time.Hour)}}).encode()
	require.NoError(t, err)
	flipped := bytes.Clone(valid)
	flipped[len(flipped)/2] ^= 1
	for name, garbage := range map[string][]byte{
		"text":            []byte("User-agent: *\nAllow: /\n"),
		"empty":           {},
		"another origin":  foreign,
		"a flipped bit":   flipped,
		"another version": append([]byte(wireMagic), wireVersion+1, 0, 0, 0, 0),
	} {
		var cnt counter
		s := serve(t, cnt.wrap(text(200, "User-agent: *\nDisallow: /\n")))
		store := NewMemoryStore()
		key := storeKey("http://site.test")
		tok, err := store.Lease(t.Context(), key, time.Minute)
		require.NoError(t, err)
		require.NoError(t, store.Put(t.Context(), key, tok, garbage, time.Hour))

		c := node(t, s.Listener.Addr().String(), nil, store, CacheOptions{})
		res := getOK(t, c, "http://site.test/a")
		assert.Equal(t, Conditional, res.Policy, name)
		assert.False(t, res.Agent("x").Allowed("/a"), "%s: the fetched rules, not the value's", name)
		assert.Equal(t, 1, cnt.get(""), name)
		st := c.Stats()
		assert.Equal(t, int64(1), st.StoreCorrupt, name)
		assert.Equal(t, int64(1), st.SharedWrites, "%s: overwritten", name)
		v, err := store.Get(t.Context(), key)
		require.NoError(t, err)
		_, err = decodeShared(v, "http://site.test")
		assert.NoError(t, err, "%s: the key now holds an entry", name)
	}
}

// faultyStore wraps a Store and fails in the mode set: "error" returns an
// error, "hang" blocks until the test ends whatever the context, "panic"
// panics.
type faultyStore struct {
	Store
	mode  atomic.Value
	calls atomic.Int64
	done  chan struct{}
}

func newFaultyStore(t *testing.T, mode string) *faultyStore {
	f := &faultyStore{Store: NewMemoryStore(), done: make(chan struct{})}
	f.mode.Store(mode)
	t.Cleanup(func() { close(f.done) })
	return f
}

var errStoreDown = errors.New("store down")

func (f *faultyStore) fault() error {
	f.calls.Add(1)
	switch f.mode.Load().(string) {
	case "error":
		return errStoreDown
	case "hang":
		<-f.done
		return errStoreDown
	case "panic":
		panic("store bug")
	}
	return nil
}

func (f *faultyStore) Get(ctx context.Context, key string) ([]byte, error) {
	if err := f.fault(); err != nil {
		return nil, err
	}
	return f.Store.Get(ctx, key)
}

func (f *faultyStore) Lease(ctx context.Context, key string, ttl time.Duration) (string, error) {
	if err := f.fault(); err != nil {
		return "", err
	}
	return f.Store.Lease(ctx, key, ttl)
}

func (f *faultyStore) Put(ctx context.Context, key, token string, v []byte, ttl time.Duration) error {
	if err := f.fault(); err != nil {
		return err
	}
	return f.Store.Put(ctx, key, token, v, ttl)
}

func (f *faultyStore) Release(ctx context.Context, key, token string) error {
	if err := f.fault(); err != nil {
		return err
	}
	return f.Store.Release(ctx, key, token)
}

// A Store that fails, hangs or panics never stops a check: the node
// fetches itself. A failing call fails at once; a hanging one is waited
// for as a slow one until the Store has answered nothing for
// storeSilence, then fails; after storeFailuresToOpen failures in a row
// the Store is left alone.
func TestSharedStoreFaultsNeverStopChecks(t *testing.T) {
	for _, mode := range []string{"error", "hang", "panic"} {
		var cnt counter
		s := serve(t, cnt.wrap(text(200, rules)))
		store := newFaultyStore(t, mode)
		c := node(t, s.Listener.Addr().String(), nil, store, CacheOptions{StoreTimeout: 2 * time.Millisecond, StoreRetry: time.Hour})
		const origins = 10
		for i := range origins {
			res := getOK(t, c, fmt.Sprintf("http://site%d.test/a", i))
			assert.Equal(t, Conditional, res.Policy, mode)
			assert.False(t, res.Agent("FooBot").Allowed("/a"), mode)
		}
		assert.Equal(t, origins, cnt.get(""), "%s: each origin fetched by the node itself", mode)
		st := c.Stats()
		assert.Equal(t, int64(storeFailuresToOpen), st.StoreErrors, mode)
		assert.Equal(t, int64(storeFailuresToOpen)+st.StoreSlow, store.calls.Load(),
			"%s: calls until the Store is left alone: the failed ones, and the slow ones before the Store is hung", mode)
		if mode != "hang" {
			assert.Zero(t, st.StoreSlow, "%s: a failure is not waited for", mode)
		}
		assert.Zero(t, st.SharedWrites, mode)
	}
}

// Each Store call is bounded even when the Store ignores its context: a
// check with a hanging Store ends. It waits for it as for a slow one, the
// lease time and one call at most, and once the Store has answered
// nothing for storeSilence, its calls get StoreTimeout alone.
func TestSharedHangingStoreIsBounded(t *testing.T) {
	s := serve(t, text(200, rules))
	store := newFaultyStore(t, "hang")
	c := NewCache(&Fetcher{Client: clientTo(t, s.Listener.Addr().String(), nil), Timeout: time.Second},
		CacheOptions{Store: store, StoreTimeout: 5 * time.Millisecond})
	require.Equal(t, 500*time.Millisecond, c.storeSilence())
	require.Greater(t, c.leaseTime(), c.storeSilence(), "the first check's wait ends when the Store is hung")
	bounded := func(bound time.Duration) {
		t.Helper()
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _ = c.Get(context.Background(), fmt.Sprintf("http://site%d.test/", store.calls.Load()))
		}()
		select {
		case <-done:
		case <-time.After(bound):
			t.Fatalf("a check waited on a hanging Store past %v", bound)
		}
	}
	bounded(c.leaseTime() + c.storeWait() + 5*time.Second)
	calls := store.calls.Load()
	bounded(5 * time.Second)
	assert.Equal(t, calls+1, store.calls.Load(), "hung: the first failed call ends the flight's use of the Store")
	assert.Equal(t, int64(2), c.Stats().StoreErrors, "one failure for each check")
}

// The Store is left alone for StoreRetry after storeFailuresToOpen
// failures, then tried again; once it answers, sharing resumes. The pause
// is read on the cache's clock: it ends when the clock has moved StoreRetry
// on, however little real time passed.
func TestSharedStoreRecovers(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, rules)))
	store := newFaultyStore(t, "error")
	const retry = time.Hour
	clock := newFakeClock()
	opts := CacheOptions{StoreRetry: retry}
	a := node(t, s.Listener.Addr().String(), clock, store, opts)
	b := node(t, s.Listener.Addr().String(), clock, store, opts)
	for i := range storeFailuresToOpen {
		getOK(t, a, fmt.Sprintf("http://down%d.test/", i))
	}
	calls := store.calls.Load()
	getOK(t, a, "http://paused.test/")
	assert.Equal(t, calls, store.calls.Load(), "paused: no call")

	store.mode.Store("ok")
	clock.Advance(retry - time.Nanosecond)
	getOK(t, a, "http://still.test/")
	assert.Equal(t, calls, store.calls.Load(), "a nanosecond short of StoreRetry on the clock: still paused")
	clock.Advance(time.Nanosecond)
	getOK(t, a, "http://back.test/")
	getOK(t, b, "http://back.test/")
	assert.Equal(t, 1, cnt.get("back.test/robots.txt"), "sharing resumed")
	assert.Equal(t, int64(1), b.Stats().SharedHits)
}

// A negative StoreRetry means no pause: after any number of failures,
// every refresh asks the Store again.
func TestSharedNegativeStoreRetryNeverPauses(t *testing.T) {
	s := serve(t, text(200, rules))
	store := newFaultyStore(t, "error")
	a := node(t, s.Listener.Addr().String(), nil, store, CacheOptions{StoreRetry: -1})
	for i := range 2 * storeFailuresToOpen {
		before := store.calls.Load()
		getOK(t, a, fmt.Sprintf("http://down%d.test/", i))
		assert.Greater(t, store.calls.Load(), before, "refresh %d asked the Store", i)
	}
	assert.Equal(t, int64(2*storeFailuresToOpen), a.Stats().StoreErrors)
}

// ttlStore records the ttl of every Put.
type ttlStore struct {
	Store
	mu   sync.Mutex
	ttls []time.Duration
}

func (s *ttlStore) Put(ctx context.Context, key, token string, v []byte, ttl time.Duration) error {
	s.mu.Lock()
	s.ttls = append(s.ttls, ttl)
	s.mu.Unlock()
	return s.Store.Put(ctx, key, token, v, ttl)
}

// A shared entry stays in the Store StoreRetain past the expiry of what it
// serves: 24 h for zero, the value given, and none for a negative value.
func TestSharedStoreRetain(t *testing.T) {
	s := serve(t, text(200, rules, "Cache-Control", "max-age=600"))
	for _, c := range []struct {
		retain, want time.Duration
	}{
		{0, 10*time.Minute + DefaultStoreRetain},
		{time.Hour, 10*time.Minute + time.Hour},
		{-1, 10 * time.Minute},
	} {
		store := &ttlStore{Store: NewMemoryStore()}
		a := node(t, s.Listener.Addr().String(), newFakeClock(), store, CacheOptions{StoreRetain: c.retain})
		getOK(t, a, "http://retain.test/")
		assert.Equal(t, []time.Duration{c.want}, store.ttls, "StoreRetain %v", c.retain)
	}
	assert.Equal(t, 24*time.Hour, DefaultStoreRetain)
}

// hookStore runs a function before the first Lease.
type hookStore struct {
	Store
	once        sync.Once
	beforeLease func()
}

func (h *hookStore) Lease(ctx context.Context, key string, ttl time.Duration) (string, error) {
	h.once.Do(h.beforeLease)
	return h.Store.Lease(ctx, key, ttl)
}

// Another node writes its entry and lets the lease go between this node's
// read and its lease: this node reads again, and does not fetch.
func TestSharedEntryWrittenBeforeTheLease(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, rules)))
	store := NewMemoryStore()
	a := node(t, s.Listener.Addr().String(), nil, store, CacheOptions{})
	hook := &hookStore{Store: store, beforeLease: func() { getOK(t, a, "http://site.test/") }}
	b := node(t, s.Listener.Addr().String(), nil, hook, CacheOptions{})
	res := getOK(t, b, "http://site.test/")
	assert.Equal(t, Conditional, res.Policy)
	assert.Equal(t, 1, cnt.get(""), "a fetched; b read a's entry")
	assert.Equal(t, int64(1), b.Stats().SharedHits)
	tok, err := store.Lease(t.Context(), storeKey("http://site.test"), time.Minute)
	require.NoError(t, err)
	assert.NotEmpty(t, tok, "b released the lease it took")
}

// A node holding a lease that died: the others wait no longer than the
// lease, then one takes it, fetches and writes.
func TestSharedLeaseOfADeadNodeEnds(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, rules)))
	store := NewMemoryStore()
	key := storeKey("http://site.test")
	_, err := store.Lease(t.Context(), key, 200*time.Millisecond) // the dead node's
	require.NoError(t, err)
	c := node(t, s.Listener.Addr().String(), nil, store, CacheOptions{})
	res := getOK(t, c, "http://site.test/")
	assert.Equal(t, Conditional, res.Policy)
	assert.Equal(t, 1, cnt.get(""))
	assert.Equal(t, int64(1), c.Stats().SharedWrites, "the node took the ended lease and wrote")
}

// A lease held past the waiter's lease wait (a node configured with a
// longer one, or a lease key forged): the waiter fetches itself after its
// own wait, shorter than the lease time, and writes nothing.
func TestSharedWaitIsBoundedByTheLease(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, rules)))
	store := NewMemoryStore()
	_, err := store.Lease(t.Context(), storeKey("http://site.test"), time.Hour)
	require.NoError(t, err)
	c := NewCache(&Fetcher{Client: clientTo(t, s.Listener.Addr().String(), nil), Timeout: 100 * time.Millisecond},
		CacheOptions{Store: store, StoreTimeout: 10 * time.Millisecond})
	assert.Equal(t, 500*time.Millisecond, c.leaseTime(), "the fetch bound and two slow Store calls")
	start := time.Now()
	res := getOK(t, c, "http://site.test/")
	waited := time.Since(start)
	assert.GreaterOrEqual(t, waited, c.leaseWait(false), "waited for the lease")
	assert.Less(t, waited, c.leaseTime(), "waited its own bound, not the lease time")
	assert.Equal(t, Conditional, res.Policy)
	assert.Equal(t, 1, cnt.get(""))
	assert.Zero(t, c.Stats().SharedWrites)
}

// countingStore counts the Gets of a Store.
type countingStore struct {
	Store
	gets atomic.Int64
}

func (c *countingStore) Get(ctx context.Context, key string) ([]byte, error) {
	c.gets.Add(1)
	return c.Store.Get(ctx, key)
}

// While it waits, a node polls from firstPoll, doubling up to maxPoll: a
// wait of a second takes about ten polls, not hundreds.
func TestSharedWaitPollsWithBackoff(t *testing.T) {
	s := serve(t, text(200, rules))
	store := &countingStore{Store: NewMemoryStore()}
	_, err := store.Lease(t.Context(), storeKey("http://site.test"), time.Second)
	require.NoError(t, err)
	c := node(t, s.Listener.Addr().String(), nil, store, CacheOptions{})
	getOK(t, c, "http://site.test/")
	// 5+10+20+40+80+160 ms, then every 200 ms: 6 polls in 315 ms, 4 more
	// by one second; besides them, the Get before the wait and the one
	// after the lease.
	polls := store.gets.Load() - 2
	assert.GreaterOrEqual(t, polls, int64(6))
	assert.LessOrEqual(t, polls, int64(12))
}

// The 30-day rule counts from the fleet's first failure: a node that
// joins during a long outage serves the last good copy at once, and
// without one allows everything.
func TestSharedUnreachableAcrossNodes(t *testing.T) {
	for _, withCopy := range []bool{true, false} {
		sw := newSwitchable("ok")
		if !withCopy {
			sw.set("503")
		}
		s := serve(t, sw.handler())
		store := NewMemoryStore()
		clock := newFakeClock()
		a := node(t, s.Listener.Addr().String(), clock, store, CacheOptions{})
		first := getOK(t, a, "http://site.test/")
		sw.set("503")
		start := clock.Now()
		for clock.Now().Sub(start) <= 31*24*time.Hour {
			clock.Advance(first.Lifetime() + time.Hour)
			first = getOK(t, a, "http://site.test/")
		}
		fetches := sw.cnt.get("")
		b := node(t, s.Listener.Addr().String(), clock, store, CacheOptions{})
		res := getOK(t, b, "http://site.test/private/x")
		assert.Equal(t, fetches, sw.cnt.get(""), "b fetched nothing")
		assert.Equal(t, first.FailingSince.UnixNano(), res.FailingSince.UnixNano(), "the fleet's outage")
		if withCopy {
			assert.True(t, res.Stale)
			assert.Equal(t, Conditional, res.Policy, "the last good copy, however old")
			assert.False(t, res.Agent("x").Allowed("/private/x"))
		} else {
			assert.Equal(t, FullAllow, res.Policy)
			assert.Equal(t, ReasonUnreachable, res.Reason)
		}
		require.NotNil(t, res.LastFailure)
		assert.Equal(t, ReasonServerError, res.LastFailure.Reason)
	}
}

// A node's failure is shared with the last good copy: another node serves
// the copy (Stale) within MaxStale, and the failure's backoff.
func TestSharedFailureKeepsTheGoodCopy(t *testing.T) {
	sw := newSwitchable("ok")
	s := serve(t, sw.handler())
	store := NewMemoryStore()
	clock := newFakeClock()
	a := node(t, s.Listener.Addr().String(), clock, store, CacheOptions{})
	b := node(t, s.Listener.Addr().String(), clock, store, CacheOptions{})
	good := getOK(t, a, "http://site.test/")
	clock.Advance(good.Lifetime())
	sw.set("500")
	fromA := getOK(t, a, "http://site.test/")
	fromB := getOK(t, b, "http://site.test/")
	assert.Equal(t, 2, sw.cnt.get(""))
	for _, r := range []*Result{fromA, fromB} {
		assert.True(t, r.Stale)
		assert.Equal(t, Conditional, r.Policy)
		assert.Equal(t, fromA.Expires.UnixNano(), r.Expires.UnixNano(), "retried when a retries")
		assert.Equal(t, 500, r.LastFailure.Status)
	}
}

// A shared copy expired: the node holding the lease refreshes it with the
// shared validators; the 304 renews it for the fleet, and a node whose
// copy has the same body keeps its parse.
func TestSharedConditionalRefresh(t *testing.T) {
	v := &versioned{body: rules, etag: `"r1"`, header: []string{"Cache-Control", "max-age=60"}}
	s := serve(t, v.handler)
	store := NewMemoryStore()
	clock := newFakeClock()
	a := node(t, s.Listener.Addr().String(), clock, store, CacheOptions{})
	b := node(t, s.Listener.Addr().String(), clock, store, CacheOptions{})
	first := getOK(t, a, "http://site.test/")
	clock.Advance(time.Minute)
	renewed := getOK(t, b, "http://site.test/")
	assert.Equal(t, `"r1"`, v.last().Get("If-None-Match"), "b sent a's validators")
	assert.Equal(t, 1, v.count(304))
	assert.Equal(t, clock.Now(), renewed.FetchedAt)
	again := getOK(t, a, "http://site.test/")
	assert.Same(t, first.Robots, again.Robots, "a keeps its parse: the body is the same")
	assert.Equal(t, renewed.Expires.UnixNano(), again.Expires.UnixNano())
	assert.Equal(t, 1, v.count(200))
	assert.Equal(t, int64(1), a.Stats().SharedHits)

	clock.Advance(time.Minute)
	v.set("User-agent: *\nDisallow: /v2\n", `"r2"`)
	changed := getOK(t, a, "http://site.test/")
	assert.False(t, changed.Agent("x").Allowed("/v2"))
	fromB := getOK(t, b, "http://site.test/")
	assert.False(t, fromB.Agent("x").Allowed("/v2"), "b takes the new version")
	assert.Equal(t, 2, v.count(200))
}

// A body cut at 500 KiB is shared as cut: the other node's file says
// Truncated, and a rule past the limit is ignored there too. A body a
// Fetcher with a larger limit read past MaxSharedBody is not shared.
func TestSharedTruncatedBody(t *testing.T) {
	body := bigRobots(700 << 10)
	var cnt counter
	s := serve(t, cnt.wrap(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(body) }))
	store := NewMemoryStore()
	a := node(t, s.Listener.Addr().String(), nil, store, CacheOptions{})
	b := node(t, s.Listener.Addr().String(), nil, store, CacheOptions{})
	ra := getOK(t, a, "http://site.test/")
	rb := getOK(t, b, "http://site.test/")
	assert.Equal(t, 1, cnt.get(""))
	assert.True(t, rb.Truncated)
	assert.True(t, rb.Robots.Truncated())
	assert.Equal(t, robots.MaxBytes, rb.Bytes)
	assert.Equal(t, ra.Robots.Lines(), rb.Robots.Lines())
	assert.False(t, rb.Agent("x").Allowed("/early"))
	assert.True(t, rb.Agent("x").Allowed("/late"))

	big := func() *Cache {
		f := &Fetcher{Client: clientTo(t, s.Listener.Addr().String(), nil), Timeout: 2 * time.Second, MaxBytes: 1 << 20}
		return NewCache(f, CacheOptions{Store: store, StoreTimeout: 5 * time.Second})
	}
	getOK(t, big(), "http://large.test/")
	rl := getOK(t, big(), "http://large.test/")
	assert.Equal(t, 2, cnt.get("large.test/robots.txt"), "more than MaxSharedBody: each node fetches")
	assert.False(t, rl.Agent("x").Allowed("/late"))
}

// What is shared is what was parsed: a gzip body the transport left
// compressed goes decompressed.
func TestSharedGzipBodyIsSharedDecompressed(t *testing.T) {
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	_, _ = zw.Write([]byte(rules))
	require.NoError(t, zw.Close())
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(zipped.Bytes())
	})
	store := NewMemoryStore()
	a := node(t, s.Listener.Addr().String(), nil, store, CacheOptions{})
	b := node(t, s.Listener.Addr().String(), nil, store, CacheOptions{})
	getOK(t, a, "http://site.test/")
	rb := getOK(t, b, "http://site.test/")
	assert.Equal(t, int64(1), b.Stats().SharedHits)
	assert.Equal(t, len(rules), rb.Bytes)
	assert.False(t, rb.Agent("FooBot").Allowed("/x"))
}

// Answers without a body are shared with their reason and error.
func TestSharedPoliciesAndErrors(t *testing.T) {
	for name, h := range map[string]http.HandlerFunc{
		"404":           text(404, "not here"),
		"loop":          redirectTo(http.StatusFound, "/robots.txt"),
		"503":           text(503, ""),
		"no status 200": func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) },
	} {
		var cnt counter
		s := serve(t, cnt.wrap(h))
		store := NewMemoryStore()
		a := node(t, s.Listener.Addr().String(), nil, store, CacheOptions{})
		b := node(t, s.Listener.Addr().String(), nil, store, CacheOptions{})
		ra := getOK(t, a, "http://site.test/")
		rb := getOK(t, b, "http://site.test/")
		assert.Equal(t, 1, cnt.get(""), name)
		assert.Equal(t, ra.Policy, rb.Policy, name)
		assert.Equal(t, ra.Reason, rb.Reason, name)
		assert.Equal(t, ra.Status, rb.Status, name)
		if ra.Err != nil {
			assert.Equal(t, ra.Err.Error(), rb.Err.Error(), name)
			for _, e := range []error{ErrRedirectLoop, ErrBadRedirect} {
				assert.Equal(t, errors.Is(ra.Err, e), errors.Is(rb.Err, e), name)
			}
		}
	}
}
