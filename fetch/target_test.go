package fetch

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
)

// sendBuilt sends a request built by hand through tr and returns its error
// (nil when it was answered).
func sendBuilt(t *testing.T, tr *Transport, req *http.Request) error {
	t.Helper()
	resp, err := tr.RoundTrip(req.WithContext(t.Context()))
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

// builtRequest is a GET of u, a URL set field by field.
func builtRequest(u *url.URL) *http.Request {
	return &http.Request{Method: http.MethodGet, URL: u, Header: http.Header{}}
}

// pages returns the requests a site saw other than for /robots.txt.
func (s *site) pages() map[string]int {
	out := s.cnt.snapshot()
	delete(out, "")
	for k := range out {
		if strings.HasSuffix(k, "/robots.txt") {
			delete(out, k)
		}
	}
	return out
}

// The path checked is the request-target written on the wire: an Opaque
// wins over Path, as URL.RequestURI makes it.
func TestTransportChecksTheRequestTargetSent(t *testing.T) {
	var st site
	s := serve(t, st.handler(200, "User-agent: *\nDisallow: /private/\n"))
	host := s.Listener.Addr().String()
	_, tr := transportClient(t, TransportOptions{Agent: "ExampleBot"})

	for _, tc := range []struct {
		name   string
		url    url.URL
		target string // as the server reads it; "" when the request is refused
	}{
		{"Path says robots.txt, Opaque the private page", url.URL{Scheme: "http", Host: host, Path: "/robots.txt", Opaque: "/private/secret"}, ""},
		{"Opaque of the //host/path form", url.URL{Scheme: "http", Host: host, Opaque: "//" + host + "/private/y"}, ""},
		{"Opaque as an absolute URL", url.URL{Scheme: "http", Host: host, Opaque: "http://" + host + "/private/z"}, ""},
		{"Opaque with a fragment", url.URL{Scheme: "http", Host: host, Opaque: "/public#/private/"}, ""},
		{"Opaque not a path", url.URL{Scheme: "http", Host: host, Opaque: "private/w"}, ""},
		{"allowed Opaque reaches the server", url.URL{Scheme: "http", Host: host, Path: "/private/ignored", Opaque: "/public/a%2Fb"}, "/public/a/b"},
		{"allowed //host/path form", url.URL{Scheme: "http", Host: host, Opaque: "//" + host + "/public/c"}, "/public/c"},
	} {
		err := sendBuilt(t, tr, builtRequest(&tc.url))
		if tc.target == "" {
			assert.Error(t, err, tc.name)
			continue
		}
		require.NoError(t, err, tc.name)
	}
	assert.Equal(t, map[string]int{host + "/public/a/b": 1, host + "/public/c": 1}, st.pages(),
		"no request for a disallowed path reached the server")

	err := sendBuilt(t, tr, builtRequest(&url.URL{Scheme: "http", Host: host, Path: "/robots.txt", Opaque: "/private/secret"}))
	var de *DisallowedError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "http://"+host+"/private/secret", de.URL, "the error names the URL checked")
	assert.ErrorIs(t, sendBuilt(t, tr, builtRequest(&url.URL{Scheme: "http", Host: host, Opaque: "private/w"})), ErrRequestTarget)
}

// The origin checked is the Host header sent: req.Host when set, and the
// origin an absolute-form target names.
func TestTransportChecksTheHostSent(t *testing.T) {
	var open, closed site
	openSrv := serve(t, open.handler(200, "User-agent: *\nAllow: /\n"))
	closedSrv := serve(t, closed.handler(200, "User-agent: *\nDisallow: /\n"))
	openHost, closedHost := openSrv.Listener.Addr().String(), closedSrv.Listener.Addr().String()
	_, tr := transportClient(t, TransportOptions{Agent: "ExampleBot"})

	hostHeader := builtRequest(&url.URL{Scheme: "http", Host: openHost, Path: "/page"})
	hostHeader.Host = closedHost
	err := sendBuilt(t, tr, hostHeader)
	var de *DisallowedError
	require.ErrorAs(t, err, &de, "req.Host names the site whose robots.txt disallows everything")
	assert.Equal(t, "http://"+closedHost+"/robots.txt", de.RobotsURL)

	absolute := builtRequest(&url.URL{Scheme: "http", Host: openHost, Opaque: "//" + closedHost + "/page"})
	assert.ErrorIs(t, sendBuilt(t, tr, absolute), ErrDisallowed, "the absolute form names the closed site")

	allowed := builtRequest(&url.URL{Scheme: "http", Host: closedHost, Path: "/page"})
	allowed.Host = openHost
	require.NoError(t, sendBuilt(t, tr, allowed), "the connection's site does not decide; the Host header's does")

	dropped := builtRequest(&url.URL{Scheme: "http", Host: closedHost, Path: "/page"})
	dropped.Host = openHost + "/x"
	assert.ErrorIs(t, sendBuilt(t, tr, dropped), robots.ErrBadHost, "Go would send no Host header: the site that answers is not known")

	assert.Empty(t, open.pages(), "no disallowed request reached the open site")
	assert.Equal(t, map[string]int{openHost + "/page": 1}, closed.pages(), "only the request whose Host header allows it")
}

func TestWireRequestPageURLs(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  *http.Request
		want []string
		err  string // "target" or "host" for the error wanted
	}{
		{"plain", mustRequest(t, "GET", "http://a.example/p?q=1"), []string{"http://a.example/p?q=1"}, ""},
		{"scheme lower-cased", &http.Request{Method: "GET", URL: &url.URL{Scheme: "HTTPS", Host: "a.example", Path: "/p"}}, []string{"https://a.example/p"}, ""},
		{"user info and fragment are not sent", mustRequest(t, "GET", "http://u:p@a.example/p#frag"), []string{"http://a.example/p"}, ""},
		{"empty path is /", &http.Request{Method: "GET", URL: &url.URL{Scheme: "http", Host: "a.example"}}, []string{"http://a.example/"}, ""},
		{"Host header", &http.Request{Method: "GET", Host: "b.example", URL: &url.URL{Scheme: "http", Host: "a.example", Path: "/p"}}, []string{"http://b.example/p"}, ""},
		{"Opaque path", &http.Request{Method: "GET", URL: &url.URL{Scheme: "http", Host: "a.example", Path: "/robots.txt", Opaque: "/x"}}, []string{"http://a.example/x"}, ""},
		{"Opaque //same host", &http.Request{Method: "GET", URL: &url.URL{Scheme: "http", Host: "a.example", Opaque: "//a.example/x"}}, []string{"http://a.example/x"}, ""},
		{"Opaque //other host", &http.Request{Method: "GET", URL: &url.URL{Scheme: "http", Host: "a.example", Opaque: "//b.example/x"}}, []string{"http://a.example/x", "http://b.example/x"}, ""},
		{"absolute with query only", &http.Request{Method: "GET", URL: &url.URL{Scheme: "http", Host: "a.example", Opaque: "http://b.example", RawQuery: "q"}}, []string{"http://a.example/?q", "http://b.example?q"}, ""},
		{"non-ASCII Host header, sent as punycode", &http.Request{Method: "GET", Host: "bücher.example", URL: &url.URL{Scheme: "http", Host: "a.example", Path: "/p"}}, []string{"http://bücher.example/p"}, ""},
		{"Host header Go would drop", &http.Request{Method: "GET", Host: "b.example/x", URL: &url.URL{Scheme: "http", Host: "a.example", Path: "/p"}}, nil, "host"},
		{"Host header with user info", &http.Request{Method: "GET", Host: "u@b.example", URL: &url.URL{Scheme: "http", Host: "a.example", Path: "/p"}}, nil, "host"},
		{"asterisk", &http.Request{Method: "OPTIONS", URL: &url.URL{Scheme: "http", Host: "a.example", Opaque: "*"}}, nil, "target"},
		{"CONNECT authority", &http.Request{Method: "CONNECT", URL: &url.URL{Scheme: "http", Host: "a.example:443"}}, nil, "target"},
		{"other scheme in absolute form", &http.Request{Method: "GET", URL: &url.URL{Scheme: "http", Host: "a.example", Opaque: "ftp://a.example/x"}}, nil, "target"},
		{"space in Opaque", &http.Request{Method: "GET", URL: &url.URL{Scheme: "http", Host: "a.example", Opaque: "/a /private"}}, nil, "target"},
		{"fragment in query", &http.Request{Method: "GET", URL: &url.URL{Scheme: "http", Host: "a.example", Path: "/a", RawQuery: "x#y"}}, nil, "target"},
	} {
		w := wireRequestOf(tc.req)
		err := w.check()
		var got []string
		if err == nil {
			got, err = w.pageURLs()
		}
		switch tc.err {
		case "target":
			assert.ErrorIs(t, err, ErrRequestTarget, tc.name)
			continue
		case "host":
			assert.ErrorIs(t, err, robots.ErrBadHost, tc.name)
			continue
		}
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, got, tc.name)
	}
}

func TestWireRequestIsRobotsTxt(t *testing.T) {
	for target, want := range map[string]bool{
		"/robots.txt":                 true,
		"/robots.txt?x=1":             true,
		"http://a.example/robots.txt": true,
		"/robots.txt/x":               false,
		"/private/robots.txt":         false,
		"/robots%2etxt":               false,
		"*":                           false,
	} {
		assert.Equal(t, want, wireRequest{scheme: "http", host: "a.example", target: target}.isRobotsTxt(), target)
	}
}

func mustRequest(t *testing.T, method, u string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, u, nil)
	require.NoError(t, err)
	return req
}

// TestHostHeaderByteIsTheList checks the table of Host header bytes
// against the list it is built from, for every byte.
func TestHostHeaderByteIsTheList(t *testing.T) {
	for c := range 256 {
		assert.Equal(t, strings.IndexByte(hostHeaderBytes, byte(c)) >= 0, hostHeaderByte[c], "byte %#x", c)
	}
}
