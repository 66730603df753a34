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

func TestRFCNormalize(t *testing.T) {
	tests := []struct{ in, path, pattern string }{
		{"/foo/bar/%62%61%7A", "/foo/bar/baz", "/foo/bar/baz"},
		{"/foo/bar/ツ", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"},
		{"/foo/bar/%e3%83%84", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"},
		{"/a%2fb", "/a%2Fb", "/a%2Fb"},
		{"/file-*.html", "/file-%2A.html", "/file-*.html"},
		{"/foo-$", "/foo-%24", "/foo-$"},
		{"/a$b", "/a%24b", "/a%24b"},
		{"/foo/bar?baz=https://foo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar"},
		{"/foo/bar?baz=https%3A%2F%2Ffoo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar"},
		{"/a:b/c?d?e@f", "/a:b/c?d%3Fe%40f", "/a:b/c?d%3Fe%40f"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.path, NormalizeRFCPath(tt.in), "path %q", tt.in)
		assert.Equal(t, tt.pattern, NormalizeRFCPattern(tt.in), "pattern %q", tt.in)
	}
}
