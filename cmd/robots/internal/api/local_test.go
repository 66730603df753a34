package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLocalNeedsTheServerToFetch(t *testing.T) {
	for _, tt := range []struct{ path, body, msg string }{
		{FetchPath, `{"url": "https://example.com/"}`, "Load needs robots serve"},
		{"/api/check", `{"origin": "https://example.com/", "urls": ["/"]}`, "origin needs robots serve"},
		{"/api/explain", `{"origin": "https://example.com/", "urls": ["/"]}`, "origin needs robots serve"},
		{"/api/lint", `{"origin": "https://example.com/"}`, "origin needs robots serve"},
	} {
		_, err := Local(tt.path, []byte(tt.body))
		require.NotNil(t, err, tt.path)
		assert.Equal(t, http.StatusNotImplemented, err.Status, tt.path)
		assert.True(t, strings.HasPrefix(err.Msg, tt.msg), "%s: %s", tt.path, err.Msg)
	}
}

func TestLocalBoundsTheBody(t *testing.T) {
	body := `{"robotstxt": "` + strings.Repeat("x", MaxRequestBytes-len(`{"robotstxt": "", "urls": ["/"]}`)) + `", "urls": ["/"]}`
	require.Len(t, body, MaxRequestBytes)
	_, err := Local("/api/check", []byte(body))
	assert.Nil(t, err, "a body of exactly MaxRequestBytes is read")
	_, err = Local("/api/check", []byte(body+" "))
	require.NotNil(t, err)
	assert.Equal(t, http.StatusRequestEntityTooLarge, err.Status)
}

func TestLocalAnswersEachEndpoint(t *testing.T) {
	out, err := Local("/api/check", []byte(`{"robotstxt": "User-agent: *\nDisallow: /private\n", "urls": ["/private/x", "/public"]}`))
	require.Nil(t, err)
	assert.Contains(t, string(out), `{"url":"/private/x","allowed":false,"line":2,"rule":"Disallow: /private"}`)
	assert.Contains(t, string(out), `{"url":"/public","allowed":true,"line":0,"rule":""}`)
	out, err = Local("/api/explain", []byte(`{"robotstxt": "User-agent: *\nDisallow: /private\n", "urls": ["/private/x"]}`))
	require.Nil(t, err)
	assert.Contains(t, string(out), `"selection":`)
	out, err = Local("/api/lint", []byte(`{"robotstxt": "Disallow: /x\n"}`))
	require.Nil(t, err)
	assert.Contains(t, string(out), `"findings":[{`)
	_, err = Local("/api/other", []byte(`{}`))
	require.NotNil(t, err)
	assert.Equal(t, http.StatusNotFound, err.Status)
}
