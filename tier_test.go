package robots_test

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	robots "github.com/fastrobots/robots"
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/runtime"
)

// TestFirstChecksBuildNoStates checks that every form of check is
// answered by the cold tier until compile.HotAfter checks: an agent's
// first checks build no automaton state, whichever method makes them,
// paths that start with '?' or ';' included, and the automaton is built
// once the rules have answered HotAfter checks.
func TestFirstChecksBuildNoStates(t *testing.T) {
	const body = "User-agent: *\nDisallow: /private/\nAllow: /private/ok\nDisallow: /*?sessionid=\nDisallow: /;jsessionid\n"
	raws := []string{
		"https://example.com/private/x?y", "https://example.com?sessionid=1", "https://example.com;jsessionid=2",
		"https://example.com/caf%C3%A9/x", "https://example.com/private/ok",
	}
	// net/url reads ";jsessionid=2" as part of the host: only a URL as a
	// string has a path that starts with ';'.
	parsedRaws := append(raws[:2:2], raws[3:]...)
	checks := map[string]func(*robots.Agent, string) bool{
		"Allowed":     (*robots.Agent).Allowed,
		"AllowedPath": func(a *robots.Agent, raw string) bool { return a.AllowedPath(pathOf(t, raw)) },
		"AllowedURL": func(a *robots.Agent, raw string) bool {
			u, err := url.Parse(raw)
			require.NoError(t, err)
			return a.AllowedURL(u)
		},
		"Decide":    func(a *robots.Agent, raw string) bool { return a.Decide(raw).Allowed },
		"DecideURL": func(a *robots.Agent, raw string) bool { u, _ := url.Parse(raw); return a.DecideURL(u).Allowed },
	}
	hot := robots.Parse([]byte(body)).Agent("bot").Compile()
	for name, check := range checks {
		bot := robots.Parse([]byte(body)).Agent("bot")
		urls := raws
		if name != "Allowed" && name != "Decide" {
			urls = parsedRaws
		}
		for _, raw := range urls {
			assert.Equal(t, hot.Allowed(raw), check(bot, raw), "%s %q", name, raw)
		}
		assert.Equal(t, 0, bot.Stats().States, "%s: the first checks build no state", name)
		for i := len(urls); i <= compile.HotAfter; i++ {
			check(bot, urls[i%len(urls)])
		}
		assert.Positive(t, bot.Stats().States, "%s: the rules compile after HotAfter checks", name)
	}
}

// pathOf returns the path and query of an absolute URL.
func pathOf(t *testing.T, raw string) string {
	u, err := url.Parse(raw)
	require.NoError(t, err)
	return u.RequestURI()
}

// TestRootedChecksAreAllowed checks that the check of the part of a URL
// from its path on, fragment included, which Allowed makes, is Allowed of
// its path, cold and compiled: the fragment is no part of the path, even
// where a rule would match the path only at its end ('$') or only with
// more after it.
func TestRootedChecksAreAllowed(t *testing.T) {
	const body = "User-agent: *\nDisallow: /$\nDisallow: /a$\nDisallow: /d\nAllow: /d$\nDisallow: /q?$\nDisallow: /*x\n"
	urls := []string{
		"http://h/a", "http://h/a#", "http://h/a#x", "http://h/d#", "http://h/d#/e", "http://h/q?#",
		"http://h//a#a", "http://h/#/a", "https://h:8080/a?#", "http://h/%23x", "http://h/y#x",
	}
	hot := robots.Parse([]byte(body)).Agent("bot").Compile()
	for _, u := range urls {
		require.Positive(t, runtime.RootedStart(u), u)
		path := pathOf(t, u)
		cold := robots.Parse([]byte(body)).Agent("bot")
		want := cold.AllowedPath(path)
		assert.Equal(t, want, cold.Allowed(u), "cold %q", u)
		assert.Equal(t, want, hot.Allowed(u), "compiled %q", u)
		assert.Equal(t, want, hot.AllowedPath(path), "compiled AllowedPath %q", u)
	}
}
