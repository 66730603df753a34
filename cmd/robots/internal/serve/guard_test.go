package serve

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/fetch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests send traffic to loopback only: the guard refuses the other
// addresses before any packet is sent, and the table test classifies
// addresses without connecting.

func TestServeGuardControlNamesTheFlag(t *testing.T) {
	control := guardControl(publicOnly)
	// What the dialer gives for [::ffff:127.0.0.1]: the IPv4 address.
	err := control("tcp4", "127.0.0.1:80", nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, fetch.ErrRefusedAddress)
	_, ok := errors.AsType[*refusedError](err)
	assert.True(t, ok, "serve_fetch.go answers 403 for a *refusedError")
	assert.Equal(t, "refused to connect to 127.0.0.1: a loopback address is not public (robots serve --allow-private allows it)", err.Error())
	assert.NoError(t, control("tcp4", "8.8.8.8:443", nil))
	err = control("tcp6", "[::]:80", nil)
	assert.Equal(t, "refused to connect to ::: an unspecified address is not public (robots serve --allow-private allows it)", err.Error())
	err = control("tcp", "not an address", nil)
	assert.Equal(t, `refused to connect to "not an address": an unparsable address is not public (robots serve --allow-private allows it)`, err.Error())
}

// countingOrigin serves body at /robots.txt and counts every request it
// gets, to show that a refused fetch never reached it.
func countingOrigin(t *testing.T, body string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(s.Close)
	return s, &n
}

// hostsFor returns the URLs of origin under other names of loopback: a
// name that resolves to it, IPv6 loopback, an IPv4-mapped IPv6 address,
// and the unspecified address, which Linux connects to the host itself.
func hostsFor(t *testing.T, origin string) []string {
	t.Helper()
	u, err := url.Parse(origin)
	require.NoError(t, err)
	port := u.Port()
	return []string{
		origin,
		"http://localhost:" + port,
		"http://LOCALHOST.:" + port,
		"http://[::1]:" + port,
		"http://[::ffff:127.0.0.1]:" + port,
		"http://0.0.0.0:" + port,
		"http://[::]:" + port,
	}
}

func TestServeGuardRefusesLoopbackOrigins(t *testing.T) {
	s := apiServer(t, serverConfig{}) // the default: public addresses only
	origin, n := countingOrigin(t, "User-agent: *\nDisallow: /\n")
	for _, o := range hostsFor(t, origin.URL) {
		for path, body := range map[string]map[string]any{
			"/api/fetch":   {"url": o + "/a"},
			"/api/check":   {"origin": o, "urls": []string{"/a"}},
			"/api/explain": {"origin": o, "urls": []string{"/a"}},
			"/api/lint":    {"origin": o},
		} {
			status, out := clitest.Post(t, s, path, clitest.JSON(t, body))
			assert.Equal(t, http.StatusForbidden, status, "%s %s: %s", path, o, out)
			robotsURL, err := robots.URLFor(o)
			require.NoError(t, err)
			assert.Contains(t, out, robotsURL+": refused to connect to ", "%s %s", path, o)
			assert.Contains(t, out, "address is not public (robots serve --allow-private allows it)")
		}
	}
	assert.Zero(t, n.Load(), "no request reached the origin")
}

func TestServeGuardRefusesZonedAddresses(t *testing.T) {
	s := apiServer(t, serverConfig{})
	origin, n := countingOrigin(t, "User-agent: *\nDisallow: /\n")
	port := origin.URL[strings.LastIndexByte(origin.URL, ':')+1:]
	for _, host := range []string{
		"[::ffff:127.0.0.1%25lo]",
		"[::ffff:127.0.0.1%25eth0]",
		"[::ffff:7f00:1%25lo]",
		"[::1%25lo]",
	} {
		status, out := clitest.Post(t, s, "/api/fetch", clitest.JSON(t, map[string]any{"url": "http://" + host + ":" + port + "/a"}))
		assert.Equal(t, http.StatusForbidden, status, "%s: %s", host, out)
		assert.Contains(t, out, "a loopback address is not public", host)
	}
	assert.Zero(t, n.Load(), "no request reached the origin")
}

// exemptOne returns a policy that lets fetches connect to the address of
// server s, standing in for a public host, and applies publicOnly to
// every other.
func exemptOne(t *testing.T, s *httptest.Server) addrPolicy {
	t.Helper()
	exempt := netip.MustParseAddrPort(s.Listener.Addr().String())
	return func(ap netip.AddrPort) error {
		if ap.Addr().Unmap() == exempt.Addr() && ap.Port() == exempt.Port() {
			return nil
		}
		return publicOnly(ap)
	}
}

func TestServeGuardRefusesRedirectsToLoopback(t *testing.T) {
	inside, n := countingOrigin(t, "User-agent: *\nDisallow: /\n")
	port := inside.Listener.Addr().(*net.TCPAddr).Port
	for _, target := range []string{
		inside.URL + "/robots.txt",
		"http://localhost:" + strconv.Itoa(port) + "/robots.txt",
		"http://[::ffff:127.0.0.1]:" + strconv.Itoa(port) + "/robots.txt",
	} {
		public := httptest.NewServer(http.RedirectHandler(target, http.StatusFound))
		t.Cleanup(public.Close)
		s := apiServer(t, serverConfig{policy: exemptOne(t, public)})
		status, out := clitest.Post(t, s, "/api/fetch", clitest.JSON(t, map[string]any{"url": public.URL + "/"}))
		assert.Equal(t, http.StatusForbidden, status, out)
		assert.Contains(t, out, public.URL+"/robots.txt, redirected to "+target+": refused to connect to ", target)
	}
	assert.Zero(t, n.Load(), "no redirect reached the inside origin")
}

func TestServeGuardLetsTheExemptHostThrough(t *testing.T) {
	// The redirect test above is meaningful only if the exempt host itself
	// is reached: it is, and its rules apply.
	public, n := countingOrigin(t, "User-agent: *\nDisallow: /private/\n")
	s := apiServer(t, serverConfig{policy: exemptOne(t, public)})
	got := clitest.PostOK(t, s, "/api/check", clitest.JSON(t, map[string]any{"origin": public.URL, "urls": []string{"/private/a", "/b"}}))
	assert.Equal(t, int64(1), n.Load())
	assert.Equal(t, false, got["results"].([]any)[0].(map[string]any)["allowed"])
	assert.Equal(t, true, got["results"].([]any)[1].(map[string]any)["allowed"])
}

func TestServeAllowPrivateLiftsTheGuard(t *testing.T) {
	s := apiServer(t, serverConfig{allowPrivate: true})
	origin, n := countingOrigin(t, "User-agent: *\nDisallow: /\n")
	for _, o := range []string{origin.URL, "http://localhost:" + origin.URL[strings.LastIndexByte(origin.URL, ':')+1:]} {
		got := clitest.PostOK(t, s, "/api/fetch", clitest.JSON(t, map[string]any{"url": o + "/a"}))
		assert.Equal(t, "conditional", got["policy"], o)
		assert.Equal(t, false, got["allowed"], o)
	}
	assert.Equal(t, int64(2), n.Load())
}

func TestServeGuardedTransportUsesNoProxy(t *testing.T) {
	// A proxy would connect on the server's behalf, past the guard, which
	// sees only the proxy's address.
	assert.Nil(t, guardedTransport(publicOnly).Proxy)
}

func TestLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1:8080":      true,
		"127.0.0.1":           true,
		"127.1.2.3:80":        true,
		"localhost:8080":      true,
		"LOCALHOST.:8080":     true,
		"app.localhost:8080":  true,
		"[::1]:8080":          true,
		"[::1]":               true,
		"[::ffff:127.0.0.1]":  true,
		"rebind.example:8080": false,
		"localhost.example":   false,
		"10.0.0.1:8080":       false,
		"[::2]:8080":          false,
		"":                    false,
		"0.0.0.0:8080":        false,
	} {
		assert.Equal(t, want, loopbackHost(host), "%q", host)
	}
}

func TestServeOnLoopbackAnswersOnlyToLoopbackNames(t *testing.T) {
	s := apiServer(t, serverConfig{loopbackHosts: true})
	for _, tt := range []struct {
		host   string
		status int
	}{
		{"", http.StatusOK}, // the client sends 127.0.0.1:port
		{"localhost", http.StatusOK},
		{"rebind.example", http.StatusMisdirectedRequest},
	} {
		for _, path := range []string{"/", "/api/check"} {
			req, err := http.NewRequest(http.MethodPost, s.URL+path, strings.NewReader(`{"robotstxt":"","urls":["/"]}`))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			if path == "/" {
				req.Method = http.MethodGet
			}
			if tt.host != "" {
				req.Host = tt.host
			}
			resp, err := s.Client().Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			assert.Equal(t, tt.status, resp.StatusCode, "Host %q, %s", tt.host, path)
		}
	}
	// Listening elsewhere, the server cannot know its names: any goes.
	open := apiServer(t, serverConfig{})
	req, err := http.NewRequest(http.MethodGet, open.URL+"/", nil)
	require.NoError(t, err)
	req.Host = "robots.example"
	resp, err := open.Client().Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}
