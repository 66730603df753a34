package runtime

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRFCPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "/"},
		{"https://example.com", "/"},
		{"https://example.com/a;p?q=1#frag", "/a;p?q=1"},
		{"https://example.com?q", "/?q"},
		{"https://example.com;p", "/;p"},
		{"https://example.com/a/../b", "/a/../b"},
		{"https://example.com/%7Ea", "/%7Ea"},
		{"https://user:pw@example.com:8080/x", "/x"},
		{"https://example.com#frag/x", "/"},
		{"/a?b=http://c/d", "/a?b=http://c/d"},
		{"example.com/a", "/a"},
		{"a/b", "/b"},
		{"//a/b/c", "/b/c"},
		{"http://a.com/b?c=http://d.e/", "/b?c=http://d.e/"},
		{"not a url", "/"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Path(tt.in), "%q", tt.in)
	}
}

func TestURLPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://example.com", "/"},
		{"https://example.com/a%2Fb;p?q=1#f", "/a%2Fb;p?q=1"},
		{"https://example.com/a?", "/a?"},
		{"https://example.com/caf%C3%A9", "/caf%C3%A9"},
		{"mailto:x/y", "/y"},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.in)
		require.NoError(t, err)
		assert.Equal(t, tt.want, URLPath(u), "%q", tt.in)
	}
}

func TestPathDoesNotAllocate(t *testing.T) {
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { Path("https://example.com/a/b?c") }))
}

func TestURLPathMatchesEscapedPath(t *testing.T) {
	for _, raw := range []string{
		"https://example.com/a%2Fb", "https://example.com/caf%C3%A9?x=1", "https://example.com/a%20b",
		"https://example.com/a b", "https://example.com/%7Euser", "https://example.com/a%zz",
		"https://example.com/x?", "https://example.com", "https://example.com/a;b=c/d",
	} {
		u, err := url.Parse(raw)
		if err != nil {
			continue
		}
		p := u.EscapedPath()
		if p == "" {
			p = "/"
		}
		if u.RawQuery != "" || u.ForceQuery {
			p += "?" + u.RawQuery
		}
		assert.Equal(t, p, URLPath(u), raw)
	}
}

func TestURLPartsDoNotAllocate(t *testing.T) {
	u, err := url.Parse("https://example.com/caf%C3%A9/a%2Fb?q=1&r=%20")
	require.NoError(t, err)
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { URLParts(u, nil) }))
}
