package lint

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots/compile"
)

// TestSplitLinesAgreesWithCompile checks that lint numbers lines as the
// parser does, and that text is the parser's view of raw.
func TestSplitLinesAgreesWithCompile(t *testing.T) {
	long := strings.Repeat("a", compile.MaxLineBytes+5)
	bodies := []string{
		"", "\n", "a", "a\nb", "a\r\nb\rc\n\rd", "\r\r\n\n", utf8BOM + "a\nb", "\xEF\xBBa", "\xEFa\x00b\nc",
		long + "\n" + long, "x\x00" + long, "Disallow: /a\x00/b\r\n",
	}
	for _, body := range bodies {
		var want []compile.Line
		compile.Lines(body, func(l compile.Line) { want = append(want, l) })
		var got []line
		splitLines(body, func(l line) { got = append(got, l) })
		if !assert.Len(t, got, len(want), "%q", body) {
			continue
		}
		for i := range want {
			assert.Equal(t, want[i].Num, got[i].num, "%q", body)
			assert.Equal(t, want[i].Text, got[i].text, "%q", body)
			assert.True(t, strings.HasPrefix(got[i].raw, got[i].text), "%q", body)
			assert.Equal(t, want[i].Cut, len(got[i].raw) > compile.MaxLineBytes, "%q", body)
		}
	}
}

func TestLocateFindsKeyAndValue(t *testing.T) {
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
			f := locate(tt.text)
			assert.Equal(t, fields{tt.key, tt.value, tt.colon}, f)
			key, value, ok := compile.SplitKeyValue(tt.text, true)
			assert.True(t, ok)
			assert.True(t, strings.HasPrefix(tt.text[f.key:], key))
			assert.True(t, strings.HasPrefix(tt.text[f.value:], value))
		})
	}
}
