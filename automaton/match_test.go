package automaton

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRFCMatchWildcards(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"/", "/", true},
		{"/fish", "/fish", true},
		{"/fish", "/fish.html", true},
		{"/fish", "/Fish.asp", false},
		{"/fish", "/catfish", false},
		{"/fish*", "/fishheads/yummy.html", true},
		{"/fish/", "/fish", false},
		{"/*.php", "/folder/filename.php?parameters", true},
		{"/*.php", "/windows.PHP", false},
		{"/*.php$", "/filename.php", true},
		{"/*.php$", "/filename.php?parameters", false},
		{"/*.php$", "/filename.php5", false},
		{"/fish*.php", "/fishheads/catfish.php?parameters", true},
		{"/fish*.php", "/Fish.PHP", false},
		{"*", "/anything", true},
		{"/a*", "/a", true},
		{"/a**b", "/ab", true},
		{"/a*b*c$", "/abcbc", true},
		{"/a*b*c$", "/abcb", false},
		{"/a*bc$", "/abcbc", true},
		{"$", "/", false},
		{"/$", "/", true},
		{"/$", "/a", false},
		{"/a$b", "/a$b", true},
		{"/a$b", "/a", false},
		{"/a$$", "/a$", true},
		{"/a$$", "/a$b", false},
		{"a", "/a", false},
		{"", "/a", true},
		{"*$", "/a", true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Match(tt.pattern, tt.path), "Match(%q, %q)", tt.pattern, tt.path)
		assert.Equal(t, tt.want, Matches(tt.path, tt.pattern), "Matches(%q, %q)", tt.path, tt.pattern)
	}
}

// randomString draws from a small alphabet so that random patterns and
// paths meet often.
func randomString(r *rand.Rand, alphabet string, max int) string {
	b := make([]byte, r.IntN(max+1))
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

func TestMatchAgreesWithPositions(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200000; i++ {
		pattern := "/" + randomString(r, "ab*$/", 8)
		path := "/" + randomString(r, "ab$/", 10)
		if Match(pattern, path) != Matches(path, pattern) {
			t.Fatalf("Match(%q, %q) = %v, positions say %v", pattern, path, Match(pattern, path), !Match(pattern, path))
		}
	}
}

func FuzzMatch(f *testing.F) {
	f.Add("/a*b$", "/aab")
	f.Add("*", "/")
	f.Add("/$$", "/$")
	f.Fuzz(func(t *testing.T, pattern, path string) {
		if len(pattern) > 64 || len(path) > 256 {
			return
		}
		if got, want := Match(pattern, path), Matches(path, pattern); got != want {
			t.Fatalf("Match(%q, %q) = %v, positions say %v", pattern, path, got, want)
		}
	})
}
