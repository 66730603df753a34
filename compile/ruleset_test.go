package compile

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/automaton"
)

// TestColdAgreesWithCompiled checks the cold tier, unindexed and indexed,
// against the compiled automaton on random files and paths.
func TestColdAgreesWithCompiled(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := "/ab*$.?%i"
	word := func(n int) string { return randomBytes(r, alphabet, 1+r.IntN(n)) }
	for range 2000 {
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		for range 1 + r.IntN(12) {
			v := word(8)
			if r.IntN(3) > 0 {
				v = "/" + v
			}
			if r.IntN(8) == 0 {
				v += "/index.html"
			}
			writeRule(&body, r, v)
		}
		requireColdAgrees(t, body.String(), 20, func() string { return "/" + word(10) })
	}
}

// writeRule writes an allow or a disallow of v, at random.
func writeRule(body *strings.Builder, r *rand.Rand, v string) {
	kind := "Disallow"
	if r.IntN(2) == 0 {
		kind = "Allow"
	}
	body.WriteString(kind + ": " + v + "\n")
}

// requireColdAgrees checks that cold checks of body's rules, tested one by
// one and indexed, decide n paths as the compiled automaton does, and
// returns the index.
func requireColdAgrees(t *testing.T, body string, n int, path func() string) *coldIndex {
	t.Helper()
	f := Parse([]byte(body), Options{})
	sel := f.Resolve()
	hot := f.Compile(sel, automaton.Options{})
	hot.Set()
	cold := f.Compile(sel, automaton.Options{})
	ix := cold.buildIndex()
	for range n {
		p := path()
		want := hot.Decide(p, "", "")
		var m coldMatch
		cold.matchAll(&m, p)
		require.Equal(t, want, m.verdict(), "unindexed: %q on\n%s", p, body)
		m = coldMatch{}
		ix.match(&m, cold, p)
		require.Equal(t, want, m.verdict(), "indexed: %q on\n%s", p, body)
	}
	return ix
}

func TestColdIndexCandidates(t *testing.T) {
	keys := []string{"/", "/a", "/a", "/ab", "/abc", "/b", "/ac", "/abd", "/abcd/e", "/abcd/e/fg", "x"}
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	for _, k := range keys {
		body.WriteString("Disallow: " + k + "\n")
	}
	f := Parse([]byte(body.String()), Options{})
	rs := f.Compile(f.Resolve(), automaton.Options{})
	ix := rs.buildIndex()
	for path, want := range map[string][]string{
		"/abcd/e/f": {"/", "/a", "/a", "/ab", "/abc", "/abcd/e"},
		"/abz":      {"/", "/a", "/a", "/ab"},
		"/b":        {"/", "/b"},
		"x":         {"x"},
		"/ac":       {"/", "/a", "/a", "/ac"},
		"/":         {"/"},
	} {
		var got []string
		for k := range ix.short {
			if strings.HasPrefix(path, ix.short[k].keyOf(f)) {
				got = append(got, ix.short[k].keyOf(f))
			}
		}
		if len(path) >= 2 {
			candidates(ix.group(rs, path[1]), f, path, func(e *coldEntry) { got = append(got, e.keyOf(f)) })
		}
		assert.ElementsMatch(t, want, got, "%q", path)
	}
}
