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

// globCoversBacktracking is the star matcher globCovers replaced, which
// backtracks to the last star and is quadratic at worst: the oracle it is
// held to.
func globCoversBacktracking(p, t string) bool {
	pi, ti := 0, 0
	star, mark := -1, 0
	for ti < len(t) {
		switch {
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, ti
			pi++
		case pi < len(p) && p[pi] == t[ti]:
			pi++
			ti++
		case star >= 0:
			pi, mark = star+1, mark+1
			ti = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// TestGlobCoversAgreesWithBacktracking compares globCovers with the
// backtracking matcher on every pair of short globs over a small alphabet,
// and on random longer ones.
func TestGlobCoversAgreesWithBacktracking(t *testing.T) {
	var globs []string
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		globs = append(globs, prefix)
		if n == 0 {
			return
		}
		for _, c := range "ab*" {
			gen(prefix+string(c), n-1)
		}
	}
	gen("", 4)
	for _, p := range globs {
		for _, s := range globs {
			if got, want := globCovers(p, s), globCoversBacktracking(p, s); got != want {
				t.Fatalf("globCovers(%q, %q) = %v, want %v", p, s, got, want)
			}
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	random := func() string {
		b := make([]byte, rng.IntN(30))
		for i := range b {
			b[i] = "aab*/$"[rng.IntN(6)]
		}
		return string(b)
	}
	for range 200000 {
		p, s := random(), random()
		if got, want := globCovers(p, s), globCoversBacktracking(p, s); got != want {
			t.Fatalf("globCovers(%q, %q) = %v, want %v", p, s, got, want)
		}
	}
}
