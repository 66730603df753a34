package compile

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/internal/testkit/conformance"
)

// reportEdgeBodies are bodies whose lines leave the quick path at each of
// its ends: a line of blanks up to the cut and a '#' past it, a comment
// past the cut, a NUL before a comment, keys Google reads only leniently.
var reportEdgeBodies = []string{
	"",
	"\n",
	"\xEF\xBB\xBF",
	"\xEF\xBB\xBFUser-agent: *\r\nDisallow: /\r\n",
	"\xEF\xBBUser-agent: *",
	strings.Repeat(" ", MaxLineBytes) + "# past the cut\nUser-agent: *\n",
	strings.Repeat(" ", MaxLineBytes-1) + "# at the cut\nUser-agent: *\n",
	strings.Repeat(" ", MaxLineBytes+3) + "\n",
	"# " + strings.Repeat("c", MaxLineBytes) + "\nDisallow: /x\n",
	"User-agent: *\nDisallow: /a\x00# c\nAllow: \x00/b\n",
	"Disallow /x\nuseragent: b # c\n: x\ncrawl-delay: 5\nunicorn: 1\nthree words here\n",
	"User agent: *\nDissallow: /x\nSitemap http://x/s.xml\nsite-map: y\n",
	"  Disallow :  /a  # c\nDisallow::x\nDisallow \t /x\nAllow:\nAllow:   # c\n",
	"User-agent: *\rDisallow: /a\r\rAllow: /b\r\n\n\r",
	"User-agent: *\nAllow: /" + strings.Repeat("a", MaxLineBytes) + "\nDisallow: /" + strings.Repeat("b", MaxLineBytes-11),
	"\v\fDisallow:\v/x\f\n\tUser-agent:\tbot\t\n",
	"a \vb\nDisallow \v/x\nx y z\n",
	"Content-Usage: train-ai=n\nContent-Signal: search=yes\nHost: example.com\n",
}

// requireParseReportIsNewReport holds ParseReport(body, opts) to Parse
// and NewReport: the same file as Parse's, and the same report, line for
// line, as the report-only pass; the quick path on and off.
func requireParseReportIsNewReport(t *testing.T, body []byte, opts Options) {
	t.Helper()
	want := NewReport(body, opts)
	for _, quick := range []bool{true, false} {
		read, _ := truncate(body, opts.BodyLimit())
		got := &Report{}
		got.reset(read)
		f := parseInto(body, opts, quick, got)
		require.Equal(t, want, got, "quick %v, %+v, body %q", quick, opts, clip(body))
		require.Equal(t, recordsOf(parse(body, opts, quick)), recordsOf(f), "quick %v, %+v, body %q", quick, opts, clip(body))
	}
	f, got := ParseReport(body, opts)
	require.Equal(t, want, got)
	require.Equal(t, f.Lines, got.LastLine)
	// A report reused as scratch keeps nothing of the body it held.
	used := NewReport([]byte("User-agent: *\nDisallow: /x\n# c\n\nSitemap: /s\n"), Options{})
	ParseReportTo(body, opts, used)
	require.Equal(t, want, used)
	NewReportTo(body, opts, used)
	require.Equal(t, want, used)
}

func clip(body []byte) []byte { return body[:min(len(body), 200)] }

// reportOptions are the options every body is parsed with: the report is
// Google's in either mode, and reads what the limit lets the parse read.
var reportOptions = []Options{{}, {Mode: RFC}, {MaxBytes: 40}, {Mode: RFC, MaxBytes: 7}, {MaxBytes: -1}}

// TestParseReportIsNewReport: on every body of the conformance files, the
// licensed corpus and edge cases, the report the parse records is the one
// NewReport gives (which the acceptance tests hold to Google's), and the
// file is the one Parse gives.
func TestParseReportIsNewReport(t *testing.T) {
	var bodies [][]byte
	for _, s := range reportEdgeBodies {
		bodies = append(bodies, []byte(s))
	}
	for _, path := range []string{
		"reporting.jsonl.gz", "generated.jsonl.gz", "spec-test.jsonl", "google-unit.jsonl", "usage-mixed.jsonl.gz",
	} {
		seen := map[string]bool{}
		n := len(bodies)
		err := conformance.Each(filepath.Join("..", "testdata", "conformance", path), func(_ int, c *conformance.Case) error {
			body, err := c.Body()
			if err != nil || c.File != "" {
				return err // a case naming a file of the corpus has its body there
			}
			if !seen[string(body)] {
				seen[string(body)] = true
				bodies = append(bodies, body)
			}
			return nil
		})
		require.NoError(t, err, path)
		require.Greater(t, len(bodies), n, "%s: no body", path)
	}
	names, err := filepath.Glob(filepath.Join("..", "testdata", "corpus", "files*", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for _, name := range names {
		body, err := os.ReadFile(name)
		require.NoError(t, err)
		bodies = append(bodies, body)
	}
	for _, body := range bodies {
		for _, opts := range reportOptions {
			requireParseReportIsNewReport(t, body, opts)
		}
	}
}

// TestParseReportRandomLines: bodies of random line shapes, those the
// quick path takes and every way a line leaves it.
func TestParseReportRandomLines(t *testing.T) {
	r := rand.New(rand.NewPCG(54, 9309))
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	for i := range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(pick(quickIndents) + pick(quickKeys) + pick(quickColons) + " " + pick(quickValues))
			b.WriteString(pick(quickBreaks))
		}
		body := b.String()
		if i%3 == 0 {
			body = body[:r.IntN(len(body)+1)]
		}
		requireParseReportIsNewReport(t, []byte(body), reportOptions[i%len(reportOptions)])
	}
}

// TestReportBounds: a line's key and value stand where the parser reads
// them, a value left empty where the text ends before its comment, and
// both at the line's start for a line without a directive.
func TestReportBounds(t *testing.T) {
	tests := []struct {
		line       string
		key, value string
		ks, vs     int // from the line's start
		colon      bool
	}{
		{"Disallow: /a", "Disallow", "/a", 0, 10, true},
		{"  Disallow :  /a  # c", "Disallow", "/a", 2, 14, true},
		{"Disallow::x", "Disallow", ":x", 0, 9, true},
		{"Disallow /x", "Disallow", "/x", 0, 9, false},
		{"Disallow \t /x", "Disallow", "/x", 0, 11, false},
		{"Allow:", "Allow", "", 0, 6, true},
		{"Allow:   # c", "Allow", "", 0, 9, true},
		{"Sitemap: http://a/b", "Sitemap", "http://a/b", 0, 9, true},
		{"Sitemap http://a/b", "Sitemap http", "//a/b", 0, 13, true},
		{"crawl-delay\v 5 ", "crawl-delay", "5", 0, 13, false},
		{"Allow: /a\x00b", "Allow", "/a", 0, 7, true},
		{"# Disallow: /x", "", "", 0, 0, false},
		{": x", "", "", 0, 0, false},
		{"", "", "", 0, 0, false},
	}
	for _, tt := range tests {
		for _, prefix := range []string{"", "User-agent: *\n", "\xEF\xBB\xBF"} {
			body := prefix + tt.line + "\r\n"
			for _, rep := range []*Report{NewReport([]byte(body), Options{}), second(ParseReport([]byte(body), Options{Mode: RFC}))} {
				l := rep.Lines[len(rep.Lines)-2]
				ks, ke := l.KeyBounds()
				vs, ve := l.ValueBounds()
				assert.Equal(t, tt.key, body[ks:ke], "%q", body)
				assert.Equal(t, tt.value, body[vs:ve], "%q", body)
				assert.Equal(t, tt.ks, ks-l.Start, "%q", body)
				assert.Equal(t, tt.vs, vs-l.Start, "%q", body)
				assert.Equal(t, tt.colon, l.HasDirective && !l.MissingColon, "%q", body)
				text, _, _ := strings.Cut(body[l.Start:l.End], "\x00")
				if key, value, ok := SplitKeyValue(text, true); ok {
					assert.Equal(t, key, body[ks:ke])
					assert.Equal(t, value, body[vs:ve])
				}
			}
		}
	}
}

func second[A, B any](_ A, b B) B { return b }

// TestParseAllocatesNoReport: Parse allocates what it did before the
// report could be recorded, and ParseReport the report and its lines
// besides.
func TestParseAllocatesNoReport(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled builders at random")
	}
	body := []byte(strings.Repeat("User-agent: a\nDisallow: /x # c\r\nCrawl-delay: 1\n\n", 50))
	Parse(body, Options{}) // warm the builders' pool
	parse := testing.AllocsPerRun(20, func() { Parse(body, Options{}) })
	both := testing.AllocsPerRun(20, func() { ParseReport(body, Options{}) })
	assert.Equal(t, parse+2, both)
}
