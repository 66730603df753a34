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

// storeFailuresToOpen is how many consecutive Store calls must fail before
// the cache leaves the Store alone for StoreRetry. One failure is often a
// blip; three in a row are an outage, and the cache stops paying for them.
const storeFailuresToOpen = 3

// A Store that is down and one that is slow call for opposite answers.
// A Store that is down says so: the connection is refused or reset, the
// dial fails, the server replies with an error. Such a call ends at once,
// the check fetches itself, and after storeFailuresToOpen of them the
// breaker pauses the Store. A Store that is slow says nothing yet: Redis
// answers late, or the node runs so hot that its client reads the answer
// late. A check that gave up on it would fetch an origin another node may
// be fetching, so that the site gets a fetch per node exactly when the
// crawl is busiest; it waits instead.
//
// So a call that has not answered within StoreTimeout is slow, not
// failed: the check waits for it up to slowStoreFactor × StoreTimeout in
// all (storeWait, 2 s by default). A call still unanswered then, or one
// whose client gave up in time (a dial, a read or a write that timed
// out), is slow too (errStoreSlow): it is no failure, and the check goes
// on waiting for the origin's entry within the lease time (await), as for
// another node's lease. A hot node's process may stall for seconds, and
// its Store calls with it: only a Store that has answered no call for
// hungStoreFactor × StoreTimeout (storeSilence, 10 s by default) is hung.
// Its calls that run out of time are failures like refused ones, and
// later calls get StoreTimeout alone, until one answers.
const (
	slowStoreFactor = 20
	hungStoreFactor = 100
)

// The lease wait polls the Store: first after firstPoll, then at twice the
// pause before, up to maxPoll. A node waiting on another's fetch so learns
// of a fast fetch quickly, and loads the Store little during a slow one.
const (
	firstPoll = 5 * time.Millisecond
	maxPoll   = 200 * time.Millisecond
)

// errStorePaused is the error of a Store call the breaker skipped.
var errStorePaused = errors.New("fetch: store paused after failures")

// errStoreSlow is the error of a Store call whose time ran out while the
// Store is not hung: it answers, late.
var errStoreSlow = errors.New("fetch: store slow to answer")

// breaker pauses the use of the Store after storeFailuresToOpen
// consecutive failures, for retry; then calls go through again, and the
// first success ends the count. It never disables the Store for good, and
// with a negative retry never pauses it. A slow call is not a failure.
//
// Its pause is read on the cache's clock (Fetcher.Clock), as expiries are:
// a test moves it on with the clock, and in production it is the real one.
// When the Store last answered is read on the real clock, as the calls'
// bounds are.
type breaker struct {
	retry time.Duration // negative: no pause
	clock Clock

	mu        sync.Mutex
	failures  int
	openUntil time.Time
	answered  time.Time // the latest call that succeeded, or the first call, ended then

	shards sync.Map // a ShardedStore's shard name → *breaker of its own
}

// forShard returns the breaker of the named shard of a ShardedStore: b
// itself for "", else one of its own, made on first use.
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

// breakerOf returns the breaker of key: the Store's, or its shard's when
// the Store is a ShardedStore.
func (c *Cache) breakerOf(key string) *breaker {
	if sh, ok := c.opts.Store.(ShardedStore); ok {
		return c.shared.forShard(sh.Shard(key))
	}
	return c.shared
}

// allow reports whether a Store call may go now, and whether it may be
// waited for as a slow one: the Store answered a call within silence
// (negative: no bound), or none was made yet.
func (b *breaker) allow(silence time.Duration) (ok, patient bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.answered.IsZero() {
		b.answered = time.Now()
	}
	return !b.clock.Now().Before(b.openUntil), !b.silent(silence)
}

// silent reports whether the Store has answered nothing for silence.
// b.mu is held.
func (b *breaker) silent(silence time.Duration) bool {
	return silence >= 0 && time.Since(b.answered) >= silence
}

// done records the outcome of a call: its error, whether it ran out of
// the time it had, and the silence past which the Store is hung. It
// returns the call's error, errStoreSlow for a call whose time ran out
// while the Store is not hung.
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

// isTimeout reports whether err says that time ran out (a deadline of the
// call's context, or of the client's own: a dial, a read, a write), not
// that the Store refused or failed the call.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// storeCall runs one Store call on key, in a goroutine of its own so that
// a Store that ignores its context cannot hold the check past its bound,
// and records the outcome in the breaker of key's shard. The bound is
// storeWait, or StoreTimeout alone when the Store is hung. A call answered
// after StoreTimeout, or slow past storeWait, is counted as slow
// (CacheStats.StoreSlow), a failure as an error. A panic in the Store is
// a failed call.
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

// count adds one to a counter of c.stats.
func (c *Cache) count(n *int64) {
	c.mu.Lock()
	*n++
	c.mu.Unlock()
}

// storeSilence is how long a Store must have answered nothing to be hung:
// hungStoreFactor × StoreTimeout; negative (never) with StoreTimeout.
func (c *Cache) storeSilence() time.Duration {
	if c.opts.StoreTimeout < 0 {
		return c.opts.StoreTimeout
	}
	return hungStoreFactor * c.opts.StoreTimeout
}

// storeWait is how long a check waits for one Store call that is slow:
// slowStoreFactor × StoreTimeout; negative (no bound) with StoreTimeout.
func (c *Cache) storeWait() time.Duration {
	if c.opts.StoreTimeout < 0 {
		return c.opts.StoreTimeout
	}
	return slowStoreFactor * c.opts.StoreTimeout
}

// withinTimeout runs call with ctx bounded by timeout (none when
// negative); it returns when call does or the time is up, whichever comes
// first, and reports whether the time ran out (not ctx's own end).
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

// The Store calls of a flight, each under storeCall.

// storeGet reads the flight's entry. A value the Store set aside as
// foreign (ErrForeignValue) reads as none, and is counted as corrupt.
func (c *Cache) storeGet(ctx context.Context, fl *flight) ([]byte, error) {
	var foreign atomic.Bool
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

// storeLease takes the flight's lease. A foreign lease the Store took
// over (ErrForeignValue) is counted as corrupt; the lease is this node's.
//
// A Lease the check stops waiting for (slow) may still take the lease in
// the Store, under a token no one would hold: every node would wait out
// the lease time. So the call is not given up with the check: it runs on,
// within the lease time, and releases a lease it takes too late, so that
// a node waiting for the origin takes it at its next poll. A token that
// comes as the check's time runs out is the check's.
func (c *Cache) storeLease(ctx context.Context, fl *flight) (string, error) {
	var foreign atomic.Bool
	var late lateToken
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

// lateToken hands a Lease's token from the call to the check that made
// it, or tells the call that the check stopped waiting.
type lateToken struct {
	mu        sync.Mutex
	token     string
	delivered bool
	abandoned bool
}

// deliver offers the token; false when the check stopped waiting.
func (l *lateToken) deliver(token string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.abandoned {
		return false
	}
	l.token, l.delivered = token, true
	return true
}

// abandon says that the check stops waiting, unless the token came: then
// it returns it.
func (l *lateToken) abandon() (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.delivered {
		return l.token, true
	}
	l.abandoned = true
	return "", false
}

// setAside clears *err when it is ErrForeignValue, which is no failure of
// the Store, and records it in foreign; it reports whether it did.
func setAside(err *error, foreign *atomic.Bool) bool {
	if !errors.Is(*err, ErrForeignValue) {
		return false
	}
	*err = nil
	foreign.Store(true)
	return true
}

// countForeign counts a foreign value of a call that succeeded.
func (c *Cache) countForeign(fl *flight, err error, foreign *atomic.Bool) {
	if err == nil && foreign.Load() {
		c.countCorrupt(fl)
	}
}

// countCorrupt counts a flight's first corrupt or foreign value.
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

// leaseTime is how long a lease holds: the holder's read of the entry
// again, its fetch and its write of the entry, each Store call slow at
// worst (storeWait). Past it, a node waiting on the holder fetches itself.
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

// flight is the work of one refresh of an origin with a Store.
type flight struct {
	origin, key string
	token       string    // the lease, when this node holds it
	seen        time.Time // the latest fetch of the last shared entry adopted
	corrupt     bool      // a corrupt value was read (and counted)
	// shared is the good copy adopted from the Store, and sharedBody its
	// body: a fetch this node publishes is conditional on it alone, the
	// copy whose body it can write back.
	shared     *Result
	sharedBody []byte
	sharedVal  validators
}

// refreshShared is refresh with a Store:
//
//  1. A fresh shared entry is served (and kept locally): a shared hit.
//  2. Otherwise the node takes the origin's lease, reads the entry once
//     more (another node may have written it just before), fetches
//     (conditionally on the shared copy, when there is one), and writes
//     the new entry.
//  3. When another node holds the lease, this one waits for its entry
//     (await), and fetches itself only past the lease.
//
// A Store call that fails ends the flight's use of the Store: the node
// fetches itself, conditionally on its own copy, and writes nothing. So
// does a node that waited past the lease without getting it. A call that
// is slow (errStoreSlow) is no failure: the node waits, as in 3, for
// an entry or the lease.
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

// share returns a fresh entry of the Store to serve, or nil when this node
// fetches: holding the lease (fl.token), or alone.
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

// recheck reads the entry again once this node holds the lease: the node
// that held it before may have written its entry and let the lease go
// between this node's last read and its lease. A fresh entry is served
// and the lease released; nil means this node fetches.
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

// sharedHit counts an answer taken from the Store.
func (c *Cache) sharedHit(r *Result) *Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats.SharedHits++
	return r
}

// isFresh reports whether r is an answer that has not expired.
func (c *Cache) isFresh(r *Result) bool {
	return r != nil && c.fc.now().Before(r.Expires)
}

// await waits for the node that holds the origin's lease, or for a slow
// Store: it polls the Store, with backoff, until a newer entry comes
// (returned when fresh), until the lease is free and this node takes it
// (fl.token), until the lease time has passed, or until a Store call
// fails. In the last three cases it returns nil, and the node fetches
// itself. A slow call is no failure: the wait goes on.
//
// Unlike the rest of the cache, the wait runs on the real clock (timers
// and time.Now), not on Fetcher.Clock: it must really sleep between polls,
// and the lease it waits on runs out in the Store's time, which is real.
func (c *Cache) await(ctx context.Context, fl *flight) *Result {
	deadline := time.Now().Add(c.leaseTime())
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
	}
}

// sleepCtx waits for d or until ctx ends; it reports whether d passed.
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

// adopt reads a value from the Store and, when it is an entry for the
// origin at least as new as what this cache holds, makes it the local
// entry's state, keeping the newer good copy of the two. It returns what
// the entry serves then; nil when the value is absent, corrupt (counted,
// and overwritten by the next write), or older than the local state.
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
		return nil // the entry the flight adopted already
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

// latest returns when the entry's latest fetch came.
func (e *entry) latest() time.Time {
	served := e.served()
	if served.LastFailure != nil {
		return served.LastFailure.FetchedAt
	}
	return served.FetchedAt
}

// sameBody returns the origin's local good copy when its body is the
// shared copy's, so that its parse (and the automata built on it) is kept.
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

// rebuild returns the Result of a shared copy, parsing its body, or
// sharing the parse of same when it has the same body.
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

// parseShared parses a shared body with the fetcher's options. A body the
// writing node cut at its size limit (truncated) is parsed as cut there,
// so that the file says Truncated as the writer's did.
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

// entryState is what a cache entry holds, as a shared entry records it.
type entryState struct {
	good         *Result
	valid        validators
	failure      *Result // the latest fetch, when it failed
	failingSince time.Time
	failures     int
	expires      time.Time // of what is served
}

// state returns e's state. c.mu is held.
func (e *entry) state() entryState {
	served := e.served()
	return entryState{
		good: e.good, valid: e.valid, failure: served.LastFailure,
		failingSince: e.failingSince, failures: e.failures, expires: served.Expires,
	}
}

// publish writes the entry's state after this node's fetch to the Store,
// and releases the lease. A good copy goes with its body, the one this
// fetch read or the shared one it renewed; a copy whose body this node no
// longer has (it parsed it before a Store outage) is not written, and
// neither is an entry past the wire format's limits: the lease is then
// released, and other nodes fetch for themselves.
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

// bodyOf returns the body of a good copy when the flight has it: the body
// this fetch read, or the shared body a 304 renewed or the flight adopted.
// A copy under FullAllow has none to carry.
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

// copyOf returns the shared copy of a Result, with its validators and the
// body it was parsed from.
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

// sum is the checksum that tells two bodies apart.
func sum(body []byte) uint32 { return crc32.Checksum(body, castagnoli) }
