package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// slowStore answers every call delay late, and the calls on keys in hang
// not before the test ends.
type slowStore struct {
	Store
	delay time.Duration
	hang  map[string]bool
	done  chan struct{}
}

func newSlowStore(t *testing.T, s Store, delay time.Duration, hang ...string) *slowStore {
	st := &slowStore{Store: s, delay: delay, hang: map[string]bool{}, done: make(chan struct{})}
	for _, origin := range hang {
		st.hang[storeKey(origin)] = true
	}
	t.Cleanup(func() { close(st.done) })
	return st
}

func (s *slowStore) wait(key string) {
	if s.hang[key] {
		<-s.done
	}
	time.Sleep(s.delay)
}

func (s *slowStore) Get(ctx context.Context, key string) ([]byte, error) {
	s.wait(key)
	return s.Store.Get(ctx, key)
}

func (s *slowStore) Lease(ctx context.Context, key string, ttl time.Duration) (string, error) {
	s.wait(key)
	return s.Store.Lease(ctx, key, ttl)
}

func (s *slowStore) Put(ctx context.Context, key, token string, v []byte, ttl time.Duration) error {
	s.wait(key)
	return s.Store.Put(ctx, key, token, v, ttl)
}

func (s *slowStore) Release(ctx context.Context, key, token string) error {
	s.wait(key)
	return s.Store.Release(ctx, key, token)
}

// heldFetch serves rules, holding the first request until released, and
// says on fetching when it has it: the node that sent it holds the lease.
type heldFetch struct {
	cnt      counter
	fetching chan struct{}
	release  chan struct{}
	once     sync.Once
}

func newHeldFetch() *heldFetch {
	return &heldFetch{fetching: make(chan struct{}), release: make(chan struct{})}
}

func (h *heldFetch) handler() http.HandlerFunc {
	return h.cnt.wrap(func(w http.ResponseWriter, r *http.Request) {
		first := false
		h.once.Do(func() { first = true })
		if first {
			close(h.fetching)
			<-h.release
		}
		text(200, rules)(w, r)
	})
}

// A Store that answers every call three times StoreTimeout late is slow,
// not down: a node whose lease on the origin is live is waited for, and
// its entry served; the site is fetched once.
func TestSharedSlowStoreIsWaitedFor(t *testing.T) {
	h := newHeldFetch()
	s := serve(t, h.handler())
	mem := NewMemoryStore()
	holder := node(t, s.Listener.Addr().String(), nil, mem, CacheOptions{})
	const timeout = 50 * time.Millisecond
	slow := node(t, s.Listener.Addr().String(), nil, newSlowStore(t, mem, 3*timeout), CacheOptions{StoreTimeout: timeout})

	go func() { _, _ = holder.Get(context.Background(), "http://site.test/") }()
	<-h.fetching
	time.AfterFunc(4*timeout, func() { close(h.release) })
	res := getOK(t, slow, "http://site.test/")
	assert.False(t, res.Agent("FooBot").Allowed("/a"))
	assert.Equal(t, 1, h.cnt.get(""), "the site fetched once")
	st := slow.Stats()
	assert.Equal(t, int64(1), st.SharedHits)
	assert.Positive(t, st.StoreSlow)
	assert.Zero(t, st.StoreErrors)
	assert.Zero(t, st.Fetches)
}

// A call unanswered past storeWait while the Store answers other calls
// is slow, no failure: the node waits for the origin within the lease
// time, then fetches itself, and the breaker stays closed. A Store that
// answers nothing is hung: its calls are failures (TestSharedStoreFaultsNeverStopChecks).
func TestSharedSlowPastTheWaitIsNoFailure(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, rules)))
	const timeout = 10 * time.Millisecond
	store := newSlowStore(t, NewMemoryStore(), 0, "http://stuck.test")
	c := NewCache(&Fetcher{Client: clientTo(t, s.Listener.Addr().String(), nil), Timeout: 500 * time.Millisecond},
		CacheOptions{Store: store, StoreTimeout: timeout, StoreRetry: time.Hour})
	require.Equal(t, 200*time.Millisecond, c.storeWait())

	stop := make(chan struct{})
	others := make(chan struct{})
	go func() {
		defer close(others)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			_, _ = c.Get(context.Background(), fmt.Sprintf("http://other%d.test/", i))
		}
	}()
	start := time.Now()
	getOK(t, c, "http://stuck.test/")
	close(stop)
	<-others
	assert.GreaterOrEqual(t, time.Since(start), c.leaseTime(), "waited within the lease time")
	st := c.Stats()
	assert.Zero(t, st.StoreErrors, "slow, not failed")
	assert.Positive(t, st.StoreSlow)
	assert.Equal(t, 1, cnt.get("stuck.test/robots.txt"))
	ok, _ := c.shared.allow(c.storeSilence())
	assert.True(t, ok, "the breaker stays closed")
}

// The bound of a slow call is slowStoreFactor × StoreTimeout, and the
// lease time holds two of them besides the fetch; a Store is hung after
// hungStoreFactor × StoreTimeout without an answer.
func TestSlowStoreFactors(t *testing.T) {
	for _, c := range []struct {
		timeout, wait, lease, silence time.Duration
	}{
		{0, 2 * time.Second, DefaultTimeout + 4*time.Second, 10 * time.Second},
		{10 * time.Millisecond, 200 * time.Millisecond, DefaultTimeout + 400*time.Millisecond, time.Second},
		{-1, -1, DefaultTimeout + 2*time.Second, -1},
	} {
		cache := NewCache(&Fetcher{}, CacheOptions{Store: NewMemoryStore(), StoreTimeout: c.timeout})
		assert.Equal(t, c.wait, cache.storeWait(), "StoreTimeout %v", c.timeout)
		assert.Equal(t, c.lease, cache.leaseTime(), "StoreTimeout %v", c.timeout)
		assert.Equal(t, c.silence, cache.storeSilence(), "StoreTimeout %v", c.timeout)
	}
	assert.Equal(t, 20, slowStoreFactor)
	assert.Equal(t, 100, hungStoreFactor)
}

// timeoutError is a net.Error that timed out, as a client's dial, read or
// write deadline reports it.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

// Time running out is told from a Store that refuses or fails a call.
func TestIsTimeout(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{context.DeadlineExceeded, true},
		{fmt.Errorf("get: %w", context.DeadlineExceeded), true},
		{&net.OpError{Op: "dial", Net: "tcp", Err: timeoutError{}}, true},
		{&net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}, true},
		{&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}, false},
		{&net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}, false},
		{io.EOF, false},
		{context.Canceled, false},
		{errors.New("ERR unknown command"), false},
		{errStoreDown, false},
	} {
		assert.Equal(t, c.want, isTimeout(c.err), "%v", c.err)
	}
}

// A Store that is down fails each call at once: a refused call is not
// waited for, and after storeFailuresToOpen of them the Store is paused.
func TestSharedDownStoreFailsFast(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, rules)))
	store := newFaultyStore(t, "error")
	c := node(t, s.Listener.Addr().String(), nil, store, CacheOptions{StoreTimeout: time.Hour, StoreRetry: time.Hour})
	for i := range 2 * storeFailuresToOpen {
		getOK(t, c, fmt.Sprintf("http://down%d.test/", i))
	}
	st := c.Stats()
	assert.Equal(t, int64(storeFailuresToOpen), st.StoreErrors)
	assert.Zero(t, st.StoreSlow)
	assert.Equal(t, int64(storeFailuresToOpen), store.calls.Load(), "paused after the failures")
	assert.Equal(t, 2*storeFailuresToOpen, cnt.get(""))
}

// lateLeaseStore takes the first lease it is asked for at once but
// answers late, past the check's wait.
type lateLeaseStore struct {
	Store
	delay time.Duration
	first sync.Once
}

func (s *lateLeaseStore) Lease(ctx context.Context, key string, ttl time.Duration) (string, error) {
	token, err := s.Store.Lease(ctx, key, ttl)
	s.first.Do(func() { time.Sleep(s.delay) })
	return token, err
}

// A Lease answered after the check stopped waiting took the lease under a
// token no check holds: the call releases it when its answer comes, and
// the origin is not held for the lease time; the waiting check takes the
// lease, fetches and writes the entry.
func TestSharedLateLeaseIsReleased(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, rules)))
	const timeout = 10 * time.Millisecond
	store := &lateLeaseStore{Store: NewMemoryStore(), delay: 2 * slowStoreFactor * timeout}
	c := NewCache(&Fetcher{Client: clientTo(t, s.Listener.Addr().String(), nil), Timeout: 5 * time.Second},
		CacheOptions{Store: store, StoreTimeout: timeout})
	start := time.Now()
	getOK(t, c, "http://site.test/")
	assert.Less(t, time.Since(start), c.leaseTime(), "the lost lease did not hold the origin")
	st := c.Stats()
	assert.Positive(t, st.StoreSlow)
	assert.Zero(t, st.StoreErrors)
	assert.Equal(t, int64(1), st.SharedWrites, "the check took the lease at a later poll")
	assert.Equal(t, 1, cnt.get(""))
}
