package robots

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestURLForValidRobotsURLs walks the table of valid robots.txt URLs of
// Google's robots.txt specification: each robots.txt URL governs the pages
// listed as valid and none of those listed as not valid.
func TestURLForValidRobotsURLs(t *testing.T) {
	rows := []struct {
		robots   string // the robots.txt URL of the table
		canon    string // its normalised form
		valid    []string
		notValid []string
	}{
		{
			robots: "https://example.com/robots.txt", canon: "https://example.com/robots.txt",
			valid:    []string{"https://example.com/", "https://example.com/folder/file"},
			notValid: []string{"https://other.example.com/", "http://example.com/", "https://example.com:8181/"},
		},
		{
			robots: "https://www.example.com/robots.txt", canon: "https://www.example.com/robots.txt",
			valid:    []string{"https://www.example.com/"},
			notValid: []string{"https://example.com/", "https://shop.www.example.com/", "https://www.shop.example.com/"},
		},
		{
			// Not a robots.txt: crawlers do not look in subdirectories; the
			// pages there are governed by the root one.
			robots: "https://example.com/folder/robots.txt", canon: "https://example.com/robots.txt",
			valid: []string{"https://example.com/folder/page", "https://example.com/"},
		},
		{
			// An IDN is the same host as its punycode form.
			robots: "https://www.müller.eu/robots.txt", canon: "https://www.xn--mller-kva.eu/robots.txt",
			valid:    []string{"https://www.müller.eu/", "https://www.xn--mller-kva.eu/", "https://WWW.MÜLLER.EU/x", "https://www.m%C3%BCller.eu/"},
			notValid: []string{"https://www.muller.eu/", "https://www.example.com/"},
		},
		{
			robots: "ftp://example.com/robots.txt", canon: "ftp://example.com/robots.txt",
			valid:    []string{"ftp://example.com/", "ftp://example.com:21/pub/file"},
			notValid: []string{"https://example.com/", "http://example.com/"},
		},
		{
			// An IP address governs only itself, not the hosts it serves.
			robots: "https://212.96.82.21/robots.txt", canon: "https://212.96.82.21/robots.txt",
			valid:    []string{"https://212.96.82.21/", "https://212.96.82.21:443/a"},
			notValid: []string{"https://example.com/", "http://212.96.82.21/"},
		},
		{
			// A default port is the same origin as no port.
			robots: "https://example.com:443/robots.txt", canon: "https://example.com/robots.txt",
			valid:    []string{"https://example.com:443/", "https://example.com/"},
			notValid: []string{"https://example.com:444/", "http://example.com:443/"},
		},
		{
			robots: "https://example.com:8181/robots.txt", canon: "https://example.com:8181/robots.txt",
			valid:    []string{"https://example.com:8181/", "https://example.com:08181/x"},
			notValid: []string{"https://example.com/", "https://example.com:8182/"},
		},
		{
			robots: "http://example.com:80/robots.txt", canon: "http://example.com/robots.txt",
			valid:    []string{"http://example.com/", "http://example.com:80/a"},
			notValid: []string{"http://example.com:8080/", "https://example.com/"},
		},
		{
			robots: "http://[::1]:8080/robots.txt", canon: "http://[::1]:8080/robots.txt",
			valid:    []string{"http://[::1]:8080/a?b#c"},
			notValid: []string{"http://[::1]/", "http://127.0.0.1:8080/", "http://localhost:8080/"},
		},
	}
	for _, row := range rows {
		got, err := URLFor(row.robots)
		require.NoError(t, err, row.robots)
		assert.Equal(t, row.canon, got, row.robots)
		for _, page := range row.valid {
			got, err := URLFor(page)
			if assert.NoError(t, err, page) {
				assert.Equal(t, row.canon, got, "%s should be governed by %s", page, row.robots)
			}
		}
		for _, page := range row.notValid {
			got, err := URLFor(page)
			if assert.NoError(t, err, page) {
				assert.NotEqual(t, row.canon, got, "%s should not be governed by %s", page, row.robots)
			}
		}
	}
}

func TestOriginNormalises(t *testing.T) {
	cases := map[string]string{
		"HTTPS://Example.COM/Path?Q#F":          "https://example.com",
		"https://user:pass@example.com/a":       "https://example.com",
		"http://example.com:80":                 "http://example.com",
		"http://example.com:/a":                 "http://example.com",
		"http://example.com:443/":               "http://example.com:443",
		"https://example.com:80/":               "https://example.com:80",
		"http://[2001:DB8::1]:8080/x":           "http://[2001:db8::1]:8080",
		"http://[::1]/":                         "http://[::1]",
		"http://[fe80::1%25eth0]:8080/":         "http://[fe80::1%25eth0]:8080",
		"http://127.0.0.1:8080/":                "http://127.0.0.1:8080",
		"http://my_host.example.com/":           "http://my_host.example.com",
		"https://bücher.example/":               "https://xn--bcher-kva.example",
		"https://xn--bcher-kva.example/":        "https://xn--bcher-kva.example",
		"https://faß.de/":                       "https://xn--fa-hia.de",
		"https://www.example.com./a":            "https://www.example.com",
		"https://Bücher.Example./":              "https://xn--bcher-kva.example",
		"http://localhost.:8080/":               "http://localhost:8080",
		"ws://example.com/socket":               "ws://example.com",
		"https://EXAMPLE.com/robots.txt":        "https://example.com",
		"https://example.com/folder/robots.txt": "https://example.com",
	}
	for in, want := range cases {
		got, err := Origin(in)
		if assert.NoError(t, err, in) {
			assert.Equal(t, want, got, in)
		}
	}
}

func TestOriginErrors(t *testing.T) {
	cases := map[string]error{
		"":                           ErrNoScheme,
		"/a/b":                       ErrNoScheme,
		"example.com/a":              ErrNoScheme,
		"//example.com/a":            ErrNoScheme,
		"mailto:someone@example.com": ErrNoHost,
		"file:///etc/passwd":         ErrNoHost,
		"https:///a":                 ErrNoHost,
		"https://:443/a":             ErrNoHost,
		"https://example.com:99999/": ErrBadPort,
		"https://example.com../":     ErrBadHost, // an empty label before the root
		"https://./":                 ErrBadHost,
		"https://a\u05d0.example/":   ErrBadHost, // Bidi rule: Latin and Hebrew in one label
		"https://exa%C2%A0mple.com/": ErrBadHost, // NBSP maps to a space
		"https://exa%20mple.com/":    nil,
		"https://example.com:8x/":    nil, // url.Parse error
		"http://[::1/":               nil, // url.Parse error
		"https://exa mple.com/":      nil, // url.Parse error
		"://example.com/":            ErrNoScheme,
		"1http://example.com/":       ErrNoScheme,
		"/a%zz":                      ErrNoScheme, // not the path's bad escape
		"mailto:%zz":                 ErrNoHost,
		"https://exa%zzmple.com/":    nil, // url.Parse error in the host
		"a://::":                     ErrBadHost,
		"http://a<b.com/":            ErrBadHost, // url.Parse takes it; no host may hold '<'
	}
	for in, want := range cases {
		_, err := URLFor(in)
		require.Error(t, err, in)
		var ue *URLError
		require.True(t, errors.As(err, &ue), in)
		assert.Equal(t, in, ue.URL)
		assert.Contains(t, err.Error(), "robots: ")
		if want != nil {
			assert.ErrorIs(t, err, want, in)
		}
	}
}

// TestOriginRefusesHostsMappedToDelimiters: the lookup mapping turns
// full-width forms into ASCII, and a host whose mapping holds a character
// no host may hold is refused (ErrBadHost), not made an origin naming
// another host ("a／b.com" is not the origin of host "a"), or none; a
// mapping into letters, digits and dots still makes an origin, which is
// its own origin.
func TestOriginRefusesHostsMappedToDelimiters(t *testing.T) {
	for _, in := range []string{
		"http://a\uff0fb.com/",    // FULLWIDTH SOLIDUS: "a/b.com"
		"http://a\uff3cb.com/",    // FULLWIDTH REVERSE SOLIDUS: "a\\b.com"
		"A://\uff3c",              // the same alone, found by FuzzOrigin
		"http://a\uff1fb.com/",    // FULLWIDTH QUESTION MARK
		"http://a\uff03b.com/",    // FULLWIDTH NUMBER SIGN
		"http://a\uff20b.com/",    // FULLWIDTH COMMERCIAL AT: "a@b.com"
		"http://a\uff1a80/",       // FULLWIDTH COLON: "a:80"
		"http://a\uff05b.com/",    // FULLWIDTH PERCENT SIGN
		"http://a\uff1cb.com/",    // FULLWIDTH LESS-THAN SIGN
		"http://a\uff3eb.com/",    // FULLWIDTH CIRCUMFLEX ACCENT
		"http://a\uff5cb.com/",    // FULLWIDTH VERTICAL LINE
		"http://\uff3bx\uff3d/",   // FULLWIDTH SQUARE BRACKETS
		"http://a%EF%BC%BCb.com/", // U+FF3C escaped
		"A://\ufe5c",              // SMALL RIGHT CURLY BRACKET: "}", which url.Parse refuses; found by FuzzOrigin
		"http://a\uff5bb.com/",    // FULLWIDTH LEFT CURLY BRACKET
		"http://a\uff40b.com/",    // FULLWIDTH GRAVE ACCENT
	} {
		o, err := Origin(in)
		assert.ErrorIs(t, err, ErrBadHost, "%q gives %q", in, o)
	}
	for in, want := range map[string]string{
		"http://\uff41.com/":       "http://a.com",   // FULLWIDTH LATIN SMALL LETTER A
		"http://a\u3002b.com/":     "http://a.b.com", // IDEOGRAPHIC FULL STOP
		"http://a\uff01b.com/":     "http://a!b.com", // "!" may stand in a host
		"HTTPS://\uff21\uff22.com": "https://ab.com",
	} {
		o, err := Origin(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, o, in)
		again, err := Origin(o)
		require.NoError(t, err, o)
		assert.Equal(t, o, again, "%q is its own origin", o)
	}
}

// TestOriginReadsSchemeAndAuthorityOnly: what follows the authority,
// however hostile, does not change the origin or fail it, on the fast
// path and the parsed one alike.
func TestOriginReadsSchemeAndAuthorityOnly(t *testing.T) {
	rests := []string{
		"/coupons/x%x", "/%", "/%zz%%zz", "/a\x00b", "/a\x7f", "/\r\n", "/a b", "?q=%", "?%zz",
		"#%zz", "/caf\xc3", "/\xff\xfe", "/[x]", "/a:b//c", "/x#y#z", "?#", "/;p=%g", "/" + strings.Repeat("%", 1000),
	}
	origins := map[string]string{
		"https://www.groupon.com":      "https://www.groupon.com",
		"http://example.com:8080":      "http://example.com:8080",
		"HTTPS://Example.COM":          "https://example.com",
		"https://user:p@example.com":   "https://example.com",
		"http://[2001:DB8::1]:8080":    "http://[2001:db8::1]:8080",
		"https://bücher.example":       "https://xn--bcher-kva.example",
		"https://www.example.com.:443": "https://www.example.com",
		"ftp://example.com:21":         "ftp://example.com",
	}
	for prefix, want := range origins {
		for _, rest := range rests {
			u := prefix + rest
			got, err := Origin(u)
			if assert.NoError(t, err, "%q", u) {
				assert.Equal(t, want, got, "%q", u)
			}
		}
	}
	// The example of the crawled URLs url.Parse refuses: its own origin.
	got, err := URLFor("https://www.groupon.com/coupons/x%x")
	require.NoError(t, err)
	assert.Equal(t, "https://www.groupon.com/robots.txt", got)
}

// TestOriginPart checks where Origin cuts a URL before parsing it.
func TestOriginPart(t *testing.T) {
	cases := map[string]string{
		"https://a.com/b%zz":    "https://a.com",
		"https://a.com?q%zz":    "https://a.com",
		"https://a.com#f/x":     "https://a.com",
		"https://a.com":         "https://a.com",
		"https://u@a.com:1/p":   "https://u@a.com:1",
		"mailto:x%zz":           "mailto:",
		"file:///etc":           "file://",
		"http:/a":               "http:",
		"http:?//a":             "http:",
		"h#ttp://a.com/":        "",
		"/a%zz":                 "",
		"://a.com":              "",
		"1a://a.com":            "",
		"a b://c":               "",
		"":                      "",
		"x+y.z-w://h/p":         "x+y.z-w://h",
		"HTTP://A.COM:80/x?y#z": "HTTP://A.COM:80",
	}
	for in, want := range cases {
		assert.Equal(t, want, originPart(in), "%q", in)
	}
}

// FuzzOrigin: Origin never panics; a URL's origin is its own origin, the
// origin of the origin followed by any path, and the fast path's when it
// takes one; the fast path's path agrees with runtime's reading.
func FuzzOrigin(f *testing.F) {
	for _, s := range []string{"https://www.groupon.com/coupons/x%x", "http://[::1]:80/a", "HTTPS://Bücher.example./#x", "mailto:a@b", "//a/b", "http://a.com:0/"} {
		f.Add(s, "/a%zz\x00")
	}
	f.Fuzz(func(t *testing.T, u, rest string) {
		o, err := Origin(u)
		if fast, ok := plainOrigin(u); ok {
			if err != nil || fast != o {
				t.Fatalf("Origin(%q) = %q, %v; the fast path gives %q", u, o, err, fast)
			}
		}
		if err != nil {
			return
		}
		if again, err := Origin(o); err != nil || again != o {
			t.Fatalf("Origin(%q) = %q, %v; want itself", o, again, err)
		}
		if !strings.HasPrefix(rest, "/") {
			rest = "/" + rest
		}
		if withRest, err := Origin(o + rest); err != nil || withRest != o {
			t.Fatalf("Origin(%q) = %q, %v; want %q", o+rest, withRest, err, o)
		}
	})
}

func BenchmarkURLFor(b *testing.B) {
	for b.Loop() {
		_, _ = URLFor("https://www.example.com/some/page.html?q=1")
	}
}

// TestPlainOriginAgreesWithParsing checks the fast path of Origin against
// its parsing on URLs near and far from the plain ones.
func TestPlainOriginAgreesWithParsing(t *testing.T) {
	hosts := []string{"example.com", "a.b-c.d", "EXAMPLE.com", "example.com.", "xn--bcher-kva.example", "b\u00fccher.example", "127.0.0.1", "[::1]", "a_b.com", "user@example.com", "example.com:80", "example.com:443", "example.com:8080", "example.com:08080", "example.com:65536", "example.com:", "a.com:1:2", "", "-a.com", "a..b"}
	rests := []string{"", "/", "/a/b?c=d#e", "?q", "#f", "/a b", "/a%20b", "/%zz", "/\x00", "/caf\u00e9", "/a\x7f", "/[x]", "/a\\b"}
	for _, scheme := range []string{"http://", "https://", "HTTP://", "ftp://", "http:/"} {
		for _, h := range hosts {
			for _, r := range rests {
				u := scheme + h + r
				fast, ok := plainOrigin(u)
				if !ok {
					continue
				}
				want, err := parsedOrigin(u)
				if assert.NoError(t, err, "%q takes the fast path but does not parse", u) {
					assert.Equal(t, want, fast, "%q", u)
				}
			}
		}
	}
	o, ok := plainOrigin("https://www.example.com/a/b?c=1")
	assert.True(t, ok)
	assert.Equal(t, "https://www.example.com", o)
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { _, _ = Origin("https://www.example.com/a/b?c=1") }))
}

func TestPathOf(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"https://example.com/a/b?c=d#e", "/a/b?c=d"},
		{"https://example.com", "/"},
		{"example.com/private", "/private"},
		{"//example.com/private", "/private"},
		{"http:/private", "/private"},
		{"/a?b", "/a?b"},
		{"", "/"},
		{"https://example.com/x%zz", "/x%zz"},
	} {
		if got := PathOf(tt.in); got != tt.want {
			t.Errorf("PathOf(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
