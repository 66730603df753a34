package robots_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/conformance"
	"github.com/fastrobots/robots/runtime"
)

// manyWindow is how many URLs of the cases before each conformance case
// join its URL in the batch TestAllowedManyConformance asks.
const manyWindow = 7

// TestAllowedManyConformance asks every conformance case's agent, cold and
// compiled, a batch of the case's URL and the URLs of the cases before it:
// AllowedMany gives the reference's verdict for the case and Allowed's for
// every URL.
func TestAllowedManyConformance(t *testing.T) {
	files := []string{"spec-test.jsonl", "google-unit.jsonl", "generated.jsonl.gz", "usage-mixed.jsonl.gz"}
	for _, f := range files {
		path := filepath.Join("testdata/conformance", f)
		var recent []string
		failed := 0
		err := conformance.Each(path, func(line int, c *conformance.Case) error {
			body, err := c.Body()
			if err != nil {
				return err
			}
			batch := append([]string{c.URL}, recent...)
			out := make([]bool, len(batch)+1)
			out[len(batch)] = true // beyond the batch: left as it is
			for tier, a := range map[string]*robots.Agent{
				"cold":     robots.Parse(body).Agent(c.UserAgent),
				"compiled": robots.Parse(body).Agent(c.UserAgent).Compile(),
			} {
				a.AllowedMany(batch, out)
				ok := out[0] == c.Expected && out[len(batch)]
				for i, u := range batch {
					ok = ok && out[i] == a.Allowed(u)
				}
				if !ok {
					if failed++; failed <= 20 {
						t.Errorf("%s (%s:%d), %s: agent %q batch %q: AllowedMany %v, reference %v for the first",
							c.ID, f, line, tier, c.UserAgent, batch, out, c.Expected)
					}
				}
			}
			recent = append([]string{c.URL}, recent[:min(len(recent), manyWindow-1)]...)
			return nil
		})
		require.NoError(t, err)
		assert.Zero(t, failed, f)
	}
}

// TestAllowedManyContract: the batch's bounds, policies, and strings that
// are not URLs.
func TestAllowedManyContract(t *testing.T) {
	r := robots.Parse([]byte("User-agent: *\nDisallow: /private\nAllow: /*?ok\n"))
	a := r.Agent("bot")
	urls := []string{"https://a.com/private/x", "/private", "private", "", "?ok", "https://a.com/private?ok",
		"mailto:x@y", "://", "#/private", "http://a.com#x/private", "https://a.com/%zz/private", "\x00/private"}
	out := make([]bool, len(urls))
	a.AllowedMany(urls, out)
	for i, u := range urls {
		assert.Equal(t, a.Allowed(u), out[i], "%q", u)
	}
	a.AllowedMany(nil, nil)
	assert.PanicsWithValue(t, "robots: AllowedMany: out is shorter than urls", func() { a.AllowedMany(urls, out[:3]) })

	for status, want := range map[int]bool{503: false, 404: true} {
		p := robots.FromStatus(status, nil).Agent("bot")
		out := []bool{!want, !want, !want}
		p.AllowedMany(urls[:2], out)
		assert.Equal(t, []bool{want, want, !want}, out, "status %d", status)
	}

	out = make([]bool, len(urls))
	a.Compile()
	// Compiled, the batch walks its rooted paths in lanes: every length
	// from one to past two lanes' worth, a '#' in any of them, agree with
	// the path Path finds checked alone.
	lanes := []string{"https://a.com/private#x", "https://a.com/x#/private", "http://a.com/private?ok#",
		"https://a.com/priv#ate", "//a/private", "https://a.com#/private", "https://a.com/private/?ok",
		"https://a.com/%70rivate", "https://a.com/private\x80", "https://a.com/pri"}
	for n := 1; n <= len(lanes); n++ {
		for shift := range lanes {
			batch := append(lanes[shift:], lanes[:shift]...)[:n]
			got := make([]bool, n)
			a.AllowedMany(batch, got)
			for i, u := range batch {
				assert.Equal(t, a.AllowedPath(runtime.Path(u)), got[i], "%q in %q", u, batch)
			}
		}
	}
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { a.AllowedMany(urls, out) }))
}
