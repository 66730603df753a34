package fetch

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/compile"
)

func TestCheckerAllowed(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n\nUser-agent: Googlebot-Image\nDisallow: /photos/\n")))
	c := NewChecker(NewCache(fetcher(t, nil), CacheOptions{}))
	ctx := t.Context()
	cases := []struct {
		agents []string
		path   string
		want   bool
	}{
		{[]string{"Googlebot"}, "/nogoogle/x", false},
		{[]string{"Googlebot"}, "/private/x", true},
		{[]string{"OtherBot"}, "/private/x", false},
		{[]string{"OtherBot"}, "/nogoogle/x", true},
		{nil, "/private/x", false},
		{[]string{"Googlebot-Image", "Googlebot"}, "/photos/1.jpg", false},
		{[]string{"Googlebot-Image", "Googlebot"}, "/nogoogle/x", true},
		{[]string{"Googlebot-News", "Googlebot"}, "/nogoogle/x", false},
	}
	for _, tc := range cases {
		got, err := c.AllowedAgents(ctx, tc.agents, s.URL+tc.path)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, "%v %s", tc.agents, tc.path)
	}
	ok, err := c.Allowed(ctx, "Googlebot", s.URL+"/nogoogle/x?q=1")
	require.NoError(t, err)
	assert.False(t, ok)
	ok, err = c.Allowed(ctx, "", s.URL+"/private/")
	require.NoError(t, err)
	assert.False(t, ok)

	v, err := c.Decide(ctx, "Googlebot", s.URL+"/nogoogle/a")
	require.NoError(t, err)
	assert.False(t, v.Allowed)
	require.NotNil(t, v.Rule)
	assert.Equal(t, 5, v.Rule.Line)
	assert.Equal(t, Conditional, v.Result.Policy)
	assert.Equal(t, 1, cnt.get(""), "one fetch for all checks")
}

func TestCheckerHonoursPolicies(t *testing.T) {
	for _, c := range []struct {
		status int
		want   bool
	}{{404, true}, {403, true}, {500, false}, {429, false}, {503, false}} {
		s := serve(t, text(c.status, "User-agent: *\nDisallow: /\n"))
		ch := NewChecker(NewCache(fetcher(t, nil), CacheOptions{}))
		for _, path := range []string{"/", "/a", "/robots.txt"} {
			v, err := ch.Decide(t.Context(), "Googlebot", s.URL+path)
			require.NoError(t, err)
			assert.Equal(t, c.want, v.Allowed, "%d %s", c.status, path)
			assert.Nil(t, v.Rule)
		}
	}
}

func TestCheckerOriginRules(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, rules)))
	c := NewChecker(NewCache(&Fetcher{Client: clientTo(t, s.Listener.Addr().String(), nil)}, CacheOptions{}))
	for _, u := range []string{
		"http://www.müller.eu/private/a",
		"http://WWW.MÜLLER.EU/private/b",
		"http://www.xn--mller-kva.eu:80/private/c",
		"HTTP://www.xn--mller-kva.eu/private/d",
	} {
		ok, err := c.Allowed(t.Context(), "Googlebot", u)
		require.NoError(t, err)
		assert.False(t, ok, u)
	}
	assert.Equal(t, map[string]int{"": 1, "www.xn--mller-kva.eu/robots.txt": 1}, cnt.snapshot(),
		"an IDN, its punycode and the default port are one origin")
	_, _ = c.Allowed(t.Context(), "Googlebot", "http://www.xn--mller-kva.eu:8080/")
	_, _ = c.Allowed(t.Context(), "Googlebot", "http://müller.eu/")
	assert.Equal(t, 1, cnt.get("www.xn--mller-kva.eu:8080/robots.txt"))
	assert.Equal(t, 1, cnt.get("xn--mller-kva.eu/robots.txt"))
}

func TestCheckerErrors(t *testing.T) {
	c := NewChecker(nil)
	ok, err := c.Allowed(t.Context(), "Googlebot", "/relative")
	assert.False(t, ok)
	assert.ErrorIs(t, err, robots.ErrNoScheme)
	ok, err = c.Allowed(t.Context(), "Googlebot", "ftp://127.0.0.1/x")
	assert.False(t, ok)
	assert.ErrorIs(t, err, ErrUnsupportedURL)

	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(200 * time.Millisecond)
		text(200, rules)(w, r)
	})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	ok, err = NewChecker(NewCache(fetcher(t, nil), CacheOptions{})).Allowed(ctx, "Googlebot", s.URL+"/")
	assert.False(t, ok)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestResultAgentIsResolvedOnce(t *testing.T) {
	s := serve(t, text(200, rules))
	res, err := fetcher(t, nil).Fetch(t.Context(), s.URL+"/robots.txt")
	require.NoError(t, err)
	a := res.Agent("FooBot")
	assert.Same(t, a, res.Agent("FooBot"))
	assert.Same(t, res.Agent("Googlebot", "FooBot"), res.Agent("Googlebot", "FooBot"))
	assert.NotSame(t, a, res.Agent("Googlebot"))
	assert.Equal(t, Conditional, a.Policy())
	assert.Equal(t, "FooBot", a.Robots().Name())
	// Past the bound, agents are still resolved, just not kept.
	for i := range 2 * maxCachedAgents {
		assert.False(t, res.Agent(fmt.Sprintf("Bot%d", i)).Allowed("/private/x"))
	}
	assert.False(t, res.Agent("FooBot").Allowed("/"))
}

func TestResultAgentPolicies(t *testing.T) {
	for _, c := range []struct {
		policy Policy
		want   bool
	}{{FullAllow, true}, {FullDisallow, false}} {
		r := &Result{Policy: c.policy}
		a := r.Agent("Googlebot")
		assert.Equal(t, c.policy, a.Policy())
		assert.Nil(t, a.Robots())
		assert.Equal(t, c.want, a.Allowed("https://example.com/"))
		assert.Equal(t, c.want, a.AllowedPath("/x?y"))
		assert.Equal(t, c.want, a.Decide("/robots.txt").Allowed)
		assert.Nil(t, a.Decide("/x").Rule)
	}
	assert.False(t, (&Result{}).Agent().Allowed("/"), "a Result with no policy allows nothing")
	assert.Equal(t, "full allow", FullAllow.String())
	assert.Equal(t, "full disallow", FullDisallow.String())
	assert.Equal(t, "conditional", Conditional.String())
	for r := ReasonOK; r <= ReasonUnreachable; r++ {
		assert.NotEqual(t, "unknown", r.String())
	}
}

// What checks build on an origin's file (resolutions, compiled rules,
// automaton states) is charged to its entry as it grows, whether Allowed,
// Decide or their batches check: the charge follows the file's
// MemoryBytes within an eighth.
func TestCheckerChargesWhatChecksBuild(t *testing.T) {
	body := "User-agent: *\n" + strings.Repeat("Disallow: /*a*b*c*d\nAllow: /x*y*z$\n", 40)
	for _, tc := range []struct {
		name  string
		check func(c *Checker, pageURL string) error
	}{
		{"Allowed", func(c *Checker, u string) error { _, err := c.Allowed(t.Context(), "FooBot", u); return err }},
		{"Decide", func(c *Checker, u string) error { _, err := c.Decide(t.Context(), "FooBot", u); return err }},
		{"AllowedBatch", func(c *Checker, u string) error {
			_, err := c.AllowedBatch(t.Context(), "FooBot", []string{u, u + "/d", u + "?q"}, nil)
			return err
		}},
		{"DecideBatch", func(c *Checker, u string) error {
			_, err := c.DecideBatch(t.Context(), "FooBot", []string{u, u + "/d", u + "?q"}, nil)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := serve(t, text(200, body))
			c := NewChecker(NewCache(fetcher(t, nil), CacheOptions{}))
			res, err := c.Cache().Get(t.Context(), s.URL)
			require.NoError(t, err)
			base := c.Cache().Stats().Bytes
			assert.Greater(t, base, res.Robots.MemoryBytes(), "the parsed file is charged")

			// Past compile.HotAfter checks, on warm hits, the automaton is
			// built, and then its states as new paths need them.
			for i := range compile.HotAfter + 200 {
				require.NoError(t, tc.check(c, fmt.Sprintf("%s/%d/a/%d/b/c/x/%d", s.URL, i, i*7, i*13)))
			}
			total, file := c.Cache().Stats().Bytes, res.Robots.MemoryBytes()
			assert.Greater(t, total, base, "building automaton states is charged")
			assert.GreaterOrEqual(t, float64(total), float64(file)*7/8, "the charge follows the file within an eighth")
			assert.Same(t, res, mustGet(t, c.Cache(), s.URL))
		})
	}
}

func mustGet(t *testing.T, c *Cache, u string) *Result {
	t.Helper()
	res, err := c.Get(t.Context(), u)
	require.NoError(t, err)
	return res
}

// A Verdict carries what a crawler acts on: the deciding rule and its
// line, the policy, and the pacing of the crawler's groups.
func TestCheckerVerdictCarriesRuleAndPacing(t *testing.T) {
	body := "User-agent: *\nDisallow: /private\nCrawl-delay: 2\n\n" +
		"User-agent: ExampleBot\nDisallow: /bot\nAllow: /bot/ok\nCrawl-delay: 0.5\nRequest-rate: 1/4s\n\n" +
		"User-agent: FastBot\nDisallow: /x\n"
	s := serve(t, text(200, body))
	c := NewChecker(NewCache(fetcher(t, nil), CacheOptions{}))
	rate := robots.RequestRate{Requests: 1, Per: 4 * time.Second}
	for _, tc := range []struct {
		agent, path string
		allowed     bool
		line        int
		crawlDelay  time.Duration
		rate        robots.RequestRate
		delay       time.Duration
	}{
		{"ExampleBot", "/bot/a", false, 6, 500 * time.Millisecond, rate, 4 * time.Second},
		{"ExampleBot", "/bot/ok", true, 7, 500 * time.Millisecond, rate, 4 * time.Second},
		{"ExampleBot", "/elsewhere", true, 0, 500 * time.Millisecond, rate, 4 * time.Second},
		{"OtherBot", "/private", false, 2, 2 * time.Second, robots.RequestRate{}, 2 * time.Second},
		{"FastBot", "/x", false, 12, 0, robots.RequestRate{}, 0},
	} {
		v, err := c.Decide(t.Context(), tc.agent, s.URL+tc.path)
		require.NoError(t, err)
		name := tc.agent + " " + tc.path
		assert.Equal(t, tc.allowed, v.Allowed, name)
		assert.Equal(t, tc.line, v.Line, name)
		if tc.line != 0 {
			require.NotNil(t, v.Rule, name)
			assert.Equal(t, tc.line, v.Rule.Line, name)
		} else {
			assert.Nil(t, v.Rule, name)
		}
		assert.Equal(t, Conditional, v.Policy, name)
		assert.Equal(t, tc.crawlDelay, v.CrawlDelay, name)
		assert.Equal(t, tc.rate, v.RequestRate, name)
		assert.Equal(t, tc.delay, v.Delay(), name)

		a := v.Result.Agent(tc.agent)
		d, ok := a.CrawlDelay()
		assert.Equal(t, tc.crawlDelay != 0, ok, name)
		assert.Equal(t, tc.crawlDelay, d, name)
		r, ok := a.RequestRate()
		assert.Equal(t, tc.rate.Requests != 0, ok, name)
		assert.Equal(t, tc.rate, r, name)
		assert.Equal(t, tc.delay, a.Delay(), name)
	}

	for _, status := range []int{404, 503} {
		s := serve(t, text(status, body))
		v, err := c.Decide(t.Context(), "ExampleBot", s.URL+"/bot/a")
		require.NoError(t, err)
		assert.Equal(t, v.Result.Policy, v.Policy)
		assert.Zero(t, v.Line)
		assert.Zero(t, v.Delay(), "no rules are read under %v", v.Policy)
	}
}

// TestCheckerAllowedDoesNotAllocate pins the crawler's hot path: once an
// origin is cached and its agent resolved, a check of one of its URLs
// allocates nothing (the origin is a substring of the URL, the agent found
// without a copy).
func TestCheckerAllowedDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	s := serve(t, text(200, "User-agent: *\nDisallow: /a\n"))
	c := NewChecker(NewCache(fetcher(t, nil), CacheOptions{}))
	for _, u := range []string{s.URL + "/b/c?d=e", s.URL + "/a"} {
		_, err := c.Allowed(t.Context(), "Googlebot", u)
		require.NoError(t, err)
		assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { _, _ = c.Allowed(t.Context(), "Googlebot", u) }), u)
	}
}

// TestCheckerAllowedAgentsDoesNotAllocate is the same for a fallback list
// of agents: its resolution is found without joining the list.
func TestCheckerAllowedAgentsDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	s := serve(t, text(200, "User-agent: *\nDisallow: /a\n"))
	c := NewChecker(NewCache(fetcher(t, nil), CacheOptions{}))
	agents := []string{"Googlebot-Image", "Googlebot"}
	for _, u := range []string{s.URL + "/b/c?d=e", s.URL + "/a"} {
		_, err := c.AllowedAgents(t.Context(), agents, u)
		require.NoError(t, err)
		assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { _, _ = c.AllowedAgents(t.Context(), agents, u) }), u)
	}
}

// BenchmarkCheckerAllowed is one check through the Checker of a URL whose
// origin is cached.
func BenchmarkCheckerAllowed(b *testing.B) {
	s := serve(b, text(200, "User-agent: *\nDisallow: /a\n"))
	c := NewChecker(NewCache(&Fetcher{}, CacheOptions{}))
	u := s.URL + "/b/c"
	if _, err := c.Allowed(b.Context(), "Googlebot", u); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_, _ = c.Allowed(b.Context(), "Googlebot", u)
	}
}

// TestGoogleCheckerVerdictNamesTheEmptyRule: where only empty rules match,
// Google's reference names the first empty Allow's line (else the first
// empty Disallow's), and the verdict, allowed, carries it as the library's
// Decision does.
func TestGoogleCheckerVerdictNamesTheEmptyRule(t *testing.T) {
	body := "User-agent: *\nDisallow:\nDisallow: /x\nAllow:\n\nUser-agent: OnlyDisallow\nDisallow:\nDisallow: /y\n"
	s := serve(t, text(200, body))
	c := NewChecker(NewCache(fetcher(t, nil), CacheOptions{}))
	for _, tc := range []struct {
		agent, path string
		allowed     bool
		line        int
		empty       bool
	}{
		{"ExampleBot", "/a", true, 4, true},
		{"ExampleBot", "/x", false, 3, false},
		{"OnlyDisallow", "/a", true, 7, true},
		{"OnlyDisallow", "/y", false, 8, false},
	} {
		v, err := c.Decide(t.Context(), tc.agent, s.URL+tc.path)
		require.NoError(t, err)
		name := tc.agent + " " + tc.path
		assert.Equal(t, tc.allowed, v.Allowed, name)
		assert.Equal(t, tc.line, v.Line, name)
		assert.Equal(t, tc.empty, v.Empty != nil, name)
		if tc.empty {
			assert.Nil(t, v.Rule, name)
			assert.Equal(t, tc.line, v.Empty.Line, name)
		}
	}
}

// TestCheckerEmptyAgentIsTheLibrarys: the agent "" is read as
// robots.Robots.Agent("") reads it, which Google's reference matches to a
// group naming the empty agent, while no agent at all is the '*' groups
// alone; the two keep resolutions of their own on the entry.
func TestCheckerEmptyAgentIsTheLibrarys(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /star\n\nUser-agent:\nDisallow: /empty\n")
	lib := robots.Parse(body)
	c := NewChecker(NewCache(nil, CacheOptions{}))
	_, err := c.Cache().Put("http://example.com/", 200, body, time.Now())
	require.NoError(t, err)
	ctx := t.Context()
	for range 2 { // cold, then from the kept resolutions
		for _, path := range []string{"/star", "/empty", "/other"} {
			u := "http://example.com" + path
			got, err := c.Allowed(ctx, "", u)
			require.NoError(t, err)
			assert.Equal(t, lib.Agent("").Allowed(u), got, "agent \"\" %s", path)
			v, err := c.Decide(ctx, "", u)
			require.NoError(t, err)
			assert.Equal(t, lib.Agent("").Decide(u).Line(), v.Line, "agent \"\" %s", path)
			got, err = c.AllowedAgents(ctx, nil, u)
			require.NoError(t, err)
			assert.Equal(t, lib.Agent().Allowed(u), got, "no agent %s", path)
			batch, err := c.AllowedBatch(ctx, "", []string{u}, nil)
			require.NoError(t, err)
			assert.Equal(t, []bool{lib.Agent("").Allowed(u)}, batch, "batch, agent \"\" %s", path)
		}
	}
	assert.NotEqual(t, lib.Agent("").Allowed("http://example.com/empty"), lib.Agent().Allowed("http://example.com/empty"),
		"the file tells the two apart")
}

// Every fallback list has a key of its own (agentsKey), whatever bytes its
// agents hold: joined by NUL alone, ["a\x00b" "c"] and ["a" "b" "c"]
// shared one, as did no agent and the agent "\x00". agentsKeyIn writes the
// same key.
func TestAgentsKeyTellsListsApart(t *testing.T) {
	lists := [][]string{
		nil, {""}, {"\x00"}, {"", ""}, {"\x00", ""}, {"", "\x00"},
		{"a"}, {"\x00a"}, {"\x00\x01a"}, {"a", "b"}, {"a\x00b"}, {"\x00a\x00b"},
		{"a\x00b", "c"}, {"a", "b", "c"}, {"a", "b\x00c"}, {"ab", "c"}, {"a", "bc"},
		{strings.Repeat("x", 200), "y"}, {strings.Repeat("x", 300)},
	}
	seen := map[string][]string{}
	for _, l := range lists {
		k := agentsKey(l)
		if prev, ok := seen[k]; ok {
			t.Errorf("%q and %q share the key %q", prev, l, k)
		}
		seen[k] = l
		var buf [256]byte
		assert.Equal(t, k, agentsKeyIn(buf[:0], l), "%q", l)
		assert.Equal(t, k, agentsKey(slices.Clone(l)), "%q: the key is the list's, not its slice's", l)
	}
}

// Lists whose agents joined by NUL read alike are still told apart: each
// is answered as the library resolves it, whichever was asked first on the
// answer (no agent and the agent "\x00" too, whose keys were one).
func TestCheckerAgentListsDoNotShareResolutions(t *testing.T) {
	body := []byte("User-agent: b\nDisallow: /\n\nUser-agent: *\nDisallow: /star\n")
	lib := robots.Parse(body)
	u := "http://a.test/x"
	for _, order := range [][][]string{
		{{"a\x00b", "c"}, {"a", "b", "c"}, nil, {"\x00"}},
		{{"a", "b", "c"}, {"a\x00b", "c"}, {"\x00"}, nil},
	} {
		c := NewChecker(NewCache(nil, CacheOptions{}))
		_, err := c.Cache().Put("http://a.test", 200, body, time.Now())
		require.NoError(t, err)
		for range 2 { // resolved, then kept
			for _, agents := range order {
				got, err := c.AllowedAgents(t.Context(), agents, u)
				require.NoError(t, err)
				assert.Equal(t, lib.Agent(agents...).Allowed(u), got, "%q after %q", agents, order)
				if len(agents) == 1 {
					got, err := c.Allowed(t.Context(), agents[0], u)
					require.NoError(t, err)
					assert.Equal(t, lib.Agent(agents...).Allowed(u), got, "Allowed %q after %q", agents[0], order)
				}
			}
		}
	}
	assert.NotEqual(t, lib.Agent("a\x00b", "c").Allowed(u), lib.Agent("a", "b", "c").Allowed(u), "the file tells the lists apart")
}
