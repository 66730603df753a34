package robots_test

import (
	"fmt"
	"net/url"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/compile"
)

// TestGoogleEmptyAgentIsAnAgent checks that the rules cached for the '*'
// groups are never handed to the empty agent, which names "User-agent:"
// lines without a token.
func TestGoogleEmptyAgentIsAnAgent(t *testing.T) {
	r := robots.Parse([]byte("User-agent: *\nAllow: /\n\nUser-agent:\nDisallow: /\n"))
	assert.True(t, r.Agent("otherbot").Allowed("https://example.com/"), "the '*' group allows")
	assert.False(t, r.Agent("").Allowed("https://example.com/"), "the empty agent has its own group")
	assert.True(t, r.Agent("otherbot").Allowed("https://example.com/"))
}

// TestAgentsShareCompiledRules checks that agents resolved to the same
// groups share one compiled automaton: states built through one are there
// for the others, whichever way they were resolved.
func TestAgentsShareCompiledRules(t *testing.T) {
	r := robots.Parse([]byte("User-agent: FooBot\nDisallow: /x*y\n\nUser-agent: BarBot\nDisallow: /b*c\n"))
	first := r.Agent("foobot")
	before := first.Stats().States
	for range compile.HotAfter + 1 { // cold checks build nothing
		assert.False(t, first.Allowed("/x/a/b/y"))
	}
	built := first.Stats().States
	require.Greater(t, built, before, "checking builds states once the rules are hot")
	for name, again := range map[string]*robots.Agent{
		"the same agent":      r.Agent("foobot"),
		"another case":        r.Agent("FOOBOT"),
		"a fallback list":     r.Agent("NoSuchBot", "FooBot"),
		"AnyAgent of one":     r.AnyAgent("FooBot"),
		"AnyAgent, unnamed":   r.AnyAgent("NoSuchBot", "FooBot"),
		"the Robots shortcut": first,
	} {
		assert.Equal(t, built, again.Stats().States, "%s shares the automaton", name)
	}
	assert.Zero(t, r.Agent("BarBot").Stats().States, "another group has its own automaton")

	both := r.AnyAgent("FooBot", "BarBot")
	for range compile.HotAfter + 1 {
		assert.False(t, both.Allowed("/b/a/c"))
		assert.False(t, both.Allowed("/x/y"))
	}
	merged := both.Stats().States
	assert.Equal(t, merged, r.AnyAgent("barbot", "foobot").Stats().States, "AnyAgent in another order compiles nothing")
	assert.Equal(t, merged, r.AnyAgent("BarBot", "NoSuchBot", "FooBot").Stats().States)
	assert.Equal(t, []int{0, 1}, both.Groups())
}

// TestGoogleNULInAParsedURL: a *url.URL's path is escaped (a NUL in it
// becomes %00), but a raw query built by hand may hold a NUL, which ends
// the path in Google mode as in a string.
func TestGoogleNULInAParsedURL(t *testing.T) {
	a := robots.Parse([]byte("User-agent: *\nDisallow: /*?$\nDisallow: /a%00\n")).Agent("FooBot")
	u := &url.URL{Scheme: "http", Host: "example.com", Path: "/p", RawQuery: "\x00q=1"}
	assert.False(t, a.AllowedURL(u))
	assert.Equal(t, 2, ruleLine(a.DecideURL(u)))
	u = &url.URL{Scheme: "http", Host: "example.com", Path: "/a\x00"}
	assert.Equal(t, 3, ruleLine(a.DecideURL(u)), "a NUL in Path is escaped")
}

func ruleLine(d robots.Decision) int {
	if d.Rule == nil {
		return 0
	}
	return d.Rule.Line
}

// TestAgentChecksDoNotAllocate pins the hot path: once the states a URL
// needs exist, checking it allocates nothing, whichever entry point is used.
func TestAgentChecksDoNotAllocate(t *testing.T) {
	r := robots.Parse([]byte("User-agent: *\nDisallow: /*.pdf$\nDisallow: /private/\nAllow: /private/ok\nDisallow: /*?sessionid=\n"))
	bot := r.Agent("Googlebot")
	u, err := url.Parse("https://example.com/caf%C3%A9/private/x.pdf?a=b")
	require.NoError(t, err)
	checks := map[string]func(){
		"Allowed":        func() { bot.Allowed("https://example.com/private/doc.pdf") },
		"Allowed ?query": func() { bot.Allowed("https://example.com?sessionid=1") },
		"AllowedPath":    func() { bot.AllowedPath("/private/ok/x?sessionid=2") },
		"AllowedURL":     func() { bot.AllowedURL(u) },
		"Decide":         func() { bot.Decide("https://example.com/private/ok") },
	}
	for name, check := range checks {
		check()
		assert.Equal(t, 0.0, testing.AllocsPerRun(100, check), name)
	}
}

// TestAgentMemoryBytesIsTheFiles holds Agent.MemoryBytes to its file's
// Robots.MemoryBytes as checks grow the file: for the first agent
// resolved, for another whose rules are a rule set of their own, and for
// a file FromStatus read no rules from.
func TestAgentMemoryBytesIsTheFiles(t *testing.T) {
	body := "User-agent: a\nDisallow: /*x*y*z\n\nUser-agent: b\nDisallow: /*p*q$\nAllow: /p\n"
	r := robots.Parse([]byte(body))
	first, other := r.Agent("a"), r.Agent("b")
	for i, a := range []*robots.Agent{first, other} {
		assert.Equal(t, r.MemoryBytes(), a.MemoryBytes(), "agent %d before its checks", i)
		before := r.MemoryBytes()
		a.Compile()
		for j := range 50 {
			a.AllowedPath(fmt.Sprintf("/%d/x/%d/y/p/z", j, j*7))
		}
		assert.Greater(t, r.MemoryBytes(), before, "agent %d's checks grew the file", i)
		assert.Equal(t, r.MemoryBytes(), first.MemoryBytes(), "the first agent after agent %d's checks", i)
		assert.Equal(t, r.MemoryBytes(), other.MemoryBytes(), "the other agent after agent %d's checks", i)
	}
	for _, code := range []int{404, 503} {
		f := robots.FromStatus(code, nil)
		assert.Equal(t, f.MemoryBytes(), f.Agent("a").MemoryBytes(), "FromStatus(%d)", code)
	}
}

// TestAllowedRestIsAllowed checks AllowedRest and PathCheck, what a
// crawler that splits a URL at PathStart asks, against Allowed of the
// whole URL, under every policy: Conditional, FullAllow and FullDisallow.
func TestAllowedRestIsAllowed(t *testing.T) {
	urls := []string{
		"https://h", "https://h/", "https://h/a", "https://h/a#x", "https://h/private/x", "https://h/private#/a",
		"https://h/b/x", "https://h/b/x#y", "https://h?x", "https://h;x", "https://h#/private", "h/private",
		"//h/private", "https://h?/private", "https://h/%70rivate", "", "#", "/private",
	}
	r := robots.Parse([]byte("User-agent: *\nDisallow: /private\nDisallow: /*x$\nDisallow: /?\n"))
	for _, a := range []*robots.Agent{r.Agent("bot"), robots.FromStatus(404, nil).Agent("bot"), robots.FromStatus(503, nil).Agent("bot")} {
		for _, u := range urls {
			i := robots.PathStart(u)
			if i < 0 {
				i = len(u)
			}
			assert.Equal(t, a.Allowed(u), a.AllowedRest(u[i:]), "%v %q", a.Policy(), u)
			assert.Equal(t, a.Allowed(u), a.PathCheck().Allowed(u[i:]), "PathCheck: %v %q", a.Policy(), u)
		}
		assert.NotEqual(t, robots.PathCheck{}, a.PathCheck())
		if a.Policy() != robots.FullDisallow {
			assert.Equal(t, a.MemoryBytes(), a.PathCheck().MemoryBytes(), "%v: the file's meter", a.Policy())
		}
	}
	a := r.Agent("bot")
	assert.False(t, a.AllowedRest("/private/x"), "the rules decide, or this test tells nothing")
	assert.False(t, a.AllowedRest("?q"), "a rest that starts with '?' is the path \"/\" and a query")
	assert.True(t, a.AllowedRest(""), "an empty rest is the path \"/\"")
}

// TestAgentFitsFortyEightBytes pins the Agent's size, one of which a cache
// keeps for each site: 48 bytes, a size class of the allocator's.
func TestAgentFitsFortyEightBytes(t *testing.T) {
	var a robots.Agent
	assert.LessOrEqual(t, unsafe.Sizeof(a), uintptr(48))
}

// TestAgentStats checks what Stats reports at each stage: only the budget
// while the rules are cold, states and their bytes once compiled and
// checked, and Full once the budget refused a state, the verdict unchanged.
func TestAgentStats(t *testing.T) {
	const body = "User-agent: *\nDisallow: /*a*b*c\nAllow: /*x*y*z\n"
	tests := []struct {
		name    string
		budget  int
		compile bool
		want    func(*testing.T, robots.Stats)
	}{
		{"cold", 0, false, func(t *testing.T, st robots.Stats) {
			assert.Equal(t, robots.Stats{Budget: robots.DefaultAutomatonBudget}, st)
		}},
		{"compiled", 0, true, func(t *testing.T, st robots.Stats) {
			assert.Positive(t, st.States)
			assert.Positive(t, st.Bytes)
			assert.LessOrEqual(t, st.Bytes, st.Budget)
			assert.False(t, st.Full)
		}},
		{"budget spent", 1, true, func(t *testing.T, st robots.Stats) {
			assert.Equal(t, 1, st.Budget)
			assert.True(t, st.Full, "a one-byte budget refuses a state")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := robots.Parse([]byte(body), robots.WithAutomatonBudget(tt.budget))
			a := r.Agent("bot")
			if tt.compile {
				a.Compile()
			}
			assert.False(t, a.AllowedPath("/1a2b3c"))
			assert.True(t, a.AllowedPath("/1a2x3b4y5c6z"))
			st := a.Stats()
			tt.want(t, st)
			assert.LessOrEqual(t, int64(st.Bytes), r.MemoryBytes(), "MemoryBytes includes the automaton")
		})
	}
}

func TestPreamble(t *testing.T) {
	r := robots.Parse([]byte("Content-Signal: ai-train=no\nCrawl-delay: 1\nUser-agent: *\nContent-Signal: search=yes\nDisallow: /x\n"))
	var got []string
	for _, d := range r.Preamble() {
		got = append(got, d.Key+"="+d.Value)
	}
	assert.Equal(t, []string{"Content-Signal=ai-train=no", "Crawl-delay=1"}, got)
	assert.Len(t, r.Others(), 3, "the group's line is among the others, not the preamble")
	assert.Len(t, robots.Parse([]byte("Crawl-delay: 1\n")).Preamble(), 1, "no group: every other line")
}
