package redisstore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots/fetch"
	"github.com/fastrobots/robots/fetch/redisstore"
)

// The fleet: fleetNodes crawlers, each with its own Cache, HTTP client
// and Redis client, sharing one Redis, checking URLs of fleetOrigins
// origins (http://siteN.test) that one loopback server answers for.
const (
	fleetNodes   = 8
	fleetOrigins = 2000
	// nodeWorkers check URLs at once on each node.
	nodeWorkers = 16
	// storeRetry is the fleet's CacheOptions.StoreRetry: short, so that
	// the test sees sharing resume soon after Redis returns.
	storeRetry = 200 * time.Millisecond
)

// origins is the loopback server of every site: it counts robots.txt
// requests by host and by node (the User-Agent), and serves each site a
// rule naming it.
type origins struct {
	srv *httptest.Server
	mu  sync.Mutex
	n   map[string]int // host, and host + " " + node
}

func newOrigins(tb testing.TB) *origins {
	o := &origins{n: map[string]int{}}
	o.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.TrimSuffix(r.Host, ":80")
		o.mu.Lock()
		o.n[host]++
		o.n[host+" "+r.Header.Get("User-Agent")]++
		o.mu.Unlock()
		w.Header().Set("Cache-Control", "max-age=3600")
		_, _ = fmt.Fprintf(w, "User-agent: *\nDisallow: /private-%s/\nAllow: /\n\nUser-agent: BadBot\nDisallow: /\n",
			strings.TrimSuffix(host, ".test"))
	}))
	tb.Cleanup(o.srv.Close)
	return o
}

// fetches returns how many times host's robots.txt was fetched, in all
// or by node when it is not "".
func (o *origins) fetches(host, node string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	if node != "" {
		host += " " + node
	}
	return o.n[host]
}

// fleetNode is one crawler of the fleet.
type fleetNode struct {
	name    string
	rdb     redis.UniversalClient
	cache   *fetch.Cache
	checker *fetch.Checker
}

// newFleet returns nodes crawlers sharing the Redis at srv under prefix;
// with srv nil, each on its own.
func newFleet(tb testing.TB, o *origins, srv *redisServer, prefix string, nodes int, opts fetch.CacheOptions) []*fleetNode {
	if srv == nil {
		return newFleetOn(tb, o, nil, prefix, nodes, opts)
	}
	return newFleetOn(tb, o, func(tb testing.TB) redis.UniversalClient { return srv.client(tb) }, prefix, nodes, opts)
}

// newFleetOn returns nodes crawlers, each with a client connect returns,
// sharing what the clients reach under prefix; with connect nil, each on
// its own.
func newFleetOn(tb testing.TB, o *origins, connect func(testing.TB) redis.UniversalClient, prefix string, nodes int, opts fetch.CacheOptions) []*fleetNode {
	fleet := make([]*fleetNode, nodes)
	for i := range fleet {
		name := fmt.Sprintf("node%d", i)
		f := &fetch.Fetcher{Client: dialAllTo(tb, o.srv.Listener.Addr().String()), UserAgent: name, Timeout: 10 * time.Second}
		opts := opts
		var rdb redis.UniversalClient
		if connect != nil {
			rdb = connect(tb)
			opts.Store = redisstore.New(rdb, redisstore.Options{Prefix: prefix})
		}
		cache := fetch.NewCache(f, opts)
		fleet[i] = &fleetNode{name: name, rdb: rdb, cache: cache, checker: fetch.NewChecker(cache)}
	}
	return fleet
}

// site returns the host of origin i.
func site(i int) string { return fmt.Sprintf("site%d.test", i) }

// crawl has every node check two URLs of each origin in [from, to), each
// node in an order of its own, and returns how many checks were wrong or
// failed.
func crawl(fleet []*fleetNode, from, to int) (checks, wrong int64) {
	return crawlWith(fleet, from, to, nodeWorkers)
}

// crawlWith is crawl with workers checks at once on each node.
func crawlWith(fleet []*fleetNode, from, to, workers int) (checks, wrong int64) {
	var wg sync.WaitGroup
	var nChecks, nWrong atomic.Int64
	for n, node := range fleet {
		order := rand.New(rand.NewPCG(uint64(n), 1)).Perm(to - from)
		next := atomic.Int64{}
		for range workers {
			wg.Go(func() {
				for {
					k := int(next.Add(1)) - 1
					if k >= len(order) {
						return
					}
					host := site(from + order[k])
					private := "http://" + host + "/private-" + strings.TrimSuffix(host, ".test") + "/page"
					for _, c := range []struct {
						url  string
						want bool
					}{{private, false}, {"http://" + host + "/public", true}} {
						ok, err := node.checker.Allowed(context.Background(), "ExampleBot", c.url)
						nChecks.Add(1)
						if err != nil || ok != c.want {
							nWrong.Add(1)
						}
					}
				}
			})
		}
	}
	wg.Wait()
	return nChecks.Load(), nWrong.Load()
}

func sumStats(fleet []*fleetNode) fetch.CacheStats {
	var s fetch.CacheStats
	for _, n := range fleet {
		st := n.cache.Stats()
		s.Fetches += st.Fetches
		s.SharedHits += st.SharedHits
		s.Hits += st.Hits
		s.StoreErrors += st.StoreErrors
		s.StoreSlow += st.StoreSlow
		s.SharedWrites += st.SharedWrites
	}
	return s
}

// The fleet fetches each origin once; with Redis killed, checks go on and
// each node fetches what it lacks, once; with Redis started again on the
// same port, sharing resumes.
func TestFleet(t *testing.T) {
	if testing.Short() {
		t.Skip("the fleet test checks 32,000 URLs")
	}
	srv := startRedis(t)
	o := newOrigins(t)
	// The default StoreTimeout: on a loaded machine calls answered late
	// are waited for (TestFleetSaturated), not taken for failures.
	fleet := newFleet(t, o, srv, "fleet:", fleetNodes, fetch.CacheOptions{StoreRetry: storeRetry})

	// 1. Redis up: every origin fetched once across the fleet.
	checks, wrong := crawl(fleet, 0, fleetOrigins)
	assert.Equal(t, int64(fleetNodes*fleetOrigins*2), checks)
	assert.Zero(t, wrong)
	for i := range fleetOrigins {
		if !assert.Equal(t, 1, o.fetches(site(i), ""), site(i)) {
			break
		}
	}
	st := sumStats(fleet)
	assert.Equal(t, int64(fleetOrigins), st.Fetches)
	assert.Equal(t, int64(fleetNodes*fleetOrigins-fleetOrigins), st.SharedHits)
	assert.Zero(t, st.StoreErrors)

	// 2. Redis killed while the fleet checks new origins: every check is
	// answered, right, and no node fetches an origin twice.
	const outage = fleetOrigins + 500
	go func() {
		time.Sleep(20 * time.Millisecond)
		srv.kill()
	}()
	_, wrong = crawl(fleet, fleetOrigins, outage)
	assert.Zero(t, wrong)
	srv.kill()
	for i := fleetOrigins; i < outage; i++ {
		assert.GreaterOrEqual(t, o.fetches(site(i), ""), 1, site(i))
		for _, n := range fleet {
			assert.LessOrEqual(t, o.fetches(site(i), n.name), 1, "%s by %s", site(i), n.name)
		}
	}
	// Redis surely down: each node fetches each new origin itself, once;
	// origins it holds it answers from its own level.
	_, wrong = crawl(fleet, outage, outage+500)
	assert.Zero(t, wrong)
	for i := outage; i < outage+500; i++ {
		assert.Equal(t, fleetNodes, o.fetches(site(i), ""), site(i))
	}
	before := sumStats(fleet).Fetches
	_, wrong = crawl(fleet, 0, 100)
	assert.Zero(t, wrong)
	assert.Equal(t, before, sumStats(fleet).Fetches, "what a node holds, it answers without Redis")

	// 3. Redis back on the same port, empty: once each node's client has
	// redialled (go-redis probes once a second after a run of failed
	// dials) and each node's pause is over, new origins are fetched once
	// across the fleet again.
	srv.start(t)
	for _, n := range fleet {
		waitForClient(t, n.rdb)
	}
	time.Sleep(2 * storeRetry)
	for _, n := range fleet {
		_, _ = n.checker.Allowed(context.Background(), "ExampleBot", "http://warmup-"+n.name+".test/")
	}
	const back = outage + 500
	_, wrong = crawl(fleet, back, back+500)
	assert.Zero(t, wrong)
	for i := back; i < back+500; i++ {
		if !assert.Equal(t, 1, o.fetches(site(i), ""), site(i)) {
			break
		}
	}
}

// waitForClient waits until rdb reaches its server again.
func waitForClient(t *testing.T, rdb redis.UniversalClient) {
	deadline := time.Now().Add(10 * time.Second)
	for rdb.Ping(t.Context()).Err() != nil {
		if time.Now().After(deadline) {
			t.Fatal("the client did not reach Redis again")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// BenchmarkFleet runs the fleet over fleetOrigins new origins per
// iteration and reports checks per second and fetches per origin: sharing
// Redis, sharing a Redis Cluster of 3 masters, with Redis down (killed
// before the run: every Store call is a refused connection), and alone
// (no Store).
func BenchmarkFleet(b *testing.B) {
	b.Run("redis", func(b *testing.B) { benchFleet(b, startRedis(b)) })
	b.Run("cluster", func(b *testing.B) { benchFleetOn(b, startCluster(b, 3, 0).client, nodeWorkers) })
	b.Run("redis-down", func(b *testing.B) {
		srv := startRedis(b)
		srv.kill()
		benchFleet(b, srv)
	})
	b.Run("alone", func(b *testing.B) { benchFleet(b, nil) })
}

func benchFleet(b *testing.B, srv *redisServer) { benchFleetWith(b, srv, nodeWorkers) }

// benchFleetWith is benchFleet with workers checks at once on each node.
func benchFleetWith(b *testing.B, srv *redisServer, workers int) {
	var connect func(testing.TB) redis.UniversalClient
	if srv != nil {
		connect = func(tb testing.TB) redis.UniversalClient { return srv.client(tb) }
	}
	benchFleetOn(b, connect, workers)
}

// benchFleetOn is benchFleetWith for nodes whose clients connect returns;
// nil: each node alone.
func benchFleetOn(b *testing.B, connect func(testing.TB) redis.UniversalClient, workers int) {
	o := newOrigins(b)
	var checks, fetched, storeErrors int64
	var elapsed time.Duration
	iter := 0
	for b.Loop() {
		fleet := newFleetOn(b, o, connect, fmt.Sprintf("bench%d:", iter), fleetNodes, fetch.CacheOptions{})
		from := iter * fleetOrigins
		start := time.Now()
		n, wrong := crawlWith(fleet, from, from+fleetOrigins, workers)
		elapsed += time.Since(start)
		if wrong != 0 {
			b.Fatalf("%d wrong checks", wrong)
		}
		checks += n
		storeErrors += sumStats(fleet).StoreErrors
		for i := from; i < from+fleetOrigins; i++ {
			fetched += int64(o.fetches(site(i), ""))
		}
		iter++
	}
	b.ReportMetric(float64(checks)/elapsed.Seconds(), "checks/s")
	b.ReportMetric(float64(fetched)/float64(iter*fleetOrigins), "fetches/origin")
	b.ReportMetric(float64(storeErrors)/float64(iter), "store-errors/op")
}

// BenchmarkHit measures one Cache.Get answered by the node's own level
// (local) and by Redis (shared: the entry read, checked and parsed; and
// shared-cluster, from a Redis Cluster of 3 masters), for a
// robots.txt of a typical size, and for scale a bare GET of the entry and
// the Store's Get (a script that checks the size first). The difference is what the shared level
// adds to the first check of an origin on a node.
//
// ROBOTS_BUSY_LOOPS=N runs it beside N spinning processes, as
// BenchmarkFleetSaturated does: the latency a shared hit adds on a hot
// node.
func BenchmarkHit(b *testing.B) {
	spin(b, spinning(b, 0))
	srv := startRedis(b)
	body := typicalRobots()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write(body)
	}))
	b.Cleanup(site.Close)
	client := dialAllTo(b, site.Listener.Addr().String())
	rdb := srv.client(b)
	newCache := func() *fetch.Cache {
		return fetch.NewCache(&fetch.Fetcher{Client: client}, fetch.CacheOptions{
			Store: redisstore.New(rdb, redisstore.Options{Prefix: "hit:"}),
		})
	}
	const n = 1000
	urls := make([]string, n)
	writer := newCache()
	for i := range urls {
		urls[i] = fmt.Sprintf("http://hit%d.test/page", i)
		if _, err := writer.Get(context.Background(), urls[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("local", func(b *testing.B) {
		benchGets(b, writer, urls, nil)
	})
	b.Run("shared", func(b *testing.B) {
		benchGets(b, newCache(), urls, newCache)
	})
	b.Run("shared-cluster", func(b *testing.B) {
		crdb := startCluster(b, 3, 0).client(b)
		newClusterCache := func() *fetch.Cache {
			return fetch.NewCache(&fetch.Fetcher{Client: client}, fetch.CacheOptions{
				Store: redisstore.New(crdb, redisstore.Options{Prefix: "hit:"}),
			})
		}
		w := newClusterCache()
		for _, u := range urls {
			if _, err := w.Get(context.Background(), u); err != nil {
				b.Fatal(err)
			}
		}
		benchGets(b, newClusterCache(), urls, newClusterCache)
	})
	b.Run("redis-get", func(b *testing.B) {
		benchRedisGet(b, rdb)
	})
	b.Run("store-get", func(b *testing.B) {
		benchStoreGet(b, redisstore.New(rdb, redisstore.Options{Prefix: "hit:"}))
	})
}

// benchStoreGet times the Store's Get of one entry: the script that
// checks the value's type and size in Redis before it sends it.
func benchStoreGet(b *testing.B, s *redisstore.Store) {
	ctx := context.Background()
	for b.Loop() {
		if v, err := s.Get(ctx, "v1/http://hit0.test"); err != nil || v == nil {
			b.Fatal(v, err)
		}
	}
}

// benchGets times Gets of urls in turn; with renew, each round of urls
// starts on a new cache, so that every Get is answered by Redis.
func benchGets(b *testing.B, c *fetch.Cache, urls []string, renew func() *fetch.Cache) {
	i := 0
	for b.Loop() {
		if i == len(urls) {
			i = 0
			if renew != nil {
				b.StopTimer()
				c = renew()
				b.StartTimer()
			}
		}
		if _, err := c.Get(context.Background(), urls[i]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	st := c.Stats()
	if renew != nil && st.Fetches != 0 {
		b.Fatalf("%d fetches: not every Get was a shared hit", st.Fetches)
	}
}

// benchRedisGet times the Redis round trip alone: a GET of one entry.
func benchRedisGet(b *testing.B, rdb *redis.Client) {
	ctx := context.Background()
	key := "hit:{v1/http://hit0.test}"
	for b.Loop() {
		if err := rdb.Get(ctx, key).Err(); err != nil {
			b.Fatal(err)
		}
	}
}

// typicalRobots is a robots.txt of a common size (about 2 KiB): a few
// groups of Disallow and Allow lines and a sitemap.
func typicalRobots() []byte {
	var sb strings.Builder
	for _, agent := range []string{"*", "Googlebot", "Bingbot"} {
		fmt.Fprintf(&sb, "User-agent: %s\n", agent)
		for i := range 20 {
			fmt.Fprintf(&sb, "Disallow: /section%d/private/*.php$\n", i)
		}
		sb.WriteString("Allow: /section1/private/public.php\n\n")
	}
	sb.WriteString("Sitemap: https://example.com/sitemap.xml\n")
	return []byte(sb.String())
}
