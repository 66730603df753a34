package compile

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots/automaton"
)

func TestModeDialect(t *testing.T) {
	tests := []struct {
		mode Mode
		want Dialect
	}{
		{Google, Dialect{IndexHTML: true, EndAtNUL: true}},
		{RFC, Dialect{ExactKeys: true, ColonRequired: true, ExactGlobalAgent: true, NormalizePercent: true, ImplicitRobotsTxt: true}},
		{Mode(7), Dialect{IndexHTML: true, EndAtNUL: true}}, // read as Google, as String names it
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.mode.Dialect(), "%v", tt.mode)
		assert.Equal(t, tt.want, Parse(nil, Options{Mode: tt.mode}).Dialect(), "the file keeps its mode's dialect")
	}
	assert.True(t, Google.Dialect().Verbatim())
	assert.False(t, RFC.Dialect().Verbatim())
}

// TestCompileTakesEndAtNULFromTheDialect checks that a rule set reads a
// NUL as its file's dialect says, whatever the options it is compiled
// with: cold and hot tiers alike.
func TestCompileTakesEndAtNULFromTheDialect(t *testing.T) {
	for _, mode := range []Mode{Google, RFC} {
		f := Parse([]byte("User-agent: *\nDisallow: /a$\n"), Options{Mode: mode})
		cold := f.Compile(f.Resolve(), automaton.Options{})
		hot := f.Compile(f.Resolve(), automaton.Options{EndAtNUL: !mode.Dialect().EndAtNUL})
		hot.Set()
		want := !mode.Dialect().EndAtNUL
		assert.Equal(t, want, cold.Allowed("/a\x00b", "", ""), "%v cold", mode)
		assert.Equal(t, want, hot.Allowed("/a\x00b", "", ""), "%v hot", mode)
	}
}
