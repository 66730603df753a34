package worstcase

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots/compile"
)

func TestBuildFillsSizeExactly(t *testing.T) {
	for _, s := range Shapes {
		for _, size := range []int{s.SmallSize(), s.SmallSize() + 1, s.SmallSize() + 2, 100 << 10, compile.DefaultMaxBytes} {
			body := s.Build(size)
			assert.Len(t, body, size, "%s at %d", s.Name, size)
			assert.Equal(t, body, s.Build(size), "%s is deterministic", s.Name)
		}
	}
}

func TestBuildRepeatsTheUnit(t *testing.T) {
	s := Shapes[0]
	const unit, tail = "user-agent:a\nallow:/\n", "user-agent:a\ndisallow:/\n"
	assert.Equal(t, unit+unit+tail+"#xx\n", string(s.Build(2*len(unit)+len(tail)+4)))
	assert.Equal(t, unit+tail+"\n", string(s.Build(len(unit)+len(tail)+1)))
}

func TestShapeNamesAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Shapes {
		assert.False(t, seen[s.Name], s.Name)
		seen[s.Name] = true
		assert.NotEmpty(t, s.URL, s.Name)
		assert.NotEmpty(t, s.Agents, s.Name)
	}
}

func TestTokensAreDistinctAgents(t *testing.T) {
	seen := map[string]bool{}
	for i := range 30000 {
		tok := Token(i)
		assert.True(t, compile.ValidAgent(tok), tok)
		assert.False(t, seen[tok], "%d: %s", i, tok)
		seen[tok] = true
	}
	assert.Equal(t, []string{"a", "z", "aa", "az", "ba"}, []string{Token(0), Token(25), Token(26), Token(51), Token(52)})
	assert.Equal(t, "zz", Token(26+26*26-1))
}
