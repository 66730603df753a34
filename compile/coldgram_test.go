package compile

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/automaton"
)

// TestGramIndexAgreesWithCompiled checks cold checks of rule sets with
// enough star patterns to be filed by gram against the automaton.
func TestGramIndexAgreesWithCompiled(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	alphabet := "/ab*$?=&i."
	word := func(n int) string {
		var b strings.Builder
		for range 1 + r.IntN(n) {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	for range 300 {
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		rule := func(prefix string) {
			kind := "Disallow"
			if r.IntN(2) == 0 {
				kind = "Allow"
			}
			body.WriteString(kind + ": " + prefix + word(6) + "\n")
		}
		for range gramMin + r.IntN(40) {
			rule([]string{"/*", "*", "/a*", "/ab/*"}[r.IntN(4)])
		}
		for range r.IntN(8) {
			rule("/")
		}
		f := Parse([]byte(body.String()), Options{})
		sel := f.Resolve()
		hot := f.Compile(sel, automaton.Options{})
		hot.Set()
		cold := f.Compile(sel, automaton.Options{})
		ix := cold.buildIndex()
		require.NotNil(t, ix.grams, "%s", body.String())
		for range 30 {
			path := "/" + word(16)
			var m coldMatch
			ix.match(&m, cold, path)
			require.Equal(t, hot.Decide(path, "", ""), m.verdict(), "%q on\n%s", path, body.String())
		}
	}
}

func TestRarestGram(t *testing.T) {
	for _, c := range []struct {
		rest string
		want string // "" for none
	}{
		{"", ""},
		{"*", ""},
		{"*?*&*=*$", ""},
		{"*?sort=", "?s"},
		{"*.pdf$", ".p"},
		{"*.PDF$", "PD"},
		{"*/search/*", "ch"},
		{"*-pb-*", "-p"},
		{"*a*b", ""},
		{"*$$", ""},
		{"*a$$", "a$"},
	} {
		g, ok := rarestGram(c.rest)
		if c.want == "" {
			assert.False(t, ok, "%q gave %q", c.rest, g[:])
			continue
		}
		assert.True(t, ok, "%q", c.rest)
		assert.Equal(t, c.want, string(g[:]), "%q", c.rest)
	}
}
