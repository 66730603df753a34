package lint

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots/compile"
)

// TestLinesAgreeWithCompile checks that lint numbers lines as the parser
// does, and that text is the parser's view of raw.
func TestLinesAgreeWithCompile(t *testing.T) {
	long := strings.Repeat("a", compile.MaxLineBytes+5)
	bodies := []string{
		"", "\n", "a", "a\nb", "a\r\nb\rc\n\rd", "\r\r\n\n", utf8BOM + "a\nb", "\xEF\xBBa", "\xEFa\x00b\nc",
		long + "\n" + long, "x\x00" + long, "Disallow: /a\x00/b\r\n",
	}
	for _, body := range bodies {
		var want []compile.Line
		compile.Lines(body, func(l compile.Line) { want = append(want, l) })
		l, _ := lintFile(nil, []byte(body), precedenceBudget, true)
		if !assert.Len(t, l.google.Lines, len(want), "%q", body) {
			continue
		}
		for i := range want {
			ln := l.line(&l.google.Lines[i])
			assert.Equal(t, want[i].Num, ln.num, "%q", body)
			assert.Equal(t, want[i].Raw, ln.raw, "%q", body)
			assert.Equal(t, want[i].Text, ln.text(), "%q", body)
		}
	}
}

// TestDirectiveFields: the columns of a directive's key and value, from
// Google's report of the line, are where compile.SplitKeyValue took them.
func TestDirectiveFields(t *testing.T) {
	tests := []struct {
		text       string
		key, value int
		colon      bool
	}{
		{"Disallow: /a", 0, 10, true},
		{"  Disallow :  /a  # c", 2, 14, true},
		{"Disallow::x", 0, 9, true},
		{"Disallow /x", 0, 9, false},
		{"Disallow \t /x", 0, 11, false},
		{"Allow:", 0, 6, true},
		{"Sitemap: http://a/b", 0, 9, true},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			l, _ := lintFile(nil, []byte(tt.text), precedenceBudget, true)
			ln := l.line(&l.google.Lines[0])
			tok, f, ok := l.checkDirective(ln)
			assert.True(t, ok)
			assert.Equal(t, fields{tt.key, tt.value}, f)
			assert.Equal(t, tt.colon, !ln.read.MissingColon)
			key, value, ok := compile.SplitKeyValue(tt.text, true)
			assert.True(t, ok)
			assert.Equal(t, key, tok.Key)
			assert.Equal(t, value, tok.Value)
			assert.True(t, strings.HasPrefix(tt.text[f.key:], key))
			assert.True(t, strings.HasPrefix(tt.text[f.value:], value))
		})
	}
}
