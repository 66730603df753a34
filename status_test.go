package robots_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
)

// statusRows is every row of the status table, with the codes at its
// edges.
var statusRows = []struct {
	codes  []int
	policy robots.Policy
	reason robots.Reason
}{
	{[]int{200, 203, 204, 206, 299}, robots.Conditional, robots.ReasonOK},
	{[]int{300, 301, 302, 303, 304, 305, 306, 307, 308, 399}, robots.FullAllow, robots.ReasonRedirects},
	{[]int{400, 401, 403, 404, 410, 418, 451, 499}, robots.FullAllow, robots.ReasonUnavailable},
	{[]int{429}, robots.FullDisallow, robots.ReasonTooManyRequests},
	{[]int{500, 502, 503, 504, 599}, robots.FullDisallow, robots.ReasonServerError},
	{[]int{0, -1, 100, 101, 199, 600, 999}, robots.FullDisallow, robots.ReasonNetwork},
}

func TestStatusPolicy(t *testing.T) {
	for _, row := range statusRows {
		for _, code := range row.codes {
			p, why := robots.StatusPolicy(code)
			assert.Equal(t, row.policy, p, "%d", code)
			assert.Equal(t, row.reason, why, "%d", code)
		}
	}
}

// statusBody disallows /private for every crawler: under Conditional it
// decides, under the other policies it must not be read.
const statusBody = "User-agent: *\nDisallow: /private\nCrawl-delay: 5\nSitemap: https://example.com/sitemap.xml\n"

func TestFromStatusAppliesTheTable(t *testing.T) {
	for _, row := range statusRows {
		for _, code := range row.codes {
			r := robots.FromStatus(code, []byte(statusBody))
			name := fmt.Sprint(code)
			assert.Equal(t, row.policy, r.Policy(), name)
			assert.Equal(t, row.reason, r.Reason(), name)
			checkPolicy(t, r, name)
		}
	}
}

// checkPolicy checks that every way of asking r honours its policy.
func checkPolicy(t *testing.T, r *robots.Robots, name string) {
	t.Helper()
	for _, a := range []*robots.Agent{r.Agent("ExampleBot"), r.Agent(), r.AnyAgent("ExampleBot", "OtherBot")} {
		assert.Equal(t, r.Policy(), a.Policy(), name)
		switch r.Policy() {
		case robots.Conditional:
			assert.False(t, a.Allowed("https://example.com/private/a"), name)
			assert.True(t, a.Allowed("https://example.com/public"), name)
			d := a.Decide("https://example.com/private/a")
			require.NotNil(t, d.Rule, name)
			assert.Equal(t, 2, d.Rule.Line, name)
			delay, ok := a.CrawlDelay()
			assert.True(t, ok, name)
			assert.Equal(t, "5s", delay.String(), name)
			assert.Equal(t, []string{"https://example.com/sitemap.xml"}, r.Sitemaps(), name)
		default:
			want := r.Policy() == robots.FullAllow
			for _, u := range []string{"https://example.com/private/a", "https://example.com/public", "https://example.com/robots.txt", "", "/"} {
				assert.Equal(t, want, a.Allowed(u), "%s %q", name, u)
				d := a.Decide(u)
				assert.Equal(t, want, d.Allowed, "%s %q", name, u)
				assert.Nil(t, d.Rule, "%s %q", name, u)
				assert.False(t, d.Implicit, "%s %q", name, u)
			}
			assert.Equal(t, want, a.AllowedPath("/private"), name)
			assert.Equal(t, want, a.DecidePath("/private").Allowed, name)
			assert.Equal(t, want, r.Allowed("ExampleBot", "/private"), name)
			_, ok := a.CrawlDelay()
			assert.False(t, ok, "%s: the body is not read", name)
			assert.Empty(t, r.Sitemaps(), name)
			assert.Empty(t, r.Groups(), name)
			assert.Zero(t, r.BodyBytes(), name)
		}
	}
}

func TestExplainSaysWhichPolicyApplied(t *testing.T) {
	for _, tc := range []struct {
		code    int
		allowed bool
		says    string
	}{
		{404, true, "full allow: unavailable (4xx); no rules were read, every URL is allowed"},
		{301, true, "full allow: too many or broken redirects; no rules were read, every URL is allowed"},
		{503, false, "full disallow: server error (5xx); no rules were read, no URL is allowed"},
		{429, false, "full disallow: too many requests (429); no rules were read, no URL is allowed"},
	} {
		r := robots.FromStatus(tc.code, []byte(statusBody))
		for _, e := range []robots.Explanation{
			r.Explain([]string{"ExampleBot"}, "https://example.com/private/a"),
			r.Agent("ExampleBot").Explain("https://example.com/private/a"),
		} {
			assert.Equal(t, tc.allowed, e.Allowed, tc.code)
			assert.Equal(t, r.Policy(), e.Policy, tc.code)
			assert.Nil(t, e.Rule, tc.code)
			assert.Empty(t, e.Matches, tc.code)
			assert.Equal(t, -1, e.Winner, tc.code)
			assert.Equal(t, tc.says, e.TieBreak, tc.code)
			assert.Equal(t, tc.says, e.Selection.Why, tc.code)
		}
	}
	e := robots.FromStatus(200, []byte(statusBody)).Explain([]string{"ExampleBot"}, "https://example.com/private/a")
	assert.Equal(t, robots.Conditional, e.Policy)
	assert.Equal(t, "the only rule that matched", e.TieBreak)
}

// A file given to Parse is a 2xx body: its rules decide.
func TestParseIsConditional(t *testing.T) {
	r := robots.Parse([]byte(statusBody))
	assert.Equal(t, robots.Conditional, r.Policy())
	assert.Equal(t, robots.ReasonOK, r.Reason())
	assert.Equal(t, len(statusBody), r.BodyBytes())
	checkPolicy(t, r, "Parse")
}

// FromStatus reads a 2xx body as Parse does, options included.
func TestFromStatusParsesWithOptions(t *testing.T) {
	body := statusBody + strings.Repeat("# padding\n", 100)
	r := robots.FromStatus(200, []byte(body), robots.WithMaxBytes(40), robots.WithMode(robots.RFC))
	assert.True(t, r.Truncated())
	assert.Equal(t, 40, r.BodyBytes())
	assert.Equal(t, robots.RFC, r.Mode())
	assert.False(t, r.Agent("x").Allowed("/private"))
	d := r.Agent("x").Decide("/robots.txt")
	assert.True(t, d.Implicit, "RFC mode allows /robots.txt under Conditional")

	for _, code := range []int{404, 503} {
		r := robots.FromStatus(code, []byte(body), robots.WithMode(robots.RFC))
		assert.Equal(t, robots.RFC, r.Mode(), "the mode holds under every policy")
		assert.False(t, r.Agent("x").Decide("/robots.txt").Implicit, "no rule and no implicit allow outside Conditional")
	}
}

func TestPolicyAndReasonStrings(t *testing.T) {
	assert.Equal(t, "full allow", robots.FullAllow.String())
	assert.Equal(t, "full disallow", robots.FullDisallow.String())
	assert.Equal(t, "conditional", robots.Conditional.String())
	assert.Equal(t, "unknown", robots.Policy(0).String())
	seen := map[string]bool{}
	for r := robots.ReasonOK; r <= robots.ReasonUnreachable; r++ {
		assert.NotEqual(t, "unknown", r.String())
		assert.False(t, seen[r.String()], "each reason says something of its own")
		seen[r.String()] = true
	}
	assert.Equal(t, "unknown", robots.Reason(0).String())
	for r, failed := range map[robots.Reason]bool{
		robots.ReasonOK: false, robots.ReasonUnavailable: false, robots.ReasonRedirects: false,
		robots.ReasonServerError: true, robots.ReasonTooManyRequests: true, robots.ReasonNetwork: true,
		robots.ReasonUnreachable: false,
	} {
		assert.Equal(t, failed, r.Failed(), r.String())
	}
}
