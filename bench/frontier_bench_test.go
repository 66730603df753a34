package bench

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastrobots/robots/fetch"
)

// frontierWorkers is the number of goroutines of the parallel variants:
// the machine's two cores, as two fetch workers.
const frontierWorkers = 2

// BenchmarkFrontier is the crawler working through its frontier: per op,
// one pass over the 1,000,000 URLs of the frontier workload (Frontier,
// FrontierFull: 10,000 origins, served in turn), each checked for
// FrontierAgent through the path a crawler writes with the library
// (FrontierCrawler):
//
//	fastrobots            fetch.Checker, its Cache fed by a loopback net/http server
//	fastrobots/transport  the check step of fetch.Transport, over the same Checker
//	temoto                the colly way: url.Parse, map by host, FindGroup, Test
//	slyrz, grobotstxt     url.Parse, map by host, the library's check
//
// and <lib>/parallel, the same pass split between two goroutines, as two
// fetch workers taking turns at one frontier: one takes the URLs at even
// positions, the other those at odd ones, so both meet the same sites at
// the same time and share the crawler's state (the Checker's cache, the
// peers' map by host) as a crawler's workers do.
//
// Before the timer starts, each crawler has met every origin (a peer
// parses each robots.txt on first sight; fastrobots' Checker has fetched
// each from the loopback server and checked the whole frontier once), so
// a pass is timed warm: no fetch, no parse. fastrobots' Checker changes as
// it checks (a site's automaton is built once its rules have answered
// compile.HotAfter checks, so the more passes, the more sites have one),
// so every pass, of each run and variant, starts from a new Checker
// warmed by one pass, built outside the timer: its figure depends neither
// on how many runs came before nor on how many passes b.N asks for. Its
// cache is unbounded (CacheOptions.MaxMemory -1), as the peers' maps are,
// so that no site is evicted and fetched again; B/cache is its estimate
// of the memory its entries hold after the last pass. A peer builds
// nothing as it checks: its crawler lives across the variants and runs of
// its library. Each library's crawler is dropped before the next
// library's is built, so that each is timed beside its own state only.
// The frontier, built once, and the server go when the benchmark ends, so
// that the benchmarks after it do not carry them.
//
// Reported per op: urls, origins, disallowed, errors (a URL the crawler
// cannot read, a robots.txt the library refuses) and panics (recovered);
// ns/url, the time of a pass per URL, and ns/url-cpu, the CPU time the
// process spent on it per URL (both goroutines' of a parallel pass, and
// the garbage collector's), which other work on a busy machine inflates
// less than the time.
func BenchmarkFrontier(b *testing.B) {
	r := &frontierRun{f: needFrontier(b)}
	defer r.close()
	for _, lib := range frontierLibs {
		b.Run(lib.name, func(b *testing.B) { r.bench(b, lib, false, 1) })
		b.Run(lib.name+"/parallel", func(b *testing.B) { r.bench(b, lib, false, frontierWorkers) })
		if lib.name == "fastrobots" {
			b.Run(lib.name+"/transport", func(b *testing.B) { r.bench(b, lib, true, 1) })
		}
	}
}

func needFrontier(b *testing.B) *Frontier {
	b.Helper()
	f, err := NewFrontier(needCorpus(b), FrontierFull)
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// frontierLib builds a library's crawler, and warms it, outside the timer.
type frontierLib struct {
	name string
	warm func(b *testing.B, r *frontierRun) *warmCrawler
	// fresh: the crawler changes as it checks, and is built anew for
	// every pass
	fresh bool
}

var frontierLibs = []frontierLib{
	{"fastrobots", warmChecker, true},
	{"temoto", warmPeer(NewTemotoCrawler), false},
	{"slyrz", warmPeer(NewSlyrzCrawler), false},
	{"grobotstxt", warmPeer(NewGrobotstxtCrawler), false},
}

// warmCrawler is a library's crawler after it has met every origin of the
// frontier; for fastrobots also the check step of a Transport over the
// same Checker, and the Checker, whose cache must not fetch while timed.
type warmCrawler struct {
	lib                string
	crawler, transport FrontierCrawler
	checker            *fetch.Checker
}

// frontierRun is what one BenchmarkFrontier holds: the frontier, its
// loopback server once fastrobots needs it, and the warm crawler of the
// library being measured.
type frontierRun struct {
	f    *Frontier
	srv  *frontierServer
	warm *warmCrawler
}

// warmFor returns lib's warm crawler, building it when the one held is
// another library's, or always for a fresh library; the one held is
// dropped and collected first.
func (r *frontierRun) warmFor(b *testing.B, lib frontierLib) *warmCrawler {
	if r.warm != nil && r.warm.lib == lib.name && !lib.fresh {
		return r.warm
	}
	r.warm = nil
	runtime.GC()
	r.warm = lib.warm(b, r)
	r.warm.lib = lib.name
	return r.warm
}

// server returns the frontier's loopback server, started on first use.
func (r *frontierRun) server() *frontierServer {
	if r.srv == nil {
		r.srv = newFrontierServer(r.f)
	}
	return r.srv
}

func (r *frontierRun) close() {
	if r.srv != nil {
		r.srv.srv.Close()
	}
	*r = frontierRun{}
	runtime.GC()
}

// bench times passes over the frontier by lib's crawler (or its
// Transport's check step), split between workers goroutines.
//
// A fresh library's crawler is built and warmed anew, outside the timer,
// before every pass, not only every run: its checks change it (a site's
// automaton is built after compile.HotAfter checks), so the second of two
// passes on one crawler is cheaper than the first, the third cheaper
// still. The testing package picks b.N by the time of a pass, so timing
// b.N passes on one crawler gave the variant that passes faster more
// passes on a hotter crawler: the parallel pass was timed over three or
// four passes (65-70 MB of cache when it ended), the pass on one
// goroutine over one or two (55-60 MB). Every pass is now the first after
// the warm-up, whatever b.N.
func (r *frontierRun) bench(b *testing.B, lib frontierLib, transport bool, workers int) {
	f := r.f
	var t FrontierTally
	var cpu time.Duration
	hasCPU := true
	var w *warmCrawler
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if i == 0 || lib.fresh {
			b.StopTimer()
			w = r.warmFor(b, lib)
			runtime.GC()
			b.StartTimer()
		}
		p, d, ok := w.pass(b, transport, f.URLs, workers)
		t.add(p)
		cpu, hasCPU = cpu+d, hasCPU && ok
	}
	b.StopTimer()
	n := float64(b.N)
	if w.checker != nil {
		b.ReportMetric(float64(w.checker.Cache().Stats().Bytes), "B/cache")
	}
	b.ReportMetric(float64(len(f.URLs)), "urls")
	b.ReportMetric(float64(len(f.Origins)), "origins")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n/float64(len(f.URLs)), "ns/url")
	if hasCPU {
		b.ReportMetric(float64(cpu.Nanoseconds())/n/float64(len(f.URLs)), "ns/url-cpu")
	}
	b.ReportMetric(float64(t.Disallowed)/n, "disallowed")
	b.ReportMetric(float64(t.Errors)/n, "errors")
	b.ReportMetric(float64(t.Panics)/n, "panics")
	if t.URLs != b.N*len(f.URLs) {
		b.Fatalf("%d URLs asked about in %d passes, want %d a pass", t.URLs, b.N, len(f.URLs))
	}
}

// pass runs one pass over urls by the warm crawler (or its Transport's
// check step), and returns its tally and the CPU time the process spent
// on it (ok false where the system does not tell). It fails when the
// crawler's cache fetched while it passed: the pass was not warm.
func (w *warmCrawler) pass(b *testing.B, transport bool, urls []string, workers int) (t FrontierTally, cpu time.Duration, ok bool) {
	c := w.crawler
	if transport {
		c = w.transport
	}
	var fetched int64
	if w.checker != nil {
		fetched = w.checker.Cache().Stats().Fetches
	}
	cpu0, ok0 := processCPU()
	t = frontierPass(c, urls, workers)
	cpu1, ok1 := processCPU()
	if w.checker != nil {
		if s := w.checker.Cache().Stats(); s.Fetches != fetched {
			b.Fatalf("the cache fetched %d robots.txt while timed (%d evictions): the pass was not warm", s.Fetches-fetched, s.Evictions)
		}
	}
	return t, cpu1 - cpu0, ok0 && ok1
}

// frontierPass asks c about every URL of urls, split between workers
// goroutines taking turns (worker k takes the URLs at positions k,
// k+workers, ...); one worker runs on the calling goroutine.
func frontierPass(c FrontierCrawler, urls []string, workers int) FrontierTally {
	if workers == 1 {
		var t FrontierTally
		RunFrontier(c, urls, 0, 1, &t)
		return t
	}
	tallies := make([]FrontierTally, workers)
	var wg sync.WaitGroup
	for k := range workers {
		wg.Go(func() {
			var t FrontierTally // on the worker's stack: no false sharing while it counts
			RunFrontier(c, urls, k, workers, &t)
			tallies[k] = t
		})
	}
	wg.Wait()
	var sum FrontierTally
	for _, t := range tallies {
		sum.add(t)
	}
	return sum
}

func (t *FrontierTally) add(u FrontierTally) {
	t.URLs += u.URLs
	t.Disallowed += u.Disallowed
	t.Errors += u.Errors
	t.Panics += u.Panics
}

// warmPeer returns the warm-up of a peer's crawler: it meets every origin
// once, on the frontier's first round (its first len(Origins) URLs, one
// on each origin), parsing each robots.txt on first sight. A peer builds
// nothing as checks go, so one round warms it as a whole pass would.
func warmPeer(newCrawler func(RobotsSource) FrontierCrawler) func(*testing.B, *frontierRun) *warmCrawler {
	return func(b *testing.B, r *frontierRun) *warmCrawler {
		f := r.f
		c := newCrawler(f.Body)
		var t FrontierTally
		RunFrontier(c, f.URLs[:len(f.Origins)], 0, 1, &t)
		return &warmCrawler{crawler: c}
	}
}

// warmChecker returns fastrobots' crawler: a fetch.Checker over an
// unbounded cache, whose fetcher gets every origin's robots.txt from the
// frontier's loopback server, after one whole pass (every origin fetched,
// every site's matcher built as far as its checks required). It fails
// when an origin's robots.txt was not served or did not stay cached.
func warmChecker(b *testing.B, r *frontierRun) *warmCrawler {
	f, srv := r.f, r.server()
	fetcher := &fetch.Fetcher{Client: srv.client(), UserAgent: FrontierAgent + "/1.0"}
	checker := fetch.NewChecker(fetch.NewCache(fetcher, fetch.CacheOptions{MaxMemory: -1}))
	c := NewCheckerCrawler(checker)
	var t FrontierTally
	RunFrontier(c, f.URLs, 0, 1, &t)
	s := checker.Cache().Stats()
	if missing := srv.missing.Load(); missing > 0 || s.Fetches != int64(len(f.Origins)) || s.Evictions > 0 {
		b.Fatalf("warm-up: %d robots.txt fetched for %d origins, %d not served, %d evicted", s.Fetches, len(f.Origins), missing, s.Evictions)
	}
	return &warmCrawler{crawler: c, transport: NewTransportCrawler(checker), checker: checker}
}

// frontierServer serves the robots.txt of every origin of a frontier from
// one loopback net/http server, whatever the host asked for (Frontier.Body
// of the request's Host), and counts the requests it has no file for.
type frontierServer struct {
	srv     *httptest.Server
	missing atomic.Int64
}

func newFrontierServer(f *Frontier) *frontierServer {
	s := &frontierServer{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := f.Body(r.Host)
		if !ok || r.URL.Path != "/robots.txt" {
			s.missing.Add(1)
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Write(body)
	}))
	return s
}

// client returns an HTTP client that sends every request, whatever its
// host and scheme, to the server, in plain HTTP: an https URL's connection
// is dialled as a plain one (DialTLSContext), so that ten thousand
// origins cost no TLS handshake. Each connection carries one request: the
// origins are all different hosts, whose connections could not be reused.
func (s *frontierServer) client() *http.Client {
	addr := s.srv.Listener.Addr().String()
	dial := func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "tcp", addr)
	}
	return &http.Client{Transport: &http.Transport{DialContext: dial, DialTLSContext: dial, DisableKeepAlives: true}}
}
