package compile

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestGoogleEscapePattern(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/a/b/c", "/a/b/c"},
		{"/SanJosé", "/SanJos%C3%A9"},
		{"%aa", "%AA"},
		{"/%2f%2F", "/%2F%2F"},
		{"/%zz%a", "/%zz%a"},
		{"/%", "/%"},
		{"/%e3%83%84ツ", "/%E3%83%84%E3%83%84"},
		{"/*$", "/*$"},
		{"/a%62", "/a%62"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, EscapePattern(tt.in), "%q", tt.in)
	}
	s := "/unchanged"
	assert.Equal(t, s, EscapePattern(s))
	assert.Equal(t, 0.0, testing.AllocsPerRun(10, func() { EscapePattern(s) }), "an unchanged pattern is not copied")
}

func TestRFCNormalizePatternKeepsOperators(t *testing.T) {
	assert.Equal(t, "/file-*.html$", NormalizeRFCPattern("/file-*.html$"))
	assert.Equal(t, "/a%24b/%E3%83%84", NormalizeRFCPattern("/a$b/ツ"))
}

func TestPlainASCII(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"", true}, {"/a", true}, {"/abcdefgh/ijklmnop", true}, {"/abcdefgh/ijklmno%", false},
		{"%", false}, {"/abcdefg\x80", false}, {"\xff/abcdefgh", false}, {"/abcdefgh%41bcdefg", false},
		{"/abcdefgh\x24\x26", true}, {"\x00\x01\x7f", true},
	} {
		assert.Equal(t, tt.want, plainASCII(tt.s), "%q", tt.s)
	}
	for c := range 256 {
		s := "/abcdefghijklmno" + string(byte(c)) + "pqr"
		assert.Equal(t, c < 0x80 && c != '%', plainASCII(s), "byte %#x", c)
	}
}
