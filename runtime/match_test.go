package runtime

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/compile"
)

// matcher compiles body's '*' groups in mode.
func matcher(body string, mode compile.Mode) Matcher {
	f := compile.Parse([]byte(body), compile.Options{Mode: mode})
	return NewMatcher(f.Compile(f.Resolve(), RuleOptions(mode, automaton.Options{})), mode)
}

func TestSubject(t *testing.T) {
	tests := []struct {
		name        string
		in          Input
		google, rfc string
	}{
		{"a URL", FromURL("https://example.com/a/b?c=d#e"), "/a/b?c=d", "/a/b?c=d"},
		{"a path", FromPath("/a?b"), "/a?b", "/a?b"},
		{"an empty path is the root", FromPath(""), "/", "/"},
		{"a NUL ends the path in Google mode", FromURL("https://example.com/a\x00b"), "/a", "/a\x00b"},
		{"percent-encoding is normalised in RFC mode", FromURL("https://example.com/%62%e3?x=a/b"), "/%62%e3?x=a/b", "/b%E3?x=a%2Fb"},
		{"a parsed URL is escaped", FromParsedURL(&url.URL{Path: "/a b"}), "/a%20b", "/a%20b"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.google, Subject(tt.in, compile.Google), tt.name)
		assert.Equal(t, tt.rfc, Subject(tt.in, compile.RFC), tt.name)
	}
}

// TestMatcherInputsAgree checks that every kind of input reaches the same
// verdict and rule as its subject matched alone.
func TestMatcherInputsAgree(t *testing.T) {
	const body = "User-agent: *\nDisallow: /private\nAllow: /private/ok$\nDisallow: /*.pdf$\nDisallow: /*?s=\n"
	for _, mode := range []compile.Mode{compile.Google, compile.RFC} {
		m := matcher(body, mode)
		for _, raw := range []string{
			"https://example.com/private/x", "https://example.com/private/ok", "https://example.com/a.pdf",
			"https://example.com/a.pdf?x", "https://example.com/?s=1", "https://example.com/public",
			"https://example.com/robots.txt", "https://example.com/private\x00/x",
		} {
			u, err := url.Parse(raw)
			want := m.Decide(FromPath(Subject(FromURL(raw), mode)))
			if mode == compile.RFC && Subject(FromURL(raw), mode) == robotsTxtPath {
				require.True(t, want.Implicit)
			}
			for name, in := range map[string]Input{"URL": FromURL(raw), "path": FromPath(Path(raw))} {
				assert.Equal(t, want, m.Decide(in), "%v %s %q", mode, name, raw)
				assert.Equal(t, want.Allowed, m.Allowed(in), "%v %s %q", mode, name, raw)
			}
			if err == nil {
				assert.Equal(t, want, m.Decide(FromParsedURL(u)), "%v parsed %q", mode, raw)
				assert.Equal(t, want.Allowed, m.Allowed(FromParsedURL(u)), "%v parsed %q", mode, raw)
			}
		}
	}
}

func TestRFCRobotsTxtIsImplicitlyAllowed(t *testing.T) {
	const body = "User-agent: *\nDisallow: /\n"
	v := matcher(body, compile.RFC).Decide(FromURL("https://example.com/robots.txt"))
	assert.Equal(t, Verdict{Allowed: true, Rule: -1, Implicit: true}, v)
	v = matcher(body, compile.Google).Decide(FromURL("https://example.com/robots.txt"))
	assert.Equal(t, Verdict{Allowed: false, Rule: 0}, v, "Google mode consults the rules")
}

func TestGoogleMatcherDoesNotAllocate(t *testing.T) {
	m := matcher("User-agent: *\nDisallow: /*.pdf$\nDisallow: /a\n", compile.Google)
	u, err := url.Parse("https://example.com/caf%C3%A9/x.pdf?q=1")
	require.NoError(t, err)
	for name, in := range map[string]Input{
		"URL": FromURL("https://example.com/a/b.pdf"), "NUL": FromURL("https://example.com/b\x00.pdf"),
		"path": FromPath("/x.pdf?y"), "parsed": FromParsedURL(u),
	} {
		m.Decide(in)
		assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { m.Allowed(in) }), name)
		assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { m.Decide(in) }), name)
	}
}

// TestParsedURLPastTheBudget checks that a parsed URL whose check runs out
// of automaton budget midway is decided again from its start, escaped and
// cut at a NUL as Subject gives it, with the verdict of an automaton that
// has room.
func TestParsedURLPastTheBudget(t *testing.T) {
	const body = "User-agent: *\nDisallow: /*a*b*c\nAllow: /*a*b*c*%C3%A9$\nDisallow: /*%20*x\nAllow: /a*b*a*b*a*b\nDisallow: /*?*z\n"
	f := compile.Parse([]byte(body), compile.Options{})
	roomy := NewMatcher(f.Compile(f.Resolve(), RuleOptions(compile.Google, automaton.Options{})), compile.Google)
	urls := []*url.URL{
		{Path: "/xaybzc"}, {Path: "/xaybzcé"}, {Path: "/a b/x"}, {Path: "/abababab"},
		{Path: "/q", RawQuery: "aaz"}, {Path: "/q", RawQuery: "a\x00z"}, {Path: "/a b/cx", RawPath: "/a%20b/cx"},
		{Path: "/ab", RawQuery: "c\x00"}, {Path: "/xaxbxcxé"},
	}
	for _, budget := range []int{300, 600, 1200} {
		rules := f.Compile(f.Resolve(), RuleOptions(compile.Google, automaton.Options{Budget: budget}))
		tight := NewMatcher(rules, compile.Google)
		for _, u := range urls {
			want := roomy.Decide(FromPath(Subject(FromParsedURL(u), compile.Google)))
			assert.Equal(t, want, tight.Decide(FromParsedURL(u)), "budget %d, %q", budget, URLPath(u))
			assert.Equal(t, want.Allowed, tight.Allowed(FromParsedURL(u)), "budget %d, %q", budget, URLPath(u))
		}
		st := rules.Stats()
		assert.True(t, st.States > 0 && st.Full, "budget %d: some checks start on the DFA and run out (%d states)", budget, st.States)
	}
}
