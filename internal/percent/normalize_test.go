package percent

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRFCNormalize pins RFC 9309 section 2.2.2's normal form on both sides:
// a URL's path (pattern false) and an allow or disallow value (pattern
// true), which differ only in '*' and a final '$'.
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
		{"/%2", "/%252", "/%252"},
		{"/%7%30", "/%2570", "/%2570"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.path, NormalizeRFC(tt.in, false), "path %q", tt.in)
		assert.Equal(t, tt.pattern, NormalizeRFC(tt.in, true), "pattern %q", tt.in)
		assert.Equal(t, tt.path, NormalizeRFC(tt.path, false), "path %q is idempotent", tt.path)
		assert.Equal(t, tt.pattern, NormalizeRFC(tt.pattern, true), "pattern %q is idempotent", tt.pattern)
	}
}
