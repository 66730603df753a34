package compile

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots/automaton"
)

func TestRarestGram(t *testing.T) {
	for _, c := range []struct {
		expr string // a pattern past its key
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
		g, ok := rarestGram(automaton.ReadGlob(c.expr).Tail())
		if c.want == "" {
			assert.False(t, ok, "%q gave %q", c.expr, g[:])
			continue
		}
		assert.True(t, ok, "%q", c.expr)
		assert.Equal(t, c.want, string(g[:]), "%q", c.expr)
	}
}
