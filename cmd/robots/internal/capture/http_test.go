package capture

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fastrobots/robots/cmd/robots/internal/warctest"
	"github.com/fastrobots/robots/fetch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHTTPWeakETag: with no strong ETag, Last-Modified is the validator
// the later requests of an input are held to.
func TestHTTPWeakETag(t *testing.T) {
	srv := warctest.NewServer(t)
	url := srv.AddData("crawl.warc", []byte("WARC/1.1\r\n"))
	srv.SetFaults(func(s *warctest.Server) { s.ETag = func(n int) string { return `W/"weak"` } })
	f, err := openSurveyHTTP(HTTP, url, &surveyInputState{size: -1})
	require.NoError(t, err)
	defer f.Close()
	assert.Empty(t, f.etag)
	assert.Equal(t, time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC).Format(http.TimeFormat), f.validator())
}

// TestSurveyHTTPSeek: the file's Seek is lazy and Read asks from where it
// put it; seeking from the end uses the first response's length; reading
// on from where it is sends nothing.
func TestSurveyHTTPSeek(t *testing.T) {
	srv := warctest.NewServer(t)
	data := []byte(strings.Repeat("0123456789", 100))
	url := srv.AddData("x.warc", data)
	f, err := openSurveyHTTP(HTTP, url, &surveyInputState{size: -1})
	require.NoError(t, err)
	defer f.Close()
	buf := make([]byte, 10)
	_, err = f.Read(buf)
	require.NoError(t, err)
	assert.Equal(t, "0123456789", string(buf))
	pos, err := f.Seek(0, 1)
	require.NoError(t, err)
	assert.EqualValues(t, 10, pos)
	pos, err = f.Seek(-5, 2)
	require.NoError(t, err)
	assert.EqualValues(t, 995, pos)
	n, err := f.Read(buf)
	require.NoError(t, err)
	assert.Equal(t, "56789", string(buf[:n]))
	_, err = f.Read(buf)
	assert.Equal(t, "EOF", fmt.Sprint(err))
	_, err = f.Seek(-1, 0)
	assert.Error(t, err)
	srv.Mu.Lock()
	assert.Equal(t, []string{"", "bytes=995-"}, srv.Ranges)
	srv.Mu.Unlock()
}

// TestSurveyHTTPHopPolicy: the requests of an http(s) input connect
// anywhere its own host and port lead; a request elsewhere, where a
// redirect led, only to a public address, unless the run allows private
// redirects. The decisions, on netip values.
func TestSurveyHTTPHopPolicy(t *testing.T) {
	input, err := url.Parse("http://127.0.0.1:8000/crawl.warc.gz")
	require.NoError(t, err)
	ctx := func(allowPrivate bool) context.Context {
		return context.WithValue(context.Background(), surveyHopKey{}, surveyHop{input: surveyAuthority(input), allowPrivate: allowPrivate})
	}
	parse := func(s string) *url.URL {
		u, err := url.Parse(s)
		require.NoError(t, err)
		return u
	}
	for _, tt := range []struct {
		target, addr string
		kind         string // what the guard refuses it as; "" for through
	}{
		// The input's own host and port, whatever address it is.
		{"http://127.0.0.1:8000/elsewhere.warc", "127.0.0.1:8000", ""},
		{"HTTP://127.0.0.1:8000/x", "169.254.169.254:8000", ""},
		// Elsewhere: public addresses only.
		{"http://127.0.0.1:8001/crawl.warc.gz", "127.0.0.1:8001", "loopback"},
		{"http://127.0.0.2:8000/crawl.warc.gz", "127.0.0.2:8000", "loopback"},
		{"http://169.254.169.254/latest/meta-data/", "169.254.169.254:80", "link-local"},
		{"http://10.0.0.1/x.warc", "10.0.0.1:80", "private"},
		{"http://metadata.internal/x.warc", "[::ffff:10.0.0.1]:80", "private"},
		{"http://[::1]:8000/x.warc", "[::1]:8000", "loopback"},
		{"https://127.0.0.1/crawl.warc.gz", "127.0.0.1:443", "loopback"}, // another port
		{"https://127.0.0.1:8000/crawl.warc.gz", "127.0.0.1:8000", ""},   // the same port, over TLS
		{"https://data.example/crawl.warc.gz", "93.184.215.14:443", ""},
		{"http://[2606:4700::6810:85e5]/x.warc", "[2606:4700::6810:85e5]:80", ""},
	} {
		ap := netip.MustParseAddrPort(tt.addr)
		policy := surveyHopPolicy(ctx(false), parse(tt.target))
		var got error
		if policy != nil {
			got = policy(ap)
		}
		if tt.kind == "" {
			assert.NoError(t, got, "%s at %s", tt.target, tt.addr)
		} else {
			var refused *fetch.AddressError
			require.ErrorAs(t, got, &refused, "%s at %s", tt.target, tt.addr)
			assert.Equal(t, tt.kind, refused.Kind)
		}
		assert.Nil(t, surveyHopPolicy(ctx(true), parse(tt.target)), "--allow-private-redirects: %s", tt.target)
	}
	// A request that says no input is held to the guard.
	assert.NotNil(t, surveyHopPolicy(context.Background(), input))

	for raw, want := range map[string]string{
		"http://Example.ORG/x.warc":      "example.org:80",
		"https://example.org/x.warc":     "example.org:443",
		"https://example.org:8443/x":     "example.org:8443",
		"http://[::1]:8080/x.warc":       "[::1]:8080",
		"http://user@example.org/x.warc": "example.org:80",
	} {
		assert.Equal(t, want, surveyAuthority(parse(raw)), raw)
	}
}
