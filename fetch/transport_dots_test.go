package fetch

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRemoveDotSegments(t *testing.T) {
	for in, want := range map[string]string{
		// RFC 3986 section 5.2.4's examples and section 5.4's paths.
		"/a/b/c/./../../g":   "/a/g",
		"/b/c/./g":           "/b/c/g",
		"/b/c/../g":          "/b/g",
		"/b/c/../..":         "/",
		"/b/c/../../../../g": "/g",
		"/b/c/g/.":           "/b/c/g/",
		"/b/c/g/..":          "/b/c/",
		"/.":                 "/",
		"/..":                "/",
		"/./g":               "/g",
		"/a//../b":           "/a/b",
		"/public/../private": "/private",
		"/robots.txt/../x":   "/x",
		// %2E in either case is a dot of a dot segment, alone or mixed.
		"/public/%2e%2e/private": "/private",
		"/public/%2E./private":   "/private",
		"/public/.%2E/private":   "/private",
		"/%2e/private":           "/private",
		"/a/%2e%2E":              "/",
		// Other escapes are kept as sent.
		"/a/../%C3%BC/%2F/x%2e": "/%C3%BC/%2F/x%2e",
	} {
		got, ok := removeDotSegments(in)
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"/", "/a/b", "/.well-known/x", "/a/.../b", "/a..b/", "/%2e%2e%2e/x",
		"/%2", "/%2e%2", "/a/%2F..", "/a%2f../b", "/%20/x", "/a.", "/..a"} {
		got, ok := removeDotSegments(in)
		assert.False(t, ok, in)
		assert.Equal(t, in, got, in)
	}
}

// removeDotSegments agrees with RFC 3986 section 5.2.4's algorithm, step
// by step on a buffer, once %2E is read as '.'. (net/url's resolution is
// no reference: it turns "/..//a" into "/a" where the RFC keeps "//a".)
func TestRemoveDotSegmentsAgreesWithTheRFC(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tokens := []string{"a", ".", "/", "%2e", "%2E"}
	decode := strings.NewReplacer("%2e", ".", "%2E", ".")
	for range 50000 {
		var b strings.Builder
		b.WriteByte('/')
		for range r.IntN(12) {
			b.WriteString(tokens[r.IntN(len(tokens))])
		}
		in := b.String()
		got, ok := removeDotSegments(in)
		want := rfcRemoveDotSegments(decode.Replace(in))
		require.Equal(t, want, decode.Replace(got), in)
		assert.Equal(t, ok, got != in || want != decode.Replace(in), in)
	}
}

// rfcRemoveDotSegments is RFC 3986 section 5.2.4 as written.
func rfcRemoveDotSegments(in string) string {
	out := ""
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"), in == "/..":
			in = "/" + in[min(len(in), 4):]
			out = out[:max(strings.LastIndexByte(out, '/'), 0)]
		case in == "." || in == "..":
			in = ""
		default:
			i := strings.IndexByte(in[1:], '/') + 1
			if i == 0 {
				i = len(in)
			}
			out += in[:i]
			in = in[i:]
		}
	}
	return out
}

// normalisingSite serves robots.txt and, at every other path, what a
// server that removes dot segments serves: it counts requests by that
// path (path.Clean of the decoded path, so %2E counts as a dot).
type normalisingSite struct {
	robots string
	mu     sync.Mutex
	served map[string]int
}

func (s *normalisingSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := path.Clean(r.URL.Path)
	s.mu.Lock()
	s.served[p]++
	s.mu.Unlock()
	if p == "/robots.txt" {
		text(200, s.robots)(w, r)
		return
	}
	_, _ = w.Write([]byte("page " + p))
}

func (s *normalisingSite) count(p string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.served[p]
}

// A request whose path is allowed as sent but reaches a disallowed path
// once a server removes its dot segments is refused, naming the rule, and
// never reaches the server: on the first request to an origin and warm,
// with and without pacing.
func TestTransportChecksThePathWithDotSegmentsRemoved(t *testing.T) {
	robots := "User-agent: *\nDisallow: /private\nDisallow: /robots.txt$\n"
	refused := []string{
		"/public/../private",
		"/robots.txt/../private",
		"/public/%2e%2e/private",
		"/public/%2E%2E/private",
		"/public/.%2e/private",
		"/./private",
		"/%2e/private/x",
		"/a/b/../../private/x?q=1",
		"/public/../private?q=/..",
	}
	type sent struct {
		path  string
		serve string // the path the site serves it as
	}
	allowed := []sent{
		{"/public/../public/x", "/public/x"},
		{"/robots.txt", "/robots.txt"},
		{"/x/../robots.txt", "/robots.txt"}, // robots.txt itself, however written
		{"/.well-known/x", "/.well-known/x"},
		{"/a/.../b", "/a/.../b"},
		{"/public?q=/../private", "/public"},
	}
	for _, pace := range []bool{false, true} {
		for _, warm := range []bool{false, true} {
			t.Run(fmt.Sprintf("pace=%v,warm=%v", pace, warm), func(t *testing.T) {
				site := &normalisingSite{robots: robots, served: map[string]int{}}
				s := serve(t, site.ServeHTTP)
				c, tr := transportClient(t, TransportOptions{CrawlDelay: pace})
				if warm {
					require.NoError(t, get(t.Context(), c, s.URL+"/warm"))
				}
				for _, p := range refused {
					err := get(t.Context(), c, s.URL+p)
					require.ErrorIs(t, err, ErrDisallowed, p)
					var de *DisallowedError
					require.ErrorAs(t, err, &de, p)
					require.NotNil(t, de.Rule, p)
					assert.Equal(t, 2, de.Rule.Line, p)
					assert.Equal(t, "/private", de.Rule.Value, p)
					sentAs := s.URL + referenceNormalised(p) // escaped dots are sent decoded
					assert.Equal(t, sentAs, de.SentAs, p)
					resolved, _ := removeDotSegments(strings.SplitN(p, "?", 2)[0])
					assert.True(t, strings.HasPrefix(de.URL, s.URL+resolved), "%s: %s", p, de.URL)
					assert.Contains(t, err.Error(), "line 2: Disallow: /private", p)
					assert.Contains(t, err.Error(), "(sent as "+fmt.Sprintf("%q", sentAs)+")", p)
				}
				for _, a := range allowed {
					before := site.count(a.serve)
					require.NoError(t, get(t.Context(), c, s.URL+a.path), a.path)
					assert.Equal(t, before+1, site.count(a.serve), "%s reached the server", a.path)
				}
				// Disallowed as sent, it is refused as before, whatever it resolves to.
				err := get(t.Context(), c, s.URL+"/private/../public")
				var de *DisallowedError
				require.ErrorAs(t, err, &de)
				assert.Equal(t, s.URL+"/private/../public", de.URL)
				assert.Empty(t, de.SentAs)
				assert.Zero(t, site.count("/private"), "the disallowed path was never sent")
				assert.Zero(t, site.count("/private/x"), "the disallowed path was never sent")
				assert.Equal(t, int64(1), tr.Checker().Cache().Stats().Fetches)
			})
		}
	}
}

// Requests whose target Go's client takes from URL.Opaque, in origin form
// and in absolute form, are checked with their dot segments removed too,
// and so is a path Go's client escapes.
func TestTransportChecksOpaqueTargetsWithDotSegmentsRemoved(t *testing.T) {
	site := &normalisingSite{robots: "User-agent: *\nDisallow: /private\n", served: map[string]int{}}
	s := serve(t, site.ServeHTTP)
	c, _ := transportClient(t, TransportOptions{})
	host := s.Listener.Addr().String()
	for _, u := range []*url.URL{
		{Scheme: "http", Host: host, Opaque: "/public/../private"},
		{Scheme: "http", Host: host, Opaque: "//" + host + "/public/%2e%2e/private"},
		{Scheme: "http", Host: host, Path: "/ü/../../private"},
	} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL, nil)
		require.NoError(t, err)
		req.URL = u
		_, err = c.Do(req)
		require.ErrorIs(t, err, ErrDisallowed, u.String())
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL, nil)
	require.NoError(t, err)
	req.URL = &url.URL{Scheme: "http", Host: host, Opaque: "/public/./x/../y"}
	resp, err := c.Do(req)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.Equal(t, 1, site.count("/public/y"))
	assert.Zero(t, site.count("/private"), "the disallowed path was never sent")
}

// Only a path with dot segments pays for the second check: a warm allowed
// request without one allocates nothing, one with them builds the path
// with its dot segments removed.
func TestTransportDotSegmentsCostOnlyTheirPaths(t *testing.T) {
	tr := seededTransport(t, "User-agent: *\nDisallow: /private\n")
	ctx := t.Context()
	plain := wireRequestOf(builtRequest(&url.URL{Scheme: "https", Host: "site.example", Path: "/shop/item.html"}))
	dots := wireRequestOf(builtRequest(&url.URL{Scheme: "https", Host: "site.example", Path: "/shop/../item"}))
	require.NoError(t, tr.admit(ctx, plain, nil))
	require.NoError(t, tr.admit(ctx, dots, nil))
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { _ = tr.admit(ctx, plain, nil) }))
	assert.Positive(t, testing.AllocsPerRun(100, func() { _ = tr.admit(ctx, dots, nil) }), "the path with dot segments is resolved")
}
