package lint

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots/automaton"
)

func TestCovers(t *testing.T) {
	tests := []struct {
		s, r string
		want bool
	}{
		{"/a", "/a", true},
		{"/a", "/ab", true},
		{"/ab", "/a", false},
		{"/a*", "/a", true},
		{"/*a", "/a", true},
		{"/*a", "/ba", true},
		{"/*a", "/b", false},
		{"*", "/x", true},
		{"/", "*", false}, // true over paths, which all start with '/': sound, not complete
		{"/a", "/a$", true},
		{"/a$", "/a", false},
		{"/a*$", "/a", true},
		{"/a$", "/a$", true},
		{"/*.pdf$", "/docs/*.pdf$", true},
		{"/docs/*.pdf$", "/*.pdf$", false},
		{"/*.pdf", "/*.pdf$", true},
		{"/*.pdf$", "/*.pdf", false},
		{"/a*b", "/a*b", true},
		{"/a*b", "/ab", true},
		{"/ab", "/a*b", false},
		{"/a*c", "/a*b*c", true},
		{"/a*b*c", "/a*c", false},
		{"/$x", "/$x", true},
		{"/a$b", "/a", false},
		{"", "/a", true}, // the empty pattern matches everything (and decides nothing)
		{"/a", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.s+" covers "+tt.r, func(t *testing.T) {
			assert.Equal(t, tt.want, covers(tt.s, tt.r))
		})
	}
}

// TestCoversIsSound checks covers against the matcher on random patterns
// and paths over a small alphabet: whenever s covers r, every path r
// matches, s matches.
func TestCoversIsSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func(n int, alphabet string) string {
		var b strings.Builder
		b.WriteByte('/')
		for range rng.IntN(n) {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	pattern := func() string {
		p := gen(5, "ab**$")
		if rng.IntN(3) == 0 {
			p += "$"
		}
		return p
	}
	paths := make([]string, 300)
	for i := range paths {
		paths[i] = gen(8, "ab$*")
	}
	checked := 0
	for range 3000 {
		s, r := pattern(), pattern()
		if !covers(s, r) {
			continue
		}
		checked++
		for _, p := range paths {
			if automaton.Match(r, p) && !automaton.Match(s, p) {
				t.Fatalf("covers(%q, %q) but %q matches only the second", s, r, p)
			}
		}
	}
	assert.Greater(t, checked, 100)
}
