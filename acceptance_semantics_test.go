package robots_test

// Tests of the semantics listed in docs/semantics.md, one test per
// behaviour. TestRFC… tests pin what RFC 9309 requires; TestGoogle… tests pin
// what Google documents or its reference parser does beyond the RFC. Every
// test runs in both modes. The checks of each test are its section of
// testdata/semantics/semantics.txt (see acceptance_semfile_test.go); the Go code here
// adds what a table of verdicts cannot say.

import (
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
)

// RFC 9309 section 2.2: EOL is LF, CR or CRLF. Each counts as one line break.
func TestRFCLineEndings(t *testing.T) { semRun(t) }

// Google reference parser: a UTF-8 byte order mark, or any prefix of one, is
// skipped at the start of the body only. Both modes.
func TestGoogleByteOrderMark(t *testing.T) {
	semRun(t)
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
func TestRFCLineComments(t *testing.T) { semRun(t) }

// RFC 9309 section 2.2: white space around the key, the colon and the value
// is allowed and not part of them.
func TestRFCLineWhitespace(t *testing.T) {
	semRun(t)
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
	require.Equal(t, 16663, robots.MaxLineBytes, "the counts of the semantics file")
	long := semRun(t).value(t, "long")
	fill := robots.MaxLineBytes - len("Disallow: /") // 'a's that fit on a full line
	r := robots.Parse([]byte(long))
	require.Len(t, r.Groups(), 1)
	require.Len(t, r.Groups()[0].Rules, 2)
	assert.Equal(t, "/"+strings.Repeat("a", fill), r.Groups()[0].Rules[0].Value)
}

// Google reference parser: a NUL byte ends a line's content; the line itself
// still ends at its line break. Both modes.
func TestGoogleNULEndsLine(t *testing.T) { semRun(t) }

// RFC 9309 section 2.2.1 and 2.2.2: field names are case-insensitive.
func TestRFCLineFieldNameCase(t *testing.T) {
	semRun(t)
	for _, m := range semModes {
		r := robots.Parse([]byte("SiteMap: https://example.com/s.xml\n"), robots.WithMode(m))
		assert.Equal(t, []string{"https://example.com/s.xml"}, r.Sitemaps(), "mode %v", m)
	}
}

// Google reference parser: a key is recognised by case-insensitive prefix,
// in the order user-agent, allow, disallow, sitemap, and common misspellings
// are accepted. RFC mode needs the exact field name.
func TestGoogleFieldNamePrefixAndTypos(t *testing.T) {
	semRun(t)
	const sitemap = "site-map: https://example.com/s.xml\n"
	assert.Equal(t, []string{"https://example.com/s.xml"}, robots.Parse([]byte(sitemap)).Sitemaps())
	assert.Empty(t, robots.Parse([]byte(sitemap), robots.WithMode(robots.RFC)).Sitemaps())
}

// Google reference parser: a line without a colon that holds exactly two
// words is read as "key value". RFC mode requires the colon.
func TestGoogleMissingColon(t *testing.T) { semRun(t) }

// RFC 9309 section 2.1 and 2.2.1: consecutive user-agent lines share the
// rules that follow; a user-agent line after a rule starts a new group;
// rules before any user-agent line belong to no group; groups naming the
// same agent are merged, and so are all '*' groups.
func TestRFCGroupStructure(t *testing.T) {
	orphan := semRun(t).value(t, "orphan")
	for _, m := range semModes {
		r := robots.Parse([]byte(orphan), robots.WithMode(m))
		require.Len(t, r.Groups(), 1, "mode %v", m)
		assert.Len(t, r.Groups()[0].Rules, 1, "mode %v", m)
	}
}

// RFC 9309 section 2.2.4 (other records MUST NOT interfere) and the Google
// reference parser: sitemap and unknown lines neither end a run of
// user-agent lines nor a group.
func TestRFCGroupOtherRecords(t *testing.T) { semRun(t) }

// RFC 9309 section 2.2.1: the product token is matched case-insensitively.
func TestRFCGroupAgentCaseInsensitive(t *testing.T) { semRun(t) }

// Google reference parser: a user-agent value is cut at the first byte
// outside [A-Za-z_-]; the caller's agent is compared whole. '*' followed by
// white space is the global agent in Google mode only.
func TestGoogleAgentToken(t *testing.T) { semRun(t) }

// RFC 9309 section 2.2.1: the '*' group applies only when no group names the
// crawler; a group that names it, even one without rules, hides it.
func TestRFCGroupSpecificHidesGlobal(t *testing.T) { semRun(t) }

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
		want   verdict
		agent  string // expected Name()
	}{
		{"fallback: first agent's group only", false, []string{"Googlebot-Image", "Googlebot"}, "/private", noRule, "Googlebot-Image"},
		{"fallback: first agent's rule", false, []string{"Googlebot-Image", "Googlebot"}, "/photos", disallowedBy(5), "Googlebot-Image"},
		{"merge: second agent's rule applies", true, []string{"Googlebot-Image", "Googlebot"}, "/private", disallowedBy(2), "Googlebot-Image"},
		{"merge: first agent's rule", true, []string{"Googlebot-Image", "Googlebot"}, "/photos", disallowedBy(5), "Googlebot-Image"},
		{"merge: '*' group hidden", true, []string{"Googlebot-Image", "Googlebot"}, "/other", noRule, "Googlebot-Image"},
		{"fallback: unnamed first agent skipped", false, []string{"Otherbot", "Googlebot"}, "/private", disallowedBy(2), "Googlebot"},
		{"merge: unnamed agent adds nothing", true, []string{"Otherbot", "Googlebot"}, "/photos", noRule, "Googlebot"},
		{"fallback: none named, '*' applies", false, []string{"Otherbot", "Nobot"}, "/x", disallowedBy(8), ""},
		{"merge: none named, '*' applies", true, []string{"Otherbot", "Nobot"}, "/x", disallowedBy(8), ""},
		{"fallback: no agents, '*' applies", false, nil, "/x", disallowedBy(8), ""},
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
				checkVerdict(t, a, row.url, row.want)
			})
		}
	}
}

// Google reference parser: a pattern's bytes outside ASCII are %-escaped and
// its %xx escapes upper-cased; nothing is decoded and the URL is taken as
// given. RFC mode normalises both sides (RFC 9309 section 2.2.2).
// Conformance areas non-ascii-paths and ID_Encoding.
func TestGooglePatternEscaping(t *testing.T) {
	ua := semRun(t).value(t, "ua")
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
func TestRFCRuleWildcards(t *testing.T) { semRun(t) }

// RFC 9309 section 2.2.2: a path pattern starts with '/' (or, as a pattern,
// '*'); anything else never matches, and an empty value is no rule.
func TestRFCRuleEmptyAndRelative(t *testing.T) { semRun(t) }

// RFC 9309 section 2.2.2: the longest matching pattern wins, its length
// counted in bytes of the escaped pattern ('*' and '$' included); allow wins
// a tie. Among equal rules the first one decides, as in the reference.
func TestRFCRulePriority(t *testing.T) { semRun(t) }

// Google: robots.txt specification documentation and reference parser: an
// allow of ".../index.htm…" also allows the directory itself ("/x/", exactly).
// RFC mode has no such rule. Conformance areas index-page and
// GoogleOnly_IndexHTMLisDirectory.
func TestGoogleIndexHTML(t *testing.T) { semRun(t) }

func TestGoogleNULEndsThePath(t *testing.T) { semRun(t) }

// Google reference parser (GetPathParamsQuery): a URL is matched by its path,
// parameters and query; scheme, host and fragment are removed, the result
// starts with '/', and nothing is normalised. Both modes.
func TestGoogleURLToPath(t *testing.T) {
	body := semRun(t).value(t, "body")
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
		want      verdict
		truncated bool
	}{
		{"before the limit", full, nil, "/a", disallowedBy(2), true},
		{"after the limit", full, nil, "/bcd", noRule, true},
		{"exactly MaxBytes", head + filler, nil, "/a", disallowedBy(2), false},
		{"no limit", full, []robots.Option{robots.WithMaxBytes(-1)}, "/bcd", disallowedBy(4), false},
		{"zero restores the default", full, []robots.Option{robots.WithMaxBytes(0)}, "/bcd", noRule, true},
		{"limit above the size", full, []robots.Option{robots.WithMaxBytes(len(full))}, "/bcd", disallowedBy(4), false},
		{"limit cuts a line mid-way", full, []robots.Option{robots.WithMaxBytes(len(head+filler) + len("Disallow: /b"))}, "/bx", disallowedBy(4), true},
		{"small limit", head, []robots.Option{robots.WithMaxBytes(len("User-agent: *\nDisallow: /"))}, "/a", disallowedBy(2), true},
		{"tiny limit", head, []robots.Option{robots.WithMaxBytes(4)}, "/a", noRule, true},
	}
	for _, m := range semModes {
		for _, row := range rows {
			t.Run(m.String()+"/"+row.name, func(t *testing.T) {
				r := robots.Parse([]byte(row.body), append(row.opts, robots.WithMode(m))...)
				assert.Equal(t, row.truncated, r.Truncated())
				checkVerdict(t, r.Agent("FooBot"), row.url, row.want)
			})
		}
	}
}

// Google: robots.txt specification documentation: sitemap lines may stand
// anywhere, are returned in file order, and do not affect groups. The
// misspelling "site-map" and prefixes such as "Sitemaps" count in Google mode
// only.
func TestGoogleSitemaps(t *testing.T) {
	body := semRun(t).value(t, "body")
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
