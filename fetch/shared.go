package fetch

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fastrobots/robots"
)

// Defaults of the shared level (CacheOptions.Store).
const (
	DefaultStoreTimeout = 100 * time.Millisecond
	DefaultStoreRetry   = 5 * time.Second
	DefaultStoreRetain  = 24 * time.Hour
)

// storeFailuresToOpen consecutive failures pause the Store: one failure
// is often a blip, three in a row an outage.
const storeFailuresToOpen = 3

// A Store that is down says so (refused, reset, an error reply): the check
// fetches itself, and the breaker pauses the Store. A slow Store says
// nothing yet, and a check that gave up on it would fetch an origin
// another node may be fetching, exactly when the crawl is busiest. So a
// slow call is not a failure (errStoreSlow): the check waits up to
// storeWait, then for the origin's entry within the lease time (await,
// leaseWait).
// Only a Store silent for storeSilence is hung: its timeouts are then
// failures, and later calls get StoreTimeout alone until one answers.
const (
	slowStoreFactor = 20
	hungStoreFactor = 100
)

// The lease wait polls with exponential backoff, so that a waiting node
// learns of a fast fetch quickly and loads the Store little during a slow
// one.
const (
	firstPoll = 5 * time.Millisecond
	maxPoll   = 200 * time.Millisecond
)

var errStorePaused = errors.New("fetch: store paused after failures")

// errStoreSlow is not a failure: the Store is not hung.
var errStoreSlow = errors.New("fetch: store slow to answer")

// breaker pauses the Store for retry after storeFailuresToOpen
// consecutive failures, never for good. The pause is read on the cache's
// clock, so tests can move it; answered on the real clock, as the calls'
// bounds are.
type breaker struct {
	retry time.Duration // negative: no pause
	clock Clock

	mu        sync.Mutex
	failures  int
	openUntil time.Time
	answered  time.Time // the latest success, or the first call

	shards sync.Map // a ShardedStore's shard name → *breaker of its own
}

func (b *breaker) forShard(name string) *breaker {
	if name == "" {
		return b
	}
	if s, ok := b.shards.Load(name); ok {
		return s.(*breaker)
	}
	s, _ := b.shards.LoadOrStore(name, &breaker{retry: b.retry, clock: b.clock})
	return s.(*breaker)
}

func (c *Cache) breakerOf(key string) *breaker {
	if sh, ok := c.opts.Store.(ShardedStore); ok {
		return c.shared.forShard(sh.Shard(key))
	}
	return c.shared
}

// allow also reports whether the call may be waited for as a slow one:
// the Store is not silent.
func (b *breaker) allow(silence time.Duration) (ok, patient bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.answered.IsZero() {
		b.answered = time.Now()
	}
	return !b.clock.Now().Before(b.openUntil), !b.silent(silence)
}

// silent is called with b.mu held.
func (b *breaker) silent(silence time.Duration) bool {
	return silence >= 0 && time.Since(b.answered) >= silence
}

// done turns a timeout into errStoreSlow, not a failure, while the Store
// is not hung.
func (b *breaker) done(err error, ranOut bool, silence time.Duration) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case err == nil:
		b.failures, b.answered = 0, time.Now()
		return nil
	case (ranOut || isTimeout(err)) && !b.silent(silence):
		return errStoreSlow
	}
	if b.failures++; b.failures >= storeFailuresToOpen && b.retry >= 0 {
		b.openUntil = b.clock.Now().Add(b.retry)
	}
	return err
}

// isTimeout includes the client's own dial, read and write timeouts.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// storeCall runs one Store call in a goroutine of its own, so that a Store
// that ignores its context cannot hold the check past its bound: storeWait,
// or StoreTimeout alone when the Store is hung. A panic in the Store is a
// failed call.
func storeCall[T any](c *Cache, ctx context.Context, key string, call func(context.Context) (T, error)) (T, error) {
	var zero T
	silence := c.storeSilence()
	br := c.breakerOf(key)
	ok, patient := br.allow(silence)
	if !ok {
		return zero, errStorePaused
	}
	bound := c.opts.StoreTimeout
	if patient {
		bound = c.storeWait()
	}
	start := time.Now()
	v, ranOut, err := withinTimeout(ctx, bound, call)
	err = br.done(err, ranOut, silence)
	late := c.opts.StoreTimeout >= 0 && time.Since(start) > c.opts.StoreTimeout
	switch {
	case errors.Is(err, errStoreSlow) || err == nil && late:
		c.count(&c.stats.StoreSlow)
	case err != nil:
		c.count(&c.stats.StoreErrors)
	}
	return v, err
}

func (c *Cache) count(n *int64) {
	c.mu.Lock()
	*n++
	c.mu.Unlock()
}

// storeSilence is how long a Store must have answered nothing to be
// hung; negative means never.
func (c *Cache) storeSilence() time.Duration {
	if c.opts.StoreTimeout < 0 {
		return c.opts.StoreTimeout
	}
	return hungStoreFactor * c.opts.StoreTimeout
}

// storeWait is how long a check waits for one slow Store call; negative
// means no bound.
func (c *Cache) storeWait() time.Duration {
	if c.opts.StoreTimeout < 0 {
		return c.opts.StoreTimeout
	}
	return slowStoreFactor * c.opts.StoreTimeout
}

// withinTimeout returns when the time is up even if call does not; ranOut
// excludes the end of the caller's ctx.
func withinTimeout[T any](ctx context.Context, timeout time.Duration, call func(context.Context) (T, error)) (v T, ranOut bool, err error) {
	if timeout < 0 {
		v, err := call(ctx)
		return v, false, err
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type outcome struct {
		v   T
		err error
	}
	ch := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- outcome{err: fmt.Errorf("fetch: store panicked: %v", p)}
			}
		}()
		v, err := call(ctx)
		ch <- outcome{v, err}
	}()
	select {
	case o := <-ch:
		return o.v, o.err != nil && parent.Err() == nil && ctx.Err() != nil, o.err
	case <-ctx.Done():
		var zero T
		return zero, parent.Err() == nil, ctx.Err()
	}
}

// storeGet reads a value the Store set aside as foreign as none.
func (c *Cache) storeGet(ctx context.Context, fl *flight) ([]byte, error) {
	var foreign atomic.Bool
	defer c.noteSlow(fl, time.Now())
	b, err := storeCall(c, ctx, fl.key, func(ctx context.Context) ([]byte, error) {
		b, err := c.opts.Store.Get(ctx, fl.key)
		if setAside(&err, &foreign) {
			b = nil
		}
		return b, err
	})
	c.countForeign(fl, err, &foreign)
	return b, err
}

// storeLease lets a Lease the check stopped waiting for run on, and
// release a lease it takes too late: otherwise it would hold the lease
// under a token no one has, and every node would wait out the lease time.
func (c *Cache) storeLease(ctx context.Context, fl *flight) (string, error) {
	var foreign atomic.Bool
	var late lateToken
	defer c.noteSlow(fl, time.Now())
	token, err := storeCall(c, ctx, fl.key, func(ctx context.Context) (string, error) {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.leaseTime())
		defer cancel()
		token, err := c.opts.Store.Lease(ctx, fl.key, c.leaseTime())
		setAside(&err, &foreign)
		if token != "" && !late.deliver(token) {
			_ = c.opts.Store.Release(ctx, fl.key, token)
		}
		return token, err
	})
	if err != nil {
		if t, ok := late.abandon(); ok {
			token, err = t, nil
		}
	}
	c.countForeign(fl, err, &foreign)
	return token, err
}

// noteSlow marks the flight when a Store call that started at start took
// past StoreTimeout: the lease holder's calls may be as slow (leaseWait).
func (c *Cache) noteSlow(fl *flight, start time.Time) {
	if c.opts.StoreTimeout >= 0 && time.Since(start) > c.opts.StoreTimeout {
		fl.slow = true
	}
}

// lateToken decides, under its lock, whether a Lease's token reaches the
// check or is released by the call.
type lateToken struct {
	mu        sync.Mutex
	token     string
	delivered bool
	abandoned bool
}

func (l *lateToken) deliver(token string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.abandoned {
		return false
	}
	l.token, l.delivered = token, true
	return true
}

func (l *lateToken) abandon() (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.delivered {
		return l.token, true
	}
	l.abandoned = true
	return "", false
}

// setAside clears ErrForeignValue, which is no failure of the Store.
func setAside(err *error, foreign *atomic.Bool) bool {
	if !errors.Is(*err, ErrForeignValue) {
		return false
	}
	*err = nil
	foreign.Store(true)
	return true
}

func (c *Cache) countForeign(fl *flight, err error, foreign *atomic.Bool) {
	if err == nil && foreign.Load() {
		c.countCorrupt(fl)
	}
}

func (c *Cache) countCorrupt(fl *flight) {
	if fl.corrupt {
		return
	}
	fl.corrupt = true
	c.mu.Lock()
	c.stats.StoreCorrupt++
	c.mu.Unlock()
}

func (c *Cache) storePut(ctx context.Context, key, token string, value []byte, ttl time.Duration) error {
	_, err := storeCall(c, ctx, key, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, c.opts.Store.Put(ctx, key, token, value, ttl)
	})
	return err
}

func (c *Cache) storeRelease(ctx context.Context, key, token string) {
	_, _ = storeCall(c, ctx, key, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, c.opts.Store.Release(ctx, key, token)
	})
}

// leaseTime covers the holder's fetch and two Store calls at their
// slowest. Past it, a node waiting on the holder fetches itself.
func (c *Cache) leaseTime() time.Duration {
	fetch := c.fetchBound()
	if fetch < 0 {
		fetch = DefaultTimeout
	}
	store := c.storeWait()
	if store < 0 {
		store = time.Second
	}
	return fetch + 2*store
}

// leaseWait bounds the wait of a node that finds another holding an
// origin's lease before it fetches itself: its own fetch bound and the
// holder's two Store calls after its Lease (the read of the entry, the
// write), each within StoreTimeout as a healthy Store answers; once a
// call of the flight took longer (slow), within storeWait, which makes it
// the lease time. A holder with the same options writes within it, whenever
// the waiter came.
//
// The bound is the node's own, not the lease's TTL: whatever can write
// the Store can write a lease key with any TTL the Store respects (up to
// ten lease times in redisstore), and a node that waited on it would
// stall its first check of the origin; bounded, a forged lease costs a
// check the fetch bound and two StoreTimeouts, where the lease time also
// holds two slow calls (5.2 s where it was 9 s with a Timeout of 5 s and
// the default StoreTimeout).
func (c *Cache) leaseWait(slow bool) time.Duration {
	if slow || c.opts.StoreTimeout < 0 {
		return c.leaseTime()
	}
	fetch := c.fetchBound()
	if fetch < 0 {
		fetch = DefaultTimeout
	}
	return fetch + 2*c.opts.StoreTimeout
}

// flight is the work of one refresh of an origin with a Store.
type flight struct {
	origin, key string
	token       string    // the lease, when this node holds it
	seen        time.Time // the latest fetch of the last shared entry adopted
	corrupt     bool      // counted once per flight
	slow        bool      // a Store call of the flight took past StoreTimeout
	// A fetch this node publishes is conditional only on the shared copy,
	// the one whose body it can write back.
	shared     *Result
	sharedBody []byte
	sharedVal  validators
}

// refreshShared serves a fresh shared entry; otherwise it takes the
// origin's lease, reads the entry once more, fetches and writes the new
// entry; when another node holds the lease, it waits for that node's
// entry (await). A failed Store call, or a wait past the lease, ends the
// flight's use of the Store: the node fetches itself and writes nothing.
func (c *Cache) refreshShared(ctx context.Context, origin string) (*Result, error) {
	fl := &flight{origin: origin, key: storeKey(origin)}
	if served := c.share(ctx, fl); served != nil {
		return c.sharedHit(served), nil
	}
	rq := fetchRequest{keepBody: fl.token != ""}
	var base *Result
	if fl.token == "" {
		base, rq.cond = c.localCopy(origin)
	} else if fl.shared != nil && !fl.sharedVal.empty() {
		base, rq.cond = fl.shared, fl.sharedVal
	}
	out, err := c.fetchOrigin(ctx, origin, rq)
	if err != nil {
		if fl.token != "" {
			c.storeRelease(ctx, fl.key, fl.token)
		}
		return nil, err
	}
	if out.notModified && base == fl.shared && base != nil {
		out.body = fl.sharedBody
	}
	served, st := c.apply(origin, out, base)
	if fl.token != "" {
		c.publish(ctx, fl, st, out)
	}
	return served, nil
}

// share returns nil when this node fetches, with the lease (fl.token) or
// alone.
func (c *Cache) share(ctx context.Context, fl *flight) *Result {
	b, err := c.storeGet(ctx, fl)
	if err == nil {
		if served := c.adopt(fl, b); c.isFresh(served) {
			return served
		}
		fl.token, err = c.storeLease(ctx, fl)
	}
	if (err == nil && fl.token == "") || errors.Is(err, errStoreSlow) {
		if served := c.await(ctx, fl); served != nil {
			return served
		}
	}
	return c.recheck(ctx, fl)
}

// recheck reads the entry again once this node holds the lease: the
// previous holder may have written it between this node's read and its
// lease.
func (c *Cache) recheck(ctx context.Context, fl *flight) *Result {
	if fl.token == "" {
		return nil
	}
	b, err := c.storeGet(ctx, fl)
	if err != nil {
		return nil
	}
	served := c.adopt(fl, b)
	if !c.isFresh(served) {
		return nil
	}
	c.storeRelease(ctx, fl.key, fl.token)
	return served
}

func (c *Cache) sharedHit(r *Result) *Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats.SharedHits++
	return r
}

func (c *Cache) isFresh(r *Result) bool {
	return r != nil && c.fc.now().Before(r.Expires)
}

// await polls the Store until a fresh entry comes, this node takes the
// lease, leaseWait passes, or a call fails. It runs on the real clock: it
// must really sleep, and the lease runs out in the Store's time.
func (c *Cache) await(ctx context.Context, fl *flight) *Result {
	start := time.Now()
	deadline := start.Add(c.leaseWait(fl.slow))
	pause := firstPoll
	for {
		wait := min(pause, time.Until(deadline))
		if wait <= 0 || !sleepCtx(ctx, wait) {
			return nil
		}
		pause = min(2*pause, maxPoll)
		b, err := c.storeGet(ctx, fl)
		if err == nil {
			if served := c.adopt(fl, b); c.isFresh(served) {
				return served
			}
			fl.token, err = c.storeLease(ctx, fl)
		}
		if (err == nil && fl.token != "") || (err != nil && !errors.Is(err, errStoreSlow)) {
			return nil
		}
		deadline = start.Add(c.leaseWait(fl.slow))
	}
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// adopt keeps the newer good copy of the two. It returns nil for a value
// that is absent, corrupt, or older than the local state.
func (c *Cache) adopt(fl *flight, b []byte) *Result {
	if b == nil {
		return nil
	}
	s, err := decodeShared(b, fl.origin)
	if err == nil {
		err = c.bound(s)
	}
	if err != nil {
		c.countCorrupt(fl)
		return nil
	}
	if s.latest().Equal(fl.seen) {
		return nil
	}
	fl.seen = s.latest()
	var good, failure *Result
	if s.good != nil {
		good = c.rebuild(s.good, c.sameBody(fl.origin, s.good))
		fl.shared, fl.sharedBody = good, s.good.body
		fl.sharedVal = validators{url: s.good.finalURL, etag: s.good.etag, lastModified: s.good.lastModified}
	}
	if s.failure != nil {
		failure = c.rebuild(s.failure, nil)
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entry(fl.origin)
	if e.served() != nil && s.latest().Before(e.latest()) {
		return nil
	}
	if good != nil && (e.good == nil || !good.FetchedAt.Before(e.good.FetchedAt)) {
		e.good, e.valid = good, fl.sharedVal
		e.goodSum, e.hasGoodSum = sum(s.good.body), true
	}
	if failure != nil && (e.good == nil || e.good.FetchedAt.Before(failure.FetchedAt)) {
		e.failingSince, e.failures = s.failingSince, s.failures
		c.serve(e, c.serveFailure(e, failure))
	} else {
		e.failingSince, e.failures = time.Time{}, 0
		c.serve(e, e.good)
	}
	c.resize(e)
	return e.served()
}

func (e *entry) latest() time.Time {
	served := e.served()
	if served.LastFailure != nil {
		return served.LastFailure.FetchedAt
	}
	return served.FetchedAt
}

// sameBody lets an adopted copy keep the local parse, and the automata
// built on it, when the bodies match.
func (c *Cache) sameBody(origin string, s *sharedCopy) *Result {
	if s.policy != Conditional {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.load(origin)
	if e == nil || e.good == nil || e.good.Robots == nil || !e.hasGoodSum ||
		e.goodSum != sum(s.body) || e.good.Truncated != s.truncated {
		return nil
	}
	return e.good
}

func (c *Cache) rebuild(s *sharedCopy, same *Result) *Result {
	r := &Result{
		URL: s.url, FinalURL: s.finalURL, Redirects: s.redirects, Status: s.status,
		Policy: s.policy, Reason: s.reason, Err: s.err(),
		FetchedAt: s.fetchedAt, Expires: s.expires, RetryAfter: s.retryAfter, ContentUsage: s.contentUsage,
	}
	if s.policy != Conditional {
		return r
	}
	if same != nil {
		r.Robots, r.agents = same.Robots, same.agents
	} else {
		r.Robots, r.agents = c.fc.parseShared(s.body, s.truncated), &agentCache{}
	}
	r.Bytes, r.Truncated = r.Robots.BodyBytes(), s.truncated || r.Robots.Truncated()
	return r
}

// parseShared parses a body the writer truncated as cut there, so that
// the file says Truncated as the writer's did.
func (f *fetchConfig) parseShared(body []byte, truncated bool) *robots.Robots {
	opts := f.parse
	if !truncated || len(body) == 0 {
		return robots.Parse(body, opts...)
	}
	if limit := f.maxBytes; limit < 0 || limit > len(body) {
		opts = append(opts[:len(opts):len(opts)], robots.WithMaxBytes(len(body)))
	}
	return robots.Parse(append(body[:len(body):len(body)], '\n'), opts...)
}

type entryState struct {
	good         *Result
	valid        validators
	failure      *Result // the latest fetch, when it failed
	failingSince time.Time
	failures     int
	expires      time.Time // of what is served
}

// state is called with c.mu held.
func (e *entry) state() entryState {
	served := e.served()
	return entryState{
		good: e.good, valid: e.valid, failure: served.LastFailure,
		failingSince: e.failingSince, failures: e.failures, expires: served.Expires,
	}
}

// publish releases the lease without writing when the good copy's body
// is gone or the entry is past the wire format's limits.
func (c *Cache) publish(ctx context.Context, fl *flight, st entryState, out fetched) {
	s := &sharedEntry{origin: fl.origin, failingSince: st.failingSince, failures: st.failures}
	if st.good != nil {
		body, known := fl.bodyOf(st.good, out)
		if known {
			s.good = copyOf(st.good, st.valid, body)
		}
	}
	if st.failure != nil {
		s.failure = copyOf(st.failure, validators{}, nil)
	}
	var value []byte
	err := errTooLarge
	if s.good != nil || s.failure != nil {
		value, err = s.encode()
	}
	if err != nil {
		c.storeRelease(ctx, fl.key, fl.token)
		return
	}
	ttl := st.expires.Sub(c.fc.now()) + max(c.opts.StoreRetain, 0) // negative: none
	if err := c.storePut(ctx, fl.key, fl.token, value, max(ttl, time.Millisecond)); err == nil {
		c.mu.Lock()
		c.stats.SharedWrites++
		c.mu.Unlock()
	}
}

// bodyOf reports false when the flight lacks the good copy's body.
func (fl *flight) bodyOf(good *Result, out fetched) ([]byte, bool) {
	switch {
	case good.Policy != Conditional:
		return nil, true
	case good == out.res || out.notModified:
		return out.body, out.body != nil
	case good == fl.shared:
		return fl.sharedBody, true
	}
	return nil, false
}

func copyOf(r *Result, v validators, body []byte) *sharedCopy {
	s := &sharedCopy{
		url: r.URL, finalURL: r.FinalURL, redirects: r.Redirects, status: r.Status,
		policy: r.Policy, reason: r.Reason, errKind: kindOf(r.Err),
		truncated: r.Truncated, fetchedAt: r.FetchedAt, expires: r.Expires, retryAfter: r.RetryAfter,
		etag: v.etag, lastModified: v.lastModified, body: body, contentUsage: r.ContentUsage,
	}
	if r.Err != nil {
		s.errMsg = r.Err.Error()
		if len(s.errMsg) > maxErrMsg {
			s.errMsg = s.errMsg[:maxErrMsg]
		}
	}
	return s
}

func sum(body []byte) uint32 { return crc32.Checksum(body, castagnoli) }
