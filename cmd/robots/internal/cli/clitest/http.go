package clitest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// RobotsServer serves body with status at /robots.txt, with extra headers,
// on loopback, and counts the requests for /robots.txt.
func RobotsServer(t testing.TB, status int, body string, header ...string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			n.Add(1)
		}
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(s.Close)
	return s, &n
}

// Post sends body as JSON to path and returns the status and the body of
// the answer.
func Post(t testing.TB, s *httptest.Server, path, body string) (int, string) {
	t.Helper()
	return PostType(t, s, path, "application/json", body)
}

// PostType is post with the given Content-Type.
func PostType(t testing.TB, s *httptest.Server, path, contentType, body string) (int, string) {
	t.Helper()
	resp, err := s.Client().Post(s.URL+path, contentType, strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if strings.HasPrefix(path, "/api/") {
		assert.Equal(t, "application/json; charset=utf-8", resp.Header.Get("Content-Type"), path)
	}
	return resp.StatusCode, string(b)
}

// PostOK posts and decodes a 200 answer into a generic JSON value.
func PostOK(t testing.TB, s *httptest.Server, path, body string) map[string]any {
	t.Helper()
	status, out := Post(t, s, path, body)
	require.Equal(t, http.StatusOK, status, out)
	return Object(t, out)
}

func Object(t testing.TB, s string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(s), &m), s)
	return m
}

// JSON builds a JSON JSON body from a Go value.
func JSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// RawAnswer is what a client got: a status, or an error when it got none.
type RawAnswer struct {
	Status     int
	RetryAfter string
	Body       string
	Took       time.Duration
}

// PostRaw posts body as JSON to base+path on a connection of its own.
// A request that gets no status fails the test.
func PostRaw(t testing.TB, base, path, body string) RawAnswer {
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: time.Minute}
	resp, err := client.Post(base+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Errorf("%s: no status: %v", path, err)
		return RawAnswer{}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Errorf("%s: answer cut: %v", path, err)
	}
	return RawAnswer{Status: resp.StatusCode, RetryAfter: resp.Header.Get("Retry-After"), Body: string(b)}
}
