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
	"github.com/fastrobots/robots/internal/engine"
	"github.com/fastrobots/robots/internal/rawurl"
)

// Defaults of CacheOptions.
const (
	DefaultMaxMemory   = 128 << 20
	DefaultMaxStale    = 24 * time.Hour
	DefaultUnreachable = 30 * 24 * time.Hour
)

// CacheOptions configure a Cache. Zero fields take the defaults; a negative
// field sets no limit, except StoreRetry and StoreRetain, whose docs say
// why a negative value means none of it instead. withDefaults, called
// once by NewCache, is the one place that fills them.
type CacheOptions struct {
	// MaxMemory bounds the memory charged to the entries, in bytes
	// (default 128 MiB; negative: no bound); past it, entries are evicted
	// by CLOCK, an approximation of least recently used that a hit
	// maintains without a lock (see docs/crawling.md). For each parsed
	// file an entry is charged what robots.Robots.MemoryBytes reports,
	// measured as the file and its automata allocate, and charged again as
	// checks grow them by an eighth; the rest (the entry, its results, URLs, validators and
	// kept resolutions) is charged at its size in memory, with fixed
	// allowances for the table slots that hold it (see
	// docs/crawling.md).
	MaxMemory int64
	// MaxStale is how long past its expiry the last good copy keeps serving
	// while fetches of its origin fail (default 24 h; negative: for as long
	// as they fail, up to Unreachable). Past it, the origin
	// is fully disallowed until a fetch succeeds or the Unreachable rule
	// applies.
	MaxStale time.Duration
	// Unreachable is how long an origin may fail before Google's rule for
	// long outages applies (default 30 days; negative: never): the last good
	// copy serves, however old, and without one everything is allowed.
	Unreachable time.Duration
	// FetchTimeout bounds the fetches the cache runs when the Fetcher sets
	// no bound of its own (Fetcher.Timeout < 0): every caller of an origin
	// waits on its one fetch, so a fetch that stalls for ever would hold
	// them all. 0 means DefaultTimeout (30 s); negative: no bound but the
	// fetcher's, which then is none.
	FetchTimeout time.Duration

	// Store is the second cache level, shared by the Caches of a fleet of
	// crawlers (see Store and docs/fleet.md); nil: none. An origin this
	// cache does not hold fresh is looked up there before it is fetched,
	// and what this cache fetches is written there. Store faults never
	// stop a check: the cache then fetches itself.
	Store Store
	// StoreTimeout is how long a Store call may take before it is slow
	// (default 100 ms; negative: no bound but the Store's own). A slow
	// call is waited for up to 20 times as long (2 s), then the check
	// waits for the origin within the lease time; only a Store that has
	// answered nothing for 100 times as long (10 s) is hung, and its calls
	// failures, cut to StoreTimeout alone (docs/fleet.md, Faults).
	StoreTimeout time.Duration
	// StoreRetry is how long the cache leaves the Store alone after three
	// consecutive calls failed (default 5 s); then it tries again, and a
	// call that succeeds ends the count. A negative value means no pause:
	// every call goes to the Store, however many failed before. It cannot
	// mean a pause without end, which would disable the Store for good.
	StoreRetry time.Duration
	// StoreRetain is how long a shared entry stays in the Store past the
	// expiry of what it serves (default 24 h), for conditional refreshes
	// and for the history of an origin's failures. A negative value means
	// none: the entry leaves the Store when what it serves expires. It
	// cannot mean no limit: a Store would then keep every origin ever
	// fetched.
	StoreRetain time.Duration
}

// withDefaults returns o with the defaults of its zero fields filled in.
// A negative field keeps its value: the code that reads it treats it as
// no limit, or for StoreRetry and StoreRetain as none.
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
	StoreSlow    int64 // Store calls slow to answer (past StoreTimeout): waited for, no failures
	StoreCorrupt int64 // refreshes that met a value that was not a trustworthy entry, or a foreign lease (ignored, overwritten)
}

// Cache holds one answer per origin and fetches again when it expires.
// It is safe for concurrent use: callers asking for the same origin at once
// share one fetch, and an answer the cache holds fresh is served without a
// lock, so that hits on many cores do not wait on each other.
//
// How each fetch changes what is served:
//
//   - A definite answer (Conditional, or FullAllow from a 4xx or from
//     redirects) is served until its Expires, and becomes the last good
//     copy.
//   - A failure (5xx, 429, network) starts or continues the origin's
//     outage. It is retried at Expires, with backoff (Freshness.RetryAfter).
//     Meanwhile the last good copy is served (Stale) while it is no more
//     than MaxStale past its expiry; without one, the failure's
//     FullDisallow is served.
//   - Once the outage has lasted more than Unreachable (30 days), the last
//     good copy is served however old it is; without one, FullAllow
//     (ReasonUnreachable).
type Cache struct {
	fetcher *Fetcher
	fc      *fetchConfig // the fetcher's fields, read when the cache was made
	opts    CacheOptions
	group   singleflight.Group
	shared  *breaker // nil without a Store

	// A hit takes no lock and writes no line that other hits write: it
	// loads the origin's view from entries (read without a lock) and the
	// coarse clock with atomic loads, sets the view's referenced bit (in the
	// word it reads for the expiry) only when it is clear, and counts itself
	// on a stripe of hits. Everything
	// else takes mu.
	coarse  *coarseClock    // the real clock, read once per tick; nil under another Clock
	hits    *stripedCounter // CacheStats.Hits
	entries *originTable    // written under mu

	mu    sync.Mutex
	ring  clockRing // for CLOCK eviction: newest at the front
	stats CacheStats
}

// entry is the state of one origin. view is read without a lock; the
// other fields are guarded by Cache.mu, and view is written under it too.
type entry struct {
	// view is what Get returns until it expires, the view the entry's slot
	// in Cache.entries holds; its res is nil until the first outcome. Its
	// key is the entry's origin (origin), which the entry does not keep
	// twice.
	view         atomic.Pointer[view]
	good         *Result // the last definite answer, nil when none
	failingSince time.Time
	failures     int // consecutive failed fetches
	// valid are good's validators, for a conditional refresh; goodSum is
	// the checksum of good's body, when known, to tell a shared copy of the
	// same body, which keeps good's parse.
	valid      validators
	goodSum    uint32
	hasGoodSum bool
	size       int64
	prev, next *entry // the entry's neighbours in Cache.ring
}

// view is what an entry serves, and its expiry on the coarse clock when
// the cache has one. It also keeps the first resolution a Checker made on
// res for one agent, so that a hit goes from the origin's slot
// to the agent's automaton without the entry, the result or its own
// cache (Result.agent). A view is immutable but for its referenced bit: a
// change is a new view, made and published under Cache.mu, which carries
// the bit over.
type view struct {
	// key is the entry's origin, which the table's probes compare (is).
	// A key of at most viewKeyBytes is kept in keyBytes, whose address is
	// the view's: a probe loads the key's bytes as it loads the view's
	// fields, where through the key's pointer it would wait for them. A
	// longer key is a string of its own (the robots.txt URL's, entryFor).
	key   string
	entry *entry
	res   *Result // nil until the entry's first outcome
	// stamp is the view's deadline (res.Expires as coarseClock.since gives
	// it, on a cache on the real clock; else 0) above its entry's
	// referenced bit, the lowest. The bit is set by hits and cleared as the
	// eviction's hand passes: an entry is evicted when the hand finds it
	// clear (CLOCK, an approximation of least recently used that needs no
	// lock on a hit). In the word a hit reads for the expiry, it costs a
	// hit no load of its own and the view no word of its own.
	stamp    atomic.Int64
	agentKey string
	// rules are the compiled rules of the kept resolution's robots.Agent,
	// zero until kept (keepAgent): a hit checks with them, from the view's
	// line straight to the rule set's, without loading the agent's. none
	// is that agent's Policy being FullDisallow, which a hit honours
	// first, as the agent does.
	rules engine.Rules

	keyBytes [viewKeyBytes]byte
	none     bool
}

// viewKeyBytes is the longest origin a view keeps in its own bytes: 31,
// which leaves the view's size (96 bytes) a size class of the allocator's
// with none beside them; 96 % of the origins of the corpus's crawled URLs
// are this short (the median is 23).
const viewKeyBytes = 31

// newView returns a view of key, which it keeps in its own bytes when it
// is short enough; its other fields are zero.
func newView(key string) *view {
	v := &view{}
	if len(key) <= viewKeyBytes {
		n := copy(v.keyBytes[:], key)
		key = bytestr.String(v.keyBytes[:n]) // the view never writes its bytes again
	}
	v.key = key
	return v
}

// kept reports whether v keeps a resolution (keepAgent): its agentKey's,
// which rules and none check for.
func (v *view) kept() bool { return v.rules.Kept() }

// allows reports whether the kept resolution allows the URL whose rest
// after its origin is rest (warmSplit): its policy first, then its rules,
// reading a path that starts with '/' in place up to its '#', and
// otherwise the path "/" and the query rest may hold. v keeps a
// resolution.
func (v *view) allows(rest string) bool {
	switch {
	case v.none:
		return false
	case rest != "" && rest[0] == '/':
		return v.rules.AllowedBeforeFragment(rest)
	}
	return v.rules.Allowed("/", rawurl.BeforeFragment(rest))
}

// is reports whether v's key is origin. A short key is compared in the
// view's own bytes, addressed from the view rather than through the
// key's pointer, which would wait for the view's line.
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
// the referenced bit: 2^61 ns is 73 years, an expiry never reached.
const maxDeadline = 1 << 61

// stampOf returns the stamp of deadline with the referenced bit of
// referenced, a stamp whose bit is carried over (0 or 1).
func stampOf(deadline, referenced int64) int64 {
	return min(max(deadline, -maxDeadline), maxDeadline)<<1 | referenced&1
}

// deadline returns v's deadline on the coarse clock.
func (v *view) deadline() int64 { return v.stamp.Load() >> 1 }

// touch sets v's referenced bit, writing only when it is clear.
func (v *view) touch() {
	if s := v.stamp.Load(); s&1 == 0 {
		v.stamp.Or(1)
	}
}

// referenced reports whether v's referenced bit is set, and clears it.
func (v *view) referenced() bool {
	return v.stamp.And(^1)&1 != 0
}

// newEntry returns the entry of the origin key, serving nothing yet.
func newEntry(key string) *entry {
	e := &entry{}
	v := newView(key)
	v.entry = e
	e.view.Store(v)
	return e
}

// origin returns the entry's origin.
func (e *entry) origin() string { return e.view.Load().key }

// served returns what e serves; nil for an entry just made, before the
// first outcome is recorded.
func (e *entry) served() *Result { return e.view.Load().res }

// serve makes r what e serves. c.mu is held.
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

// show makes v what its entry serves, and what the entry's slot
// holds. c.mu is held.
func (c *Cache) show(v *view) {
	v.entry.view.Store(v)
	c.entries.update(v)
}

// unexpired reports whether v has not expired: on the coarse clock when
// the cache runs on the real one, at most a tick late; on the cache's
// Clock otherwise, so that a test's clock moves expiries exactly.
func (c *Cache) unexpired(v *view) bool {
	if c.coarse != nil {
		return c.coarse.now() < v.deadline()
	}
	return c.fc.now().Before(v.res.Expires)
}

// load returns the origin's entry; nil when there is none.
func (c *Cache) load(origin string) *entry { return c.entries.load(origin) }

// NewCache returns a cache fetching with f (nil: a zero Fetcher). The
// cache reads f's fields once, here: set them before.
//
// The cache's time is f.Clock: every timestamp and expiry, the
// MaxStale and Unreachable rules, and the pause of the Store after
// failures (StoreRetry) are read on it. Two waits run on the real clock
// whatever f.Clock says, because they must really sleep: the fetch's own
// bound (Fetcher.Timeout, FetchTimeout, a context deadline) and the wait
// for another node's lease on an origin, which runs out in the Store's
// time (StoreTimeout too bounds each Store call in real time).
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

// Get returns the answer for the origin of pageURL (any URL on it, its
// robots.txt URL included), fetching it when the cache holds none or it
// has expired. The error is non-nil when pageURL has no origin
// (robots.URLError), when its scheme is not http or https
// (ErrUnsupportedURL), or when ctx ends first; a fetch that fails is no
// error but an answer (FullDisallow, a stale copy, ...).
//
// The fetch runs without ctx's cancellation, bounded by the fetcher's
// Timeout, so that a caller giving up does not fail it for the others
// waiting on it.
func (c *Cache) Get(ctx context.Context, pageURL string) (*Result, error) {
	origin, err := robots.Origin(pageURL)
	if err != nil {
		return nil, err
	}
	return c.get(ctx, origin)
}

// get is Get for an origin.
func (c *Cache) get(ctx context.Context, origin string) (*Result, error) {
	if r := c.fresh(origin, true); r != nil {
		return r, nil
	}
	return c.getMiss(ctx, origin)
}

// getMiss is get for an origin the cache does not hold fresh: one fetch
// for all callers.
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

// fresh returns the origin's answer if it has not expired, counting a hit
// when asked. It takes no lock (see Cache).
func (c *Cache) fresh(origin string, hit bool) *Result {
	if v := c.freshView(origin, hit); v != nil {
		return v.res
	}
	return nil
}

// freshView returns the origin's view if it has not expired, counting a
// hit when asked. It takes no lock (see Cache).
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

// warmView is freshView for a Checker's warm route (warmSplit): it
// returns the view of origin, the start of a URL up to its path, looked
// up as it is written, when it has not expired and keeps agent's
// resolution; nil otherwise. The cache's keys are origins as
// robots.Origin writes them, so only a URL whose authority is written so
// finds one, and the host needs no reading of its own. It counts nothing:
// the caller counts the hit (hit) once it takes it.
func (c *Cache) warmView(origin, agent string) *view {
	v := c.entries.find(origin)
	if v == nil || !v.kept() || v.agentKey != agent || !c.unexpired(v) {
		return nil
	}
	return v
}

// hit counts a hit on v: the hits' counter, and its referenced bit,
// written only when it changes.
func (c *Cache) hit(v *view) {
	v.touch()
	c.hits.Add()
}

// keepAgent keeps a, the resolution of the agent key on v.res, on the
// view's entry, unless the entry serves another view now or v keeps one
// already: a copy of the view replaces it. It takes c.mu, once per view
// at most, when the view's first hit resolves an agent.
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
	kept.rules, kept.none = engine.AgentRules(a.agent), a.agent.Policy() == robots.FullDisallow
	kept.stamp.Store(v.stamp.Load())
	c.show(kept)
}

// refresh fetches the origin's robots.txt, unless a fetch that just ended
// has made the entry fresh, and records the outcome. An expired copy with
// validators is refreshed with a conditional request. With a Store, the
// shared entry is asked first (refreshShared).
func (c *Cache) refresh(ctx context.Context, origin string) (*Result, error) {
	if r := c.fresh(origin, false); r != nil {
		return r, nil
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

// localCopy returns the origin's good copy and its validators, for a
// conditional request; none when the cache holds no copy with validators.
func (c *Cache) localCopy(origin string) (*Result, validators) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.load(origin)
	if e == nil || e.good == nil || e.valid.empty() {
		return nil, validators{}
	}
	return e.good, e.valid
}

// fetchOrigin fetches the origin's robots.txt, bounded by the fetcher's
// Timeout or, when it sets none, FetchTimeout.
func (c *Cache) fetchOrigin(ctx context.Context, origin string, rq fetchRequest) (fetched, error) {
	return c.fc.fetchFor(ctx, origin+"/robots.txt", c.fetchBound(), rq)
}

// fetchBound is the bound of the cache's fetches, negative for none.
func (c *Cache) fetchBound() time.Duration {
	if timeout := c.fc.timeout; timeout >= 0 {
		return timeout
	}
	return c.opts.FetchTimeout
}

// apply records a fetch's outcome in the origin's entry and returns what
// is served now, with the entry's state after it. A 304 renews base, the
// copy whose validators the request sent.
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

// entry returns the origin's entry, new when there is none, moved to the
// front of the ring: a fetch's outcome is a use. c.mu is held.
func (c *Cache) entry(origin string) *entry { return c.entryFor(origin, "") }

// entryFor is entry for an origin whose robots.txt URL is robotsURL: a new
// entry's key shares robotsURL's bytes, which its result keeps anyway.
// Otherwise the key is a copy: origin may be part of a page's URL, whose
// bytes the entry must not keep.
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

// renew returns base renewed by a 304 to a conditional request: the same
// rules, fetched now, for the lifetime the 304 gave or base's own.
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

// record applies a fetch's outcome to e and returns what is served now.
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

// serveFailure returns what is served after res, the latest of e.failures
// consecutive failed fetches: the last good copy, the failure's
// FullDisallow, or under the 30-day rule FullAllow, until the retry.
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

// statusOf returns the status that sets a failure's retry: 0 for a
// network failure.
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

// resize recounts e's size and evicts entries, as the CLOCK hand finds
// them (victim), until the total fits; e itself goes last, when it alone
// is too big.
func (c *Cache) resize(e *entry) {
	c.stats.Bytes -= e.size
	e.size = entrySize(e)
	c.stats.Bytes += e.size
	for c.opts.MaxMemory >= 0 && c.stats.Bytes > c.opts.MaxMemory && c.ring.len() > 0 {
		c.remove(c.victim(e))
		c.stats.Evictions++
	}
}

// victim returns the entry to evict, sparing keep unless it is the only
// one: the hand starts at the back of the ring (the oldest insertion or
// fetch) and gives each entry whose referenced bit is set a second chance,
// clearing the bit and moving it to the front; the first entry found
// clear goes. Every bit is cleared within one turn, so the hand stops
// within two. c.mu is held.
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

// entryBytes is what an entry costs besides its results: the entry (its
// ring's links among its fields), its view, and its share of the origin table's slots
// (between 4/3 and 8/3 slots of 8 bytes per entry, tombstones aside), each
// object at what the allocator takes for it.
var entryBytes = int64(alloc.Size(alloc.SizeOf[entry]()) + alloc.Size(alloc.SizeOf[view]()) + 24)

// entrySize returns the memory an entry keeps alive: its bookkeeping and
// key and validators, its results with their URLs, and for each parsed file what the file
// reports (robots.Robots.MemoryBytes: the file, the rules compiled for
// each crawler and their automata as built so far) and the resolutions the
// result keeps. A file's automata grow after the entry is charged; the
// Checker recharges it when they have grown by an eighth (rechargeAfter).
func entrySize(e *entry) int64 {
	n := entryBytes + int64(alloc.Size(len(e.valid.url))+alloc.Size(len(e.valid.etag))+alloc.Size(len(e.valid.lastModified)))
	served := e.served()
	results := [3]*Result{served, e.good, served.LastFailure}
	if key := e.origin(); len(key) > viewKeyBytes && !sharesURL(key, results[:]) {
		// a long key may keep the robots.txt URL of a result since
		// replaced; a short one is the view's own bytes
		n += int64(alloc.Size(len(key) + len("/robots.txt")))
	}
	var files [3]*robots.Robots
	for i, r := range results {
		if r == nil || slices.Contains(results[:i], r) {
			continue
		}
		n += int64(alloc.Size(int(resultBytes)) + alloc.Size(len(r.URL)))
		if r.FinalURL != r.URL { // one string when there was no redirect
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

// sharesURL reports whether key is the start of one of the results' URLs,
// whose bytes it shares then (entryFor) and which are counted with the
// result.
func sharesURL(key string, results []*Result) bool {
	for _, r := range results {
		if r != nil && strings.HasPrefix(r.URL, key) {
			return true
		}
	}
	return false
}

// charge recounts the size of the origin's entry after a crawler was
// resolved on res, if res is still what the entry holds.
func (c *Cache) charge(origin string, res *Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.load(origin)
	if e == nil || (e.served().Robots != res.Robots && (e.good == nil || e.good.Robots != res.Robots)) {
		return
	}
	c.resize(e)
}

// Forget drops the origin of pageURL from the cache; the next Get fetches
// it again, with no memory of past failures. With a Store, only this
// cache's copy goes: the next Get takes the shared entry while it is
// fresh.
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
