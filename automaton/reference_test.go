package automaton

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// reference is Reference over patterns, the oracle of this package's
// tests.
type reference []Pattern

func (r reference) Decide(path string) (Pattern, bool) { return Reference(r, path) }

func TestRFCSetLongestMatchAllowWinsTies(t *testing.T) {
	set := reference([]Pattern{
		{Expr: "/page", Allow: false, Priority: 5, ID: 0},
		{Expr: "/*", Allow: true, Priority: 2, ID: 1},
		{Expr: "/pag*", Allow: true, Priority: 5, ID: 2},
		{Expr: "/page/x", Allow: false, Priority: 7, ID: 3},
		{Expr: "/page/x", Allow: false, Priority: 7, ID: 4},
		{Expr: "", Allow: false, Priority: 0, ID: 5},
	})
	tests := []struct {
		path   string
		id     int32
		allow  bool
		decide bool
	}{
		{"/page", 2, true, true},    // equal length: allow wins
		{"/page/x", 3, false, true}, // longer disallow wins; first of equals
		{"/other", 1, true, true},
		{"/", 1, true, true},
	}
	for _, tt := range tests {
		p, ok := set.Decide(tt.path)
		assert.Equal(t, tt.decide, ok, tt.path)
		assert.Equal(t, tt.id, p.ID, tt.path)
		assert.Equal(t, tt.allow, p.Allow, tt.path)
	}
	_, ok := set.Decide("/nothing")
	assert.True(t, ok, "the empty pattern decides nothing, '/*' does")
	_, ok = Reference([]Pattern{{Expr: "", Allow: false}}, "/x")
	assert.False(t, ok, "the empty pattern decides nothing")
}

func TestRFCSetNoMatch(t *testing.T) {
	_, ok := Reference([]Pattern{{Expr: "/a", Priority: 2}}, "/b")
	assert.False(t, ok)
	_, ok = Reference(nil, "/b")
	assert.False(t, ok)
}
