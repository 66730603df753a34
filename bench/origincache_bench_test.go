package bench

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/maypok86/otter/v2"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/fetch"
	fastruntime "github.com/fastrobots/robots/runtime"
)

// The origin-cache benchmarks weigh the cache fetch.Checker keeps its
// origins in (a lock-free table read by the URL's own bytes, CLOCK
// recency, a coarse clock) against the maintained Go cache library a
// Checker could stand on instead: github.com/maypok86/otter/v2, set up
// with the rules the Checker's cache keeps — entries weighed by the
// memory their parsed file holds under a bound (Weigher, MaximumWeight),
// an expiry of each entry's own (ExpiryCalculator), one load per origin
// however many callers ask at once (Get with a Loader). Otter holds the
// resolved agent itself, the least a crawler on it would keep, and is
// asked with the same key the Checker's hit cuts from the URL (the part
// before the path's '/', fastruntime.RootedStart), so no URL parsing
// stands between it and the check.
//
//	go test -run '^$' -bench 'OriginCache' -benchmem -count 6 .
const (
	originCacheOrigins = 1000
	originCachePaths   = 8
	// originCacheMemoryOrigins is how many origins the memory benchmark
	// holds: enough that a cache's fixed cost is lost in the per-origin one.
	originCacheMemoryOrigins = 50_000
)

// originCacheRobots is every origin's robots.txt: a '*' group and the
// crawler's own, as on most sites that name crawlers.
const originCacheRobots = "User-agent: *\nDisallow: /private/\nDisallow: /*.pdf$\nAllow: /private/ok\n\n" +
	"User-agent: Googlebot\nDisallow: /search\nDisallow: /tmp/\nAllow: /tmp/public\n"

// originCacheTTL is every entry's lifetime: RFC 9309's 24 hours.
const originCacheTTL = 24 * time.Hour

// originCacheURLs returns n origins' URLs, each origin's paths in turn.
func originCacheURLs(n int) []string {
	paths := [originCachePaths]string{
		"/", "/index.html", "/search?q=robots", "/tmp/file.txt",
		"/tmp/public/a.html", "/articles/2024/05/some-title", "/doc/manual.pdf", "/img/logo.png?v=3",
	}
	urls := make([]string, 0, n*originCachePaths)
	for i := range n {
		for _, p := range paths {
			urls = append(urls, fmt.Sprintf("https://www%d.example.org%s", i, p))
		}
	}
	return urls
}

// originKey is the part of a URL before its path's '/': the key both
// caches are asked with.
func originKey(rawURL string) string { return rawURL[:fastruntime.RootedStart(rawURL)] }

// seededChecker returns a Checker whose cache, under its default bound
// (128 MiB, as otter's maximum weight), holds every origin of urls
// (Cache.Put, fetched now), each asked once, so that its agent is kept.
func seededChecker(b *testing.B, urls []string) *fetch.Checker {
	b.Helper()
	cache := fetch.NewCache(nil, fetch.CacheOptions{})
	now := time.Now()
	for i := 0; i < len(urls); i += originCachePaths {
		if _, err := cache.Put(urls[i], 200, []byte(originCacheRobots), now); err != nil {
			b.Fatal(err)
		}
	}
	c := fetch.NewChecker(cache)
	for _, u := range urls {
		if _, err := c.Allowed(b.Context(), "Googlebot", u); err != nil {
			b.Fatal(err)
		}
	}
	if st := cache.Stats(); st.Fetches != 0 || st.Entries != len(urls)/originCachePaths {
		b.Fatalf("a seeded cache fetched or evicted: %+v", st)
	}
	return c
}

// otterAnswer is what the otter cache keeps of an origin: its agent's
// resolution and the entry's lifetime.
type otterAnswer struct {
	agent *robots.Agent
	ttl   time.Duration
}

// newOtterCache returns an otter cache with the Checker's cache's rules:
// weighed by each file's metered memory under 128 MiB (the Checker's
// default bound), each entry expiring after its own lifetime, read on
// clock (nil: otter's default, the precise time).
func newOtterCache(clock otter.Clock) *otter.Cache[string, otterAnswer] {
	return otter.Must(&otter.Options[string, otterAnswer]{
		Clock:         clock,
		MaximumWeight: 128 << 20,
		Weigher: func(_ string, a otterAnswer) uint32 {
			return uint32(min(a.agent.MemoryBytes(), 1<<31))
		},
		ExpiryCalculator: otter.ExpiryWritingFunc(func(e otter.Entry[string, otterAnswer]) time.Duration {
			return e.Value.ttl
		}),
	})
}

// loadOrigin is the otter cache's loader: the file parsed, the agent
// resolved and asked once, as the Checker's first hit does.
func loadOrigin(_ context.Context, _ string) (otterAnswer, error) {
	a := robots.Parse([]byte(originCacheRobots)).Agent("Googlebot")
	a.AllowedPath("/")
	return otterAnswer{agent: a, ttl: originCacheTTL}, nil
}

// seededOtter returns an otter cache on clock holding every origin of
// urls, loaded through its loader, every URL asked once.
func seededOtter(b *testing.B, urls []string, clock otter.Clock) *otter.Cache[string, otterAnswer] {
	b.Helper()
	c := newOtterCache(clock)
	loader := otter.LoaderFunc[string, otterAnswer](loadOrigin)
	for _, u := range urls {
		a, err := c.Get(b.Context(), originKey(u), loader)
		if err != nil {
			b.Fatal(err)
		}
		a.agent.Allowed(u)
	}
	if n := c.EstimatedSize(); n != len(urls)/originCachePaths {
		b.Fatalf("otter holds %d origins, want %d", n, len(urls)/originCachePaths)
	}
	return c
}

// BenchmarkOriginCache checks 1,000 origins × 8 URLs, warm, each URL
// through a cache by origin, then its agent:
//
//	fastrobots     fetch.Checker.Allowed, its Cache seeded (Cache.Put)
//	otter          otter's GetIfPresent, then robots.Agent.Allowed
//	otter/loader   otter's Get with a Loader (what a crawler calls, one
//	               load per origin), then robots.Agent.Allowed
//	otter/coarse   otter's GetIfPresent on its CoarseClock (1 ms, as the
//	               Checker's), then robots.Agent.Allowed
//
// and each /parallel, from every GOMAXPROCS goroutine.
func BenchmarkOriginCache(b *testing.B) {
	urls := originCacheURLs(originCacheOrigins)
	checker := seededChecker(b, urls)
	oc := seededOtter(b, urls, nil)
	coarse := otter.NewCoarseClock(time.Millisecond)
	defer coarse.Stop()
	occ := seededOtter(b, urls, coarse)
	loader := otter.LoaderFunc[string, otterAnswer](loadOrigin)
	ctx := b.Context()
	for _, u := range urls { // both answer the same question
		want, err := checker.Allowed(ctx, "Googlebot", u)
		if a, _ := oc.GetIfPresent(originKey(u)); err != nil || a.agent.Allowed(u) != want {
			b.Fatalf("%s: the Checker says %v (%v), otter's agent the other", u, want, err)
		}
	}
	ways := []struct {
		name  string
		check func(u string) bool
	}{
		{"fastrobots", func(u string) bool {
			ok, err := checker.Allowed(ctx, "Googlebot", u)
			if err != nil {
				b.Error(err)
			}
			return ok
		}},
		{"otter", presentIn(b, oc)},
		{"otter/coarse", presentIn(b, occ)},
		{"otter/loader", func(u string) bool {
			a, err := oc.Get(ctx, originKey(u), loader)
			if err != nil {
				b.Error(err)
				return false
			}
			return a.agent.Allowed(u)
		}},
	}
	for _, w := range ways {
		b.Run(w.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				w.check(urls[i])
				if i++; i == len(urls) {
					i = 0
				}
			}
		})
		b.Run(w.name+"/parallel", func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					w.check(urls[i])
					if i++; i == len(urls) {
						i = 0
					}
				}
			})
		})
	}
	if st := checker.Cache().Stats(); st.Fetches != 0 || st.Entries != originCacheOrigins {
		b.Fatalf("the Checker's cache changed: %+v", st)
	}
}

// presentIn returns the check of a URL through c's GetIfPresent, then its
// origin's agent; a URL whose origin c has lost fails b.
func presentIn(b *testing.B, c *otter.Cache[string, otterAnswer]) func(u string) bool {
	return func(u string) bool {
		a, ok := c.GetIfPresent(originKey(u))
		if !ok {
			b.Error("otter lost ", u)
			return false
		}
		return a.agent.Allowed(u)
	}
}

// BenchmarkOriginCacheMemory reports the live heap each cache holds per
// origin (B/origin) once it holds 50,000 origins, each with its own parsed
// copy of the file, asked once for its agent: the Checker's Cache seeded
// by Cache.Put (the file, its answer, its entry and the kept resolution),
// and otter holding each origin's resolved agent (the file and the agent).
func BenchmarkOriginCacheMemory(b *testing.B) {
	urls := originCacheURLs(originCacheMemoryOrigins)
	holds := []struct {
		name string
		fill func(b *testing.B) any
	}{
		{"fastrobots", func(b *testing.B) any { return seededChecker(b, urls) }},
		{"otter", func(b *testing.B) any { return seededOtter(b, urls, nil) }},
	}
	for _, h := range holds {
		b.Run(h.name, func(b *testing.B) {
			var perOrigin float64
			for b.Loop() {
				before := liveHeap()
				held := h.fill(b)
				perOrigin = float64(liveHeap()-before) / originCacheMemoryOrigins
				runtime.KeepAlive(held)
			}
			b.ReportMetric(perOrigin, "B/origin")
		})
	}
}

// liveHeap returns the bytes of live heap objects after a collection.
func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
