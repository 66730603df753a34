package compile

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func collectLines(body string) []Line {
	var out []Line
	Lines(body, func(l Line) { out = append(out, l) })
	return out
}

func texts(lines []Line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

func TestRFCLinesBreakAtLFCRAndCRLF(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"LF", "a\nb\n", []string{"a", "b", ""}},
		{"CRLF", "a\r\nb\r\n", []string{"a", "b", ""}},
		{"CR", "a\rb\r", []string{"a", "b", ""}},
		{"mixed", "a\nb\r\nc\rd", []string{"a", "b", "c", "d"}},
		{"empty lines count", "a\n\n\r\n\rb", []string{"a", "", "", "", "b"}},
		{"LF CR is two breaks", "a\n\rb", []string{"a", "", "b"}},
		{"empty body", "", []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := collectLines(tt.body)
			assert.Equal(t, tt.want, texts(lines))
			for i, l := range lines {
				assert.Equal(t, i+1, l.Num)
			}
		})
	}
}

func TestGoogleLinesSkipBOMPrefix(t *testing.T) {
	tests := []struct {
		name, body, first string
	}{
		{"full BOM", "\xEF\xBB\xBFa", "a"},
		{"two bytes", "\xEF\xBBa", "a"},
		{"one byte", "\xEFa", "a"},
		{"broken BOM keeps the rest", "\xEF\x11\xBFa", "\x11\xBFa"},
		{"second BOM is content", "\xEF\xBB\xBF\xEF\xBB\xBFa", "\xEF\xBB\xBFa"},
		{"BOM alone", "\xEF\xBB\xBF", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.first, collectLines(tt.body)[0].Text)
		})
	}
	assert.Equal(t, "\xEF\xBB\xBFb", collectLines("a\n\xEF\xBB\xBFb")[1].Text, "a BOM after the start is kept")
}

func TestGoogleLinesCutAtMaxLineBytes(t *testing.T) {
	long := strings.Repeat("x", MaxLineBytes+10)
	lines := collectLines(long + "\nnext")
	assert.Len(t, lines[0].Text, MaxLineBytes)
	assert.True(t, lines[0].Cut)
	assert.Equal(t, "next", lines[1].Text)
	assert.False(t, lines[1].Cut)

	exact := collectLines(strings.Repeat("y", MaxLineBytes))[0]
	assert.Len(t, exact.Text, MaxLineBytes)
	assert.False(t, exact.Cut, "a line of exactly MaxLineBytes is whole")
	assert.Equal(t, 16663, MaxLineBytes, "the reference's buffer, less its terminator")
}

func TestGoogleLinesEndAtNUL(t *testing.T) {
	lines := collectLines("Disallow: /a\x00b\nAllow: /c")
	assert.Equal(t, "Disallow: /a", lines[0].Text)
	assert.True(t, lines[0].NUL)
	assert.Equal(t, "Allow: /c", lines[1].Text)
}

func TestGoogleLinesOnlyCR(t *testing.T) {
	body := strings.Repeat("\r", 200000)
	assert.Len(t, collectLines(body), 200001)
}

func TestSplitKeyValue(t *testing.T) {
	tests := []struct {
		line       string
		lenient    bool
		key, value string
		ok         bool
	}{
		{"Disallow: /a", false, "Disallow", "/a", true},
		{"  Disallow \t :\t /a  ", false, "Disallow", "/a", true},
		{"Disallow: /a # comment", false, "Disallow", "/a", true},
		{"Disallow: /a#b", false, "Disallow", "/a", true},
		{"# Disallow: /a", false, "", "", false},
		{"", false, "", "", false},
		{": /a", false, "", "", false},
		{"Disallow:", false, "Disallow", "", true},
		{"Disallow /a: b", false, "Disallow /a", "b", true},
		{"a:b:c", false, "a", "b:c", true},
		{"Disallow /a", true, "Disallow", "/a", true},
		{"Disallow \t /a", true, "Disallow", "/a", true},
		{"Disallow /a", false, "", "", false},
		{"Disallow /a /b", true, "", "", false},
		{"Disallow", true, "", "", false},
		{"Disallow\v/a", true, "", "", false},
		{"Disallow: \v/a\f", false, "Disallow", "/a", true},
	}
	for _, tt := range tests {
		key, value, ok := SplitKeyValue(tt.line, tt.lenient)
		assert.Equal(t, tt.ok, ok, "%q", tt.line)
		assert.Equal(t, tt.key, key, "%q", tt.line)
		assert.Equal(t, tt.value, value, "%q", tt.line)
	}
}

func TestLinesRawKeepsWhatTextDrops(t *testing.T) {
	long := strings.Repeat("a", MaxLineBytes+3)
	got := collectLines("x\x00y\r\n" + long)
	if !assert.Len(t, got, 2) {
		return
	}
	assert.Equal(t, Line{Num: 1, Text: "x", Raw: "x\x00y", NUL: true}, got[0])
	assert.Equal(t, Line{Num: 2, Start: len("x\x00y\r\n"), Text: long[:MaxLineBytes], Raw: long, Cut: true}, got[1], "Start: where Raw starts in the body")
}
