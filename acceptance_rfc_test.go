package robots_test

// Tests of strict RFC 9309 mode against every example RFC 9309 gives:
// the figures of sections 2.2.1 to 2.2.3, the two files of section 5, and
// the normative sentences of sections 2.1 to 2.5 that state a verdict. The
// checks are the sections of testdata/semantics/rfc9309.txt (see
// acceptance_semfile_test.go); each names the section (and figure) it comes from.
// Where Google mode reaches a different verdict, the check states it too so
// that the difference is visible.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
)

// RFC 9309 section 2.2.1 (Figures 1 and 3 and the sentences around them)
// and the product-token rule of the section 2.2 grammar.
func TestRFCUserAgentExamples(t *testing.T) { semRun(t) }

// RFC 9309 section 2.2.1, Figure 2: groups that match the same product
// token are combined into one group, and the combined rules are matched
// as section 2.2.2 says (the longest match wins across the merged groups).
func TestRFCGroupMerging(t *testing.T) { semRun(t) }

// RFC 9309 sections 2.1, 2.2 (grammar), 2.2.2 and 2.2.4: where a group
// starts and ends.
func TestRFCGroupBoundaries(t *testing.T) { semRun(t) }

// RFC 9309 section 5.1, Simple Example, with the verdicts its prose gives
// for '*', foobot, barbot and bazbot, and quxbot. The file is read with each
// of the line breaks of the section 2.2 grammar (NL = CR / LF / CRLF).
func TestRFCSimpleExample(t *testing.T) {
	s := semSectionOf(t)
	lf := s.value(t, "simple")
	endings := []struct{ name, nl string }{{"LF", "\n"}, {"CRLF", "\r\n"}, {"CR", "\r"}}
	for _, e := range endings {
		body := strings.ReplaceAll(lf, "\n", e.nl)
		t.Run(e.name, func(t *testing.T) {
			for _, m := range semModes {
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
			checks := append([]semCheck(nil), s.checks...)
			for i := range checks {
				require.Equal(t, lf, checks[i].body, "%s: every check reads the file", checks[i].pos)
				checks[i].body = body
			}
			semRunChecks(t, checks)
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
func TestRFCLongestMatch(t *testing.T) { semRun(t) }

// RFC 9309 section 2.2.2, Figure 4: "Examples of matching percent-encoded
// URI components". Every form of a row (Path, Encoded Path, Path to Match)
// used as the pattern of "User-agent: *\nDisallow: <pattern>\n" matches every
// form of the same row used as the URL; a near miss does not match.
func TestRFCPercentEncodingTable(t *testing.T) {
	site := semRun(t).value(t, "site")
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
	var checks []semCheck
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
				checks = append(checks, fig4Check(source, "pattern "+p.name+" matches URL "+u.name, p.s, site+u.s,
					map[robots.Mode]verdict{robots.RFC: disallowedBy(2)}))
			}
			checks = append(checks, fig4Check(source, "pattern "+p.name+" near miss", p.s, site+f.nearMiss,
				map[robots.Mode]verdict{robots.Google: noRule, robots.RFC: noRule}))
		}
	}
	semRunChecks(t, checks)
}

// fig4Check is a check of Figure 4: pattern disallowed for ExampleBot,
// asked of url.
func fig4Check(source, name, pattern, url string, want map[robots.Mode]verdict) semCheck {
	return semCheck{
		pos: "acceptance_rfc_test.go, Figure 4", source: source, name: name,
		body: "User-agent: *\nDisallow: " + pattern + "\n", agent: "ExampleBot", url: url, want: want,
	}
}

// RFC 9309 section 2.2.3, Figure 5 (special characters '#', '$', '*') and
// Figure 6 (percent-encoded '*' and '$' matching them verbatim in the URI).
func TestRFCSpecialCharacters(t *testing.T) { semRun(t) }

// RFC 9309 section 2.2.2: "The /robots.txt URI is implicitly allowed." Section
// 2.3: the file is "/robots.txt" (all lowercase) in the top-level path,
// "scheme:[//authority]/robots.txt". Google's reference parser has no such
// rule.
func TestRFCRobotsTxtImplicitlyAllowed(t *testing.T) { semRun(t) }

// RFC 9309 section 2.2 grammar: the field names are the quoted strings
// "user-agent", "allow" and "disallow", which ABNF compares ignoring case
// (RFC 5234 section 2.3), each followed by *WS ":" *WS. Misspellings,
// longer names and a missing colon do not parse, and a line that does not
// parse is not used (2.3.1.5 "Crawlers MUST use the parseable rules").
// Google accepts all three; the Google rows show it.
func TestRFCStrictFieldNames(t *testing.T) { semRun(t) }

// RFC 9309 section 2.2.2 defines a match only by octets ("The match evaluates
// positively if and only if the end of the path from the rule is reached
// before a difference in octets is encountered"): there is no rule that
// allowing ".../index.html" allows the directory, as Google has.
func TestRFCNoIndexHTMLRule(t *testing.T) { semRun(t) }

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
		name      string
		body      string
		url       string
		want      verdict
		opts      []robots.Option
		truncated bool
	}{
		{"a rule at the start is read", late, "/early", disallowedBy(2), nil, true},
		{"a rule after the limit is ignored", late, "/late", noRule, nil, true},
		{"no limit reads it", late, "/late", disallowedBy(lines + 1), []robots.Option{robots.WithMaxBytes(-1)}, false},
		{"a rule ending at the limit is read", edge, "/edge", disallowedBy(edgeLine), nil, true},
		{"exactly the limit is not truncated", head + pad, "/early", disallowedBy(2), nil, false},
	}
	for _, r := range rows {
		for _, m := range []robots.Mode{robots.RFC, robots.Google} {
			t.Run(m.String()+"/2.5/"+r.name, func(t *testing.T) {
				rb := robots.Parse([]byte(r.body), append(r.opts, robots.WithMode(m))...)
				assert.Equal(t, r.truncated, rb.Truncated(), "Truncated()")
				checkVerdict(t, rb.Agent("ExampleBot"), r.url, r.want)
			})
		}
	}
}
