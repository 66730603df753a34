package runtime

import (
	"net/url"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/compile"
)

// matcher compiles body's '*' groups in mode.
func matcher(body string, mode compile.Mode) Matcher {
	f := compile.Parse([]byte(body), compile.Options{Mode: mode})
	return NewMatcher(f.Compile(f.Resolve(), automaton.Options{}))
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
		assert.Equal(t, tt.google, Subject(tt.in, compile.Google.Dialect()), tt.name)
		assert.Equal(t, tt.rfc, Subject(tt.in, compile.RFC.Dialect()), tt.name)
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
			want := m.Decide(FromPath(Subject(FromURL(raw), mode.Dialect())))
			if mode == compile.RFC && Subject(FromURL(raw), mode.Dialect()) == robotsTxtPath {
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

// TestGoogleMatcherDoesNotAllocate checks both tiers: the cold one, which
// joins a path of several pieces and escapes a parsed URL's path on its
// stack, and the automaton.
func TestGoogleMatcherDoesNotAllocate(t *testing.T) {
	u, err := url.Parse("https://example.com/caf%C3%A9/x.pdf?q=1")
	require.NoError(t, err)
	inputs := map[string]Input{
		"URL": FromURL("https://example.com/a/b.pdf"), "NUL": FromURL("https://example.com/b\x00.pdf"),
		"query": FromURL("https://example.com?a"), "path": FromPath("/x.pdf?y"), "parsed": FromParsedURL(u),
	}
	for _, hot := range []bool{false, true} {
		m := matcher("User-agent: *\nDisallow: /*.pdf$\nDisallow: /a\n", compile.Google)
		if hot {
			m.rules.Set()
		}
		for name, in := range inputs {
			m.Decide(in)
			assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { m.Allowed(in) }), "%s, hot %v", name, hot)
			assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { m.Decide(in) }), "%s, hot %v", name, hot)
		}
		assert.Equal(t, hot, m.rules.Compiled(), "the checks leave the tier as it was")
	}
}

// TestColdTierAnswersEveryInput checks that a cold rule set answers every
// kind of input itself, with the automaton's verdict and rule: paths
// that start with '?' or ';' (given as two pieces), a path cut at a NUL, a
// parsed URL escaped on the stack or, past its room, on the heap.
func TestColdTierAnswersEveryInput(t *testing.T) {
	const body = "User-agent: *\nDisallow: /?\nAllow: /?ok\nDisallow: /;s\nDisallow: /*.pdf$\nAllow: /a\nDisallow: /*%20\n"
	long := "/a" + strings.Repeat("%20b", urlPathBytes)
	raws := []string{
		"https://example.com?x", "https://example.com?ok=1", "https://example.com;s=1", "https://example.com;t",
		"//example.com?", "https://example.com/a?b", "https://example.com/x.pdf", "https://example.com/a\x00?x",
		"https://example.com?\x00", "https://example.com/caf%C3%A9/x?y", "https://example.com" + long,
	}
	hot := matcher(body, compile.Google)
	hot.rules.Set()
	m := matcher(body, compile.Google)
	for _, raw := range raws {
		ins := map[string]Input{"URL": FromURL(raw), "path": FromPath(Path(raw))}
		if u, err := url.Parse(raw); err == nil {
			ins["parsed"] = FromParsedURL(u)
			ins["parsed as typed"] = FromParsedURL(&url.URL{Path: u.Path, RawQuery: u.RawQuery, ForceQuery: u.ForceQuery})
		}
		for name, in := range ins {
			want := hot.Decide(in)
			assert.Equal(t, want, m.Decide(in), "%s %q", name, raw)
			assert.Equal(t, want.Allowed, m.Allowed(in), "%s %q", name, raw)
			assert.Equal(t, want.Allowed, m.AllowedPath(in.String()), "%s %q", name, raw)
		}
	}
	assert.False(t, m.rules.Compiled(), "the cold tier answered every check")
}

// TestParsedURLPastTheBudget checks that a parsed URL whose check runs out
// of automaton budget midway is decided again from its start, escaped and
// cut at a NUL as Subject gives it, with the verdict of an automaton that
// has room.
func TestParsedURLPastTheBudget(t *testing.T) {
	const body = "User-agent: *\nDisallow: /*a*b*c\nAllow: /*a*b*c*%C3%A9$\nDisallow: /*%20*x\nAllow: /a*b*a*b*a*b\nDisallow: /*?*z\n"
	f := compile.Parse([]byte(body), compile.Options{})
	roomy := NewMatcher(f.Compile(f.Resolve(), automaton.Options{}))
	urls := []*url.URL{
		{Path: "/xaybzc"}, {Path: "/xaybzcé"}, {Path: "/a b/x"}, {Path: "/abababab"},
		{Path: "/q", RawQuery: "aaz"}, {Path: "/q", RawQuery: "a\x00z"}, {Path: "/a b/cx", RawPath: "/a%20b/cx"},
		{Path: "/ab", RawQuery: "c\x00"}, {Path: "/xaxbxcxé"},
	}
	for _, budget := range []int{300, 600, 1200} {
		rules := f.Compile(f.Resolve(), automaton.Options{Budget: budget})
		rules.Set() // the checks start on the automaton, not the cold tier
		tight := NewMatcher(rules)
		for _, u := range urls {
			want := roomy.Decide(FromPath(Subject(FromParsedURL(u), compile.Google.Dialect())))
			assert.Equal(t, want, tight.Decide(FromParsedURL(u)), "budget %d, %q", budget, URLPath(u))
			assert.Equal(t, want.Allowed, tight.Allowed(FromParsedURL(u)), "budget %d, %q", budget, URLPath(u))
		}
		st := rules.Stats()
		assert.True(t, st.States > 0 && st.Full, "budget %d: some checks start on the DFA and run out (%d states)", budget, st.States)
	}
}

// TestMatcherIsOneWord pins Matcher's size: its methods take it by value,
// in registers (a Matcher with the whole dialect in it was spilled to the
// stack field by field on every check: CheckStar 62.9 -> 68.6 ns), and a
// cache keeps it in its own value, which has room for one word.
func TestMatcherIsOneWord(t *testing.T) {
	if size := unsafe.Sizeof(Matcher{}); size > unsafe.Sizeof(uintptr(0)) {
		t.Fatalf("Matcher is %d bytes; keep it one word", size)
	}
}
