package fetch

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/alloc"
	"github.com/fastrobots/robots/internal/bytestr"
)

// Defaults of CacheOptions.
const (
	DefaultMaxMemory   = 128 << 20
	DefaultMaxStale    = 24 * time.Hour
	DefaultUnreachable = 30 * 24 * time.Hour
)

// CacheOptions configure a Cache. Zero fields take the defaults; a negative
// field sets no limit, except StoreRetry and StoreRetain, where it means
// none.
type CacheOptions struct {
	// MaxMemory bounds the memory charged to the entries, in bytes; past
	// it, entries are evicted by CLOCK, an approximation of LRU. A parsed
	// file is charged robots.Robots.MemoryBytes, again as checks grow its
	// automata (see docs/crawling.md).
	MaxMemory int64
	// MaxStale is how long past its expiry the last good copy keeps serving
	// while fetches of its origin fail (negative: for as long as they fail,
	// up to Unreachable). Past it, the origin is fully disallowed until a
	// fetch succeeds or the Unreachable rule applies.
	MaxStale time.Duration
	// Unreachable is how long an origin may fail before Google's rule for
	// long outages applies (negative: never): the last good copy serves,
	// however old, and without one everything is allowed.
	Unreachable time.Duration
	// FetchTimeout bounds the cache's fetches when Fetcher.Timeout is
	// negative, since every caller of an origin waits on its one fetch.
	// 0 means DefaultTimeout.
	FetchTimeout time.Duration

	// Offline makes a cache for stored answers, as batch jobs over saved
	// robots.txt files want: it never fetches and never calls its Store.
	// An origin seeded by Put is answered from what Put recorded however
	// old it is, the Result marked Stale when it is past its Expires; an
	// origin never seeded is an error wrapping ErrNotSeeded, not a verdict.
	// An evicted origin is no longer seeded: give MaxMemory room for every
	// origin seeded, or -1.
	Offline bool

	// Store is the second cache level, shared by a fleet of crawlers (see
	// Store and docs/fleet.md); nil: none. Store faults never stop a
	// check: the cache then fetches itself.
	Store Store
	// StoreTimeout is how long a Store call may take before it is counted
	// slow (negative: no bound but the Store's own). A slow call is waited
	// for up to 20 times as long; a Store that has answered nothing for
	// 100 times as long is deemed hung, and its calls are then cut to
	// StoreTimeout (docs/fleet.md, Faults).
	StoreTimeout time.Duration
	// StoreRetry is how long the cache leaves the Store alone after three
	// consecutive calls failed. A negative value means no pause; it cannot
	// mean a pause without end, which would disable the Store for good.
	StoreRetry time.Duration
	// StoreRetain is how long a shared entry stays in the Store past the
	// expiry of what it serves, for conditional refreshes and failure
	// history. A negative value means none; it cannot mean no limit, or a
	// Store would keep every origin ever fetched.
	StoreRetain time.Duration
}

// withDefaults leaves negative fields for their readers to interpret.
func (o CacheOptions) withDefaults() CacheOptions {
	if o.MaxMemory == 0 {
		o.MaxMemory = DefaultMaxMemory
	}
	if o.MaxStale == 0 {
		o.MaxStale = DefaultMaxStale
	}
	if o.Unreachable == 0 {
		o.Unreachable = DefaultUnreachable
	}
	if o.FetchTimeout == 0 {
		o.FetchTimeout = DefaultTimeout
	}
	if o.StoreTimeout == 0 {
		o.StoreTimeout = DefaultStoreTimeout
	}
	if o.StoreRetry == 0 {
		o.StoreRetry = DefaultStoreRetry
	}
	if o.StoreRetain == 0 {
		o.StoreRetain = DefaultStoreRetain
	}
	return o
}

// CacheStats count what a Cache did.
type CacheStats struct {
	Entries   int   // origins held
	Bytes     int64 // the memory they are charged (CacheOptions.MaxMemory)
	Hits      int64 // answers served without fetching
	Fetches   int64 // fetches made (one per origin however many callers wait)
	Evictions int64 // entries evicted to stay within MaxMemory

	// With a Store:
	SharedHits   int64 // answers taken from the Store's fresh entries instead of fetching
	SharedWrites int64 // entries this cache wrote to the Store
	StoreErrors  int64 // Store calls that failed or ran out of time
	StoreSlow    int64 // Store calls past StoreTimeout that still answered
	StoreCorrupt int64 // untrustworthy values or foreign leases met (ignored, overwritten)
}

// Cache holds one answer per origin and fetches again when it expires.
// It is safe for concurrent use: callers asking for the same origin at once
// share one fetch, and a fresh answer is served without a lock.
//
// How each fetch changes what is served:
//
//   - A definite answer (Conditional, or FullAllow from a 4xx or from
//     redirects) is served until its Expires, and becomes the last good
//     copy.
//   - A failure (5xx, 429, network) is retried at Expires, with backoff
//     (Freshness.RetryAfter). Meanwhile the last good copy is served
//     (Stale) while it is no more than MaxStale past its expiry; without
//     one, the failure's FullDisallow is served.
//   - Once the outage has lasted more than Unreachable, the last good copy
//     is served however old it is; without one, FullAllow
//     (ReasonUnreachable).
type Cache struct {
	fetcher *Fetcher
	fc      *fetchConfig // read once, when the cache was made
	opts    CacheOptions
	group   singleflight.Group
	shared  *breaker // nil without a Store

	// A hit takes no lock and writes no cache line that other hits write:
	// it reads entries and the coarse clock atomically, sets the view's
	// referenced bit only when clear, and counts on a stripe. Everything
	// else takes mu.
	coarse  *coarseClock    // nil under a Clock other than SystemClock
	hits    *stripedCounter // CacheStats.Hits
	entries *originTable    // written under mu

	mu    sync.Mutex
	ring  clockRing
	stats CacheStats
}

// entry is the state of one origin. view is read without a lock but
// written under Cache.mu; the other fields are guarded by Cache.mu.
type entry struct {
	// view is also held by the entry's slot in Cache.entries. Its key is
	// the origin, which the entry does not keep twice.
	view         atomic.Pointer[view]
	good         *Result // the last definite answer, nil when none
	failingSince time.Time
	failures     int // consecutive failed fetches
	// goodSum is the checksum of good's body, when known, so that a shared
	// copy of the same body keeps good's parse.
	valid      validators
	goodSum    uint32
	hasGoodSum bool
	size       int64
	prev, next *entry // in Cache.ring
}

// view keeps the first resolution a Checker made for one agent, so that a
// hit goes from the origin's slot to the rules without loading the entry
// or the result. A view is immutable but for its referenced bit: a change
// publishes a new view under Cache.mu, carrying the bit over.
type view struct {
	// A key of at most viewKeyBytes is kept in keyBytes, so that a probe
	// reads it from the view's own memory rather than through a pointer.
	key   string
	entry *entry
	res   *Result // nil until the entry's first outcome
	// stamp holds the deadline (0 off the real clock) above the CLOCK
	// referenced bit, so that a hit reads both with one load. Hits set the
	// bit; the eviction hand clears it and evicts an entry it finds clear.
	stamp    atomic.Int64
	agentKey string
	// check is the kept resolution's, zero until keepAgent: a hit hands
	// it the URL from its path on.
	check robots.PathCheck

	keyBytes [viewKeyBytes]byte
}

// viewKeyBytes is chosen so that a view fills an allocator size class
// exactly, while most origins fit.
const viewKeyBytes = 32

func newView(key string) *view {
	v := &view{}
	if len(key) <= viewKeyBytes {
		n := copy(v.keyBytes[:], key)
		key = bytestr.String(v.keyBytes[:n]) // safe: the view never writes its bytes again
	}
	v.key = key
	return v
}

func (v *view) kept() bool { return v.check != robots.PathCheck{} }

// is compares a short key in the view's own bytes, avoiding a dependent
// load through the key's pointer.
func (v *view) is(origin string) bool {
	n := len(origin)
	switch {
	case len(v.key) != n:
		return false
	case n <= viewKeyBytes:
		return string(v.keyBytes[:n]) == origin
	default:
		return v.key == origin
	}
}

// maxDeadline bounds a view's deadline so that the stamp holds it beside
// the referenced bit; no expiry comes near it.
const maxDeadline = 1 << 61

func stampOf(deadline, referenced int64) int64 {
	return min(max(deadline, -maxDeadline), maxDeadline)<<1 | referenced&1
}

func (v *view) deadline() int64 { return v.stamp.Load() >> 1 }

// touch writes only when the bit is clear, so that hits do not contend
// on the view's cache line.
func (v *view) touch() {
	if s := v.stamp.Load(); s&1 == 0 {
		v.stamp.Or(1)
	}
}

func (v *view) referenced() bool {
	return v.stamp.And(^1)&1 != 0
}

func newEntry(key string) *entry {
	e := &entry{}
	v := newView(key)
	v.entry = e
	e.view.Store(v)
	return e
}

func (e *entry) origin() string { return e.view.Load().key }

// served returns nil before the first outcome is recorded.
func (e *entry) served() *Result { return e.view.Load().res }

// serve and show are called with c.mu held.
func (c *Cache) serve(e *entry, r *Result) {
	old := e.view.Load()
	v := newView(old.key)
	v.entry, v.res = e, r
	var deadline int64
	if c.coarse != nil {
		deadline = c.coarse.since(r.Expires)
	}
	v.stamp.Store(stampOf(deadline, old.stamp.Load()))
	c.show(v)
}

func (c *Cache) show(v *view) {
	v.entry.view.Store(v)
	c.entries.update(v)
}

// unexpired uses the coarse clock on the real clock, and the cache's
// Clock otherwise, so that a test's clock moves expiries exactly.
func (c *Cache) unexpired(v *view) bool {
	if c.opts.Offline {
		return true // answers never expire where nothing can renew them
	}
	if c.coarse != nil {
		return c.coarse.now() < v.deadline()
	}
	return c.fc.now().Before(v.res.Expires)
}

func (c *Cache) load(origin string) *entry { return c.entries.load(origin) }

// NewCache returns a cache fetching with f (nil: a zero Fetcher). The
// cache reads f's fields once, here: set them before.
//
// The cache's time is f.Clock, except for timeouts and the wait for
// another node's lease, which must really sleep.
func NewCache(f *Fetcher, opts CacheOptions) *Cache {
	if f == nil {
		f = &Fetcher{}
	}
	c := &Cache{fetcher: f, fc: f.config(), opts: opts.withDefaults(), hits: newStripedCounter(), entries: newOriginTable()}
	if c.fc.clock == SystemClock() {
		c.coarse = coarse
	}
	if c.opts.Store != nil {
		c.shared = &breaker{retry: c.opts.StoreRetry, clock: c.fc.clock}
	}
	return c
}

// Fetcher returns the cache's fetcher.
func (c *Cache) Fetcher() *Fetcher { return c.fetcher }

// Get returns the answer for the origin of pageURL, fetching it when the
// cache holds none or it has expired. The error is non-nil when pageURL
// has no origin (robots.URLError), its scheme is not http or https
// (ErrUnsupportedURL), or ctx ends first; a failed fetch is an answer.
//
// The fetch runs without ctx's cancellation, so that a caller giving up
// does not fail it for the others waiting on it.
func (c *Cache) Get(ctx context.Context, pageURL string) (*Result, error) {
	origin, err := robots.Origin(pageURL)
	if err != nil {
		return nil, err
	}
	return c.get(ctx, origin)
}

func (c *Cache) get(ctx context.Context, origin string) (*Result, error) {
	if r := c.fresh(origin, true); r != nil {
		return r, nil
	}
	return c.getMiss(ctx, origin)
}

func (c *Cache) getMiss(ctx context.Context, origin string) (*Result, error) {
	ch := c.group.DoChan(origin, func() (any, error) {
		return c.refresh(context.WithoutCancel(ctx), origin)
	})
	select {
	case v := <-ch:
		if v.Err != nil {
			return nil, v.Err
		}
		return v.Val.(*Result), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// fresh and freshView take no lock (see Cache).
func (c *Cache) fresh(origin string, hit bool) *Result {
	if v := c.freshView(origin, hit); v != nil {
		return v.res
	}
	return nil
}

func (c *Cache) freshView(origin string, hit bool) *view {
	v := c.entries.find(origin)
	if v == nil || v.res == nil || !c.unexpired(v) {
		return nil
	}
	v.touch()
	if hit {
		c.hits.Add()
	}
	return v
}

// warmView looks origin up as written: keys are robots.Origin's canonical
// form, so only a canonically written URL finds one, and the host needs
// no parsing. It counts nothing; the caller calls hit.
func (c *Cache) warmView(origin, agent string) *view {
	v := c.entries.find(origin)
	if v == nil || !v.kept() || v.agentKey != agent || !c.unexpired(v) {
		return nil
	}
	return v
}

func (c *Cache) hit(v *view) {
	v.touch()
	c.hits.Add()
}

// keepAgent publishes a copy of v keeping a, unless v keeps one already
// or is no longer served. It takes c.mu at most once per view.
func (c *Cache) keepAgent(v *view, key string, a *Agent) {
	if v.kept() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if v.entry.view.Load() != v {
		return
	}
	kept := newView(v.key)
	kept.entry, kept.res, kept.agentKey = v.entry, v.res, key
	kept.check = a.agent.PathCheck()
	kept.stamp.Store(v.stamp.Load())
	c.show(kept)
}

// refresh rechecks freshness first, since a fetch may have just ended.
func (c *Cache) refresh(ctx context.Context, origin string) (*Result, error) {
	if r := c.fresh(origin, false); r != nil {
		return r, nil
	}
	if c.opts.Offline {
		return nil, notSeeded(origin)
	}
	if c.shared != nil {
		return c.refreshShared(ctx, origin)
	}
	base, cond := c.localCopy(origin)
	out, err := c.fetchOrigin(ctx, origin, fetchRequest{cond: cond})
	if err != nil {
		return nil, err
	}
	served, _ := c.apply(origin, out, base)
	return served, nil
}

func (c *Cache) localCopy(origin string) (*Result, validators) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.load(origin)
	if e == nil || e.good == nil || e.valid.empty() {
		return nil, validators{}
	}
	return e.good, e.valid
}

func (c *Cache) fetchOrigin(ctx context.Context, origin string, rq fetchRequest) (fetched, error) {
	return c.fc.fetchFor(ctx, origin+"/robots.txt", c.fetchBound(), rq)
}

func (c *Cache) fetchBound() time.Duration {
	if timeout := c.fc.timeout; timeout >= 0 {
		return timeout
	}
	return c.opts.FetchTimeout
}

// apply renews base, the copy whose validators were sent, on a 304.
func (c *Cache) apply(origin string, out fetched, base *Result) (*Result, entryState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats.Fetches++
	e := c.entryFor(origin, out.res.URL)
	res := out.res
	switch {
	case out.notModified && base != nil:
		res = renew(base, out)
		e.valid = out.valid
		if out.body != nil {
			e.goodSum, e.hasGoodSum = sum(out.body), true
		}
	case !res.Reason.Failed():
		e.valid = out.valid
		e.goodSum, e.hasGoodSum = sum(out.body), out.body != nil
	}
	served := c.record(e, res)
	c.resize(e)
	return served, e.state()
}

// entry moves the entry to the front of the ring, since a fetch's outcome
// is a use. c.mu is held.
func (c *Cache) entry(origin string) *entry { return c.entryFor(origin, "") }

// entryFor shares a new key's bytes with robotsURL, which the result
// keeps anyway; otherwise it copies origin, which may be part of a page's
// URL that the entry must not keep alive.
func (c *Cache) entryFor(origin, robotsURL string) *entry {
	e := c.load(origin)
	if e == nil {
		key := strings.Clone(origin)
		if strings.HasPrefix(robotsURL, origin) {
			key = robotsURL[:len(origin)]
		}
		e = newEntry(key)
		c.ring.pushFront(e)
		c.entries.store(e)
	} else {
		c.ring.moveToFront(e)
	}
	return e
}

func renew(base *Result, out fetched) *Result {
	r := *base
	r.FetchedAt = out.res.FetchedAt
	lifetime := out.renewFor
	if lifetime <= 0 {
		lifetime = base.Lifetime()
	}
	r.Expires = r.FetchedAt.Add(lifetime)
	r.Stale, r.FailingSince, r.LastFailure = false, time.Time{}, nil
	return &r
}

func (c *Cache) record(e *entry, res *Result) *Result {
	if !res.Reason.Failed() {
		e.good = res
		c.serve(e, res)
		e.failures, e.failingSince = 0, time.Time{}
		return res
	}
	if e.failures == 0 {
		e.failingSince = res.FetchedAt
	}
	e.failures++
	served := c.serveFailure(e, res)
	c.serve(e, served)
	return served
}

// serveFailure applies the MaxStale and Unreachable rules (see Cache).
func (c *Cache) serveFailure(e *entry, res *Result) *Result {
	now := res.FetchedAt
	retry := now.Add(c.fc.freshness.RetryAfter(statusOf(res), res.RetryAfter, e.failures))
	var served Result
	switch {
	case c.opts.Unreachable >= 0 && now.Sub(e.failingSince) > c.opts.Unreachable:
		if e.good != nil {
			served = *e.good
			served.Stale = true
		} else {
			served = Result{
				URL: res.URL, FinalURL: res.FinalURL, Status: res.Status,
				Policy: FullAllow, Reason: ReasonUnreachable, Err: res.Err,
				FetchedAt: now,
			}
		}
	case e.good != nil && c.opts.MaxStale < 0:
		served = *e.good
		served.Stale = true
	case e.good != nil && now.Before(e.good.Expires.Add(c.opts.MaxStale)):
		served = *e.good
		served.Stale = true
		retry = minTime(retry, e.good.Expires.Add(c.opts.MaxStale))
	default:
		served = *res
	}
	served.Expires = retry
	served.FailingSince = e.failingSince
	served.LastFailure = res
	return &served
}

func statusOf(r *Result) int {
	if r.Reason == ReasonNetwork {
		return 0
	}
	return r.Status
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// resize evicts e itself only when it alone is too big.
func (c *Cache) resize(e *entry) {
	c.stats.Bytes -= e.size
	e.size = entrySize(e)
	c.stats.Bytes += e.size
	for c.opts.MaxMemory >= 0 && c.stats.Bytes > c.opts.MaxMemory && c.ring.len() > 0 {
		c.remove(c.victim(e))
		c.stats.Evictions++
	}
}

// victim gives each referenced entry a second chance; every bit is
// cleared within one turn, so the hand stops within two. c.mu is held.
func (c *Cache) victim(keep *entry) *entry {
	for {
		e := c.ring.back()
		switch {
		case e == keep && c.ring.len() > 1:
			c.ring.moveToFront(e)
		case e.view.Load().referenced():
			c.ring.moveToFront(e)
		default:
			return e
		}
	}
}

func (c *Cache) remove(e *entry) {
	c.ring.remove(e)
	c.entries.remove(e)
	c.stats.Bytes -= e.size
}

// entryBytes is what an entry costs besides its results, including its
// share of the origin table's slots.
var entryBytes = int64(alloc.Size(alloc.SizeOf[entry]()) + alloc.Size(alloc.SizeOf[view]()) + 24)

// entrySize counts each shared result and file once. Automata that grow
// later are recharged by the Checker.
func entrySize(e *entry) int64 {
	n := entryBytes + int64(alloc.Size(len(e.valid.url))+alloc.Size(len(e.valid.etag))+alloc.Size(len(e.valid.lastModified)))
	served := e.served()
	results := [3]*Result{served, e.good, served.LastFailure}
	if key := e.origin(); len(key) > viewKeyBytes && !sharesURL(key, results[:]) {
		// a long key may keep alive the URL of a replaced result
		n += int64(alloc.Size(len(key) + len("/robots.txt")))
	}
	var files [3]*robots.Robots
	for i, r := range results {
		if r == nil || slices.Contains(results[:i], r) {
			continue
		}
		n += int64(alloc.Size(int(resultBytes)) + alloc.Size(len(r.URL)))
		if r.FinalURL != r.URL {
			n += int64(alloc.Size(len(r.FinalURL)))
		}
		if r.Robots == nil || slices.Contains(files[:i], r.Robots) {
			continue
		}
		files[i] = r.Robots
		n += r.robotsBytes()
	}
	return n
}

func sharesURL(key string, results []*Result) bool {
	for _, r := range results {
		if r != nil && strings.HasPrefix(r.URL, key) {
			return true
		}
	}
	return false
}

// charge ignores a res the entry no longer holds.
func (c *Cache) charge(origin string, res *Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.load(origin)
	if e == nil || (e.served().Robots != res.Robots && (e.good == nil || e.good.Robots != res.Robots)) {
		return
	}
	c.resize(e)
}

// Forget drops the origin of pageURL from the cache, with its failure
// history. With a Store, only this cache's copy goes: the next Get takes
// the shared entry while it is fresh.
func (c *Cache) Forget(pageURL string) {
	origin, err := robots.Origin(pageURL)
	if err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.load(origin); e != nil {
		c.remove(e)
	}
}

// Stats returns the cache's counters.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Entries = c.ring.len()
	s.Hits = c.hits.Load()
	return s
}
