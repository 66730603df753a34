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
	word := func(n int) string {
		var b strings.Builder
		for range 1 + r.IntN(n) {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	for range 2000 {
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		for range 1 + r.IntN(12) {
			kind := "Disallow"
			if r.IntN(2) == 0 {
				kind = "Allow"
			}
			v := word(8)
			if r.IntN(3) > 0 {
				v = "/" + v
			}
			if r.IntN(8) == 0 {
				v += "/index.html"
			}
			body.WriteString(kind + ": " + v + "\n")
		}
		f := Parse([]byte(body.String()), Options{})
		sel := f.Resolve()
		hot := f.Compile(sel, automaton.Options{})
		hot.Set()
		unindexed := f.Compile(sel, automaton.Options{})
		indexed := f.Compile(sel, automaton.Options{})
		indexed.buildIndex()
		for range 20 {
			path := "/" + word(10)
			want := hot.Decide(path, "", "")
			var m coldMatch
			unindexed.matchAll(&m, path)
			require.Equal(t, want, m.verdict(), "unindexed: %q on\n%s", path, body.String())
			m = coldMatch{}
			indexed.index.Load().match(&m, indexed, path)
			require.Equal(t, want, m.verdict(), "indexed: %q on\n%s", path, body.String())
		}
	}
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
