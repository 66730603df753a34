package fetch

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/rawurl"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The entry keeps the first agent a Checker resolves on it, the one
// Result.Agent keeps too; other agents are answered through the result,
// each by its own groups, and a new answer starts without a kept agent.
func TestCheckerKeepsFirstAgentOnEntry(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, rules, "Cache-Control", "max-age=60")))
	clock := newFakeClock()
	c := NewChecker(newTestCache(t, clock, CacheOptions{}))
	check := func(agent, path string) bool {
		ok, err := c.Allowed(t.Context(), agent, s.URL+path)
		require.NoError(t, err)
		return ok
	}
	assert.False(t, check("FooBot", "/private/x"), "fetched: nothing kept yet")
	assert.False(t, check("FooBot", "/a"), "FooBot is disallowed everywhere")
	e := c.Cache().load(s.URL) // the server's URL is its origin
	v := e.view.Load()
	require.True(t, v.kept(), "the hit kept FooBot's resolution")
	assert.Equal(t, "FooBot", v.agentKey)
	a := v.res.Agent("FooBot").agent
	assert.Equal(t, a.PathCheck(), v.check)
	assert.Equal(t, robots.Conditional, a.Policy(), "the file's rules decide")

	for range 3 {
		assert.True(t, check("Googlebot", "/a"), "another agent: its own groups")
		assert.False(t, check("Googlebot", "/private/a"))
		assert.False(t, check("FooBot", "/b"))
		assert.True(t, check("", "/a"))
	}
	assert.Same(t, v, e.view.Load(), "the first agent stays kept")

	clock.Advance(time.Minute)
	assert.False(t, check("Googlebot", "/private/a"), "refetched")
	assert.Equal(t, 2, cnt.get(""))
	assert.False(t, e.view.Load().kept(), "a new answer keeps no agent until a hit")
	assert.True(t, check("Googlebot", "/a"))
	assert.Equal(t, "Googlebot", e.view.Load().agentKey)
}

// A warm check answers as the agent does on the URL, whether the URL takes
// the one-pass path (a plain URL whose path starts with '/') or not, and
// counts one hit either way; Decide decides as the agent does.
func TestCheckerWarmAnswersAsAgent(t *testing.T) {
	c := NewChecker(NewCache(nil, CacheOptions{}))
	res, err := c.Cache().Put("http://a.test", 200, []byte(rules), time.Now())
	require.NoError(t, err)
	urls := []string{
		"http://a.test/private/x", "http://a.test/a", "http://a.test", "http://a.test?private",
		"http://a.test#/private/", "http://a.test/private#x", "http://a.test/a#/private/",
		"HTTP://A.test/private/", "http://a.test:80/private/", "http://u@a.test/private/",
		"http://a.test/%zz/private", "http://a.test/private/%zz", "http://a.test/;private",
	}
	for _, agent := range []string{"Googlebot", "FooBot", ""} {
		want := res.Robots.Agent(agent)
		for _, u := range urls {
			for _, pass := range []string{"first", "warm"} {
				before := c.Cache().Stats().Hits
				got, err := c.Allowed(t.Context(), agent, u)
				require.NoError(t, err, u)
				assert.Equal(t, want.Allowed(u), got, "%s %q, %s check", agent, u, pass)
				assert.Equal(t, int64(1), c.Cache().Stats().Hits-before, "%s %q, %s check: one hit", agent, u, pass)
			}
			before := c.Cache().Stats().Hits
			v, err := c.Decide(t.Context(), agent, u)
			require.NoError(t, err, u)
			assert.Equal(t, int64(1), c.Cache().Stats().Hits-before, "%s %q: Decide counts one hit", agent, u)
			d := want.Decide(u)
			assert.Equal(t, d.Allowed, v.Allowed, "%s %q: Decide", agent, u)
			assert.Equal(t, d.Line(), v.Line, "%s %q: Decide's line", agent, u)
		}
	}
}

// A site's home page, written with no path ("http://a.test", with a query
// or fragment after the host too), is answered and decided warm like a URL
// with one, allocating nothing: 1.8 % of the frontier workload's URLs are such, and
// without it each took the full path.
func TestCheckerWarmAnswersHomePages(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	c := NewChecker(NewCache(nil, CacheOptions{}))
	_, err := c.Cache().Put("http://a.test", 200, []byte("User-agent: FooBot\nDisallow: /$\nDisallow: /?private\n"), time.Now())
	require.NoError(t, err)
	_, err = c.Allowed(t.Context(), "FooBot", "http://a.test/") // keeps the agent on the entry
	require.NoError(t, err)
	for _, tc := range []struct {
		url     string
		allowed bool
	}{
		{"http://a.test", false},
		{"http://a.test#x", false},
		{"http://a.test?private=1", false},
		{"http://a.test?public", true},
	} {
		_, got, ok := c.allowedWarm("FooBot", tc.url)
		assert.True(t, ok, "%q: answered warm", tc.url)
		assert.Equal(t, tc.allowed, got, tc.url)
		var v Verdict
		assert.True(t, c.decideWarm([]string{"FooBot"}, tc.url, &v), "%q: decided warm", tc.url)
		assert.Equal(t, tc.allowed, v.Allowed, tc.url)
		assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { _, _ = c.Allowed(t.Context(), "FooBot", tc.url) }), tc.url)
		assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { _, _ = c.Decide(t.Context(), "FooBot", tc.url) }), tc.url)
	}
}

// TestCheckerWarmPathTakesTheOriginAsWritten checks the warm path's
// reading of a URL: the part before the path's '/' (runtime.RootedStart)
// is taken for the origin only when it is written byte for byte as a key
// of the cache, so that a host the warm path does not read (upper case, a
// default port, user information, a trailing dot, another port) never
// takes another origin's answer (checkWarm).
func TestCheckerWarmPathTakesTheOriginAsWritten(t *testing.T) {
	w := newWarmOrigins(t)
	answered := 0
	for _, scheme := range []string{"http://", "https://", "HTTP://"} {
		for _, user := range []string{"", "u@"} {
			for _, host := range []string{"a.test", "A.test", "a.test.", "b.a.test", "a.tes", "[::1]", "c.test", "d.test"} {
				for _, port := range []string{"", ":", ":80", ":443", ":8080"} {
					for _, rest := range []string{"", "/", "/x", "/y/1", "/z#x", "?q", "#/x", ";p", "/x#/y", "//x", "/%zz"} {
						warm, err := w.check(scheme + user + host + port + rest)
						assert.NoError(t, err)
						if warm {
							answered++
						}
					}
				}
			}
		}
	}
	t.Logf("%d URLs answered warm", answered)
	assert.Positive(t, answered)
}

// FuzzWarmPath is TestCheckerWarmPathTakesTheOriginAsWritten on any
// string.
func FuzzWarmPath(f *testing.F) {
	w := newWarmOrigins(f)
	for origin := range w.agents {
		f.Add(origin + "/x#/y")
	}
	for _, u := range []string{"http://a.test:80/x", "http://A.test/", "http://u@a.test/", "http://a.test./x", "https://a.test;x/x",
		"http://c.test", "https://a.test?x", "http://a.test#/x", "http://[::1]:8080?z"} {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, u string) {
		if _, err := w.check(u); err != nil {
			t.Fatal(err)
		}
	})
}

// warmOrigins is a Checker holding seven origins (ports, https, a
// subdomain, IPv6, a server error's FullDisallow and a missing file's
// FullAllow), each with FooBot's resolution kept on its entry, and the
// agent of each.
type warmOrigins struct {
	c      *Checker
	agents map[string]*robots.Agent
}

func newWarmOrigins(tb testing.TB) *warmOrigins {
	files := map[string]struct {
		status int
		body   string
	}{
		"http://a.test":      {200, "User-agent: *\nDisallow: /\n"},
		"https://a.test":     {200, "User-agent: *\nDisallow: /x\nAllow: /x$\n"},
		"http://a.test:8080": {200, "User-agent: *\nAllow: /\n"},
		"http://b.a.test":    {200, "User-agent: *\nDisallow: /y\n"},
		"http://[::1]:8080":  {200, "User-agent: *\nDisallow: /z\n"},
		"http://c.test":      {503, "User-agent: *\nAllow: /\n"},
		"http://d.test":      {404, "User-agent: *\nDisallow: /\n"},
	}
	// Every answer holds for a day, the failure's too (a 503 is retried
	// after a minute by default): a fuzzing run outlives a minute, and an
	// expired origin is rightly not answered warm. The clock stays the
	// real one, so that hits read the coarse clock as in production.
	day := Freshness{Lifetime: 24 * time.Hour, Retry: 24 * time.Hour, Retry503: 24 * time.Hour, MaxRetry: 24 * time.Hour}
	w := &warmOrigins{c: NewChecker(NewCache(&Fetcher{Freshness: day}, CacheOptions{})), agents: map[string]*robots.Agent{}}
	for origin, f := range files {
		res, err := w.c.Cache().Put(origin, f.status, []byte(f.body), time.Now())
		require.NoError(tb, err)
		want := map[int]robots.Policy{200: robots.Conditional, 503: robots.FullDisallow, 404: robots.FullAllow}[f.status]
		require.Equal(tb, want, res.Policy, "%s: status %d", origin, f.status)
		require.GreaterOrEqual(tb, res.Lifetime(), 24*time.Hour, "%s: status %d holds a day", origin, f.status)
		w.agents[origin] = res.Agent("FooBot").agent
		_, err = w.c.Allowed(context.Background(), "FooBot", origin+"/") // keeps the agent on the entry
		require.NoError(tb, err)
	}
	return w
}

// check checks the warm paths of Allowed and Decide on u: both answer it
// or neither does; one that answers gives the verdict, line and rule of u's
// own origin (robots.Origin), which the cache holds; and every plain URL
// (rawurl.Split) whose path starts with '/', of a cached origin, is
// answered warm.
func (w *warmOrigins) check(u string) (warm bool, err error) {
	_, got, ok := w.c.allowedWarm("FooBot", u)
	var v Verdict
	if decided := w.c.decideWarm([]string{"FooBot"}, u, &v); decided != ok {
		return ok, fmt.Errorf("%q: Allowed warm %v, Decide warm %v", u, ok, decided)
	}
	if ok {
		origin, err := robots.Origin(u)
		want, cached := w.agents[origin]
		if err != nil || !cached {
			return ok, fmt.Errorf("%q: answered warm, its origin %q (%v) not cached", u, origin, err)
		}
		if a := want.Allowed(u); got != a {
			return ok, fmt.Errorf("%q: warm %v, its origin %s %v", u, got, origin, a)
		}
		if d := want.Decide(u); v.Allowed != d.Allowed || v.Line != d.Line() || v.Rule != d.Rule {
			return ok, fmt.Errorf("%q: Decide warm %+v, its origin %s %+v", u, v, origin, d)
		}
	}
	if origin, path, plain := rawurl.Split(u); plain && strings.HasPrefix(path, "/") && w.agents[origin] != nil && !ok {
		return ok, fmt.Errorf("%q: plain, rooted, cached, not answered warm", u)
	}
	if err := w.checkRoot(u); err != nil {
		return ok, err
	}
	return ok, w.checkBatch(u)
}

// checkRoot checks the warm route on a URL with no path: one it answers
// gives the verdict of u's own origin, which the cache holds, and every
// plain URL of a cached origin with no path is answered so.
func (w *warmOrigins) checkRoot(u string) error {
	if origin, rest, plain := rawurl.Split(u); !plain || strings.HasPrefix(rest, "/") || w.agents[origin] == nil {
		return nil
	}
	_, got, ok := w.c.allowedWarm("FooBot", u)
	var v Verdict
	if decided := w.c.decideWarm([]string{"FooBot"}, u, &v); decided != ok {
		return fmt.Errorf("%q: Allowed warm with no path %v, Decide %v", u, ok, decided)
	}
	if ok {
		origin, err := robots.Origin(u)
		want, cached := w.agents[origin]
		if err != nil || !cached {
			return fmt.Errorf("%q: answered warm with no path, its origin %q (%v) not cached", u, origin, err)
		}
		if a := want.Allowed(u); got != a {
			return fmt.Errorf("%q: warm with no path %v, its origin %s %v", u, got, origin, a)
		}
		if d := want.Decide(u); v.Allowed != d.Allowed || v.Line != d.Line() || v.Rule != d.Rule {
			return fmt.Errorf("%q: Decide warm with no path %+v, its origin %s %+v", u, v, origin, d)
		}
	}
	if !ok {
		return fmt.Errorf("%q: plain, no path, cached, not answered warm", u)
	}
	return nil
}

// checkBatch checks that batches holding u, with URLs of its origin and
// of another around it, answer each URL as a call does, up to the first
// that has no origin, where they stop with an error. It checks nothing
// when a URL of the batch has an origin the cache does not hold, which a
// call would fetch.
func (w *warmOrigins) checkBatch(u string) error {
	batch := []string{u, u + "/x", u, "http://b.a.test/y", u + "?q", u, "http://a.test/", "http://a.test:8080/x", u}
	for _, b := range batch {
		if origin, err := robots.Origin(b); err == nil && w.agents[origin] == nil {
			return nil
		}
	}
	ctx := context.Background()
	var want []bool
	var wantV []Verdict
	for _, b := range batch {
		ok, err := w.c.Allowed(ctx, "FooBot", b)
		if err != nil {
			break
		}
		v, err := w.c.Decide(ctx, "FooBot", b)
		if err != nil || v.Allowed != ok {
			return fmt.Errorf("%q: Allowed %v, Decide %+v (%v)", b, ok, v, err)
		}
		want, wantV = append(want, ok), append(wantV, v)
	}
	got, err := w.c.AllowedBatch(ctx, "FooBot", batch, nil)
	if (err != nil) != (len(want) < len(batch)) || !slices.Equal(got, want) {
		return fmt.Errorf("%q: AllowedBatch %v (%v), one by one %v", batch, got, err, want)
	}
	gotV, err := w.c.DecideBatch(ctx, "FooBot", batch, nil)
	if (err != nil) != (len(want) < len(batch)) || !reflect.DeepEqual(gotV, wantV) && len(gotV)+len(wantV) > 0 {
		return fmt.Errorf("%q: DecideBatch %+v (%v), one by one %+v", batch, gotV, err, wantV)
	}
	return nil
}
