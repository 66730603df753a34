package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
)

// TestURLWarning: every string but one with a NUL gets a verdict; those
// that are not an absolute URL with a host or a path starting with '/' get
// a warning naming the path Google's reference reads in them.
func TestURLWarning(t *testing.T) {
	tests := []struct {
		url  string
		warn string // "" when u is a URL or a path
		path string // the path the warning names
	}{
		{"https://example.com/a?b=c", "", ""},
		{"http://example.com", "", ""},
		{"ftp://example.com/file", "", ""},
		{"http://e.com/a b", "", ""},
		{"http://e.com/x?q=%zz", "", ""},
		{"/path?q=1", "", ""},
		{"/", "", ""},
		{"", "", ""}, // the path "/", as Google reads it
		{"http://e.com/%zz", `not a URL net/url reads (invalid URL escape "%zz")`, "/%zz"},
		{"/a%", "", ""},
		{"http://[::1/", "missing ']' in host", "/"},
		{"http://e.com/\x01", "invalid control character in URL", "/\x01"},
		{"http://example.com/a\tb", "invalid control character in URL", "/a\tb"},
		{"example.com/page", "neither an absolute URL (https://host/path) nor a path starting with '/'", "/page"},
		{"-a", "neither an absolute URL", "/"},
		{"//example.com/a", "neither an absolute URL", "/a"},
		{"mailto:someone@example.com", "a mailto URL without a host", "/"},
		{"http:/private", "a http URL without a host", "/private"},
		{"http:///a", "a http URL without a host", "/a"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			assert.NoError(t, api.CheckURL(tt.url))
			w := api.URLWarning(tt.url)
			if tt.warn == "" {
				assert.Empty(t, w)
				return
			}
			assert.Contains(t, w, tt.warn)
			assert.Contains(t, w, fmt.Sprintf("the path Google's reference reads in it, %q", tt.path))
		})
	}
	assert.EqualError(t, api.CheckURL("/a\x00b"), "holds a NUL byte")
}

func TestAgentWarning(t *testing.T) {
	assert.Empty(t, api.AgentWarning("Googlebot"))
	assert.Empty(t, api.AgentWarning("Googlebot-Image"))
	assert.Contains(t, api.AgentWarning("Googlebot/2.1"), `the token it reads in such a User-Agent is "Googlebot"`)
	assert.Contains(t, api.AgentWarning("Mozilla/5.0 (compatible; Googlebot/2.1)"), `is "Mozilla"`)
	assert.Contains(t, api.AgentWarning("*"), "not a product token (letters, '-' and '_')")
}

// drain returns what src yields: the URLs, and the errors as "!" and
// their message.
func drain(t *testing.T, src *urlSource) []string {
	t.Helper()
	var got []string
	for {
		u, err := src.next()
		if errors.Is(err, io.EOF) {
			return got
		}
		if _, ok := errors.AsType[*api.BadURLError](err); ok {
			got = append(got, "!"+err.Error())
			continue
		}
		require.NoError(t, err)
		got = append(got, u)
	}
}

func TestListSourceReadsOneURLALine(t *testing.T) {
	in := "http://e.com/a\n\n/b\r\n\r\nnot a url\n" + "/" + strings.Repeat("x", api.MaxURLLine) + "\n/" + strings.Repeat("y", api.MaxURLLine-1) + "\n/last"
	got := drain(t, listSource(strings.NewReader(in)))
	require.Len(t, got, 6)
	assert.Equal(t, []string{"http://e.com/a", "/b", "not a url"}, got[:3], "a string that is not a URL is answered (with a warning)")
	assert.Equal(t, "!line 6: longer than 65536 bytes", got[3])
	assert.Equal(t, api.MaxURLLine, len(got[4]), "a line of exactly maxURLLine bytes is a URL")
	assert.Equal(t, "/last", got[5])
}

func TestArgsSourceKeepsArgumentsAsGiven(t *testing.T) {
	got := drain(t, argsSource([]string{"/a", "", "x", "http://e.com/", "/\x00", "/" + strings.Repeat("a", api.MaxURLLine), "/" + strings.Repeat("b", api.MaxURLLine-1)}))
	require.Len(t, got, 7)
	assert.Equal(t, []string{"/a", "", "x", "http://e.com/", `!"/\x00": holds a NUL byte`, "!longer than 65536 bytes"}, got[:6],
		"an argument longer than a list's line is refused, as the line would be")
	assert.Len(t, got[6], api.MaxURLLine, "an argument of exactly the limit is a URL")
}
