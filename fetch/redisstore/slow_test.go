package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/fetch"
	"github.com/fastrobots/robots/fetch/redisstore"
)

// delayProxy is a loopback TCP proxy to a Redis that passes each chunk of
// the server's replies on delay late: a Redis slow to answer, or a client
// on a node so busy that it reads its answers late.
type delayProxy struct {
	ln     net.Listener
	target string
	delay  time.Duration
}

func newDelayProxy(tb testing.TB, target string, delay time.Duration) *delayProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(tb, err)
	p := &delayProxy{ln: ln, target: target, delay: delay}
	var wg sync.WaitGroup
	tb.Cleanup(func() {
		_ = ln.Close()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { p.serve(c) })
		}
	})
	return p
}

func (p *delayProxy) addr() string { return p.ln.Addr().String() }

// serve passes requests on at once and replies delay late, until either
// side closes.
func (p *delayProxy) serve(client net.Conn) {
	defer client.Close()
	server, err := net.Dial("tcp", p.target)
	if err != nil {
		return
	}
	defer server.Close()
	go func() {
		_, _ = io.Copy(server, client)
		_ = server.Close()
	}()
	buf := make([]byte, 64<<10)
	for {
		n, err := server.Read(buf)
		if n > 0 {
			time.Sleep(p.delay)
			if _, werr := client.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// heldSite serves a robots.txt naming its host, holding the first request
// until release is closed, and counts requests.
type heldSite struct {
	srv      *httptest.Server
	fetches  atomic.Int64
	fetching chan struct{}
	release  chan struct{}
	once     sync.Once
}

func newHeldSite(tb testing.TB) *heldSite {
	h := &heldSite{fetching: make(chan struct{}), release: make(chan struct{})}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.fetches.Add(1)
		first := false
		h.once.Do(func() { first = true })
		if first {
			close(h.fetching)
			<-h.release
		}
		_, _ = w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
	}))
	tb.Cleanup(h.srv.Close)
	return h
}

// A Redis slow to answer one node (every reply 300 ms late, three times
// the default StoreTimeout) while another node holds the origin's lease:
// the slow node waits for the holder's entry and serves it; the site is
// fetched once, and no call counts as a failure.
func TestSlowRedisCausesNoSecondFetch(t *testing.T) {
	srv := startRedis(t)
	site := newHeldSite(t)
	proxy := newDelayProxy(t, srv.addr(), 300*time.Millisecond)
	newNode := func(rdb redis.UniversalClient) *fetch.Cache {
		f := &fetch.Fetcher{Client: dialAllTo(t, site.srv.Listener.Addr().String()), Timeout: 10 * time.Second}
		return fetch.NewCache(f, fetch.CacheOptions{Store: redisstore.New(rdb, redisstore.Options{Prefix: "slow:"})})
	}
	holder := newNode(srv.client(t))
	slowClient := redis.NewClient(&redis.Options{Addr: proxy.addr(), ContextTimeoutEnabled: true, DialTimeout: 100 * time.Millisecond, DialerRetries: 1})
	t.Cleanup(func() { _ = slowClient.Close() })
	slow := newNode(slowClient)

	go func() { _, _ = holder.Get(context.Background(), "http://site.test/") }()
	<-site.fetching
	time.AfterFunc(time.Second, func() { close(site.release) })
	ok, err := fetch.NewChecker(slow).Allowed(t.Context(), "bot", "http://site.test/private/x")
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Equal(t, int64(1), site.fetches.Load(), "the site fetched once")
	st := slow.Stats()
	assert.Equal(t, int64(1), st.SharedHits)
	assert.Zero(t, st.Fetches)
	assert.Positive(t, st.StoreSlow)
	assert.Zero(t, st.StoreErrors)
}

// A Redis that is down (a closed port: every dial refused) fails each
// call at once, not after the wait for a slow one: checks go on, each
// origin fetched by the node, and after 3 failed calls in a row the
// cache leaves Redis alone.
func TestRedisDownFailsFast(t *testing.T) {
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	rdb := redis.NewClient(&redis.Options{Addr: addr, ContextTimeoutEnabled: true, DialTimeout: 100 * time.Millisecond, DialerRetries: 1})
	t.Cleanup(func() { _ = rdb.Close() })
	calls := &callCounter{Store: redisstore.New(rdb, redisstore.Options{})}
	o := newOrigins(t)
	f := &fetch.Fetcher{Client: dialAllTo(t, o.srv.Listener.Addr().String()), Timeout: 10 * time.Second}
	cache := fetch.NewCache(f, fetch.CacheOptions{Store: calls, StoreRetry: time.Hour})
	checker := fetch.NewChecker(cache)
	const origins = 10
	for i := range origins {
		ok, err := checker.Allowed(t.Context(), "bot", "http://"+site(i)+"/public")
		require.NoError(t, err)
		assert.True(t, ok)
		assert.Equal(t, 1, o.fetches(site(i), ""))
	}
	st := cache.Stats()
	assert.Equal(t, int64(3), st.StoreErrors, "three failed calls, then the pause")
	assert.Equal(t, int64(3), calls.n.Load())
	assert.Zero(t, st.StoreSlow, "a refused call is not waited for")
	var opErr *net.OpError
	require.ErrorAs(t, calls.last(), &opErr)
	assert.Equal(t, "dial", opErr.Op, "refused at the dial: %v", calls.last())
	assert.Less(t, calls.longest(), time.Second, "no call waited as for a slow Redis")
}

// callCounter counts a Store's calls, and keeps the last error and the
// longest call.
type callCounter struct {
	fetch.Store
	n       atomic.Int64
	mu      sync.Mutex
	err     error
	slowest time.Duration
}

func (c *callCounter) note(start time.Time, err error) {
	c.n.Add(1)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil && !errors.Is(err, fetch.ErrForeignValue) {
		c.err = err
	}
	c.slowest = max(c.slowest, time.Since(start))
}

func (c *callCounter) longest() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.slowest
}

func (c *callCounter) last() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *callCounter) Get(ctx context.Context, key string) ([]byte, error) {
	start := time.Now()
	b, err := c.Store.Get(ctx, key)
	c.note(start, err)
	return b, err
}

func (c *callCounter) Lease(ctx context.Context, key string, ttl time.Duration) (string, error) {
	start := time.Now()
	tok, err := c.Store.Lease(ctx, key, ttl)
	c.note(start, err)
	return tok, err
}

// signal sends sig to the server.
func (s *redisServer) signal(tb testing.TB, sig os.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	require.NoError(tb, s.cmd.Process.Signal(sig))
}

// A Redis that answers nothing (stopped: connections accepted, no reply)
// is waited for as a slow one until it has been silent for 100 ×
// StoreTimeout; then it is hung: its calls are failures, and after 3 the
// cache leaves it alone. Every check is answered, and right.
func TestHungRedisIsPaused(t *testing.T) {
	srv := startRedis(t)
	rdb := srv.client(t)
	calls := &callCounter{Store: redisstore.New(rdb, redisstore.Options{Prefix: "hung:"})}
	o := newOrigins(t)
	f := &fetch.Fetcher{Client: dialAllTo(t, o.srv.Listener.Addr().String()), Timeout: 5 * time.Second}
	const timeout = 10 * time.Millisecond // slow past 200 ms, hung after 1 s of silence
	cache := fetch.NewCache(f, fetch.CacheOptions{Store: calls, StoreTimeout: timeout, StoreRetry: time.Hour})
	checker := fetch.NewChecker(cache)
	ok, err := checker.Allowed(t.Context(), "bot", "http://"+site(0)+"/public")
	require.NoError(t, err)
	require.True(t, ok)

	srv.signal(t, syscall.SIGSTOP)
	defer srv.signal(t, syscall.SIGCONT)
	start := time.Now()
	const origins = 10
	for i := 1; i <= origins; i++ {
		ok, err := checker.Allowed(t.Context(), "bot", "http://"+site(i)+"/public")
		require.NoError(t, err)
		assert.True(t, ok)
		assert.Equal(t, 1, o.fetches(site(i), ""))
	}
	elapsed := time.Since(start)
	st := cache.Stats()
	assert.Equal(t, int64(3), st.StoreErrors, "three failures once hung, then the pause")
	assert.Positive(t, st.StoreSlow, "waited for as a slow Redis first")
	assert.GreaterOrEqual(t, elapsed, 100*timeout, "hung only after the silence")
	assert.Less(t, elapsed, 5*time.Second, "the silence and a few calls, not a lease time per check")
	before := calls.n.Load()
	_, err = checker.Allowed(t.Context(), "bot", "http://"+site(origins+1)+"/public")
	require.NoError(t, err)
	assert.Equal(t, before, calls.n.Load(), "paused: no call")
}
