package fetch

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/compile"
)

// The hit-path benchmarks check, warm, 1,000 origins × 8 ordinary URLs
// each, as a crawler does: BenchmarkAgentAllowedRaw is the check alone
// (robots.Agent.Allowed of a raw URL), the reference the Checker's cost
// is measured against; BenchmarkCheckerHit the same URLs through
// Checker.Allowed, origin lookup, cache hit and resolution included;
// BenchmarkCheckerHitParallel the same from every GOMAXPROCS goroutine;
// BenchmarkAgentAllowedRawCached the check alone on the Checker's own
// agents; BenchmarkAgentAllowedRawMap those agents behind a map by origin.
//
//	go test -run '^$' -bench 'AgentAllowedRaw|CheckerHit' -count 8 ./fetch
const (
	benchOrigins = 1000
	benchPaths   = 8
)

// benchRobots is the robots.txt of every origin of the hit benchmarks.
const benchRobots = "User-agent: *\nDisallow: /private/\nDisallow: /*.pdf$\nAllow: /private/ok\n\n" +
	"User-agent: Googlebot\nDisallow: /search\nDisallow: /tmp/\nAllow: /tmp/public\n"

// benchURLs returns the URLs of the hit benchmarks, origin after origin.
func benchURLs() []string {
	paths := [benchPaths]string{
		"/", "/index.html", "/search?q=robots", "/tmp/file.txt",
		"/tmp/public/a.html", "/articles/2024/05/some-title", "/doc/manual.pdf", "/img/logo.png?v=3",
	}
	urls := make([]string, 0, benchOrigins*benchPaths)
	for i := range benchOrigins {
		for _, p := range paths {
			urls = append(urls, fmt.Sprintf("http://site%d.test%s", i, p))
		}
	}
	return urls
}

// warm is the Checker of the hit benchmarks, made once per process, so
// that the rounds of a benchmark (and the benchmarks after the first)
// measure hits, not the collection of the caches earlier rounds made.
var warm struct {
	sync.Mutex
	checker *Checker
}

// warmChecker returns a Checker whose cache holds every origin of urls,
// fetched from one loopback server, with the agent resolved on each. The
// server may be gone once it returns: the answers hold for 24 h.
func warmChecker(b *testing.B, urls []string) *Checker {
	warm.Lock()
	defer warm.Unlock()
	if warm.checker != nil {
		return warm.checker
	}
	s := serve(b, text(200, benchRobots))
	client := clientTo(b, s.Listener.Addr().String(), nil)
	c := NewChecker(NewCache(&Fetcher{Client: client}, CacheOptions{}))
	for _, u := range urls {
		if _, err := c.Allowed(b.Context(), "Googlebot", u); err != nil {
			b.Fatal(err)
		}
	}
	if st := c.Cache().Stats(); st.Entries != benchOrigins || st.Fetches != benchOrigins {
		b.Fatalf("warm cache: %+v", st)
	}
	warm.checker = c
	return c
}

func BenchmarkAgentAllowedRaw(b *testing.B) {
	urls := benchURLs()
	a := robots.Parse([]byte(benchRobots)).Agent("Googlebot")
	for _, u := range urls {
		a.Allowed(u)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		a.Allowed(urls[i])
		if i++; i == len(urls) {
			i = 0
		}
	}
}

// BenchmarkAgentAllowedRawCached is BenchmarkAgentAllowedRaw on the
// agents the Checker of BenchmarkCheckerHit answers with, each URL on its
// origin's: the same checks on the same 1,000 automata, so that the
// difference from BenchmarkCheckerHit is the Checker's own work, without
// the cost of reading 1,000 automata instead of one.
func BenchmarkAgentAllowedRawCached(b *testing.B) {
	urls := benchURLs()
	agents := keptAgents(b, warmChecker(b, urls), urls)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		agents[i].Allowed(urls[i])
		if i++; i == len(urls) {
			i = 0
		}
	}
}

// BenchmarkAgentAllowedRawMap is BenchmarkAgentAllowedRawCached with the
// lookup a crawler without a Checker writes in front of it: its agents
// kept in a Go map by origin, the key cut from the URL as the Checker's
// hit cuts it (the part before its path, warmSplit), no
// expiry, no count. The difference from BenchmarkAgentAllowedRawCached is
// what any lookup by origin costs; BenchmarkCheckerHit does that lookup,
// and the expiry, the count and the agent's comparison besides.
func BenchmarkAgentAllowedRawMap(b *testing.B) {
	urls := benchURLs()
	agents := keptAgents(b, warmChecker(b, urls), urls)
	byOrigin := make(map[string]*robots.Agent, benchOrigins)
	for i, u := range urls {
		origin, _, _ := warmSplit(u)
		byOrigin[origin] = agents[i]
	}
	if len(byOrigin) != benchOrigins {
		b.Fatalf("%d origins, want %d", len(byOrigin), benchOrigins)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		u := urls[i]
		origin, _, _ := warmSplit(u)
		byOrigin[origin].Allowed(u)
		if i++; i == len(urls) {
			i = 0
		}
	}
}

// keptAgents returns, for each of urls, the agent c's cache keeps on its
// origin's entry: the one a warm hit checks with.
func keptAgents(b *testing.B, c *Checker, urls []string) []*robots.Agent {
	agents := make([]*robots.Agent, len(urls))
	for i, u := range urls {
		origin, err := robots.Origin(u)
		if err != nil {
			b.Fatal(err)
		}
		v := c.Cache().load(origin).view.Load()
		a, _ := v.res.agent([]string{"Googlebot"})
		if !v.kept() || a == nil || a.agent.PathCheck() != v.check {
			b.Fatalf("%s: no agent kept", origin)
		}
		agents[i] = a.agent
	}
	return agents
}

func BenchmarkCheckerHit(b *testing.B) {
	urls := benchURLs()
	benchAllowed(b, warmChecker(b, urls), urls)
}

// benchAllowed times c.Allowed on urls, in turn, for Googlebot.
func benchAllowed(b *testing.B, c *Checker, urls []string) {
	ctx := b.Context()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := c.Allowed(ctx, "Googlebot", urls[i]); err != nil {
			b.Fatal(err)
		}
		if i++; i == len(urls) {
			i = 0
		}
	}
}

// BenchmarkCheckerHitHome is BenchmarkCheckerHit on the home pages of its
// origins written with no path ("http://site7.test"), which the warm path
// answers with the '/' written in on the stack (Checker.allowedWarmRoot).
func BenchmarkCheckerHitHome(b *testing.B) {
	urls := benchURLs()
	c := warmChecker(b, urls)
	homes := make([]string, benchOrigins)
	for o := range homes {
		homes[o] = strings.TrimSuffix(urls[o*benchPaths], "/") // the first path is "/"
	}
	benchAllowed(b, c, homes)
}

func BenchmarkCheckerHitParallel(b *testing.B) {
	urls := benchURLs()
	checkParallel(b, warmChecker(b, urls), urls)
}

// BenchmarkCheckerHitParallel10k is BenchmarkCheckerHitParallel over
// 10,000 origins seeded with Cache.Put, for a mutex profile of a large
// cache under many goroutines:
//
//	go test -run '^$' -bench CheckerHitParallel10k -cpu 8 -mutexprofile m.out ./fetch
//	go tool pprof -top m.out
func BenchmarkCheckerHitParallel10k(b *testing.B) {
	c := NewChecker(NewCache(nil, CacheOptions{}))
	now := time.Now()
	urls := make([]string, 0, 10*benchOrigins*benchPaths)
	for i := range 10 * benchOrigins {
		origin := fmt.Sprintf("http://site%d.test", i)
		if _, err := c.Cache().Put(origin, 200, []byte(benchRobots), now); err != nil {
			b.Fatal(err)
		}
		for _, p := range []string{"/", "/search?q=x", "/tmp/public/a", "/doc/b.pdf"} {
			urls = append(urls, origin+p)
		}
	}
	ctx := b.Context()
	// Warm: each agent resolved, its rules compiled (after compile.HotAfter
	// checks) and the states its four paths reach built, so that the run
	// times hits, not the sites growing hot.
	for range compile.HotAfter/4 + 8 {
		for _, u := range urls {
			if _, err := c.Allowed(ctx, "Googlebot", u); err != nil {
				b.Fatal(err)
			}
		}
	}
	checkParallel(b, c, urls)
	if st := c.Cache().Stats(); st.Fetches != 0 || st.Entries != 10*benchOrigins {
		b.Fatalf("every origin seeded: %+v", st)
	}
}

// checkParallel checks urls through c with Checker.Allowed, from every
// GOMAXPROCS goroutine, each going round urls.
func checkParallel(b *testing.B, c *Checker, urls []string) {
	ctx := b.Context()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, err := c.Allowed(ctx, "Googlebot", urls[i]); err != nil {
				b.Error(err)
				return
			}
			if i++; i == len(urls) {
				i = 0
			}
		}
	})
}

// BenchmarkAgentAllowedRawParallel is BenchmarkAgentAllowedRaw from every
// GOMAXPROCS goroutine: how far the check alone scales, the reference of
// BenchmarkCheckerHitParallel.
func BenchmarkAgentAllowedRawParallel(b *testing.B) {
	urls := benchURLs()
	a := robots.Parse([]byte(benchRobots)).Agent("Googlebot")
	for _, u := range urls {
		a.Allowed(u)
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			a.Allowed(urls[i])
			if i++; i == len(urls) {
				i = 0
			}
		}
	})
}

// BenchmarkCheckerBatch is BenchmarkCheckerHit through AllowedBatch, one
// origin's 8 URLs per batch: one cache lookup and one resolution per
// batch. ns/URL compares with BenchmarkCheckerHit's ns/op.
func BenchmarkCheckerBatch(b *testing.B) {
	urls := benchURLs()
	benchBatches(b, warmChecker(b, urls), urls, benchPaths)
}

// benchBatches times c.AllowedBatch on urls, size URLs a batch, in turn
// (size divides their number), and reports ns/URL.
func benchBatches(b *testing.B, c *Checker, urls []string, size int) {
	ctx := b.Context()
	out := make([]bool, 0, size)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		var err error
		if out, err = c.AllowedBatch(ctx, "Googlebot", urls[i:i+size], out[:0]); err != nil {
			b.Fatal(err)
		}
		if i += size; i == len(urls) {
			i = 0
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(size), "ns/URL")
}

// BenchmarkCheckerBatchAcross is BenchmarkCheckerBatch on a frontier that
// serves one URL per origin in turn: the URLs of BenchmarkCheckerHit,
// reordered so that each URL is of another origin than the one before
// it, where every check misses the core's nearest caches. one asks
// Allowed for each URL; batch asks AllowedBatch for benchAcross URLs at
// a time, each of another origin. ns/URL compares them: a batch takes the
// warm path for each URL, as Allowed does.
func BenchmarkCheckerBatchAcross(b *testing.B) {
	urls := benchURLs()
	c := warmChecker(b, urls)
	across := make([]string, 0, len(urls))
	for p := range benchPaths {
		for o := range benchOrigins {
			across = append(across, urls[o*benchPaths+p])
		}
	}
	b.Run("one", func(b *testing.B) {
		benchAllowed(b, c, across)
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/URL")
	})
	b.Run("batch", func(b *testing.B) { benchBatches(b, c, across, benchAcross) })
}

// benchAcross is the size of BenchmarkCheckerBatchAcross's batches, a
// divisor of its URLs' number.
const benchAcross = 50

// BenchmarkCheckerHitParts times, each alone over the URLs of
// BenchmarkCheckerHit, the steps of its warm path (Checker.allowedWarm),
// so that the cost a hit adds to its check can be told apart:
//
//	go test -run '^$' -bench '^BenchmarkCheckerHitParts$' -count 6 ./fetch
//
// Loop is the benchmark's own loop and call, to be taken off the others;
// Split finds where the URL's path starts (warmSplit), which ends the
// origin; Hash hashes the origin; Lookup finds the origin's view
// (Cache.warmView: the hash, the table's probe, the origin's and the
// agent's comparison, the expiry); Count counts the hit (Cache.hit);
// Meter reads the file's meter through the kept PathCheck twice, as a hit
// does to see whether its check grew the automata; Check is the check
// itself, with the kept PathCheck, in place up to the '#'; Bare
// is Split, Lookup and then Check, what a hit cannot do without, nothing
// counted or metered; Whole is allowedWarm, every step at once.
// Steps alone need not add up to the whole, where they overlap and share
// the core's caches.
func BenchmarkCheckerHitParts(b *testing.B) {
	urls := benchURLs()
	c := warmChecker(b, urls)
	n := len(urls)
	origins, rests := make([]string, n), make([]string, n)
	views := make([]*view, n)
	for i, u := range urls {
		origin, rest, ok := warmSplit(u)
		if !ok {
			b.Fatalf("%s: no origin to look up", u)
		}
		origins[i], rests[i] = origin, rest
		if views[i] = c.cache.warmView(origin, "Googlebot"); views[i] == nil {
			b.Fatalf("%s: not warm", u)
		}
	}
	parts := []struct {
		name string
		step func(i int) bool
	}{
		{"Loop", func(i int) bool { return i&1 == 0 }},
		{"Split", func(i int) bool { _, _, ok := warmSplit(urls[i]); return ok }},
		{"Hash", func(i int) bool { return c.cache.entries.hash(origins[i])&1 == 0 }},
		{"Lookup", func(i int) bool { return c.cache.warmView(origins[i], "Googlebot") != nil }},
		{"Count", func(i int) bool { c.cache.hit(views[i]); return true }},
		{"Meter", func(i int) bool {
			check := views[i].check
			before := check.MemoryBytes()
			return check.MemoryBytes() != before
		}},
		{"Check", func(i int) bool { return views[i].check.Allowed(rests[i]) }},
		{"Bare", func(i int) bool {
			origin, rest, _ := warmSplit(urls[i])
			v := c.cache.warmView(origin, "Googlebot")
			return v != nil && v.check.Allowed(rest)
		}},
		{"Whole", func(i int) bool { _, allowed, _ := c.allowedWarm("Googlebot", urls[i]); return allowed }},
	}
	for _, p := range parts {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			i, sink := 0, 0
			for b.Loop() {
				if p.step(i) {
					sink++
				}
				if i++; i == n {
					i = 0
				}
			}
			if sink < 0 {
				b.Fatal("unreachable")
			}
		})
	}
}

// BenchmarkCheckerDecideHit is BenchmarkCheckerHit through Decide, whose
// verdict carries the deciding rule, the pacing and the usage;
// BenchmarkAgentDecideRawCached is robots.Agent.Decide of the same URLs on
// the Checker's own agents, the check it wraps.
func BenchmarkCheckerDecideHit(b *testing.B) {
	urls := benchURLs()
	c := warmChecker(b, urls)
	ctx := b.Context()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := c.Decide(ctx, "Googlebot", urls[i]); err != nil {
			b.Fatal(err)
		}
		if i++; i == len(urls) {
			i = 0
		}
	}
}

func BenchmarkAgentDecideRawCached(b *testing.B) {
	urls := benchURLs()
	agents := keptAgents(b, warmChecker(b, urls), urls)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		agents[i].Decide(urls[i])
		if i++; i == len(urls) {
			i = 0
		}
	}
}
