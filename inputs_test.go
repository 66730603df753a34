package robots_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/runtime"
)

// The checks of an Agent take a URL as a string, a *url.URL, or a path;
// each is turned into the pieces of its path (package runtime) and handed
// to the rule set, which chooses the tier (compile/check.go). These tests
// hold every kind of input to the verdict of its path alone, in both
// modes, cold and compiled.

// TestInputsAgree checks that every kind of input reaches the verdict and
// rule of its subject decided as a path.
func TestInputsAgree(t *testing.T) {
	const body = "User-agent: *\nDisallow: /private\nAllow: /private/ok$\nDisallow: /*.pdf$\nDisallow: /*?s=\n"
	for _, mode := range []robots.Mode{robots.Google, robots.RFC} {
		for _, compiled := range []bool{false, true} {
			a := robots.Parse([]byte(body), robots.WithMode(mode)).Agent("bot")
			if compiled {
				a.Compile()
			}
			for _, raw := range []string{
				"https://example.com/private/x", "https://example.com/private/ok", "https://example.com/a.pdf",
				"https://example.com/a.pdf?x", "https://example.com/?s=1", "https://example.com/public",
				"https://example.com/robots.txt", "https://example.com/private\x00/x", "https://example.com?s=1",
				"https://example.com/a.pdf#x", "https://example.com;private",
			} {
				want := a.DecidePath(runtime.Path(raw))
				if mode == robots.RFC && runtime.Path(raw) == "/robots.txt" {
					require.True(t, want.Implicit)
				}
				assert.Equal(t, want, a.Decide(raw), "%v %q", mode, raw)
				assert.Equal(t, want.Allowed, a.Allowed(raw), "%v %q", mode, raw)
				assert.Equal(t, want.Allowed, a.AllowedPath(runtime.Path(raw)), "%v %q", mode, raw)
				if u, err := url.Parse(raw); err == nil {
					assert.Equal(t, want, a.DecideURL(u), "%v parsed %q", mode, raw)
					assert.Equal(t, want.Allowed, a.AllowedURL(u), "%v parsed %q", mode, raw)
				}
			}
		}
	}
}

// TestRFCRobotsTxtIsImplicitlyAllowed checks RFC 9309 section 2.2.2: in
// RFC mode /robots.txt is allowed whatever the rules, and no rule decides;
// Google mode consults the rules.
func TestRFCRobotsTxtIsImplicitlyAllowed(t *testing.T) {
	const body = "User-agent: *\nDisallow: /\n"
	d := robots.Parse([]byte(body), robots.WithMode(robots.RFC)).Agent("bot").Decide("https://example.com/robots.txt")
	assert.Equal(t, robots.Decision{Allowed: true, Implicit: true}, d)
	d = robots.Parse([]byte(body)).Agent("bot").Decide("https://example.com/robots.txt")
	assert.False(t, d.Allowed, "Google mode consults the rules")
	require.NotNil(t, d.Rule)
	assert.Equal(t, 2, d.Rule.Line)
}

// TestGoogleChecksDoNotAllocate checks both tiers: the cold one, which
// joins a path of several pieces and escapes a parsed URL's path on its
// stack, and the automaton.
func TestGoogleChecksDoNotAllocate(t *testing.T) {
	u, err := url.Parse("https://example.com/caf%C3%A9/x.pdf?q=1")
	require.NoError(t, err)
	for _, hot := range []bool{false, true} {
		a := robots.Parse([]byte("User-agent: *\nDisallow: /*.pdf$\nDisallow: /a\n")).Agent("bot")
		if hot {
			a.Compile()
		}
		checks := map[string]func(){
			"URL":        func() { a.Allowed("https://example.com/a/b.pdf") },
			"NUL":        func() { a.Allowed("https://example.com/b\x00.pdf") },
			"query":      func() { a.Allowed("https://example.com?a") },
			"path":       func() { a.AllowedPath("/x.pdf?y") },
			"parsed":     func() { a.AllowedURL(u) },
			"decide":     func() { a.Decide("https://example.com/a/b.pdf") },
			"decide URL": func() { a.DecideURL(u) },
		}
		for name, check := range checks {
			check()
			assert.Equal(t, 0.0, testing.AllocsPerRun(100, check), "%s, hot %v", name, hot)
		}
		assert.Equal(t, hot, a.Stats().States > 0, "the checks leave the tier as it was")
	}
}

// TestColdTierAnswersEveryInput checks that a cold rule set answers every
// kind of input itself, with the automaton's verdict and rule: paths
// that start with '?' or ';' (given as two pieces), a path cut at a NUL, a
// parsed URL escaped on the stack or, past its room, on the heap.
func TestColdTierAnswersEveryInput(t *testing.T) {
	const body = "User-agent: *\nDisallow: /?\nAllow: /?ok\nDisallow: /;s\nDisallow: /*.pdf$\nAllow: /a\nDisallow: /*%20\n"
	long := "/a" + strings.Repeat("%20b", runtime.URLPathBytes)
	raws := []string{
		"https://example.com?x", "https://example.com?ok=1", "https://example.com;s=1", "https://example.com;t",
		"//example.com?", "https://example.com/a?b", "https://example.com/x.pdf", "https://example.com/a\x00?x",
		"https://example.com?\x00", "https://example.com/caf%C3%A9/x?y", "https://example.com" + long,
	}
	hot := robots.Parse([]byte(body)).Agent("bot").Compile()
	cold := robots.Parse([]byte(body)).Agent("bot")
	for _, raw := range raws {
		assert.Equal(t, hot.Decide(raw), cold.Decide(raw), "%q", raw)
		assert.Equal(t, hot.Allowed(raw), cold.Allowed(raw), "%q", raw)
		assert.Equal(t, hot.AllowedPath(runtime.Path(raw)), cold.AllowedPath(runtime.Path(raw)), "%q", raw)
		if u, err := url.Parse(raw); err == nil {
			for _, u := range []*url.URL{u, {Path: u.Path, RawQuery: u.RawQuery, ForceQuery: u.ForceQuery}} {
				assert.Equal(t, hot.DecideURL(u), cold.DecideURL(u), "parsed %q", raw)
				assert.Equal(t, hot.AllowedURL(u), cold.AllowedURL(u), "parsed %q", raw)
			}
		}
	}
	assert.Zero(t, cold.Stats().States, "the cold tier answered every check")
}

// TestParsedURLPastTheBudget checks that a parsed URL whose check runs out
// of automaton budget midway is decided again from its start, escaped and
// cut at a NUL as its path is, with the verdict of an automaton that has
// room.
func TestParsedURLPastTheBudget(t *testing.T) {
	const body = "User-agent: *\nDisallow: /*a*b*c\nAllow: /*a*b*c*%C3%A9$\nDisallow: /*%20*x\nAllow: /a*b*a*b*a*b\nDisallow: /*?*z\n"
	roomy := robots.Parse([]byte(body)).Agent("bot")
	urls := []*url.URL{
		{Path: "/xaybzc"}, {Path: "/xaybzcé"}, {Path: "/a b/x"}, {Path: "/abababab"},
		{Path: "/q", RawQuery: "aaz"}, {Path: "/q", RawQuery: "a\x00z"}, {Path: "/a b/cx", RawPath: "/a%20b/cx"},
		{Path: "/ab", RawQuery: "c\x00"}, {Path: "/xaxbxcxé"},
	}
	for _, budget := range []int{300, 600, 1200} {
		tight := robots.Parse([]byte(body), robots.WithAutomatonBudget(budget)).Agent("bot").Compile()
		for _, u := range urls {
			want := roomy.DecidePath(compile.Google.Dialect().Subject(runtime.URLPath(u)))
			assert.Equal(t, want, tight.DecideURL(u), "budget %d, %q", budget, runtime.URLPath(u))
			assert.Equal(t, want.Allowed, tight.AllowedURL(u), "budget %d, %q", budget, runtime.URLPath(u))
		}
		st := tight.Stats()
		assert.True(t, st.States > 0 && st.Full, "budget %d: some checks start on the DFA and run out (%d states)", budget, st.States)
	}
}
