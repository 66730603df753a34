package robots_test

// Tests of the semantics listed in docs/semantics.md, one test per
// behaviour. TestRFC… tests pin what RFC 9309 requires; TestGoogle… tests pin
// what Google documents or its reference parser does beyond the RFC. Every
// test runs in both modes; a row states its RFC-mode verdict where the modes
// differ.

import (
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
)

var semModes = []robots.Mode{robots.Google, robots.RFC}

// semVerdict is an expected decision: whether the URL is allowed and the
// line of the rule that decides it, 0 when no rule decides (Rule == nil).
type semVerdict struct {
	allowed bool
	line    int
}

func semAllowed(line int) semVerdict    { return semVerdict{allowed: true, line: line} }
func semDisallowed(line int) semVerdict { return semVerdict{allowed: false, line: line} }

// semNoRule is the verdict for a URL no rule matches: allowed, Rule == nil.
var semNoRule = semVerdict{allowed: true}

// semInRFC marks the verdict of a row in RFC mode when it differs.
func semInRFC(v semVerdict) *semVerdict { return &v }

// semRow is one check: a robots.txt body, the crawler's agent, a URL and the
// verdict in Google mode; rfc, when set, is the verdict in RFC mode.
type semRow struct {
	name  string
	body  string
	agent string
	url   string
	want  semVerdict
	rfc   *semVerdict
}

func (r semRow) expect(m robots.Mode) semVerdict {
	if m == robots.RFC && r.rfc != nil {
		return *r.rfc
	}
	return r.want
}

// semCheck checks Decide and Allowed for one URL.
func semCheck(t *testing.T, a *robots.Agent, rawURL string, want semVerdict) {
	t.Helper()
	d := a.Decide(rawURL)
	assert.Equal(t, want.allowed, d.Allowed, "Decide(%q).Allowed", rawURL)
	assert.Equal(t, want.allowed, a.Allowed(rawURL), "Allowed(%q)", rawURL)
	if want.line == 0 {
		assert.Nil(t, d.Rule, "Decide(%q).Rule", rawURL)
		return
	}
	if assert.NotNil(t, d.Rule, "Decide(%q).Rule", rawURL) {
		assert.Equal(t, want.line, d.Rule.Line, "Decide(%q).Rule.Line", rawURL)
	}
}

// semRun checks every row in both modes.
func semRun(t *testing.T, rows []semRow) {
	t.Helper()
	for _, m := range semModes {
		for _, r := range rows {
			t.Run(m.String()+"/"+r.name, func(t *testing.T) {
				a := robots.Parse([]byte(r.body), robots.WithMode(m)).Agent(r.agent)
				semCheck(t, a, r.url, r.expect(m))
			})
		}
	}
}

// RFC 9309 section 2.2: EOL is LF, CR or CRLF. Each counts as one line break.
func TestRFCLineEndings(t *testing.T) {
	const mixed = "User-agent: *\r\nDisallow: /a\rDisallow: /b\nDisallow: /c\r\n\r\rDisallow: /d"
	semRun(t, []semRow{
		{"LF", "User-agent: *\nDisallow: /a\nDisallow: /b\n", "FooBot", "/b", semDisallowed(3), nil},
		{"CRLF", "User-agent: *\r\nDisallow: /a\r\nDisallow: /b\r\n", "FooBot", "/b", semDisallowed(3), nil},
		{"CR", "User-agent: *\rDisallow: /a\rDisallow: /b\r", "FooBot", "/b", semDisallowed(3), nil},
		{"CR alone ends the user-agent line", "User-agent: FooBot\rDisallow: /", "FooBot", "/x", semDisallowed(2), nil},
		{"mixed CRLF then CR", mixed, "FooBot", "/a", semDisallowed(2), nil},
		{"mixed LF", mixed, "FooBot", "/b", semDisallowed(3), nil},
		{"mixed CRLF", mixed, "FooBot", "/c", semDisallowed(4), nil},
		{"mixed CRLF CR CR counts two empty lines", mixed, "FooBot", "/d", semDisallowed(7), nil},
		{"LF then CR is two breaks", "User-agent: *\n\rDisallow: /a", "FooBot", "/a", semDisallowed(3), nil},
		{"blank CRLF lines inside a group", "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n", "bar", "/page", semDisallowed(6), nil},
		{"blank CR lines inside a group", "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r", "bar", "/page", semDisallowed(6), nil},
	})
}

// Google reference parser: a UTF-8 byte order mark, or any prefix of one, is
// skipped at the start of the body only. Both modes.
func TestGoogleByteOrderMark(t *testing.T) {
	const rest = "User-Agent: foo\nDisallow: /AnyValue\n"
	semRun(t, []semRow{
		{"no BOM", rest, "foo", "/AnyValue", semDisallowed(2), nil},
		{"EF BB BF", "\xEF\xBB\xBF" + rest, "foo", "/AnyValue", semDisallowed(2), nil},
		{"EF BB", "\xEF\xBB" + rest, "foo", "/AnyValue", semDisallowed(2), nil},
		{"EF", "\xEF" + rest, "foo", "/AnyValue", semDisallowed(2), nil},
		{"EF 11 BF is not a BOM prefix", "\xEF\x11\xBF" + rest, "foo", "/AnyValue", semNoRule, nil},
		{"second BOM is not skipped", "\xEF\xBB\xBF\xEF\xBB\xBF" + rest, "foo", "/AnyValue", semNoRule, nil},
		{"BOM on line 2", "User-Agent: foo\n\xEF\xBB\xBFDisallow: /AnyValue\n", "foo", "/AnyValue", semNoRule, nil},
	})
	for _, m := range semModes {
		t.Run(m.String()+"/BOM on line 2 makes the key unknown", func(t *testing.T) {
			r := robots.Parse([]byte("User-Agent: foo\n\xEF\xBB\xBFDisallow: /AnyValue\n"), robots.WithMode(m))
			require.Len(t, r.Others(), 1)
			assert.Equal(t, "\xEF\xBB\xBFDisallow", r.Others()[0].Key)
			assert.Equal(t, 2, r.Others()[0].Line)
		})
	}
}

// RFC 9309 section 2.2: '#' starts a comment that runs to the end of the line,
// wherever it stands, values included.
func TestRFCLineComments(t *testing.T) {
	const inValue = "User-agent: FooBot\nDisallow: /a#b\n"
	const commented = "# User-agent: FooBot\n#Disallow: /\nUser-agent: *\nDisallow: /x # not /y\n"
	semRun(t, []semRow{
		{"comment in value cuts the pattern", inValue, "FooBot", "/ab", semDisallowed(2), nil},
		{"comment in value, other path", inValue, "FooBot", "/c", semNoRule, nil},
		{"commented-out lines", commented, "FooBot", "/y", semNoRule, nil},
		{"trailing comment", commented, "FooBot", "/x", semDisallowed(4), nil},
		{"comment right after '*'", "User-agent: *#all crawlers\nDisallow: /\n", "FooBot", "/x", semDisallowed(2), nil},
		{"comment makes the value empty", "User-agent: *\nDisallow: #/\n", "FooBot", "/x", semNoRule, nil},
	})
}

// RFC 9309 section 2.2: white space around the key, the colon and the value
// is allowed and not part of them.
func TestRFCLineWhitespace(t *testing.T) {
	semRun(t, []semRow{
		{"spaces around key, colon and value", "User-agent: FooBot\n   Disallow   :   /x   \n", "FooBot", "/x", semDisallowed(2), nil},
		{"trailing spaces are not part of the pattern", "User-agent: FooBot\nDisallow: /x   \n", "FooBot", "/x", semDisallowed(2), nil},
		{"tabs around the user-agent", "\t User-agent \t: \t FooBot \t\nDisallow: /\n", "FooBot", "/x", semDisallowed(2), nil},
		{"space before the colon", "User-agent : *\nDisallow : /\n", "FooBot", "/x", semDisallowed(2), nil},
	})
	r := robots.Parse([]byte("User-agent: FooBot\n   Disallow   :   /x   \n"))
	require.Len(t, r.Groups(), 1)
	require.Len(t, r.Groups()[0].Rules, 1)
	assert.Equal(t, "FooBot", r.Groups()[0].Agents[0].Value)
	assert.Equal(t, "/x", r.Groups()[0].Rules[0].Value)
}

// Google reference parser: a line keeps its first robots.MaxLineBytes bytes;
// the rest is ignored, so a pattern cut there matches the cut prefix. Both
// modes.
func TestGoogleLineLengthLimit(t *testing.T) {
	const prefix = "Disallow: /"
	a := func(n int) string { return strings.Repeat("a", n) }
	fill := robots.MaxLineBytes - len(prefix) // 'a's that fit on a full line
	// A line of MaxLineBytes+2 bytes: its last two bytes ("bb") are cut off.
	long := "User-agent: *\n" + prefix + a(fill) + "bb\nAllow: /z\n"
	// A line of exactly MaxLineBytes bytes is kept whole.
	exact := "User-agent: *\n" + prefix + a(fill-1) + "b\n"
	semRun(t, []semRow{
		{"cut pattern matches what the full one would not", long, "FooBot", "/" + a(fill) + "cc", semDisallowed(2), nil},
		{"cut pattern still needs its whole prefix", long, "FooBot", "/" + a(fill-1), semNoRule, nil},
		{"next line is read normally", long, "FooBot", "/z", semAllowed(3), nil},
		{"line of exactly MaxLineBytes is not cut", exact, "FooBot", "/" + a(fill-1) + "c", semNoRule, nil},
		{"line of exactly MaxLineBytes keeps its last byte", exact, "FooBot", "/" + a(fill-1) + "b", semDisallowed(2), nil},
	})
	require.Equal(t, 16663, robots.MaxLineBytes)
	r := robots.Parse([]byte(long))
	require.Len(t, r.Groups(), 1)
	require.Len(t, r.Groups()[0].Rules, 2)
	assert.Equal(t, "/"+a(fill), r.Groups()[0].Rules[0].Value)
}

// Google reference parser: a NUL byte ends a line's content; the line itself
// still ends at its line break. Both modes.
func TestGoogleNULEndsLine(t *testing.T) {
	const body = "User-agent: *\nDisallow: /a\x00b\nDisallow: /c\x00\nDisallow: /d\n"
	semRun(t, []semRow{
		{"pattern ends at NUL", body, "FooBot", "/ax", semDisallowed(2), nil},
		{"bytes after NUL are ignored", body, "FooBot", "/b", semNoRule, nil},
		{"NUL does not end the line", body, "FooBot", "/d", semDisallowed(4), nil},
		{"NUL after '*'", "User-agent: *\x00junk\nDisallow: /\n", "FooBot", "/x", semDisallowed(2), nil},
	})
}

// RFC 9309 section 2.2.1 and 2.2.2: field names are case-insensitive.
func TestRFCLineFieldNameCase(t *testing.T) {
	rows := []semRow{}
	for _, body := range []string{
		"USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n",
		"user-agent: FooBot\nallow: /x/\ndisallow: /\n",
		"uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n",
	} {
		name := body[:strings.IndexByte(body, ':')]
		rows = append(rows,
			semRow{name + " allow", body, "FooBot", "/x/y", semAllowed(2), nil},
			semRow{name + " disallow", body, "FooBot", "/a/b", semDisallowed(3), nil})
	}
	semRun(t, rows)
	for _, m := range semModes {
		r := robots.Parse([]byte("SiteMap: https://example.com/s.xml\n"), robots.WithMode(m))
		assert.Equal(t, []string{"https://example.com/s.xml"}, r.Sitemaps(), "mode %v", m)
	}
}

// Google reference parser: a key is recognised by case-insensitive prefix,
// in the order user-agent, allow, disallow, sitemap, and common misspellings
// are accepted. RFC mode needs the exact field name.
func TestGoogleFieldNamePrefixAndTypos(t *testing.T) {
	const ua = "User-agent: FooBot\n"
	rows := []semRow{
		{"Disallowed is a disallow", ua + "Disallowed: /x\n", "FooBot", "/x", semDisallowed(2), semInRFC(semNoRule)},
		{"allow-all is an allow", ua + "Disallow: /\nallow-all: /x\n", "FooBot", "/x", semAllowed(3), semInRFC(semDisallowed(2))},
		{"User-agents is a user-agent", "User-agents: FooBot\nDisallow: /x\n", "FooBot", "/x", semDisallowed(2), semInRFC(semNoRule)},
		{"useragent", "useragent: FooBot\nDisallow: /x\n", "FooBot", "/x", semDisallowed(2), semInRFC(semNoRule)},
		{"user agent", "user agent: FooBot\nDisallow: /x\n", "FooBot", "/x", semDisallowed(2), semInRFC(semNoRule)},
		{"exact disallow", ua + "Disallow: /x\n", "FooBot", "/x", semDisallowed(2), nil},
	}
	for _, typo := range []string{"dissallow", "dissalow", "disalow", "diasllow", "disallaw", "DISALOW"} {
		rows = append(rows, semRow{typo, ua + typo + ": /x\n", "FooBot", "/x", semDisallowed(2), semInRFC(semNoRule)})
	}
	semRun(t, rows)
	const sitemap = "site-map: https://example.com/s.xml\n"
	assert.Equal(t, []string{"https://example.com/s.xml"}, robots.Parse([]byte(sitemap)).Sitemaps())
	assert.Empty(t, robots.Parse([]byte(sitemap), robots.WithMode(robots.RFC)).Sitemaps())
}

// Google reference parser: a line without a colon that holds exactly two
// words is read as "key value". RFC mode requires the colon.
func TestGoogleMissingColon(t *testing.T) {
	const ua = "User-agent: FooBot\n"
	semRun(t, []semRow{
		{"both lines without colon", "user-agent FooBot\ndisallow /\n", "FooBot", "/x/y", semDisallowed(2), semInRFC(semNoRule)},
		{"space", ua + "Disallow /x\n", "FooBot", "/x", semDisallowed(2), semInRFC(semNoRule)},
		{"tab", ua + "Disallow\t/x\n", "FooBot", "/x", semDisallowed(2), semInRFC(semNoRule)},
		{"run of spaces and tabs", ua + "Disallow  \t /x\n", "FooBot", "/x", semDisallowed(2), semInRFC(semNoRule)},
		{"trailing comment", ua + "Disallow /x # no colon\n", "FooBot", "/x", semDisallowed(2), semInRFC(semNoRule)},
		{"three words are ignored", ua + "Disallow /x /y\n", "FooBot", "/x", semNoRule, nil},
		{"three words are not key and value", ua + "Disallow /x /y\n", "FooBot", "/x /y", semNoRule, nil},
		{"one word is ignored", ua + "Disallow\n", "FooBot", "/x", semNoRule, nil},
	})
}

// RFC 9309 section 2.1 and 2.2.1: consecutive user-agent lines share the
// rules that follow; a user-agent line after a rule starts a new group;
// rules before any user-agent line belong to no group; groups naming the
// same agent are merged, and so are all '*' groups.
func TestRFCGroupStructure(t *testing.T) {
	const shared = "User-agent: a\nUser-agent: b\nDisallow: /x\n"
	const split = "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n"
	const orphan = "Disallow: /\nAllow: /x\nUser-agent: *\nDisallow: /y\n"
	const blank = "User-agent: a\n\nUser-agent: b\n\nDisallow: /x\n"
	const sameAgent = "User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /\n\nUser-agent: A\nDisallow: /y\n"
	const globals = "User-agent: *\nDisallow: /x\nUser-agent: a\nDisallow: /\nUser-agent: *\nDisallow: /y\n"
	semRun(t, []semRow{
		{"shared by first agent", shared, "a", "/x", semDisallowed(3), nil},
		{"shared by second agent", shared, "b", "/x", semDisallowed(3), nil},
		{"shared, other agent", shared, "c", "/x", semNoRule, nil},
		{"split: a lacks b's rule", split, "a", "/y", semNoRule, nil},
		{"split: b lacks a's rule", split, "b", "/x", semNoRule, nil},
		{"split: b's rule", split, "b", "/y", semDisallowed(4), nil},
		{"rules before any user-agent are ignored", orphan, "FooBot", "/z", semNoRule, nil},
		{"rules after the user-agent apply", orphan, "FooBot", "/y", semDisallowed(4), nil},
		{"blank lines do not end a group", blank, "a", "/x", semDisallowed(5), nil},
		{"same agent merged: first group", sameAgent, "a", "/x", semDisallowed(2), nil},
		{"same agent merged: last group", sameAgent, "a", "/y", semDisallowed(8), nil},
		{"same agent merged: other path", sameAgent, "a", "/z", semNoRule, nil},
		{"'*' groups merged: first", globals, "FooBot", "/x", semDisallowed(2), nil},
		{"'*' groups merged: last", globals, "FooBot", "/y", semDisallowed(6), nil},
		{"'*' groups merged: other path", globals, "FooBot", "/z", semNoRule, nil},
		{"specific group between '*' groups", globals, "a", "/z", semDisallowed(4), nil},
	})
	for _, m := range semModes {
		r := robots.Parse([]byte(orphan), robots.WithMode(m))
		require.Len(t, r.Groups(), 1, "mode %v", m)
		assert.Len(t, r.Groups()[0].Rules, 1, "mode %v", m)
	}
}

// RFC 9309 section 2.2.4 (other records MUST NOT interfere) and the Google
// reference parser: sitemap and unknown lines neither end a run of
// user-agent lines nor a group.
func TestRFCGroupOtherRecords(t *testing.T) {
	const crawlDelay = "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n"
	const sitemap = "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n"
	const unknown = "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n"
	const inside = "User-agent: a\nDisallow: /x\nCrawl-delay: 5\nDisallow: /y\n"
	const after = "User-agent: a\nDisallow: /x\nSitemap: https://example.com/s.xml\nUser-agent: b\nDisallow: /y\n"
	semRun(t, []semRow{
		{"crawl-delay between user-agents", crawlDelay, "a", "/x", semDisallowed(4), nil},
		{"crawl-delay, second agent", crawlDelay, "b", "/x", semDisallowed(4), nil},
		{"sitemap between user-agents", sitemap, "BarBot", "/", semDisallowed(4), nil},
		{"sitemap, '*' agent", sitemap, "FooBot", "/", semDisallowed(4), nil},
		{"unknown line between user-agents", unknown, "FooBot", "/", semDisallowed(4), nil},
		{"blank line between user-agents", "User-agent: a\n\nUser-agent: *\nDisallow: /\n", "a", "/x", semDisallowed(4), nil},
		{"unknown line inside a group", inside, "a", "/y", semDisallowed(4), nil},
		{"user-agent after rule and sitemap starts a group", after, "a", "/y", semNoRule, nil},
	})
}

// RFC 9309 section 2.2.1: the product token is matched case-insensitively.
func TestRFCGroupAgentCaseInsensitive(t *testing.T) {
	semRun(t, []semRow{
		{"upper-case line, mixed agent", "User-agent: FOOBOT\nDisallow: /\n", "FooBot", "/x", semDisallowed(2), nil},
		{"lower-case line, upper agent", "User-agent: foobot\nDisallow: /\n", "FOOBOT", "/x", semDisallowed(2), nil},
		{"mixed-case line with space", "user-agent: FoO bAr\nallow: /x/\ndisallow: /\n", "foo", "/x/y", semAllowed(2), nil},
		{"other agent", "User-agent: foobot\nDisallow: /\n", "BarBot", "/x", semNoRule, nil},
	})
}

// Google reference parser: a user-agent value is cut at the first byte
// outside [A-Za-z_-]; the caller's agent is compared whole. '*' followed by
// white space is the global agent in Google mode only.
func TestGoogleAgentToken(t *testing.T) {
	const fooBar = "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n"
	semRun(t, []semRow{
		{"version cut", "User-agent: Googlebot/2.1\nDisallow: /\n", "Googlebot", "/x", semDisallowed(2), nil},
		{"digits cut", "User-agent: Foo-Bar_Baz2\nDisallow: /\n", "Foo-Bar_Baz", "/x", semDisallowed(2), nil},
		{"caller's agent with digit matches nothing", "User-agent: Foo-Bar_Baz2\nDisallow: /\n", "Foo-Bar_Baz2", "/x", semNoRule, nil},
		{"space cut: first word", fooBar, "Foo", "/x/y", semAllowed(4), nil},
		{"space cut: caller's agent is not cut", fooBar, "Foo Bar", "/x/y", semDisallowed(2), nil},
		{"space cut: second word is no agent", fooBar, "Bar", "/x/y", semDisallowed(2), nil},
		{"caller's versioned agent is not cut", "User-agent: Googlebot\nDisallow: /\n", "Googlebot/2.1", "/x", semNoRule, nil},
		{"'*' alone", "User-agent: *\nDisallow: /\n", "FooBot", "/x", semDisallowed(2), nil},
		{"'*' space word", "User-agent: * foo\nDisallow: /\n", "FooBot", "/x", semDisallowed(2), semInRFC(semNoRule)},
		{"'*' tab word", "User-agent: *\tfoo\nDisallow: /\n", "FooBot", "/x", semDisallowed(2), semInRFC(semNoRule)},
		{"'*' glued to a word is no global", "User-agent: *foo\nDisallow: /\n", "FooBot", "/x", semNoRule, nil},
	})
}

// RFC 9309 section 2.2.1: the '*' group applies only when no group names the
// crawler; a group that names it, even one without rules, hides it.
func TestRFCGroupSpecificHidesGlobal(t *testing.T) {
	const global = "User-agent: *\nDisallow: /\n\n"
	semRun(t, []semRow{
		{"no group for the agent", global + "User-agent: a\n", "b", "/x", semDisallowed(2), nil},
		{"group without lines", global + "User-agent: a\n", "a", "/x", semNoRule, nil},
		{"group with only an unknown line", global + "User-agent: a\nCrawl-delay: 5\n", "a", "/x", semNoRule, nil},
		{"group with an empty disallow", global + "User-agent: a\nDisallow:\n", "a", "/x", semNoRule, nil},
		{"group whose rules do not match", global + "User-agent: a\nAllow: /x\n", "a", "/y", semNoRule, nil},
		{"group before the '*' group", "User-agent: a\nDisallow: /y\n" + global, "a", "/x", semNoRule, nil},
		{"unnamed agent gets the '*' group", "User-agent: a\nDisallow: /y\n" + global, "b", "/x", semDisallowed(4), nil},
	})
}

// Google reference parser: given several agents at once, it merges the
// groups of every agent named (AnyAgent); Agent instead uses the first agent
// that some group names.
func TestGoogleSeveralAgents(t *testing.T) {
	const body = "User-agent: Googlebot\nDisallow: /private\n\n" +
		"User-agent: Googlebot-Image\nDisallow: /photos\n\n" +
		"User-agent: *\nDisallow: /\n"
	rows := []struct {
		name   string
		any    bool // AnyAgent instead of Agent
		agents []string
		url    string
		want   semVerdict
		agent  string // expected Name()
	}{
		{"fallback: first agent's group only", false, []string{"Googlebot-Image", "Googlebot"}, "/private", semNoRule, "Googlebot-Image"},
		{"fallback: first agent's rule", false, []string{"Googlebot-Image", "Googlebot"}, "/photos", semDisallowed(5), "Googlebot-Image"},
		{"merge: second agent's rule applies", true, []string{"Googlebot-Image", "Googlebot"}, "/private", semDisallowed(2), "Googlebot-Image"},
		{"merge: first agent's rule", true, []string{"Googlebot-Image", "Googlebot"}, "/photos", semDisallowed(5), "Googlebot-Image"},
		{"merge: '*' group hidden", true, []string{"Googlebot-Image", "Googlebot"}, "/other", semNoRule, "Googlebot-Image"},
		{"fallback: unnamed first agent skipped", false, []string{"Otherbot", "Googlebot"}, "/private", semDisallowed(2), "Googlebot"},
		{"merge: unnamed agent adds nothing", true, []string{"Otherbot", "Googlebot"}, "/photos", semNoRule, "Googlebot"},
		{"fallback: none named, '*' applies", false, []string{"Otherbot", "Nobot"}, "/x", semDisallowed(8), ""},
		{"merge: none named, '*' applies", true, []string{"Otherbot", "Nobot"}, "/x", semDisallowed(8), ""},
		{"fallback: no agents, '*' applies", false, nil, "/x", semDisallowed(8), ""},
	}
	for _, m := range semModes {
		r := robots.Parse([]byte(body), robots.WithMode(m))
		for _, row := range rows {
			t.Run(m.String()+"/"+row.name, func(t *testing.T) {
				a := r.Agent(row.agents...)
				if row.any {
					a = r.AnyAgent(row.agents...)
				}
				assert.Equal(t, row.agent, a.Name())
				semCheck(t, a, row.url, row.want)
			})
		}
	}
}

// Google reference parser: a pattern's bytes outside ASCII are %-escaped and
// its %xx escapes upper-cased; nothing is decoded and the URL is taken as
// given. RFC mode normalises both sides (RFC 9309 section 2.2.2).
// Conformance areas non-ascii-paths and ID_Encoding.
func TestGooglePatternEscaping(t *testing.T) {
	const ua = "User-agent: FooBot\n"
	semRun(t, []semRow{
		{"lower-case escape matches upper-case URL", ua + "Disallow: /%aa\n", "FooBot", "/%AA", semDisallowed(2), nil},
		{"lower-case escape vs lower-case URL", ua + "Disallow: /%aa\n", "FooBot", "/%aa", semNoRule, semInRFC(semDisallowed(2))},
		{"UTF-8 pattern matches escaped URL", ua + "Disallow: /ツ\n", "FooBot", "/%E3%83%84", semDisallowed(2), nil},
		{"UTF-8 pattern vs raw UTF-8 URL", ua + "Disallow: /ツ\n", "FooBot", "/ツ", semNoRule, semInRFC(semDisallowed(2))},
		{"escaped pattern vs raw UTF-8 URL", ua + "Disallow: /%E3%83%84\n", "FooBot", "/ツ", semNoRule, semInRFC(semDisallowed(2))},
		{"escaped unreserved is not decoded", ua + "Disallow: /%62%61%7A\n", "FooBot", "/baz", semNoRule, semInRFC(semDisallowed(2))},
		{"escaped unreserved matches itself", ua + "Disallow: /%62%61%7A\n", "FooBot", "/%62%61%7A", semDisallowed(2), nil},
		{"escaped slash matches itself", ua + "Disallow: /a%2fb\n", "FooBot", "/a%2Fb", semDisallowed(2), nil},
		{"escaped slash is not a slash", ua + "Disallow: /a%2fb\n", "FooBot", "/a/b", semNoRule, nil},
		{"allow wins with escaped UTF-8 (conformance)", ua + "Disallow: /\nAllow: /foo/bar/ツ\n", "FooBot", "http://foo.bar/foo/bar/%E3%83%84", semAllowed(3), nil},
	})
	for in, want := range map[string]string{
		"/ツ":     "/%E3%83%84",
		"/%aa":   "/%AA",
		"/a%2fb": "/a%2Fb",
		"/%zz":   "/%zz",
		"/a b":   "/a b",
	} {
		r := robots.Parse([]byte(ua + "Disallow: " + in + "\n"))
		require.Len(t, r.Groups(), 1)
		require.Len(t, r.Groups()[0].Rules, 1)
		assert.Equal(t, want, r.Groups()[0].Rules[0].Pattern, "pattern of %q", in)
	}
}

// RFC 9309 section 2.2.3: '*' matches any run of characters, the empty one
// too; '$' anchors the end only as the pattern's last character, and is a
// literal '$' elsewhere.
func TestRFCRuleWildcards(t *testing.T) {
	const ua = "User-agent: *\n"
	semRun(t, []semRow{
		{"star matches empty", ua + "Disallow: /a*b\n", "FooBot", "/ab", semDisallowed(2), nil},
		{"star matches a run", ua + "Disallow: /a*b\n", "FooBot", "/axyzb", semDisallowed(2), nil},
		{"star matches slashes", ua + "Disallow: /a*b\n", "FooBot", "/a/b/c", semDisallowed(2), nil},
		{"star needs the rest", ua + "Disallow: /a*b\n", "FooBot", "/ac", semNoRule, nil},
		{"trailing star", ua + "Disallow: /a*\n", "FooBot", "/a", semDisallowed(2), nil},
		{"leading star", ua + "Disallow: *x\n", "FooBot", "/abx", semDisallowed(2), nil},
		{"several stars", ua + "Disallow: /**a**b**\n", "FooBot", "/xaxb", semDisallowed(2), nil},
		{"dollar anchors", ua + "Disallow: /*.php$\n", "FooBot", "/x.php", semDisallowed(2), nil},
		{"dollar anchors before query", ua + "Disallow: /*.php$\n", "FooBot", "/x.php?q=1", semNoRule, nil},
		{"dollar anchors the last occurrence", ua + "Disallow: /*.php$\n", "FooBot", "/a.php/b.php", semDisallowed(2), nil},
		{"dollar rejects longer path", ua + "Disallow: /a$\n", "FooBot", "/ab", semNoRule, nil},
		{"dollar exact", ua + "Disallow: /a$\n", "FooBot", "/a", semDisallowed(2), nil},
		{"inner dollar is literal", ua + "Disallow: /a$b\n", "FooBot", "/a$b", semDisallowed(2), nil},
		{"inner dollar is no anchor", ua + "Disallow: /a$b\n", "FooBot", "/a", semNoRule, nil},
		{"inner dollar then prefix", ua + "Disallow: /a$b\n", "FooBot", "/a$bc", semDisallowed(2), nil},
		{"double dollar: literal then anchor", ua + "Disallow: /a$$\n", "FooBot", "/a$", semDisallowed(2), nil},
		{"double dollar: anchored", ua + "Disallow: /a$$\n", "FooBot", "/a$x", semNoRule, nil},
	})
}

// RFC 9309 section 2.2.2: a path pattern starts with '/' (or, as a pattern,
// '*'); anything else never matches, and an empty value is no rule.
func TestRFCRuleEmptyAndRelative(t *testing.T) {
	const ua = "User-agent: *\n"
	semRun(t, []semRow{
		{"relative pattern", ua + "Disallow: a\n", "FooBot", "/a", semNoRule, nil},
		{"relative pattern, full URL", ua + "Disallow: a\n", "FooBot", "http://example.com/a", semNoRule, nil},
		{"host in pattern", ua + "Disallow: example.com/a\n", "FooBot", "http://example.com/a", semNoRule, nil},
		{"query without slash", ua + "Disallow: ?x\n", "FooBot", "/?x", semNoRule, nil},
		{"empty disallow", ua + "Disallow:\n", "FooBot", "/x", semNoRule, nil},
		{"empty allow decides nothing", ua + "Allow:\nDisallow: /\n", "FooBot", "/x", semDisallowed(3), nil},
		{"empty disallow beside a rule", ua + "Disallow:\nDisallow: /x\n", "FooBot", "/x", semDisallowed(3), nil},
	})
}

// RFC 9309 section 2.2.2: the longest matching pattern wins, its length
// counted in bytes of the escaped pattern ('*' and '$' included); allow wins
// a tie. Among equal rules the first one decides, as in the reference.
func TestRFCRulePriority(t *testing.T) {
	const ua = "User-agent: *\n"
	semRun(t, []semRow{
		{"longer allow wins", ua + "Allow: /p\nDisallow: /\n", "FooBot", "/page", semAllowed(2), nil},
		{"longer disallow wins", ua + "Allow: /\nDisallow: /p\n", "FooBot", "/page", semDisallowed(3), nil},
		{"tie goes to allow", ua + "Allow: /folder\nDisallow: /folder\n", "FooBot", "/folder/x", semAllowed(2), nil},
		{"tie goes to allow, order irrelevant", ua + "Disallow: /folder\nAllow: /folder\n", "FooBot", "/folder/x", semAllowed(3), nil},
		{"tie with a star", ua + "Disallow: /ab\nAllow: /a*\n", "FooBot", "/ab", semAllowed(3), nil},
		{"disallow strictly longer wins", ua + "Allow: /page\nDisallow: /*.htm\n", "FooBot", "/page.htm", semDisallowed(3), nil},
		{"star counts", ua + "Allow: /a\nDisallow: /*a\n", "FooBot", "/a", semDisallowed(3), nil},
		{"dollar counts", ua + "Allow: /$\nDisallow: /\n", "FooBot", "/", semAllowed(2), nil},
		{"dollar counts, other path", ua + "Allow: /$\nDisallow: /\n", "FooBot", "/x", semDisallowed(3), nil},
		{"pattern length, not matched length", ua + "Disallow: /*****\nAllow: /abc\n", "FooBot", "/abc", semDisallowed(2), nil},
		{"escaped length counts", ua + "Allow: /ツ\nDisallow: /%E3%83\n", "FooBot", "/%E3%83%84", semAllowed(2), nil},
		{"first of equal rules decides", ua + "Disallow: /a\nDisallow: /a\n", "FooBot", "/a", semDisallowed(2), nil},
	})
}

// Google: robots.txt specification documentation and reference parser: an
// allow of ".../index.htm…" also allows the directory itself ("/x/", exactly).
// RFC mode has no such rule. Conformance areas index-page and
// GoogleOnly_IndexHTMLisDirectory.
func TestGoogleIndexHTML(t *testing.T) {
	const body = "User-agent: *\nDisallow: /\nAllow: /x/index.html\n"
	semRun(t, []semRow{
		{"directory allowed", body, "FooBot", "/x/", semAllowed(3), semInRFC(semDisallowed(2))},
		{"index itself", body, "FooBot", "/x/index.html", semAllowed(3), nil},
		{"index.htm is not index.html", body, "FooBot", "/x/index.htm", semDisallowed(2), nil},
		{"not below the directory", body, "FooBot", "/x/y", semDisallowed(2), nil},
		{"anchored: no query", body, "FooBot", "/x/?q=1", semDisallowed(2), nil},
		{"not the directory without slash", body, "FooBot", "/x", semDisallowed(2), nil},
		{"index.htm", "User-agent: *\nDisallow: /\nAllow: /x/index.htm\n", "FooBot", "/x/", semAllowed(3), semInRFC(semDisallowed(2))},
		{"root index", "User-agent: *\nDisallow: /\nAllow: /index.html\n", "FooBot", "/", semAllowed(3), semInRFC(semDisallowed(2))},
		{"index.php is not an index.htm", "User-agent: *\nDisallow: /\nAllow: /x/index.php\n", "FooBot", "/x/", semDisallowed(2), nil},
	})
}

// Google reference parser (GetPathParamsQuery): a URL is matched by its path,
// parameters and query; scheme, host and fragment are removed, the result
// starts with '/', and nothing is normalised. Both modes.
func TestGoogleURLToPath(t *testing.T) {
	const body = "User-agent: *\n" +
		"Disallow: /*?x=1\n" + // 2
		"Disallow: /*;jsessionid\n" + // 3
		"Disallow: /a$\n" + // 4
		"Disallow: /$\n" + // 5
		"Disallow: /b\n" + // 6
		"Disallow: /s%20p\n" // 7
	semRun(t, []semRow{
		{"query kept", body, "FooBot", "https://example.com/page?x=1", semDisallowed(2), nil},
		{"no query", body, "FooBot", "https://example.com/page", semNoRule, nil},
		{"params kept", body, "FooBot", "http://example.com/p;jsessionid=1", semDisallowed(3), nil},
		{"fragment removed", body, "FooBot", "http://example.com/a#frag", semDisallowed(4), nil},
		{"query inside fragment removed", body, "FooBot", "http://example.com/c#?x=1", semNoRule, nil},
		{"no path is /", body, "FooBot", "http://example.com", semDisallowed(5), nil},
		{"empty URL is /", body, "FooBot", "", semDisallowed(5), nil},
		{"query without path gets /", body, "FooBot", "http://example.com?x=1", semDisallowed(2), nil},
		{"dot segments not resolved", body, "FooBot", "http://example.com/a/../b", semNoRule, nil},
		{"dot segments matched literally", body, "FooBot", "http://example.com/b/../a", semDisallowed(6), nil},
		{"host not matched", body, "FooBot", "http://b.example.com/x", semNoRule, nil},
		{"path alone", body, "FooBot", "/b", semDisallowed(6), nil},
		{"no scheme", body, "FooBot", "example.com/b", semDisallowed(6), nil},
		{"scheme-relative", body, "FooBot", "//example.com/b", semDisallowed(6), nil},
		{"path case kept", body, "FooBot", "HTTP://EXAMPLE.COM/B", semNoRule, nil},
		{"space not escaped", body, "FooBot", "http://example.com/s p", semNoRule, nil},
	})
	for _, m := range semModes {
		a := robots.Parse([]byte(body), robots.WithMode(m)).Agent("FooBot")
		t.Run(m.String()+"/AllowedURL", func(t *testing.T) {
			for raw, want := range map[string]bool{
				"https://example.com/page?x=1#f": false,
				"https://example.com/page#x=1":   true,
				"https://example.com":            false,
				"https://example.com/b/../a":     false,
				"https://example.com/a;b":        true,
			} {
				u, err := url.Parse(raw)
				require.NoError(t, err)
				assert.Equal(t, want, a.AllowedURL(u), "AllowedURL(%q)", raw)
			}
			// The escaped path is matched: a space becomes %20.
			assert.False(t, a.AllowedURL(&url.URL{Scheme: "https", Host: "example.com", Path: "/s p"}))
		})
		t.Run(m.String()+"/AllowedPath", func(t *testing.T) {
			assert.False(t, a.AllowedPath("/page?x=1"))
			assert.True(t, a.AllowedPath("/page"))
			assert.False(t, a.AllowedPath(""), "empty path is /")
			assert.False(t, a.AllowedPath("/p;jsessionid=1"))
			assert.True(t, a.AllowedPath("/a/../b"))
		})
	}
}

// Google: robots.txt specification documentation (and RFC 9309 section 2.5,
// which sets the minimum): content after robots.MaxBytes is ignored.
// WithMaxBytes changes the limit. Both modes.
func TestGoogleMaxBytes(t *testing.T) {
	const head = "User-agent: *\nDisallow: /a\n"
	filler := "#" + strings.Repeat("x", robots.MaxBytes-len(head)-2) + "\n"
	require.Equal(t, 500*1024, robots.MaxBytes)
	require.Equal(t, robots.MaxBytes, len(head+filler))
	full := head + filler + "Disallow: /bcd\n" // the rule is line 4, past the limit
	rows := []struct {
		name      string
		body      string
		opts      []robots.Option
		url       string
		want      semVerdict
		truncated bool
	}{
		{"before the limit", full, nil, "/a", semDisallowed(2), true},
		{"after the limit", full, nil, "/bcd", semNoRule, true},
		{"exactly MaxBytes", head + filler, nil, "/a", semDisallowed(2), false},
		{"no limit", full, []robots.Option{robots.WithMaxBytes(-1)}, "/bcd", semDisallowed(4), false},
		{"zero restores the default", full, []robots.Option{robots.WithMaxBytes(0)}, "/bcd", semNoRule, true},
		{"limit above the size", full, []robots.Option{robots.WithMaxBytes(len(full))}, "/bcd", semDisallowed(4), false},
		{"limit cuts a line mid-way", full, []robots.Option{robots.WithMaxBytes(len(head+filler) + len("Disallow: /b"))}, "/bx", semDisallowed(4), true},
		{"small limit", head, []robots.Option{robots.WithMaxBytes(len("User-agent: *\nDisallow: /"))}, "/a", semDisallowed(2), true},
		{"tiny limit", head, []robots.Option{robots.WithMaxBytes(4)}, "/a", semNoRule, true},
	}
	for _, m := range semModes {
		for _, row := range rows {
			t.Run(m.String()+"/"+row.name, func(t *testing.T) {
				r := robots.Parse([]byte(row.body), append(row.opts, robots.WithMode(m))...)
				assert.Equal(t, row.truncated, r.Truncated())
				semCheck(t, r.Agent("FooBot"), row.url, row.want)
			})
		}
	}
}

// Google: robots.txt specification documentation: sitemap lines may stand
// anywhere, are returned in file order, and do not affect groups. The
// misspelling "site-map" and prefixes such as "Sitemaps" count in Google mode
// only.
func TestGoogleSitemaps(t *testing.T) {
	const body = "Sitemap: https://example.com/a.xml\n" +
		"User-agent: FooBot\n" +
		"Sitemap: https://example.com/b.xml\n" +
		"Disallow: /x\n" +
		"site-map: https://example.com/c.xml\n" +
		"  SITEMAP : https://example.com/d.xml # comment\n" +
		"Sitemaps: https://example.com/e.xml\n" +
		"Sitemap: https://example.com/ツ.xml\n"
	want := map[robots.Mode][]string{
		robots.Google: {
			"https://example.com/a.xml", "https://example.com/b.xml", "https://example.com/c.xml",
			"https://example.com/d.xml", "https://example.com/e.xml", "https://example.com/ツ.xml",
		},
		robots.RFC: {
			"https://example.com/a.xml", "https://example.com/b.xml",
			"https://example.com/d.xml", "https://example.com/ツ.xml",
		},
	}
	for _, m := range semModes {
		r := robots.Parse([]byte(body), robots.WithMode(m))
		assert.Equal(t, want[m], r.Sitemaps(), "mode %v", m)
		require.Len(t, r.Groups(), 1, "mode %v", m)
	}
	semRun(t, []semRow{
		{"sitemap inside a group", body, "FooBot", "/x", semDisallowed(4), nil},
		{"sitemap before the rules", "User-agent: a\nSitemap: https://example.com/s.xml\nUser-agent: b\nDisallow: /\n", "a", "/x", semDisallowed(4), nil},
	})
}

// The matcher is safe for concurrent use: many goroutines resolving agents
// and deciding URLs on one *Robots agree with a sequential run.
func TestGoogleConcurrentUse(t *testing.T) {
	const body = "User-agent: *\nDisallow: /private\nAllow: /private/ok\n\n" +
		"User-agent: FooBot\nUser-agent: BarBot\nDisallow: /\nAllow: /public\n\n" +
		"User-agent: BazBot\nDisallow: /*.php$\n"
	agents := [][]string{{"FooBot"}, {"BarBot"}, {"BazBot"}, {"QuxBot"}, {"QuxBot", "BazBot"}, {"foobot"}}
	urls := []string{"/", "/private", "/private/ok", "/public/x", "/x.php", "/x.php?y", "http://example.com/private"}
	for _, m := range semModes {
		t.Run(m.String(), func(t *testing.T) {
			ref := robots.Parse([]byte(body), robots.WithMode(m))
			want := map[string]bool{}
			for _, ag := range agents {
				a := ref.Agent(ag...)
				for _, u := range urls {
					want[strings.Join(ag, ",")+" "+u] = a.Allowed(u)
				}
			}
			r := robots.Parse([]byte(body), robots.WithMode(m))
			var wg sync.WaitGroup
			for g := range 8 {
				wg.Go(func() {
					for i := range 20 {
						ag := agents[(g+i)%len(agents)]
						a := r.Agent(ag...)
						for _, u := range urls {
							key := strings.Join(ag, ",") + " " + u
							if got := a.Allowed(u); got != want[key] {
								t.Errorf("goroutine %d: %s: allowed=%v, want %v", g, key, got, want[key])
							}
							if got := r.Allowed(ag[0], u); got != ref.Allowed(ag[0], u) {
								t.Errorf("goroutine %d: Robots.Allowed(%q, %q)=%v", g, ag[0], u, got)
							}
						}
					}
				})
			}
			wg.Wait()
		})
	}
}
