package robots_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/internal/testkit/fuzzgen"
)

// FuzzAllowed parses body in both modes, resolves agent and decides rawURL,
// checking fuzzgen.CheckAllowed's invariants: every way of asking agrees with
// Decide, Decide().Rule is nil or a rule of the agent's groups whose Allow
// is the verdict, and the verdict and deciding rule are those of a brute
// force over the rules. Seeds: testdata/fuzz/FuzzAllowed.
func FuzzAllowed(f *testing.F) {
	f.Add([]byte("User-agent: FooBot\nDisallow: /\nAllow: /a/index.html\n"), "foobot", "https://example.com/a/")
	f.Add([]byte("User-agent: *\nDisallow: /*.php$\nAllow: /%7Ex\n"), "bar", "http://h/~x.php")
	f.Fuzz(func(t *testing.T, body []byte, agent, rawURL string) {
		if err := fuzzgen.CheckAllowed(body, agent, rawURL); err != nil {
			t.Fatal(err)
		}
	})
}

// Found by FuzzEscapePattern ("%7%30"): in RFC mode a '%' that starts no
// %xx escape is kept as it is, so decoding a later escape can complete a
// new one: NormalizeRFCPath("/%7%30") is "/%70", whose own normal form is
// "/p". The normal form is then not canonical, and different octets
// compare equal: "Disallow: /%0A" (a line feed) disallows "/%%30A" (the
// octets '%', '0', 'A'), and "Disallow: /%%30A" disallows "/%0A". A lone
// '%' is the octet 0x25, whose normal form is "%25"; with it written so,
// the normalisation is idempotent and these URLs are allowed.
func TestRFCLonePercentIsLiteral(t *testing.T) {
	rfcPath := compile.RFC.Dialect().Subject
	once := rfcPath("/%7%30")
	assert.Equal(t, once, rfcPath(once), "a path's RFC form is idempotent")
	once = compile.NormalizeRFCPattern("/%%30A")
	assert.Equal(t, once, compile.NormalizeRFCPattern(once), "NormalizeRFCPattern is idempotent")

	tests := []struct{ rule, url string }{
		{"/%0A", "http://example.com/%%30A"},
		{"/%%30A", "http://example.com/%0A"},
		{"/p", "http://example.com/%7%30"},
		{"/%7%30", "http://example.com/p"},
	}
	for _, tt := range tests {
		r := robots.Parse([]byte("User-agent: *\nDisallow: "+tt.rule+"\n"), robots.WithMode(robots.RFC))
		assert.True(t, r.Agent("FooBot").Allowed(tt.url), "Disallow: %s must not match %s", tt.rule, tt.url)
	}
	// A lone '%' still matches itself, written either way.
	r := robots.Parse([]byte("User-agent: *\nDisallow: /a%\nDisallow: /b%25\n"), robots.WithMode(robots.RFC))
	for _, u := range []string{"/a%", "/a%25", "/b%", "/b%25x"} {
		assert.False(t, r.Agent("FooBot").Allowed("http://example.com"+u), u)
	}
}
