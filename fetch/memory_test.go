package fetch

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/internal/testkit/memstat"
)

// hostileAlphabet is the 80 bytes the hostile file's stars are followed by.
const hostileAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()+,;=:@/?"

// hostileBody is a robots.txt built to cost its reader the most memory per
// byte: 31 rules of 8,000 stars, each followed by a random byte, and a
// byte no URL holds, so that every check runs through all of them.
func hostileBody() string {
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for range 31 {
		b.WriteString("Disallow: /")
		for range 8000 {
			b.WriteByte('*')
			b.WriteByte(hostileAlphabet[r.IntN(len(hostileAlphabet))])
		}
		b.WriteString("*|\n")
	}
	return b.String()
}

// TestCacheBoundsHostileMemory fills a cache with hostile origins, each
// checked once with a long URL, and checks that the live heap stays
// within 1.25 times the cache's limit plus a fixed few MiB: what checks
// build on an entry (compiled rules, automaton states, the fallback
// scanner) is charged to it as it is built, and eviction follows.
func TestCacheBoundsHostileMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes what the heap holds")
	}
	body := hostileBody()
	s := serve(t, text(200, body))
	url := "/" + strings.Repeat(hostileAlphabet, 50)
	limits := []int64{16 << 20, 64 << 20}
	if os.Getenv("ROBOTS_HEAVY") != "" {
		limits = append(limits, 256<<20, 1<<30)
	}
	for _, limit := range limits {
		t.Run(fmt.Sprintf("%dMiB", limit>>20), func(t *testing.T) {
			client := clientTo(t, s.Listener.Addr().String(), nil)
			before := memstat.Live()
			c := NewChecker(NewCache(&Fetcher{Client: client}, CacheOptions{MaxMemory: limit}))
			origins := int(max(260, 3*limit/(4<<20)))
			peak := int64(0)
			for n := range origins {
				_, err := c.Allowed(t.Context(), "bot", fmt.Sprintf("http://hostile%d.test%s", n, url))
				require.NoError(t, err)
				if n%16 == 15 {
					peak = max(peak, memstat.Live()-before)
				}
			}
			held := memstat.Live() - before
			peak = max(peak, held)
			st := c.Cache().Stats()
			t.Logf("limit %d MiB: %d origins, %d entries charged %.1f MiB; live heap %.1f MiB, peak %.1f MiB",
				limit>>20, origins, st.Entries, float64(st.Bytes)/(1<<20), float64(held)/(1<<20), float64(peak)/(1<<20))
			assert.LessOrEqual(t, st.Bytes, limit)
			assert.LessOrEqual(t, peak, limit+limit/4+hostileSlack, "live heap within 1.25x the limit plus %d MiB", hostileSlack>>20)
			runtime.KeepAlive(c)
		})
	}
}

// hostileSlack is what the heap may hold besides the cache: the entry in
// use by the check, the test's own state.
const hostileSlack = 12 << 20

// TestCacheChargesOrdinaryEntries checks that an entry is charged what it
// holds, within 1.5 times, on the licensed corpus's real files, and that
// an origin of the median file, checked once, is charged at most
// maxMedianCharge: a million such origins fit in 1.5 GiB.
func TestCacheChargesOrdinaryEntries(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes what the heap holds")
	}
	dir := filepath.Join("..", "testdata", "corpus", "files")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	bodies := map[string][]byte{}
	var sizes []int
	for i, e := range entries {
		if i%4 != 0 { // a quarter of the files is enough
			continue
		}
		body, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		bodies[fmt.Sprintf("site%d.test", i)] = body
		sizes = append(sizes, len(body))
	}
	sort.Ints(sizes)
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		text(200, string(bodies[strings.Split(r.Host, ":")[0]]))(w, r)
	})
	client := clientTo(t, s.Listener.Addr().String(), nil)

	// What the entries hold is what the heap frees when the cache goes:
	// the HTTP client's state for each host it dialled stays.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	c := NewChecker(NewCache(&Fetcher{Client: client}, CacheOptions{MaxMemory: -1}))
	for host := range bodies {
		for _, p := range []string{"/", "/search?q=x", "/wp-admin/a", "/a/b/c.html"} {
			_, err := c.Allowed(t.Context(), "Googlebot", "http://"+host+p)
			require.NoError(t, err)
		}
	}
	client.CloseIdleConnections()
	s.CloseClientConnections()
	withCache := memstat.Live()
	st := c.Cache().Stats()
	c = nil
	held := withCache - memstat.Live()
	ratio := float64(st.Bytes) / float64(held)
	t.Logf("%d entries: charged %d bytes, the heap frees %d without them (%.2f); %.0f bytes an entry", st.Entries, st.Bytes, held, ratio, float64(held)/float64(st.Entries))
	assert.InDelta(t, 1, ratio, 0.34, "charged within 1.5x of what the entries hold")

	// The median file: what one entry is charged, and how many fit.
	median := medianBody(t, dir, sizes[len(sizes)/2])
	one := NewChecker(NewCache(&Fetcher{Client: clientTo(t, s.Listener.Addr().String(), nil)}, CacheOptions{}))
	bodies["median.test"] = median
	_, err = one.Allowed(t.Context(), "Googlebot", "http://median.test/a")
	require.NoError(t, err)
	charge := one.Cache().Stats().Bytes
	t.Logf("the median file (%d bytes) is charged %d bytes: %d origins fit in %d MiB", len(median), charge, DefaultMaxMemory/charge, DefaultMaxMemory>>20)
	assert.LessOrEqual(t, charge, int64(maxMedianCharge))
}

// maxMedianCharge is the most an origin of the median file may be charged
// (TestCacheChargesOrdinaryEntries); TestCacheHoldsOriginsAtTheirCharge
// holds the charge to the heap.
const maxMedianCharge = 1500

// sampledMedian returns the median file of the quarter of the licensed
// corpus that TestCacheChargesOrdinaryEntries reads.
func sampledMedian(t *testing.T) []byte {
	t.Helper()
	dir := filepath.Join("..", "testdata", "corpus", "files")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var sizes []int
	for i, e := range entries {
		if i%4 != 0 {
			continue
		}
		info, err := e.Info()
		require.NoError(t, err)
		sizes = append(sizes, int(info.Size()))
	}
	sort.Ints(sizes)
	return medianBody(t, dir, sizes[len(sizes)/2])
}

// medianBody returns a body of the licensed corpus of the given size.
func medianBody(t *testing.T, dir string, size int) []byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && int(info.Size()) == size {
			body, err := os.ReadFile(filepath.Join(dir, e.Name()))
			require.NoError(t, err)
			return body
		}
	}
	t.Fatalf("no file of %d bytes", size)
	return nil
}

// TestCacheHoldsOriginsAtTheirCharge fills a cache with 200,000 origins
// (20,000 with -short) of the median file of TestCacheChargesOrdinaryEntries, seeded with
// Put and checked once each by a Checker, as a crawler meets most sites,
// and checks that the charge is honest: the entries are charged at least
// what the heap holds for them, less a margin for the heap's noise, and at
// most a quarter more. What one origin costs is logged.
func TestCacheHoldsOriginsAtTheirCharge(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes what the heap holds")
	}
	origins := 200_000
	if testing.Short() {
		origins = 20_000
	}
	body := sampledMedian(t)
	hosts := make([]string, origins) // made before the count: the crawler's, not the cache's
	for i := range hosts {
		hosts[i] = fmt.Sprintf("http://site%d.test", i)
	}
	fetchedAt := time.Now()
	before := memstat.Live()
	c := NewChecker(NewCache(nil, CacheOptions{MaxMemory: -1}))
	for _, host := range hosts {
		_, err := c.Cache().Put(host+"/", 200, body, fetchedAt)
		require.NoError(t, err)
		_, err = c.Allowed(t.Context(), "Googlebot", host+"/a/b")
		require.NoError(t, err)
	}
	held := memstat.Live() - before
	st := c.Cache().Stats()
	require.Equal(t, origins, st.Entries)
	ratio := float64(st.Bytes) / float64(held)
	t.Logf("%d origins of %d bytes: charged %.0f bytes an origin, the heap holds %.0f (%.2f); a million origins hold %.2f GiB",
		origins, len(body), float64(st.Bytes)/float64(origins), float64(held)/float64(origins), ratio, float64(held)/float64(origins)*1e6/(1<<30))
	assert.GreaterOrEqual(t, ratio, 0.97, "charged at least what the heap holds, within 3 %%")
	assert.LessOrEqual(t, ratio, 1.25, "charged at most a quarter more than the heap holds")
	runtime.KeepAlive(c)
	runtime.KeepAlive(hosts)
}
