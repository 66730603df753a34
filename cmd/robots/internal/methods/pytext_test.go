package methods

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// TestPySpace: the characters str.isspace holds for in Python 3.11, and
// those str.splitlines ends a line at.
func TestPySpace(t *testing.T) {
	space := []rune{0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
		0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
		0x2028, 0x2029, 0x202f, 0x205f, 0x3000}
	breaks := []rune{0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029}
	var gotSpace, gotBreaks []rune
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if pySpace(r) {
			gotSpace = append(gotSpace, r)
		}
		if utf8.ValidRune(r) && pyLineBreak([]byte(string(r))) > 0 {
			gotBreaks = append(gotBreaks, r)
		}
	}
	assert.Equal(t, space, gotSpace)
	assert.Equal(t, breaks, gotBreaks)
	assert.Equal(t, 2, pyLineBreak([]byte("\r\n")))
	assert.False(t, pySpace(utf8.RuneError), "U+FFFD, what Python decodes a bad byte to")
}

// TestPyText: splitlines, strip and split as Python reads them, bad
// UTF-8 kept as it is.
func TestPyText(t *testing.T) {
	var lines []string
	pySplitLines([]byte("a\r\nb\rc\n\nd\u2028e\xff\x85f\n"), func(l []byte) { lines = append(lines, string(l)) })
	assert.Equal(t, []string{"a", "b", "c", "", "d", "e\xff\x85f"}, lines, "\\x85 alone is no UTF-8, so no NEL")
	lines = nil
	pySplitLines([]byte("a\n"), func(l []byte) { lines = append(lines, string(l)) })
	assert.Equal(t, []string{"a"}, lines, "a final boundary starts no line")

	assert.Equal(t, "a b", string(pyStrip([]byte("\u3000\t a b\x1f\u00a0"))))
	assert.Equal(t, "\xffa\xff", string(pyStrip([]byte(" \xffa\xff "))))
	assert.Equal(t, "", string(pyStrip([]byte(" \u2028 "))))

	split := func(s string, max int) []string {
		var out []string
		for _, w := range pyFields([]byte(s), max) {
			out = append(out, string(w))
		}
		return out
	}
	assert.Equal(t, []string{"a", "b\xffc"}, split("  a\u00a0b\xffc  d", 2))
	assert.Equal(t, []string{"a"}, split("a ", 2))
	assert.Nil(t, split(" \t", 2))

	assert.Equal(t, "gptbot", pyLower("GPTBot"))
	assert.Equal(t, "i\u0307x", pyLower("\u0130X"), "İ lowers to two characters")
	assert.Equal(t, "k", pyLower("\u212a"), "the Kelvin sign lowers to k")
	assert.True(t, containsFold([]byte("# DisAllow: x"), "allow: "))
	assert.False(t, containsFold([]byte("Allow :"), "allow:"))
}
