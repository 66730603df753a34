package compile

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGramIndexAgreesWithCompiled checks cold checks of rule sets with
// enough star patterns to be filed by gram against the automaton.
func TestGramIndexAgreesWithCompiled(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	alphabet := "/ab*$?=&i."
	word := func(n int) string { return randomBytes(r, alphabet, 1+r.IntN(n)) }
	for range 300 {
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		for range gramMin + r.IntN(40) {
			writeRule(&body, r, []string{"/*", "*", "/a*", "/ab/*"}[r.IntN(4)]+word(6))
		}
		for range r.IntN(8) {
			writeRule(&body, r, "/"+word(6))
		}
		ix := requireColdAgrees(t, body.String(), 30, func() string { return "/" + word(16) })
		require.NotNil(t, ix.grams, "%s", body.String())
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
