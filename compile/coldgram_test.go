package compile

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

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
