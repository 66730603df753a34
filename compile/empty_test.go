package compile

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots/automaton"
)

// TestUndecided checks which rule a rule set names when no rule matches:
// the first empty Allow of the selection, else its first empty Disallow,
// in selection order, as the reference records the first empty rule of
// each kind and names the allow on a tie.
func TestUndecided(t *testing.T) {
	tests := []struct {
		name, body, agent string
		want              int // the rule's line, 0 for none
	}{
		{"none", "User-agent: *\nDisallow: /x\n", "bot", 0},
		{"empty disallow", "User-agent: *\nDisallow: /x\nDisallow:\n", "bot", 3},
		{"empty allow after empty disallow", "User-agent: *\nDisallow:\nAllow:\n", "bot", 3},
		{"first of two empty allows", "User-agent: *\nAllow:\nDisallow:\nAllow:\n", "bot", 2},
		{"first of two empty disallows", "User-agent: *\nDisallow:\nDisallow:\n", "bot", 2},
		{"merged groups, file order", "User-agent: bot\nDisallow: /a\n\nUser-agent: bot\nDisallow:\n", "bot", 5},
		{"other agents' groups ignored", "User-agent: other\nAllow:\n\nUser-agent: bot\nDisallow: /a\n", "bot", 0},
		{"a value that is white space is empty", "User-agent: *\nDisallow: \t \n", "bot", 2},
		{"a comment is not a value", "User-agent: *\nDisallow: # all\n", "bot", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse([]byte(tt.body), Options{})
			rs := f.Compile(f.Resolve(tt.agent), automaton.Options{})
			id, ok := rs.Undecided()
			assert.Equal(t, tt.want != 0, ok)
			if ok {
				assert.Equal(t, tt.want, rs.Rule(id).Line)
				assert.Empty(t, rs.Rule(id).Value)
			}
		})
	}
}
