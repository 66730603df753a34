package fetch

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/fastrobots/robots/compile"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A batch answers as one check per URL does, with one cache lookup per run
// of URLs of one origin.
func TestCheckerBatchOneLookupPerOrigin(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, rules)))
	client := clientTo(t, s.Listener.Addr().String(), nil)
	c := NewChecker(NewCache(&Fetcher{Client: client}, CacheOptions{}))
	urls := []string{
		"http://a.test/", "http://a.test/private/x", "http://a.test/p?q", "http://a.test/private/",
		"http://b.test/private/y", "http://b.test/z",
		"http://a.test/private/z", "HTTP://A.TEST/private/q", "http://a.test:80/p", "http://a.test?private",
		"http://a.test#/private/", "http://a.test/private/%zz",
	}
	for _, agent := range []string{"Googlebot", "FooBot", ""} {
		var want []bool
		for _, u := range urls {
			ok, err := c.Allowed(t.Context(), agent, u)
			require.NoError(t, err)
			want = append(want, ok)
		}
		before := c.Cache().Stats().Hits
		got, err := c.AllowedBatch(t.Context(), agent, urls, nil)
		require.NoError(t, err)
		assert.Equal(t, want, got, agent)
		assert.Equal(t, int64(3), c.Cache().Stats().Hits-before, "%q: one lookup per run of one origin", agent)

		vs, err := c.DecideBatch(t.Context(), agent, urls, nil)
		require.NoError(t, err)
		require.Len(t, vs, len(urls))
		for i, v := range vs {
			one, err := c.Decide(t.Context(), agent, urls[i])
			require.NoError(t, err)
			assert.Equal(t, one, v, urls[i])
		}
	}
	assert.Equal(t, 2, cnt.get(""), "each origin fetched once")
}

// A batch of a frontier that serves one URL per origin in turn, each
// origin warm (its answer fresh, the agent's resolution kept), answers each
// URL as one call does, with one hit per URL, and fetches nothing: under
// each policy (rules, FullAllow for a 404, FullDisallow for a 503), and
// for URLs the warm path leaves to the full one (a query after the host,
// a fragment, an upper-case scheme).
func TestCheckerBatchAcrossWarmOrigins(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(func(w http.ResponseWriter, r *http.Request) {
		switch r.Host {
		case "gone.test":
			text(404, "")(w, r)
		case "down.test":
			text(503, "")(w, r)
		default:
			text(200, rules)(w, r)
		}
	}))
	c := NewChecker(NewCache(&Fetcher{Client: clientTo(t, s.Listener.Addr().String(), nil)}, CacheOptions{}))
	hosts := []string{"a.test", "b.test", "gone.test", "down.test", "c.test"}
	paths := []string{"/", "/private/x", "/p?q", "/private/#frag", "?private", "/x#/private/"}
	var urls []string
	for _, p := range paths {
		for _, h := range hosts {
			urls = append(urls, "http://"+h+p)
		}
	}
	urls = append(urls, "HTTP://A.TEST/private/y", "http://b.test/private/z")
	for _, agent := range []string{"Googlebot", "FooBot"} {
		var want []bool
		var wantV []Verdict
		for _, u := range urls {
			ok, err := c.Allowed(t.Context(), agent, u)
			require.NoError(t, err)
			want = append(want, ok)
			v, err := c.Decide(t.Context(), agent, u)
			require.NoError(t, err)
			wantV = append(wantV, v)
		}
		fetched := cnt.get("")
		before := c.Cache().Stats().Hits
		got, err := c.AllowedBatch(t.Context(), agent, urls, nil)
		require.NoError(t, err)
		assert.Equal(t, want, got, agent)
		assert.Equal(t, int64(len(urls)), c.Cache().Stats().Hits-before, "%s: one hit per URL, each of another origin", agent)

		gotV, err := c.DecideBatch(t.Context(), agent, urls, nil)
		require.NoError(t, err)
		assert.Equal(t, wantV, gotV, agent)
		assert.Equal(t, fetched, cnt.get(""), "%s: nothing fetched", agent)
	}
	assert.Equal(t, len(hosts), cnt.get(""), "each origin fetched once")
}

// Warm runs on compiled rules, of every length up to nine, of paths
// allowed and disallowed, with fragments and queries, and under a
// FullDisallow, answer as one call per URL does.
func TestCheckerBatchRunsOnCompiledRules(t *testing.T) {
	c := NewChecker(NewCache(nil, CacheOptions{}))
	body := "User-agent: *\nDisallow: /private/\nDisallow: /*.pdf$\nAllow: /private/ok\n"
	_, err := c.Cache().Put("http://a.test", 200, []byte(body), time.Now())
	require.NoError(t, err)
	_, err = c.Cache().Put("http://down.test", 503, nil, time.Now())
	require.NoError(t, err)
	for range compile.HotAfter + 1 { // past it, the rules compile
		_, err := c.Allowed(t.Context(), "FooBot", "http://a.test/x")
		require.NoError(t, err)
	}
	res, err := c.Cache().Get(t.Context(), "http://a.test")
	require.NoError(t, err)
	require.Positive(t, res.Agent("FooBot").agent.Stats().States, "the rules are compiled")
	paths := []string{"/private/x", "/a", "/private/ok#x", "/doc.pdf", "/doc.pdf?x", "/private#/a", "/b?private", "/", "/private/"}
	for _, origin := range []string{"http://a.test", "http://down.test"} {
		for n := 1; n <= len(paths); n++ {
			var urls []string
			for _, p := range paths[:n] {
				urls = append(urls, origin+p)
			}
			var want []bool
			for _, u := range urls[:n] {
				ok, err := c.Allowed(t.Context(), "FooBot", u)
				require.NoError(t, err)
				want = append(want, ok)
			}
			got, err := c.AllowedBatch(t.Context(), "FooBot", urls[:n], nil)
			require.NoError(t, err)
			assert.Equal(t, want, got, "%s, a run of %d", origin, n)
		}
	}
}

// A batch stops at the first URL without an origin, returning the answers
// before it.
func TestCheckerBatchStopsAtBadURL(t *testing.T) {
	s := serve(t, text(200, rules))
	c := NewChecker(NewCache(fetcher(t, nil), CacheOptions{}))
	got, err := c.AllowedBatch(t.Context(), "Googlebot", []string{s.URL + "/", s.URL + "/private/", "/relative", s.URL + "/x"}, []bool{true})
	assert.Error(t, err)
	assert.Equal(t, []bool{true, true, false}, got, "appended to what was given")
	vs, err := c.DecideBatch(t.Context(), "Googlebot", []string{"mailto:x", s.URL}, nil)
	assert.Error(t, err)
	assert.Empty(t, vs)
}

// A batch on a cached origin allocates nothing but what it appends.
func TestCheckerBatchDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	s := serve(t, text(200, rules))
	c := NewChecker(NewCache(fetcher(t, nil), CacheOptions{}))
	urls := []string{s.URL + "/", s.URL + "/private/a", s.URL + "/b?c"}
	out := make([]bool, 0, len(urls))
	_, err := c.AllowedBatch(t.Context(), "Googlebot", urls, out)
	require.NoError(t, err)
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { _, _ = c.AllowedBatch(t.Context(), "Googlebot", urls, out[:0]) }))
	vs, err := c.DecideBatch(t.Context(), "Googlebot", urls, nil)
	require.NoError(t, err)
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { _, _ = c.DecideBatch(t.Context(), "Googlebot", urls, vs[:0]) }))
}

// Hits, fetches, evictions, Puts, Forgets and Stats run at once, over
// origins that do not all fit in memory: every check answers by the
// rules, and the bound holds. Run it with -race.
func TestCheckerConcurrentHitsAndEvictions(t *testing.T) {
	s := serve(t, text(200, rules))
	client := clientTo(t, s.Listener.Addr().String(), nil)
	probe := NewCache(&Fetcher{Client: client}, CacheOptions{})
	_, err := probe.Get(t.Context(), "http://probe.test/")
	require.NoError(t, err)
	bound := probe.Stats().Bytes * 8
	c := NewChecker(NewCache(&Fetcher{Client: client}, CacheOptions{MaxMemory: bound}))
	const origins = 32
	page := func(i int, path string) string { return fmt.Sprintf("http://site%d.test%s", i%origins, path) }

	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				n := g*7 + i
				switch n % 10 {
				case 0:
					_, err := c.Cache().Put(page(n, "/"), 200, []byte(rules), c.Cache().fc.now())
					assert.NoError(t, err)
				case 1:
					c.Cache().Forget(page(n, "/"))
				case 2:
					assert.LessOrEqual(t, c.Cache().Stats().Bytes, bound)
				case 3:
					got, err := c.AllowedBatch(t.Context(), "Googlebot", []string{page(n, "/a"), page(n, "/private/b")}, nil)
					assert.NoError(t, err)
					assert.Equal(t, []bool{true, false}, got)
				default:
					ok, err := c.Allowed(t.Context(), "Googlebot", page(n, "/private/x"))
					assert.NoError(t, err)
					assert.False(t, ok)
				}
			}
		})
	}
	wg.Wait()
	st := c.Cache().Stats()
	assert.LessOrEqual(t, st.Bytes, bound)
	assert.LessOrEqual(t, st.Entries, 8)
	assert.Positive(t, st.Evictions)
	assert.Positive(t, st.Hits)
}
