package robots_test

// Tests of strict RFC 9309 mode against every example RFC 9309 gives:
// the figures of sections 2.2.1 to 2.2.3, the two files of section 5, and
// the normative sentences of sections 2.1 to 2.5 that state a verdict. Each
// row names the section (and figure) it comes from. Where Google mode reaches
// a different verdict, a Google row sits beside the RFC row so that the
// difference is visible.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
)

// rfcExIn says in which modes a row's verdict is expected.
type rfcExIn uint8

const (
	rfcMode    rfcExIn = iota // strict RFC 9309 mode; the zero value
	googleMode                // Google mode only: a verdict that differs from RFC mode
	bothModes                 // both modes agree
)

func (in rfcExIn) modes() []robots.Mode {
	switch in {
	case googleMode:
		return []robots.Mode{robots.Google}
	case bothModes:
		return []robots.Mode{robots.RFC, robots.Google}
	}
	return []robots.Mode{robots.RFC}
}

// rfcExRow is one verdict: robots.txt body, crawler product token and URL.
type rfcExRow struct {
	source   string // where in RFC 9309 the example or statement is
	name     string
	in       rfcExIn
	body     string
	agent    string
	url      string
	allowed  bool
	line     int  // line of the rule that decides; 0 when none does (Decision.Rule == nil)
	implicit bool // Decision.Implicit: allowed without consulting the rules
}

// rfcExCheck checks one row in one mode with Decide and Allowed.
func rfcExCheck(t *testing.T, m robots.Mode, r rfcExRow, opts ...robots.Option) {
	t.Helper()
	a := robots.Parse([]byte(r.body), append(opts, robots.WithMode(m))...).Agent(r.agent)
	d := a.Decide(r.url)
	msg := fmt.Sprintf("RFC 9309 %s: mode %s, agent %q, url %q, robots.txt:\n%s", r.source, m, r.agent, r.url, r.body)
	assert.Equal(t, r.allowed, d.Allowed, "Decide().Allowed; "+msg)
	assert.Equal(t, r.allowed, a.Allowed(r.url), "Allowed(); "+msg)
	assert.Equal(t, r.implicit, d.Implicit, "Decide().Implicit; "+msg)
	if r.line == 0 {
		assert.Nil(t, d.Rule, "Decide().Rule; "+msg)
	} else if assert.NotNil(t, d.Rule, "Decide().Rule; "+msg) {
		assert.Equal(t, r.line, d.Rule.Line, "Decide().Rule.Line; "+msg)
	}
}

// rfcExRun checks every row in the modes it names.
func rfcExRun(t *testing.T, rows []rfcExRow) {
	t.Helper()
	for _, r := range rows {
		for _, m := range r.in.modes() {
			t.Run(m.String()+"/"+r.source+"/"+r.name, func(t *testing.T) {
				rfcExCheck(t, m, r)
			})
		}
	}
}

// RFC 9309 section 2.2.1 (Figures 1 and 3 and the sentences around them)
// and the product-token rule of the section 2.2 grammar.
func TestRFCUserAgentExamples(t *testing.T) {
	// Figure 1: the crawler sending "User-Agent: Mozilla/5.0 (compatible;
	// ExampleBot/0.1; https://www.example.com/bot.html)" finds its group by
	// its product token, ExampleBot.
	const fig1 = "user-agent: ExampleBot\n" + // 1
		"disallow: /private\n" + // 2
		"\n" + // 3
		"user-agent: *\n" + // 4
		"disallow: /\n" // 5
	// Figure 3: two groups that don't explicitly match ExampleBot; the '*'
	// group applies to it.
	const fig3 = "user-agent: *\n" + // 1
		"disallow: /foo\n" + // 2
		"disallow: /bar\n" + // 3
		"\n" + // 4
		"user-agent: BazBot\n" + // 5
		"disallow: /baz\n" // 6
	const noStar = "user-agent: BazBot\n" + // 1
		"disallow: /baz\n" // 2
	rfcExRun(t, []rfcExRow{
		{"2.2.1 Figure 1", "product token finds its group", bothModes, fig1, "ExampleBot", "https://www.example.com/private/x", false, 2, false},
		{"2.2.1 Figure 1", "its group hides the star group", bothModes, fig1, "ExampleBot", "https://www.example.com/public", true, 0, false},
		{"2.2.1 Figure 1", "other crawlers get the star group", bothModes, fig1, "OtherBot", "https://www.example.com/public", false, 5, false},
		{"2.2.1", "case-insensitive: lower-case token", bothModes, fig1, "examplebot", "https://www.example.com/private", false, 2, false},
		{"2.2.1", "case-insensitive: upper-case token", bothModes, fig1, "EXAMPLEBOT", "https://www.example.com/private", false, 2, false},
		{"2.2.1", "case-insensitive: upper-case line", bothModes, "USER-AGENT: EXAMPLEBOT\nDISALLOW: /private\n", "ExampleBot", "/private", false, 2, false},

		{"2.2.1 Figure 3", "ExampleBot obeys the star group: /foo", bothModes, fig3, "ExampleBot", "/foo", false, 2, false},
		{"2.2.1 Figure 3", "ExampleBot obeys the star group: /bar", bothModes, fig3, "ExampleBot", "/bar", false, 3, false},
		{"2.2.1 Figure 3", "ExampleBot does not get BazBot's rules", bothModes, fig3, "ExampleBot", "/baz", true, 0, false},
		{"2.2.1 Figure 3", "BazBot gets its own group", bothModes, fig3, "BazBot", "/baz", false, 6, false},
		{"2.2.1 Figure 3", "BazBot does not get the star group", bothModes, fig3, "BazBot", "/foo", true, 0, false},

		{"2.2.1", "no matching group and no star group: no rules apply", bothModes, noStar, "ExampleBot", "/baz", true, 0, false},
		{"2.2.1", "no groups at all: no rules apply", bothModes, "", "ExampleBot", "/baz", true, 0, false},
		{"2.2.1", "only comments: no rules apply", bothModes, "# nothing here\n", "ExampleBot", "/", true, 0, false},

		// Section 2.2 grammar: product-token = identifier / "*", followed by
		// EOL = *WS [comment] NL. A comment after '*' leaves it global.
		{"2.2 product-token", "star followed by a comment is global", bothModes, "user-agent: * # all crawlers\ndisallow: /x\n", "ExampleBot", "/x", false, 2, false},
		{"2.2 product-token", "star without space after the colon", bothModes, "user-agent:*\ndisallow: /x\n", "ExampleBot", "/x", false, 2, false},
		// "* foo" is not a product token: in RFC mode it names no crawler;
		// Google reads any "*" followed by white space as the global agent.
		{"2.2 product-token", "star followed by a word is not global", rfcMode, "user-agent: * foo\ndisallow: /x\n", "ExampleBot", "/x", true, 0, false},
		{"2.2 product-token", "star followed by a word is not global", googleMode, "user-agent: * foo\ndisallow: /x\n", "ExampleBot", "/x", false, 2, false},
	})
}

// RFC 9309 section 2.2.1, Figure 2: groups that match the same product
// token are combined into one group, and the combined rules are matched
// as section 2.2.2 says (the longest match wins across the merged groups).
func TestRFCGroupMerging(t *testing.T) {
	const fig2 = "user-agent: ExampleBot\n" + // 1
		"disallow: /foo\n" + // 2
		"disallow: /bar\n" + // 3
		"\n" + // 4
		"user-agent: ExampleBot\n" + // 5
		"disallow: /baz\n" // 6
	const caseVariant = "user-agent: ExampleBot\n" + // 1
		"disallow: /foo\n" + // 2
		"\n" + // 3
		"user-agent: OtherBot\n" + // 4
		"user-agent: EXAMPLEBOT\n" + // 5
		"disallow: /baz\n" // 6
	const acrossGroups = "user-agent: ExampleBot\n" + // 1
		"disallow: /foo\n" + // 2
		"\n" + // 3
		"user-agent: *\n" + // 4
		"disallow: /\n" + // 5
		"\n" + // 6
		"user-agent: examplebot\n" + // 7
		"allow: /foo/bar\n" // 8
	const twoStars = "user-agent: *\n" + // 1
		"disallow: /foo\n" + // 2
		"\n" + // 3
		"user-agent: BazBot\n" + // 4
		"disallow: /\n" + // 5
		"\n" + // 6
		"user-agent: *\n" + // 7
		"disallow: /baz\n" // 8
	rfcExRun(t, []rfcExRow{
		{"2.2.1 Figure 2", "merged: /foo from the first group", bothModes, fig2, "ExampleBot", "/foo", false, 2, false},
		{"2.2.1 Figure 2", "merged: /bar from the first group", bothModes, fig2, "ExampleBot", "/bar", false, 3, false},
		{"2.2.1 Figure 2", "merged: /baz from the second group", bothModes, fig2, "ExampleBot", "/baz", false, 6, false},
		{"2.2.1 Figure 2", "merged: other paths allowed", bothModes, fig2, "ExampleBot", "/qux", true, 0, false},
		{"2.2.1", "groups found case-insensitively are merged", bothModes, caseVariant, "examplebot", "/baz", false, 6, false},
		{"2.2.1", "groups found case-insensitively are merged: first group", bothModes, caseVariant, "examplebot", "/foo", false, 2, false},
		{"2.2.1", "a group shared with another agent merges too", bothModes, caseVariant, "OtherBot", "/foo", true, 0, false},
		{"2.2.1 + 2.2.2", "longest match across merged groups: allow", bothModes, acrossGroups, "ExampleBot", "/foo/bar", true, 8, false},
		{"2.2.1 + 2.2.2", "longest match across merged groups: disallow", bothModes, acrossGroups, "ExampleBot", "/foo/baz", false, 2, false},
		{"2.2.1 + 2.2.2", "merged groups still hide the star group", bothModes, acrossGroups, "ExampleBot", "/other", true, 0, false},
		{"2.2.1", "two star groups both apply: first", bothModes, twoStars, "ExampleBot", "/foo", false, 2, false},
		{"2.2.1", "two star groups both apply: second", bothModes, twoStars, "ExampleBot", "/baz", false, 8, false},
	})
}

// RFC 9309 sections 2.1, 2.2 (grammar), 2.2.2 and 2.2.4: where a group
// starts and ends.
func TestRFCGroupBoundaries(t *testing.T) {
	const blankBetweenAgents = "user-agent: A\n" + // 1
		"\n" + // 2
		"# a comment line is an emptyline too\n" + // 3
		"user-agent: B\n" + // 4
		"disallow: /x\n" + // 5
		"\n" + // 6
		"disallow: /y\n" // 7
	const agentAfterRules = "user-agent: A\n" + // 1
		"disallow: /a\n" + // 2
		"user-agent: B\n" + // 3
		"disallow: /b\n" // 4
	const sitemapInGroup = "user-agent: A\n" + // 1
		"sitemap: https://example.com/sitemap.xml\n" + // 2
		"user-agent: B\n" + // 3
		"disallow: /x\n" + // 4
		"sitemap: https://example.com/other.xml\n" + // 5
		"disallow: /y\n" // 6
	const unknownInGroup = "user-agent: A\n" + // 1
		"crawl-delay: 10\n" + // 2
		"user-agent: B\n" + // 3
		"disallow: /x\n" // 4
	const ruleBeforeAgent = "disallow: /a\n" + // 1
		"user-agent: *\n" + // 2
		"disallow: /b\n" // 3
	const emptyLastGroup = "user-agent: *\n" + // 1
		"disallow: /\n" + // 2
		"\n" + // 3
		"user-agent: quxbot\n" // 4
	rfcExRun(t, []rfcExRow{
		{"2.2 grammar", "empty and comment lines do not end a run of user-agent lines", bothModes, blankBetweenAgents, "A", "/x", false, 5, false},
		{"2.2 grammar", "empty lines between rules stay in the group", bothModes, blankBetweenAgents, "A", "/y", false, 7, false},
		{"2.1", "a user-agent line after rules starts a new group", bothModes, agentAfterRules, "A", "/b", true, 0, false},
		{"2.1", "a user-agent line after rules starts a new group: its own rule", bothModes, agentAfterRules, "B", "/b", false, 4, false},
		{"2.2.4", "a sitemap line does not terminate a group", bothModes, sitemapInGroup, "A", "/x", false, 4, false},
		{"2.2.4", "a sitemap line between rules", bothModes, sitemapInGroup, "B", "/y", false, 6, false},
		{"2.2.4", "an unknown record does not terminate a group", bothModes, unknownInGroup, "A", "/x", false, 4, false},
		{"2.2.2", "a rule before the first user-agent line is ignored", bothModes, ruleBeforeAgent, "ExampleBot", "/a", true, 0, false},
		{"2.2.2", "the rule after it applies", bothModes, ruleBeforeAgent, "ExampleBot", "/b", false, 3, false},
		{"2.1", "the last group may have no rules: allows everything", bothModes, emptyLastGroup, "quxbot", "/x", true, 0, false},
	})
}

// rfcExSimple is the file of RFC 9309 section 5.1, line by line.
var rfcExSimple = []string{
	"User-Agent: *", // 1
	"Disallow: *.gif$",
	"Disallow: /example/",
	"Allow: /publications/",
	"", // 5
	"User-Agent: foobot",
	"Disallow:/",
	"Allow:/example/page.html",
	"Allow:/example/allowed.gif",
	"", // 10
	"User-Agent: barbot",
	"User-Agent: bazbot",
	"Disallow: /example/page.html",
	"",
	"User-Agent: quxbot", // 15
	"",
}

// RFC 9309 section 5.1, Simple Example, with the verdicts its prose gives
// for '*', foobot, barbot and bazbot, and quxbot. The file is read with each
// of the line breaks of the section 2.2 grammar (NL = CR / LF / CRLF).
func TestRFCSimpleExample(t *testing.T) {
	const site = "https://www.example.com"
	rows := []rfcExRow{
		// "*: ... allows access to the URLs with the /publications/ path
		// prefix, and it restricts access to the URLs with the /example/ path
		// prefix and to all URLs with a .gif suffix. The '*' character
		// designates any character, including the otherwise-required forward
		// slash."
		{"5.1 *", "/publications/ prefix allowed", bothModes, "", "otherbot", site + "/publications/", true, 4, false},
		{"5.1 *", "/publications/ prefix allowed, deeper", bothModes, "", "otherbot", site + "/publications/2022/rfc.html", true, 4, false},
		{"5.1 *", "a .gif under /publications/: the longer allow wins", bothModes, "", "otherbot", site + "/publications/cover.gif", true, 4, false},
		{"5.1 *", "/example/ prefix disallowed", bothModes, "", "otherbot", site + "/example/", false, 3, false},
		{"5.1 *", "/example/ prefix disallowed, page", bothModes, "", "otherbot", site + "/example/page.html", false, 3, false},
		{"5.1 *", "/example/ prefix and .gif: the longer disallow decides", bothModes, "", "otherbot", site + "/example/pic.gif", false, 3, false},
		{"5.1 *", ".gif suffix disallowed at the root", bothModes, "", "otherbot", site + "/pic.gif", false, 2, false},
		{"5.1 *", ".gif suffix disallowed across slashes", bothModes, "", "otherbot", site + "/a/b/c/pic.gif", false, 2, false},
		{"5.1 *", "not a .gif suffix: query after it", bothModes, "", "otherbot", site + "/pic.gif?size=2", true, 0, false},
		{"5.1 *", "not a .gif suffix: longer extension", bothModes, "", "otherbot", site + "/pic.gifs", true, 0, false},
		{"5.1 *", "/example without the slash is not the prefix", bothModes, "", "otherbot", site + "/example", true, 0, false},
		{"5.1 *", "everything else allowed", bothModes, "", "otherbot", site + "/", true, 0, false},

		// "foobot: ... The crawler only has access to two URL path prefixes
		// on the site -- /example/page.html and /example/allowed.gif. The
		// rules of the group are missing the optional space character, which
		// is acceptable."
		{"5.1 foobot", "/example/page.html allowed", bothModes, "", "foobot", site + "/example/page.html", true, 8, false},
		{"5.1 foobot", "/example/page.html is a prefix", bothModes, "", "foobot", site + "/example/page.html?lang=en", true, 8, false},
		{"5.1 foobot", "/example/allowed.gif allowed: the star group's .gif rule is not foobot's", bothModes, "", "foobot", site + "/example/allowed.gif", true, 9, false},
		{"5.1 foobot", "the root disallowed", bothModes, "", "foobot", site + "/", false, 7, false},
		{"5.1 foobot", "near miss: /example/page.htm", bothModes, "", "foobot", site + "/example/page.htm", false, 7, false},
		{"5.1 foobot", "/example/ disallowed", bothModes, "", "foobot", site + "/example/", false, 7, false},
		{"5.1 foobot", "/publications/ disallowed: the star group does not apply", bothModes, "", "foobot", site + "/publications/", false, 7, false},
		{"5.1 foobot", "product token case-insensitive", bothModes, "", "FooBot", site + "/example/page.html", true, 8, false},

		// "barbot and bazbot: ... The crawlers are not allowed to access the
		// URLs with the /example/page.html path prefix but otherwise have
		// unrestricted access to the rest of the URLs on the site."
		{"5.1 barbot", "/example/page.html disallowed", bothModes, "", "barbot", site + "/example/page.html", false, 13, false},
		{"5.1 barbot", "/example/page.html is a prefix", bothModes, "", "barbot", site + "/example/page.html.bak", false, 13, false},
		{"5.1 barbot", "/example/ otherwise unrestricted", bothModes, "", "barbot", site + "/example/other.html", true, 0, false},
		{"5.1 barbot", ".gif unrestricted", bothModes, "", "barbot", site + "/pic.gif", true, 0, false},
		{"5.1 bazbot", "/example/page.html disallowed", bothModes, "", "bazbot", site + "/example/page.html", false, 13, false},
		{"5.1 bazbot", "/example/ otherwise unrestricted", bothModes, "", "bazbot", site + "/example/", true, 0, false},
		{"5.1 bazbot", ".gif unrestricted", bothModes, "", "bazbot", site + "/pic.gif", true, 0, false},

		// "quxbot: An empty group at the end of the file. The crawler has
		// unrestricted access to the URLs on the site."
		{"5.1 quxbot", "/example/page.html unrestricted", bothModes, "", "quxbot", site + "/example/page.html", true, 0, false},
		{"5.1 quxbot", "/example/ unrestricted", bothModes, "", "quxbot", site + "/example/", true, 0, false},
		{"5.1 quxbot", ".gif unrestricted", bothModes, "", "quxbot", site + "/pic.gif", true, 0, false},
		{"5.1 quxbot", "root unrestricted", bothModes, "", "quxbot", site + "/", true, 0, false},
	}
	endings := []struct{ name, nl string }{{"LF", "\n"}, {"CRLF", "\r\n"}, {"CR", "\r"}}
	for _, e := range endings {
		body := strings.Join(rfcExSimple, e.nl) + e.nl
		t.Run(e.name, func(t *testing.T) {
			for _, m := range bothModes.modes() {
				r := robots.Parse([]byte(body), robots.WithMode(m))
				require.Len(t, r.Groups(), 4, "mode %s", m)
				assert.Equal(t, []int{0}, r.Agent("otherbot").Groups(), "mode %s: '*' group", m)
				assert.Equal(t, "", r.Agent("otherbot").Name(), "mode %s", m)
				assert.Equal(t, []int{1}, r.Agent("foobot").Groups(), "mode %s: foobot", m)
				assert.Equal(t, []int{2}, r.Agent("barbot").Groups(), "mode %s: barbot", m)
				assert.Equal(t, []int{2}, r.Agent("bazbot").Groups(), "mode %s: bazbot shares barbot's group", m)
				assert.Equal(t, []int{3}, r.Agent("quxbot").Groups(), "mode %s: quxbot's empty group", m)
				assert.Equal(t, "quxbot", r.Agent("quxbot").Name(), "mode %s: quxbot's empty group hides '*'", m)
			}
			for _, row := range rows {
				row.body = body
				for _, m := range row.in.modes() {
					t.Run(m.String()+"/"+row.source+"/"+row.name, func(t *testing.T) {
						rfcExCheck(t, m, row)
					})
				}
			}
		})
	}
}

// RFC 9309 section 5.2, Longest Match, and the priority sentences of 2.2.2.
//
// The prose of 5.2 says "/example/page/disallowed.gif MUST be used for the
// URI example.com/example/page/disallow.gif". Read literally that cannot
// hold: by 2.2.2 a rule matches only if "the end of the path from the rule
// is reached before a difference in octets is encountered", and
// "/example/page/disallowed.gif" differs from ".../disallow.gif" at the 'e'
// after "disallow". The rows pin the reading consistent with 2.2.2: the
// disallow rule decides .../disallowed.gif, and .../disallow.gif (which only
// the allow rule matches) is allowed.
func TestRFCLongestMatch(t *testing.T) {
	const ex52 = "User-Agent: foobot\n" + // 1
		"Allow: /example/page/\n" + // 2
		"Disallow: /example/page/disallowed.gif\n" // 3
	const tie = "User-Agent: *\n" + // 1
		"Disallow: /example/page\n" + // 2
		"Allow: /example/page\n" // 3
	const tieEncoded = "User-Agent: *\n" + // 1
		"Allow: /foo/bar/%62%61%7A\n" + // 2
		"Disallow: /foo/bar/baz\n" // 3
	// "The most specific match is the match that has the most octets" does
	// not say whether octets are counted before or after the encoding
	// 2.2.2 requires "prior to comparison". This row pins counting after it:
	// "/a/%62%62" compares as "/a/bb" (5 octets) and loses to "/a/bb*" (6).
	// Counting as written (9 octets) would let the allow win. After is the
	// reading under which equivalent patterns have equal length.
	const octetsAfterDecoding = "User-Agent: *\n" + // 1
		"Allow: /a/%62%62\n" + // 2
		"Disallow: /a/bb*\n" // 3
	rfcExRun(t, []rfcExRow{
		{"5.2", "the longer disallow decides disallowed.gif", bothModes, ex52, "foobot", "https://example.com/example/page/disallowed.gif", false, 3, false},
		{"5.2", "URI as printed (disallow.gif): only the allow matches", bothModes, ex52, "foobot", "https://example.com/example/page/disallow.gif", true, 2, false},
		{"5.2", "the allow decides the rest of /example/page/", bothModes, ex52, "foobot", "https://example.com/example/page/other.gif", true, 2, false},
		{"5.2", "the allow decides /example/page/ itself", bothModes, ex52, "foobot", "https://example.com/example/page/", true, 2, false},
		{"5.2", "no rule matches /example/", bothModes, ex52, "foobot", "https://example.com/example/", true, 0, false},
		{"2.2.2", "equivalent allow and disallow: allow is used", bothModes, tie, "ExampleBot", "/example/page/x", true, 3, false},
		{"2.2.2", "equivalent after decoding: allow is used", rfcMode, tieEncoded, "ExampleBot", "/foo/bar/baz", true, 2, false},
		{"2.2.2", "Google does not decode: only the disallow matches", googleMode, tieEncoded, "ExampleBot", "/foo/bar/baz", false, 3, false},
		{"2.2.2", "octets counted after decoding", rfcMode, octetsAfterDecoding, "ExampleBot", "/a/bb", false, 3, false},
	})
}

// RFC 9309 section 2.2.2, Figure 4: "Examples of matching percent-encoded
// URI components". Every form of a row (Path, Encoded Path, Path to Match)
// used as the pattern of "User-agent: *\nDisallow: <pattern>\n" matches every
// form of the same row used as the URL; a near miss does not match.
func TestRFCPercentEncodingTable(t *testing.T) {
	const site = "https://www.example.com"
	fig4 := []struct {
		row                    int
		path, encoded, toMatch string
		nearMiss               string
	}{
		{1, "/foo/bar?baz=quz", "/foo/bar?baz=quz", "/foo/bar?baz=quz", "/foo/bar?baz=qux"},
		{2, "/foo/bar?baz=https://foo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar", "/foo/bar?baz=http://foo.bar"},
		// The RFC writes the path as "/foo/bar/U+E38384", meaning the UTF-8
		// octets E3 83 84 of U+30C4 (ツ).
		{3, "/foo/bar/\u30c4", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%85"},
		{4, "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84", "/foo/bar/\u30c5"},
		{5, "/foo/bar/%62%61%7A", "/foo/bar/%62%61%7A", "/foo/bar/baz", "/foo/bar/bay"},
	}
	var rows []rfcExRow
	for _, f := range fig4 {
		source := fmt.Sprintf("2.2.2 Figure 4 row %d", f.row)
		forms := []struct{ name, s string }{{"Path", f.path}, {"Encoded Path", f.encoded}, {"Path to Match", f.toMatch}}
		patterns := map[string]bool{}
		for _, p := range forms {
			if patterns[p.s] {
				continue // the same string as an earlier column
			}
			patterns[p.s] = true
			urls := map[string]bool{}
			for _, u := range forms {
				if urls[u.s] {
					continue
				}
				urls[u.s] = true
				rows = append(rows, rfcExRow{source, "pattern " + p.name + " matches URL " + u.name, rfcMode,
					"User-agent: *\nDisallow: " + p.s + "\n", "ExampleBot", site + u.s, false, 2, false})
			}
			rows = append(rows, rfcExRow{source, "pattern " + p.name + " near miss", bothModes,
				"User-agent: *\nDisallow: " + p.s + "\n", "ExampleBot", site + f.nearMiss, true, 0, false})
		}
	}
	rows = append(rows, []rfcExRow{
		// Figure 4 row 1: '?' and '=' delimit the query; an encoded '?' is
		// data in the path, a different resource.
		{"2.2.2 Figure 4 row 1", "encoded '?' is not the query delimiter", bothModes, "User-agent: *\nDisallow: /foo/bar?baz=quz\n", "ExampleBot", site + "/foo/bar%3Fbaz=quz", true, 0, false},
		// Rows 3 and 4: the hex digits of an escape are case-insensitive
		// (RFC 3986 section 2.1), so a lower-case escape is the same octet.
		{"2.2.2 Figure 4 row 4", "lower-case hex in the URL", rfcMode, "User-agent: *\nDisallow: /foo/bar/%E3%83%84\n", "ExampleBot", site + "/foo/bar/%e3%83%84", false, 2, false},
		// Row 5: the decoded octets are unreserved; lower-case hex and a
		// partial decode compare the same.
		{"2.2.2 Figure 4 row 5", "lower-case hex of unreserved octets", rfcMode, "User-agent: *\nDisallow: /foo/bar/baz\n", "ExampleBot", site + "/foo/bar/%62%61%7a", false, 2, false},
		{"2.2.2 Figure 4 row 5", "partly encoded unreserved octets", rfcMode, "User-agent: *\nDisallow: /foo/bar/%62az\n", "ExampleBot", site + "/foo/bar/b%61z", false, 2, false},
		// "unless it is a reserved character": %2F stays encoded and is not
		// a path separator.
		{"2.2.2", "an encoded reserved '/' is not decoded", bothModes, "User-agent: *\nDisallow: /a%2Fb\n", "ExampleBot", site + "/a/b", true, 0, false},
		{"2.2.2", "an encoded reserved '/' matches itself", bothModes, "User-agent: *\nDisallow: /a%2Fb\n", "ExampleBot", site + "/a%2Fb", false, 2, false},

		// Google mode does not normalise percent-encoding beyond escaping the
		// pattern's non-ASCII octets and upper-casing its hex digits.
		{"2.2.2 Figure 4 row 2", "Google: raw query pattern, encoded URL", googleMode, "User-agent: *\nDisallow: /foo/bar?baz=https://foo.bar\n", "ExampleBot", site + "/foo/bar?baz=https%3A%2F%2Ffoo.bar", true, 0, false},
		{"2.2.2 Figure 4 row 2", "Google: encoded query pattern, raw URL", googleMode, "User-agent: *\nDisallow: /foo/bar?baz=https%3A%2F%2Ffoo.bar\n", "ExampleBot", site + "/foo/bar?baz=https://foo.bar", true, 0, false},
		{"2.2.2 Figure 4 row 3", "Google: raw UTF-8 pattern, encoded URL", googleMode, "User-agent: *\nDisallow: /foo/bar/\u30c4\n", "ExampleBot", site + "/foo/bar/%E3%83%84", false, 2, false},
		{"2.2.2 Figure 4 row 3", "Google: encoded pattern, raw UTF-8 URL", googleMode, "User-agent: *\nDisallow: /foo/bar/%E3%83%84\n", "ExampleBot", site + "/foo/bar/\u30c4", true, 0, false},
		{"2.2.2 Figure 4 row 5", "Google: encoded unreserved pattern, plain URL", googleMode, "User-agent: *\nDisallow: /foo/bar/%62%61%7A\n", "ExampleBot", site + "/foo/bar/baz", true, 0, false},
		{"2.2.2 Figure 4 row 5", "Google: plain pattern, encoded unreserved URL", googleMode, "User-agent: *\nDisallow: /foo/bar/baz\n", "ExampleBot", site + "/foo/bar/%62%61%7A", true, 0, false},
		{"2.2.2 Figure 4 row 5", "Google: encoded pattern matches itself", googleMode, "User-agent: *\nDisallow: /foo/bar/%62%61%7A\n", "ExampleBot", site + "/foo/bar/%62%61%7A", false, 2, false},
	}...)
	rfcExRun(t, rows)
}

// RFC 9309 section 2.2.3, Figure 5 (special characters '#', '$', '*') and
// Figure 6 (percent-encoded '*' and '$' matching them verbatim in the URI).
func TestRFCSpecialCharacters(t *testing.T) {
	const site = "https://www.example.com"
	// Figure 5, '#': "allow: / # comment in line" and "# comment on its own
	// line". If the comment were kept, the allow would not match /anything.
	const hashInline = "user-agent: *\n" + // 1
		"disallow: /\n" + // 2
		"allow: / # comment in line\n" // 3
	const hashLines = "# comment on its own line\n" + // 1
		"user-agent: * # comment in line\n" + // 2
		"# comment on its own line\n" + // 3
		"disallow: /private # comment in line\n" + // 4
		"allow: /private/public#no space before it\n" // 5
	const dollar = "user-agent: *\n" + // 1
		"disallow: /\n" + // 2
		"allow: /this/path/exactly$\n" // 3
	const star = "user-agent: *\n" + // 1
		"disallow: /\n" + // 2
		"allow: /this/*/exactly\n" // 3
	const fig6 = "user-agent: *\n" + // 1
		"disallow: /path/file-with-a-%2A.html\n" + // 2
		"disallow: /path/foo-%24\n" // 3
	const unencoded = "user-agent: *\n" + // 1
		"disallow: /path/file-with-a-*.html\n" + // 2
		"disallow: /path/foo-$\n" // 3
	rfcExRun(t, []rfcExRow{
		{"2.2.3 Figure 5 #", "comment in line is not part of the pattern", bothModes, hashInline, "ExampleBot", site + "/anything", true, 3, false},
		{"2.2.3 Figure 5 #", "comments do not break the group", bothModes, hashLines, "ExampleBot", site + "/private/x", false, 4, false},
		{"2.2.3 Figure 5 #", "comment right after the pattern", bothModes, hashLines, "ExampleBot", site + "/private/public/x", true, 5, false},
		{"2.2.3 Figure 5 #", "outside the rules", bothModes, hashLines, "ExampleBot", site + "/other", true, 0, false},

		{"2.2.3 Figure 5 $", "the exact path", bothModes, dollar, "ExampleBot", site + "/this/path/exactly", true, 3, false},
		{"2.2.3 Figure 5 $", "a longer path", bothModes, dollar, "ExampleBot", site + "/this/path/exactly2", false, 2, false},
		{"2.2.3 Figure 5 $", "a subdirectory", bothModes, dollar, "ExampleBot", site + "/this/path/exactly/", false, 2, false},
		{"2.2.3 Figure 5 $", "a query", bothModes, dollar, "ExampleBot", site + "/this/path/exactly?x=1", false, 2, false},

		{"2.2.3 Figure 5 *", "one segment", bothModes, star, "ExampleBot", site + "/this/a/exactly", true, 3, false},
		{"2.2.3 Figure 5 *", "several segments", bothModes, star, "ExampleBot", site + "/this/a/b/c/exactly", true, 3, false},
		{"2.2.3 Figure 5 *", "zero characters", bothModes, star, "ExampleBot", site + "/this//exactly", true, 3, false},
		{"2.2.3 Figure 5 *", "a prefix: more after exactly", bothModes, star, "ExampleBot", site + "/this/a/exactly/more", true, 3, false},
		{"2.2.3 Figure 5 *", "near miss: no slash before exactly", bothModes, star, "ExampleBot", site + "/this/exactly", false, 2, false},
		{"2.2.3 Figure 5 *", "near miss: other first segment", bothModes, star, "ExampleBot", site + "/that/a/exactly", false, 2, false},

		{"2.2.3 Figure 6", "%2A matches a literal '*'", rfcMode, fig6, "ExampleBot", site + "/path/file-with-a-*.html", false, 2, false},
		{"2.2.3 Figure 6", "%2A matches an encoded '*'", bothModes, fig6, "ExampleBot", site + "/path/file-with-a-%2A.html", false, 2, false},
		{"2.2.3 Figure 6", "%2A matches a lower-case encoded '*'", rfcMode, fig6, "ExampleBot", site + "/path/file-with-a-%2a.html", false, 2, false},
		{"2.2.3 Figure 6", "%2A is not a wildcard", bothModes, fig6, "ExampleBot", site + "/path/file-with-a-x.html", true, 0, false},
		{"2.2.3 Figure 6", "%24 matches a literal '$'", rfcMode, fig6, "ExampleBot", site + "/path/foo-$", false, 3, false},
		{"2.2.3 Figure 6", "%24 is not an anchor: prefix match", rfcMode, fig6, "ExampleBot", site + "/path/foo-$bar", false, 3, false},
		{"2.2.3 Figure 6", "%24 needs the '$'", bothModes, fig6, "ExampleBot", site + "/path/foo-", true, 0, false},
		{"2.2.3 Figure 6", "Google: %2A does not match a literal '*'", googleMode, fig6, "ExampleBot", site + "/path/file-with-a-*.html", true, 0, false},
		{"2.2.3 Figure 6", "Google: %24 does not match a literal '$'", googleMode, fig6, "ExampleBot", site + "/path/foo-$", true, 0, false},

		// Why Figure 6 encodes: written verbatim, '*' is a wildcard and a
		// final '$' an anchor.
		{"2.2.3 Figure 5/6", "verbatim '*' matches the literal '*'", bothModes, unencoded, "ExampleBot", site + "/path/file-with-a-*.html", false, 2, false},
		{"2.2.3 Figure 5/6", "verbatim '*' also matches anything", bothModes, unencoded, "ExampleBot", site + "/path/file-with-a-x.html", false, 2, false},
		{"2.2.3 Figure 5/6", "verbatim final '$' is an anchor, not the literal", bothModes, unencoded, "ExampleBot", site + "/path/foo-$", true, 0, false},
		{"2.2.3 Figure 5/6", "verbatim final '$' anchors the end", bothModes, unencoded, "ExampleBot", site + "/path/foo-", false, 3, false},
	})
}

// RFC 9309 section 2.2.2: "The /robots.txt URI is implicitly allowed." Section
// 2.3: the file is "/robots.txt" (all lowercase) in the top-level path,
// "scheme:[//authority]/robots.txt". Google's reference parser has no such
// rule.
func TestRFCRobotsTxtImplicitlyAllowed(t *testing.T) {
	const all = "User-agent: *\nDisallow: /\n"
	const specific = "User-agent: ExampleBot\nDisallow: /robots.txt\n"
	rfcExRun(t, []rfcExRow{
		{"2.2.2", "/robots.txt under Disallow: /", rfcMode, all, "ExampleBot", "/robots.txt", true, 0, true},
		{"2.2.2", "Google: /robots.txt under Disallow: /", googleMode, all, "ExampleBot", "/robots.txt", false, 2, false},
		{"2.3", "https URI", rfcMode, all, "ExampleBot", "https://www.example.com/robots.txt", true, 0, true},
		{"2.3", "ftp URI", rfcMode, all, "ExampleBot", "ftp://ftp.example.com/robots.txt", true, 0, true},
		{"2.2.2", "a rule naming /robots.txt itself", rfcMode, specific, "ExampleBot", "https://www.example.com/robots.txt", true, 0, true},
		{"2.2.2", "Google: a rule naming /robots.txt itself", googleMode, specific, "ExampleBot", "https://www.example.com/robots.txt", false, 2, false},
		{"2.2.2", "a fragment is not part of the URI's path", rfcMode, all, "ExampleBot", "https://www.example.com/robots.txt#top", true, 0, true},
		{"2.2.2", "encoded unreserved octets are the same URI", rfcMode, all, "ExampleBot", "https://www.example.com/%72obots%2Etxt", true, 0, true},
		{"2.3", "all lowercase: /Robots.txt is another resource", bothModes, all, "ExampleBot", "https://www.example.com/Robots.txt", false, 2, false},
		{"2.3", "top-level only", bothModes, all, "ExampleBot", "https://www.example.com/dir/robots.txt", false, 2, false},
		{"2.2.2", "a longer path is not /robots.txt", bothModes, all, "ExampleBot", "https://www.example.com/robots.txt.bak", false, 2, false},
		{"2.2.2", "with a query it is another URI", bothModes, all, "ExampleBot", "https://www.example.com/robots.txt?x=1", false, 2, false},
		{"2.2.2", "other paths still disallowed", bothModes, all, "ExampleBot", "https://www.example.com/", false, 2, false},
	})
}

// RFC 9309 section 2.2 grammar: the field names are the quoted strings
// "user-agent", "allow" and "disallow", which ABNF compares ignoring case
// (RFC 5234 section 2.3), each followed by *WS ":" *WS. Misspellings,
// longer names and a missing colon do not parse, and a line that does not
// parse is not used (2.3.1.5 "Crawlers MUST use the parseable rules").
// Google accepts all three; the Google rows show it.
func TestRFCStrictFieldNames(t *testing.T) {
	rfcExRun(t, []rfcExRow{
		{"2.2 grammar", "upper-case field names", bothModes, "USER-AGENT: *\nDISALLOW: /a\n", "ExampleBot", "/a", false, 2, false},
		{"2.2 grammar", "mixed-case field names", bothModes, "uSeR-aGeNt: *\ndIsAlLoW: /a\nAlLoW: /a/b\n", "ExampleBot", "/a/b", true, 3, false},
		{"2.2 grammar", "white space before the colon", bothModes, "User-agent : *\nDisallow\t: /a\n", "ExampleBot", "/a", false, 2, false},
		{"2.2 grammar", "leading white space", bothModes, "  User-agent: *\n\tDisallow: /a\n", "ExampleBot", "/a", false, 2, false},
		{"2.2 grammar, 5.1", "no space after the colon", bothModes, "User-agent:*\nDisallow:/a\n", "ExampleBot", "/a", false, 2, false},

		{"2.2 grammar", "typo useragent", rfcMode, "Useragent: *\nDisallow: /a\n", "ExampleBot", "/a", true, 0, false},
		{"2.2 grammar", "typo useragent", googleMode, "Useragent: *\nDisallow: /a\n", "ExampleBot", "/a", false, 2, false},
		{"2.2 grammar", "typo user agent", rfcMode, "User agent: *\nDisallow: /a\n", "ExampleBot", "/a", true, 0, false},
		{"2.2 grammar", "typo user agent", googleMode, "User agent: *\nDisallow: /a\n", "ExampleBot", "/a", false, 2, false},
		{"2.2 grammar", "typo dissallow", rfcMode, "User-agent: *\nDissallow: /a\n", "ExampleBot", "/a", true, 0, false},
		{"2.2 grammar", "typo dissallow", googleMode, "User-agent: *\nDissallow: /a\n", "ExampleBot", "/a", false, 2, false},
		{"2.2 grammar", "typo disalow", rfcMode, "User-agent: *\nDisalow: /a\n", "ExampleBot", "/a", true, 0, false},
		{"2.2 grammar", "typo disalow", googleMode, "User-agent: *\nDisalow: /a\n", "ExampleBot", "/a", false, 2, false},
		{"2.2 grammar", "longer name disallowed", rfcMode, "User-agent: *\nDisallowed: /a\n", "ExampleBot", "/a", true, 0, false},
		{"2.2 grammar", "longer name disallowed", googleMode, "User-agent: *\nDisallowed: /a\n", "ExampleBot", "/a", false, 2, false},
		{"2.2 grammar", "longer name user-agents", rfcMode, "User-agents: *\nDisallow: /a\n", "ExampleBot", "/a", true, 0, false},
		{"2.2 grammar", "longer name user-agents", googleMode, "User-agents: *\nDisallow: /a\n", "ExampleBot", "/a", false, 2, false},
		{"2.2 grammar", "missing colon on the rule", rfcMode, "User-agent: *\nDisallow /a\n", "ExampleBot", "/a", true, 0, false},
		{"2.2 grammar", "missing colon on the rule", googleMode, "User-agent: *\nDisallow /a\n", "ExampleBot", "/a", false, 2, false},
		{"2.2 grammar", "missing colon on the user-agent line", rfcMode, "User-agent *\nDisallow: /a\n", "ExampleBot", "/a", true, 0, false},
		{"2.2 grammar", "missing colon on the user-agent line", googleMode, "User-agent *\nDisallow: /a\n", "ExampleBot", "/a", false, 2, false},
		// An ignored line leaves the lines around it intact.
		{"2.3.1.5", "the parseable rules are still used", rfcMode, "User-agent: *\nDisalow: /a\nDisallow: /b\n", "ExampleBot", "/b", false, 3, false},
	})
}

// RFC 9309 section 2.2.2 defines a match only by octets ("The match evaluates
// positively if and only if the end of the path from the rule is reached
// before a difference in octets is encountered"): there is no rule that
// allowing ".../index.html" allows the directory, as Google has.
func TestRFCNoIndexHTMLRule(t *testing.T) {
	const body = "User-agent: *\n" + // 1
		"Disallow: /\n" + // 2
		"Allow: /x/index.html\n" // 3
	rfcExRun(t, []rfcExRow{
		{"2.2.2", "the directory is not allowed", rfcMode, body, "ExampleBot", "/x/", false, 2, false},
		{"2.2.2", "Google: the directory is allowed", googleMode, body, "ExampleBot", "/x/", true, 3, false},
		{"2.2.2", "the index page itself", bothModes, body, "ExampleBot", "/x/index.html", true, 3, false},
		{"2.2.2", "the root index", rfcMode, "User-agent: *\nDisallow: /\nAllow: /index.html\n", "ExampleBot", "/", false, 2, false},
		{"2.2.2", "Google: the root index", googleMode, "User-agent: *\nDisallow: /\nAllow: /index.html\n", "ExampleBot", "/", true, 3, false},
	})
}

// rfcExPad returns exactly n bytes (n >= 2) of comment lines.
func rfcExPad(n int) string {
	line := "#" + strings.Repeat(" padding", 12) + "\n"
	var b strings.Builder
	for n-b.Len() >= len(line)+2 {
		b.WriteString(line)
	}
	b.WriteString("#" + strings.Repeat("p", n-b.Len()-2) + "\n")
	return b.String()
}

// RFC 9309 section 2.5: "The parsing limit MUST be at least 500 kibibytes."
// A crawler reads the first 500 KiB in full; what follows may be ignored, and
// robots.MaxBytes ignores it in both modes. WithMaxBytes(-1) reads it all.
func TestRFCSizeLimit(t *testing.T) {
	require.GreaterOrEqual(t, robots.MaxBytes, 500*1024, "RFC 9309 2.5: the parsing limit is at least 500 KiB")
	const head = "User-agent: *\nDisallow: /early\n" // lines 1-2
	pad := rfcExPad(robots.MaxBytes - len(head))
	require.Len(t, head+pad, robots.MaxBytes)
	lines := 2 + strings.Count(pad, "\n")
	late := head + pad + "Disallow: /late\n" // the rule starts at byte MaxBytes
	// A rule whose last byte is byte MaxBytes: inside the limit, only its
	// line break is past it.
	edgeRule := "Disallow: /edge"
	edgePad := rfcExPad(robots.MaxBytes - len(head) - len(edgeRule))
	edge := head + edgePad + edgeRule + "\n"
	require.Len(t, head+edgePad+edgeRule, robots.MaxBytes)
	edgeLine := 2 + strings.Count(edgePad, "\n") + 1

	rows := []struct {
		row       rfcExRow
		opts      []robots.Option
		truncated bool
	}{
		{rfcExRow{"2.5", "a rule at the start is read", bothModes, late, "ExampleBot", "/early", false, 2, false}, nil, true},
		{rfcExRow{"2.5", "a rule after the limit is ignored", bothModes, late, "ExampleBot", "/late", true, 0, false}, nil, true},
		{rfcExRow{"2.5", "no limit reads it", bothModes, late, "ExampleBot", "/late", false, lines + 1, false}, []robots.Option{robots.WithMaxBytes(-1)}, false},
		{rfcExRow{"2.5", "a rule ending at the limit is read", bothModes, edge, "ExampleBot", "/edge", false, edgeLine, false}, nil, true},
		{rfcExRow{"2.5", "exactly the limit is not truncated", bothModes, head + pad, "ExampleBot", "/early", false, 2, false}, nil, false},
	}
	for _, r := range rows {
		for _, m := range r.row.in.modes() {
			t.Run(m.String()+"/"+r.row.source+"/"+r.row.name, func(t *testing.T) {
				rb := robots.Parse([]byte(r.row.body), append(r.opts, robots.WithMode(m))...)
				assert.Equal(t, r.truncated, rb.Truncated(), "Truncated()")
				a := rb.Agent(r.row.agent)
				d := a.Decide(r.row.url)
				assert.Equal(t, r.row.allowed, d.Allowed, "Decide(%q).Allowed", r.row.url)
				assert.Equal(t, r.row.allowed, a.Allowed(r.row.url), "Allowed(%q)", r.row.url)
				assert.False(t, d.Implicit, "Decide(%q).Implicit", r.row.url)
				if r.row.line == 0 {
					assert.Nil(t, d.Rule, "Decide(%q).Rule", r.row.url)
				} else if assert.NotNil(t, d.Rule, "Decide(%q).Rule", r.row.url) {
					assert.Equal(t, r.row.line, d.Rule.Line, "Decide(%q).Rule.Line", r.row.url)
				}
			})
		}
	}
}
