package compile

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkReportAgainstParse holds NewReport(body) to what Parse records of
// the same body in Google mode: the same number of lines; each user-agent,
// rule, sitemap and other line the parser recorded is reported with its
// tag; the lines reported as directives are exactly those, plus the rules
// before the first user-agent line, which the parser reads and drops; and
// the counts are those of the tags.
func checkReportAgainstParse(t *testing.T, body []byte) {
	t.Helper()
	r := NewReport(body, Options{Mode: Google})
	f := Parse(body, Options{Mode: Google})
	require.Equal(t, f.Lines, r.LastLine, "last line")
	require.Len(t, r.Lines, r.LastLine)
	want := map[int]Tag{}
	for _, g := range f.Groups() {
		for _, a := range g.Agents {
			want[a.Line] = TagUserAgent
		}
		for _, rule := range g.Rules {
			want[rule.Line] = map[bool]Tag{true: TagAllow, false: TagDisallow}[rule.Allow]
		}
	}
	for _, d := range f.Sitemaps() {
		want[d.Line] = TagSitemap
	}
	for _, d := range f.Others() {
		want[d.Line] = TagUnknown
		if unusedKey(d.Key) {
			want[d.Line] = TagUnused
		}
	}
	firstAgent := r.LastLine + 1
	if gs := f.Groups(); len(gs) > 0 {
		firstAgent = gs[0].Agents[0].Line
	}
	valid, unused := 0, 0
	read := body[:min(len(body), DefaultMaxBytes)]
	var lines []Line
	Lines(string(read), func(l Line) { lines = append(lines, l) })
	require.Len(t, lines, len(r.Lines))
	for i, l := range r.Lines {
		require.Equal(t, i+1, l.Line)
		require.Equal(t, lines[i].Raw, string(read[l.Start:l.End]), "line %d: its bytes", l.Line)
		tag, recorded := want[l.Line]
		switch {
		case recorded:
			require.True(t, l.HasDirective, "line %d: recorded by the parser", l.Line)
			require.Equal(t, tag, l.Tag, "line %d", l.Line)
		case l.HasDirective:
			require.True(t, (l.Tag == TagAllow || l.Tag == TagDisallow) && l.Line < firstAgent,
				"line %d: a directive (%v) the parser did not record", l.Line, l.Tag)
		default:
			require.Equal(t, TagUnknown, l.Tag, "line %d: no directive", l.Line)
			require.False(t, l.Typo, "line %d: a typo without a key", l.Line)
		}
		require.LessOrEqual(t, btoi(l.Empty)+btoi(l.Comment)+btoi(l.HasDirective), 1, "line %d: empty, comment and directive exclude each other", l.Line)
		if l.Comment {
			require.True(t, l.HasComment)
		}
		if l.MissingColon {
			require.True(t, l.HasDirective)
		}
		if l.HasDirective && l.Tag != TagUnknown && l.Tag != TagUnused {
			valid++
		} else if l.HasDirective {
			unused++
		}
	}
	require.Equal(t, valid, r.Valid)
	require.Equal(t, unused, r.Unused)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestReportLines(t *testing.T) {
	body := "\xEF\xBB\xBFUser-agent: *\r\n# a comment\r\n\r\nDisallow /x\nuseragent: b # c\n: x\ncrawl-delay: 5\nunicorn: 1\nthree words here\nSitemap: https://e.com/s.xml\n" +
		"Allow: /" + strings.Repeat("a", MaxLineBytes) + "\n"
	r := NewReport([]byte(body), Options{})
	rows := make([]string, len(r.Lines))
	for i, l := range r.Lines {
		rows[i] = l.Tag.String()
		for _, f := range []struct {
			set  bool
			name string
		}{{l.Typo, "typo"}, {l.Empty, "empty"}, {l.HasComment, "has-comment"}, {l.Comment, "comment"}, {l.HasDirective, "directive"}, {l.TooLong, "too-long"}, {l.MissingColon, "missing-colon"}} {
			if f.set {
				rows[i] += " " + f.name
			}
		}
	}
	assert.Equal(t, []string{
		"user-agent directive",
		"unknown has-comment comment",
		"unknown empty",
		"disallow directive missing-colon",
		"user-agent typo has-comment directive",
		"unknown",
		"unused directive",
		"unknown directive",
		"unknown",
		"sitemap directive",
		"allow directive too-long",
		"unknown empty",
	}, rows)
	assert.Equal(t, 12, r.LastLine)
	assert.Equal(t, 5, r.Valid)
	assert.Equal(t, 2, r.Unused)
	checkReportAgainstParse(t, []byte(body))
}

// TestReportReadsWhatParseReads: past the body limit, nothing is reported,
// as nothing is parsed.
func TestReportReadsWhatParseReads(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /a\nDisallow: /b\n")
	r := NewReport(body, Options{MaxBytes: len("User-agent: *\nDisallow: /a\n")})
	assert.Equal(t, 3, r.LastLine, "the body cut after the second line break ends with an empty third line")
	assert.Equal(t, 2, r.Valid)
}

// TestReportAllocatesOnlyTheResult: the report's lines are allocated once,
// whatever the number of lines, and not at all into a report with room.
func TestReportAllocatesOnlyTheResult(t *testing.T) {
	for _, lines := range []int{1, 100, 10000} {
		body := []byte(strings.Repeat("Disallow: /x # c\r\n", lines))
		allocs := testing.AllocsPerRun(10, func() { NewReport(body, Options{}) })
		assert.LessOrEqual(t, allocs, 2.0, "%d lines: the Report and its Lines", lines)
		var scratch Report
		NewReportTo(body, Options{}, &scratch)
		allocs = testing.AllocsPerRun(10, func() { NewReportTo(body, Options{}, &scratch) })
		assert.Equal(t, 0.0, allocs, "%d lines, into a report that has room", lines)
	}
}

func FuzzReport(f *testing.F) {
	for _, s := range []string{
		"User-agent: *\nDisallow: /\n",
		"\xEF\xBB\xBFuseragent foo\r\ndissallow: /x # y\rsite-map: z\n\nAllow /a b\n",
		"Disallow: /before\nUser-agent: a\n: novalue\ncrawl-delay 1\n\x00Disallow: /\n",
		"#\n \t\n" + strings.Repeat("x", MaxLineBytes+1) + "\n",
	} {
		f.Add([]byte(s))
	}
	for _, s := range reportEdgeBodies {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkReportAgainstParse(t, body)
		for _, opts := range reportOptions {
			requireParseReportIsNewReport(t, body, opts)
		}
	})
}
