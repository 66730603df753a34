package fetch

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
)

// rawSite serves robots.txt and records the request-target of every other
// request as it arrived on the request line (r.RequestURI), before the
// server decodes it. A request for /go is redirected to redirect.
type rawSite struct {
	robots   string
	redirect string
	mu       sync.Mutex
	got      []string
}

func (s *rawSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/robots.txt" {
		text(200, s.robots)(w, r)
		return
	}
	s.mu.Lock()
	s.got = append(s.got, r.RequestURI)
	s.mu.Unlock()
	if r.RequestURI == "/go" {
		w.Header().Set("Location", s.redirect)
		w.WriteHeader(http.StatusFound)
		return
	}
	_, _ = io.WriteString(w, "page")
}

// take returns the targets received since the last call.
func (s *rawSite) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	got := s.got
	s.got = nil
	return got
}

// unreservedRobots disallows a path for each kind of unreserved character,
// a query, a path written with an escaped '~', and one with a lower-case
// escape of '/'.
const unreservedRobots = "User-agent: *\n" +
	"Disallow: /private\n" + // line 2
	"Disallow: /admin/\n" +
	"Disallow: /~user\n" +
	"Disallow: /Secret\n" + // line 5
	"Disallow: /a-b\n" +
	"Disallow: /a.b\n" +
	"Disallow: /a_b\n" +
	"Disallow: /v1\n" +
	"Disallow: /*?sid=\n" + // line 10
	"Disallow: /%7Eesc\n" +
	"Disallow: /a%2fb\n"

// A request whose target holds a percent-encoded unreserved character is
// sent with it decoded, and checked as sent: one a server decodes to a
// disallowed path never reaches it. The spelling the caller wrote is
// checked too, as Google's matcher reads it. Other escapes keep Google's
// verdict and are sent with upper-case hex digits. On the first request to
// an origin and warm, with and without pacing.
func TestTransportDecodesUnreservedEscapes(t *testing.T) {
	type refusal struct {
		path   string
		url    string // DisallowedError.URL, after the origin
		sentAs string // DisallowedError.SentAs after the origin; "" for none
		line   int
	}
	refused := []refusal{
		{"/%70rivate", "/private", "", 2},
		{"/%70%72%69%76%61%74%65", "/private", "", 2},
		{"/adm%69n/", "/admin/", "", 3},
		{"/adm%69n/x?q=1", "/admin/x?q=1", "", 3},
		{"/%7euser", "/~user", "", 4},
		{"/%7Euser", "/~user", "", 4},
		{"/%7Euser/page", "/~user/page", "", 4},
		{"/%53ecret", "/Secret", "", 5},
		{"/a%2Db", "/a-b", "", 6},
		{"/a%2Eb", "/a.b", "", 7},
		{"/a%2eb", "/a.b", "", 7},
		{"/a%5Fb", "/a_b", "", 8},
		{"/v%31", "/v1", "", 9},
		{"/page?%73id=1", "/page?sid=1", "", 10},
		// Disallowed as written, by Google's matcher: refused, though the
		// target sent, "/~esc", is not.
		{"/%7Eesc", "/%7Eesc", "/~esc", 11},
		// Google's matcher writes the rule's escape in upper case, and the
		// target is sent so.
		{"/a%2fb", "/a%2Fb", "", 12},
		// Decoded first, then dot segments removed.
		{"/public/%2e%2e/%70rivate", "/private", "/public/../private", 2},
		{"/public/%2E%2E/adm%69n/", "/admin/", "/public/../admin/", 3},
	}
	allowed := []struct {
		path string
		sent string // the request-target the server receives
	}{
		{"/%2Fprivate", "/%2Fprivate"}, // a reserved escape: a different URI
		{"/%2fprivate", "/%2Fprivate"},
		{"/%7Epublic", "/~public"},
		{"/%7epublic/%41", "/~public/A"},
		{"/%C3%BC", "/%C3%BC"},
		{"/%c3%bc", "/%C3%BC"},
		{"/a%20b", "/a%20b"},
		{"/page?q=%7E%2f%20", "/page?q=~%2F%20"},
		{"/public", "/public"},
	}
	for _, pace := range []bool{false, true} {
		for _, warm := range []bool{false, true} {
			t.Run(fmt.Sprintf("pace=%v,warm=%v", pace, warm), func(t *testing.T) {
				site := &rawSite{robots: unreservedRobots, redirect: "/%70rivate"}
				s := serve(t, site.ServeHTTP)
				c, tr := transportClient(t, TransportOptions{CrawlDelay: pace})
				if warm {
					require.NoError(t, get(t.Context(), c, s.URL+"/warm"))
					require.Equal(t, []string{"/warm"}, site.take())
				}
				for _, r := range refused {
					err := get(t.Context(), c, s.URL+r.path)
					require.ErrorIs(t, err, ErrDisallowed, r.path)
					var de *DisallowedError
					require.ErrorAs(t, err, &de, r.path)
					require.NotNil(t, de.Rule, r.path)
					assert.Equal(t, r.line, de.Rule.Line, r.path)
					assert.Equal(t, s.URL+r.url, de.URL, r.path)
					if r.sentAs == "" {
						assert.Empty(t, de.SentAs, r.path)
					} else {
						assert.Equal(t, s.URL+r.sentAs, de.SentAs, r.path)
					}
					assert.Empty(t, site.take(), "%s reached the server", r.path)
				}
				for _, a := range allowed {
					require.NoError(t, get(t.Context(), c, s.URL+a.path), a.path)
					assert.Equal(t, []string{a.sent}, site.take(), a.path)
				}
				// A redirect's hop is checked as it would be sent.
				assert.ErrorIs(t, get(t.Context(), c, s.URL+"/go"), ErrDisallowed)
				assert.Equal(t, []string{"/go"}, site.take(), "the hop to /%70rivate was not sent")
				assert.Equal(t, int64(1), tr.Checker().Cache().Stats().Fetches)
			})
		}
	}
}

// Every form of request-target Go's client writes is sent normalised and
// checked as sent: RawPath, Opaque in origin and absolute form, and the
// query. The caller's request is left as it was.
func TestTransportDecodesUnreservedEscapesInEveryTargetForm(t *testing.T) {
	site := &rawSite{robots: unreservedRobots}
	s := serve(t, site.ServeHTTP)
	host := s.Listener.Addr().String()
	_, tr := transportClient(t, TransportOptions{})
	for _, u := range []url.URL{
		{Scheme: "http", Host: host, Path: "/private", RawPath: "/%70rivate"},
		{Scheme: "http", Host: host, Opaque: "/%70rivate"},
		{Scheme: "http", Host: host, Opaque: "/%7euser%zz"},
		{Scheme: "http", Host: host, Opaque: "//" + host + "/adm%69n/"},
		{Scheme: "http", Host: host, Opaque: "http://" + host + "/%7Euser"},
		{Scheme: "http", Host: host, Path: "/page", RawQuery: "%73id=1"},
		{Scheme: "http", Host: host, Opaque: "/page", RawQuery: "%73id=1"},
	} {
		assert.ErrorIs(t, sendBuilt(t, tr, builtRequest(&u)), ErrDisallowed, u.String())
	}
	assert.Empty(t, site.take(), "no disallowed path reached the server")

	for _, tc := range []struct {
		url  url.URL
		sent string
	}{
		{url.URL{Scheme: "http", Host: host, Path: "/~public", RawPath: "/%7Epublic"}, "/~public"},
		{url.URL{Scheme: "http", Host: host, Path: "//~public", RawPath: "//%7Epublic"}, "//~public"},
		{url.URL{Scheme: "http", Host: host, Path: "/c/d", RawPath: "/c%2fd"}, "/c%2Fd"},
		{url.URL{Scheme: "http", Host: host, Opaque: "//" + host + "/%7Epublic"}, "http://" + host + "/~public"},
		{url.URL{Scheme: "http", Host: host, Path: "/p", RawQuery: "q=%7e&r=%2b"}, "/p?q=~&r=%2B"},
	} {
		u := tc.url
		req := builtRequest(&u)
		resp, err := tr.RoundTrip(req.WithContext(t.Context()))
		require.NoError(t, err, u.String())
		require.NoError(t, resp.Body.Close())
		assert.Equal(t, []string{tc.sent}, site.take(), u.String())
		assert.Equal(t, tc.url, *req.URL, "the caller's URL is not changed")
	}
}

// isUnreserved is RFC 3986 section 2.3's unreserved set, written apart
// from the Transport's table.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0
}

var escapeRE = regexp.MustCompile(`%[0-9A-Fa-f]{2}`)

// referenceNormalised is RFC 3986 sections 6.2.2.1 and 6.2.2.2 on s by
// regular expression: each escape of an unreserved character decoded, the
// others in upper case.
func referenceNormalised(s string) string {
	return escapeRE.ReplaceAllStringFunc(s, func(e string) string {
		b, _ := strconv.ParseUint(e[1:], 16, 8)
		if isUnreserved(byte(b)) {
			return string(rune(b))
		}
		return strings.ToUpper(e)
	})
}

// Every escape of each of the 256 bytes, in both cases, is decoded exactly
// when the byte is unreserved and otherwise kept with upper-case digits;
// a '%' that starts no escape is kept; a target already normal is
// returned as is, without allocating.
func TestNormalisePercentEncoding(t *testing.T) {
	for b := range 256 {
		for _, e := range []string{fmt.Sprintf("%%%02x", b), fmt.Sprintf("%%%02X", b)} {
			in := "/a" + e + "b?" + e
			got, changed := normalisePercentEncoding(in)
			if isUnreserved(byte(b)) {
				assert.Equal(t, "/a"+string(rune(b))+"b?"+string(rune(b)), got, in)
			} else {
				up := strings.ToUpper(e)
				assert.Equal(t, "/a"+up+"b?"+up, got, in)
			}
			assert.Equal(t, got != in, changed, in)
		}
	}
	for _, in := range []string{"", "/", "%", "%2", "/%zz", "/%2G", "/%%41", "/a%C3%BC", "/%2F%20%25"} {
		got, changed := normalisePercentEncoding(in)
		assert.Equal(t, referenceNormalised(in), got, in)
		assert.Equal(t, got != in, changed, in)
	}
	got, _ := normalisePercentEncoding("/%%41%4")
	assert.Equal(t, "/%A%4", got, "an escape after a lone '%'")
	canonical := "/shop/%C3%BC/item?id=%2F42"
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { _, _ = normalisePercentEncoding(canonical) }))
}

// A request whose target holds only escapes already normal is sent as it
// is, and costs no allocation to find so.
func TestTransportKeepsANormalTarget(t *testing.T) {
	for _, u := range []*url.URL{
		{Scheme: "https", Host: "site.example", Path: "/shop/ü/a/b", RawPath: "/shop/%C3%BC/a%2Fb", RawQuery: "id=%2F42"},
		{Scheme: "https", Host: "site.example", Opaque: "/shop/%C3%BC", RawQuery: "q=%20"},
		{Scheme: "https", Host: "site.example", Opaque: "//site.example/%2F"},
		{Scheme: "https", Host: "site.example", Path: "/plain"},
	} {
		req := builtRequest(u)
		wire := wireRequestOf(req)
		sent, changed := withEscapesNormalised(req, &wire)
		assert.False(t, changed, u.String())
		assert.Same(t, req, sent, u.String())
		assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { _, _ = withEscapesNormalised(req, &wire) }), u.String())
	}
	connect := &http.Request{Method: http.MethodConnect, URL: &url.URL{Scheme: "https", Host: "%7e.example:443"}, Host: "%7e.example:443"}
	wire := wireRequestOf(connect)
	_, changed := withEscapesNormalised(connect, &wire)
	assert.False(t, changed, "a CONNECT's authority is not a path")
}

// The invariant, on random targets through a real server: a request that
// reaches the server arrives with no escaped unreserved character and no
// lower-case escape (the reference normalisation of what was asked), means
// to the server what was asked, and is allowed as it arrived, as asked and
// with its dot segments removed; a refused request is disallowed in one of
// those readings and never arrives.
func TestTransportSendsOnlyWhatItChecked(t *testing.T) {
	site := &rawSite{robots: unreservedRobots}
	s := serve(t, site.ServeHTTP)
	host := s.Listener.Addr().String()
	_, tr := transportClient(t, TransportOptions{})
	agent := robots.Parse([]byte(unreservedRobots)).Agent("")
	allowedIn := func(target string) bool {
		if !agent.Allowed(s.URL + target) {
			return false
		}
		path, query, hasQuery := strings.Cut(target, "?")
		if resolved, ok := removeDotSegments(path); ok {
			if hasQuery {
				resolved += "?" + query
			}
			return resolved == "/robots.txt" || agent.Allowed(s.URL+resolved)
		}
		return true
	}
	// Paths near the rules, most of them through an escape.
	starts := []string{"", "private", "%70rivate", "adm%69n/", "~user", "%7euser", "%7Eesc", "a%2fb", "a%2Eb", "x/%2e%2e/", "x/../"}
	tokens := []string{"/", "?", "a", "p", "rivate", "admin", "~", "user", ".", "..", "%", "%2", "%zz", "-", "_", "=", "&",
		"%2F", "%2f", "%20", "%7E", "%7e", "%2E", "%2e", "%70", "%41", "%c3%bc", "%73id=", "sid="}
	r := rand.New(rand.NewPCG(3, 4))
	n := 3000
	if testing.Short() {
		n = 300
	}
	sent, reached := 0, 0
	for range n {
		var b strings.Builder
		b.WriteByte('/')
		b.WriteString(starts[r.IntN(len(starts))])
		for range r.IntN(6) {
			b.WriteString(tokens[r.IntN(len(tokens))])
		}
		asked := b.String()
		if _, err := url.ParseRequestURI(asked); err != nil {
			continue // a Go server answers 400 before its handler sees the target
		}
		path, query, hasQuery := strings.Cut(asked, "?")
		u := &url.URL{Scheme: "http", Host: host, Opaque: path, RawQuery: query, ForceQuery: hasQuery && query == ""}
		if path == "/robots.txt" || strings.HasPrefix(path, "//") {
			continue // unchecked, or another origin
		}
		sent++
		err := sendBuilt(t, tr, builtRequest(u))
		got := site.take()
		want := referenceNormalised(asked)
		switch {
		case err == nil:
			reached++
			require.Equal(t, []string{want}, got, asked)
			assert.False(t, slices.ContainsFunc(escapeRE.FindAllString(got[0], -1), func(e string) bool {
				b, _ := strconv.ParseUint(e[1:], 16, 8)
				return isUnreserved(byte(b)) || e != strings.ToUpper(e)
			}), "%q arrived as %q", asked, got[0])
			if p, err := url.PathUnescape(asked); err == nil {
				q, err := url.PathUnescape(got[0])
				require.NoError(t, err, asked)
				assert.Equal(t, p, q, "%q means to the server what was asked", asked)
			}
			assert.True(t, allowedIn(got[0]), "%q arrived as %q, which robots.txt disallows", asked, got[0])
			assert.True(t, allowedIn(asked), "%q, which robots.txt disallows as written, arrived", asked)
		case errors.Is(err, ErrDisallowed):
			assert.Empty(t, got, asked)
			assert.False(t, allowedIn(want) && allowedIn(asked), "%q refused, allowed in every reading: %v", asked, err)
		default:
			assert.Empty(t, got, asked)
		}
	}
	t.Logf("%d of %d requests reached the server", reached, sent)
	assert.Greater(t, reached, sent/10)
	assert.Greater(t, sent-reached, sent/10)
}

// The library's verdicts stay Google's, on the URL as written: the
// Checker and robots.Agent allow what the Transport refuses to send, since
// only the Transport sends it to a server that decodes it.
func TestLibraryKeepsGooglesVerdictOnEscapes(t *testing.T) {
	site := &rawSite{robots: unreservedRobots}
	s := serve(t, site.ServeHTTP)
	c, tr := transportClient(t, TransportOptions{})
	agent := robots.Parse([]byte(unreservedRobots)).Agent("")
	for _, p := range []string{"/%70rivate", "/adm%69n/", "/%7euser", "/%7Euser", "/a%2Db", "/a%5Fb", "/a%2Eb", "/a%2fb"} {
		assert.True(t, agent.Allowed(s.URL+p), p)
		ok, err := tr.Checker().Allowed(t.Context(), "", s.URL+p)
		require.NoError(t, err, p)
		assert.True(t, ok, p)
		assert.ErrorIs(t, get(t.Context(), c, s.URL+p), ErrDisallowed, p)
	}
	assert.False(t, agent.Allowed(s.URL+"/%7Eesc"), "a rule's escape matches the same escape")
	assert.True(t, agent.Allowed(s.URL+"/~esc"), "and not the character")
	assert.Empty(t, site.take())
}
