package main

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckURL(t *testing.T) {
	tests := []struct {
		url string
		err string // "" when u is a URL
	}{
		{"https://example.com/a?b=c", ""},
		{"http://example.com", ""},
		{"ftp://example.com/file", ""},
		{"http://e.com/a b", ""},
		{"http://e.com/x?q=%zz", ""},
		{"/path?q=1", ""},
		{"/", ""},
		{"http://e.com/%zz", `invalid URL escape "%zz"`},
		{"/a%", `invalid URL escape "%"`},
		{"http://[::1/", "missing ']' in host"},
		{"http://e.com/\x01", "invalid control character in URL"},
		{"example.com/page", "neither an absolute URL (https://host/path) nor a path starting with '/'"},
		{"-a", "neither an absolute URL"},
		{"", ""}, // the path "/", as Google reads it
		{"//example.com/a", "neither an absolute URL"},
		{"mailto:someone@example.com", "a mailto URL without a host"},
		{"http:///a", "a http URL without a host"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			err := checkURL(tt.url)
			if tt.err == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
		})
	}
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
		if _, ok := errors.AsType[*badURLError](err); ok {
			got = append(got, "!"+err.Error())
			continue
		}
		require.NoError(t, err)
		got = append(got, u)
	}
}

func TestListSourceReadsOneURLALine(t *testing.T) {
	in := "http://e.com/a\n\n/b\r\n\r\nnot a url\n" + "/" + strings.Repeat("x", maxURLLine) + "\n/" + strings.Repeat("y", maxURLLine-1) + "\n/last"
	got := drain(t, listSource(strings.NewReader(in)))
	require.Len(t, got, 6)
	assert.Equal(t, []string{"http://e.com/a", "/b", `!line 5: "not a url": neither an absolute URL (https://host/path) nor a path starting with '/'`},
		got[:3])
	assert.Equal(t, "!line 6: longer than 65536 bytes", got[3])
	assert.Equal(t, maxURLLine, len(got[4]), "a line of exactly maxURLLine bytes is a URL")
	assert.Equal(t, "/last", got[5])
}

func TestArgsSourceKeepsArgumentsAsGiven(t *testing.T) {
	got := drain(t, argsSource([]string{"/a", "", "x", "http://e.com/"}))
	assert.Equal(t, []string{"/a", "", `!"x": neither an absolute URL (https://host/path) nor a path starting with '/'`, "http://e.com/"}, got)
}
