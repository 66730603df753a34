package lint

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/compile"
)

// findings renders the findings of body as "line:col code".
func findings(body string) []string {
	var out []string
	for _, d := range Lint([]byte(body)) {
		out = append(out, fmt.Sprintf("%d:%d %s", d.Line, d.Column, d.Code))
	}
	return out
}

// lintCase is a body and the findings expected of it.
type lintCase struct {
	name string
	body string
	want []string
}

func runCases(t *testing.T, tests []lintCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, findings(tt.body))
		})
	}
}

func TestLintCleanFileHasNoFinding(t *testing.T) {
	body := "# robots.txt for example.com\n" +
		"User-agent: Googlebot\n" +
		"User-agent: Googlebot-Image\n" +
		"Disallow: /nogooglebot/\n" +
		"\n" +
		"User-agent: *\n" +
		"Allow: /\n" +
		"Disallow: /*.pdf$\n" +
		"Disallow: /drafts/\n" +
		"Allow: /drafts/public/\n" +
		"Disallow:\n" +
		"\n" +
		"Sitemap: https://www.example.com/sitemap.xml\n"
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		assert.Empty(t, Lint([]byte(strings.ReplaceAll(body, "\n", eol))), "%q", eol)
	}
	assert.Empty(t, Lint([]byte(utf8BOM+body)))
	assert.Empty(t, Lint(nil))
}

func TestDiagnosticString(t *testing.T) {
	d := Diagnostic{Line: 3, Column: 7, Severity: Warning, Code: CodeTrailingStar, Message: "m"}
	assert.Equal(t, "3:7: warning: m [trailing-star]", d.String())
}

func TestSeverityText(t *testing.T) {
	for _, s := range []Severity{Error, Warning} {
		b, err := s.MarshalText()
		assert.NoError(t, err)
		var back Severity
		assert.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, s, back)
	}
	var s Severity
	assert.Error(t, s.UnmarshalText([]byte("fatal")))
}

func TestCodesAreUniqueAndCarryTheirSeverity(t *testing.T) {
	seen := map[Code]bool{}
	for _, c := range Codes {
		assert.False(t, seen[c.Code], c.Code)
		seen[c.Code] = true
		assert.Equal(t, c.Severity, c.Code.Severity())
		assert.NotEmpty(t, c.Summary)
	}
}

// TestLintRandomInputs lints random files made of the pieces that matter
// to the checks, and holds every finding to its invariants. FuzzLint in
// the robots package explores further.
func TestLintRandomInputs(t *testing.T) {
	pieces := []string{
		"User-agent: ", "Disallow: ", "Allow: ", "Sitemap: ", "Crawl-delay: ", "Clean-param: ", "useragent ",
		"*", "$", "/", "a", "/a", "b/", ":", "#", " ", "\t", "\n", "\r", "\r\n", "\x00", utf8BOM, "\xFF\xFE", "\xE9",
		"<html>", "http://x/", "index.html", "Googlebot/2.1", "1/5", "0600-0845",
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		body := b.String()
		ds := Lint([]byte(body))
		lines := compile.NewReport([]byte(body), compile.Options{}).LastLine
		for i, d := range ds {
			if d.Line < 1 || d.Line > lines || d.Column < 1 || d.Severity != d.Code.Severity() || d.Message == "" {
				t.Fatalf("malformed finding %+v on %q", d, body)
			}
			if i > 0 && ds[i-1].Line > d.Line {
				t.Fatalf("findings out of order on %q", body)
			}
		}
	}
}

// TestLintReport: LintReport gives Lint's findings and the report
// robots.ReportOf gives, for every file of the licensed corpus.
func TestLintReport(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("..", "testdata", "corpus", "files*", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for _, name := range names {
		body, err := os.ReadFile(name)
		require.NoError(t, err)
		ds, rep := LintReport(body)
		require.Equal(t, Lint(body), ds, name)
		require.Equal(t, robots.ReportOf(body), rep, name)
	}
}

// TestParsedCodes: ParsedCodes gives Parsed's findings, in the same
// order, with no message, and the same report, for every file of the
// licensed corpus.
func TestParsedCodes(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("..", "testdata", "corpus", "files*", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, names)
	worded := 0
	for _, name := range names {
		body, err := os.ReadFile(name)
		require.NoError(t, err)
		r := robots.Parse(body, robots.WithReport())
		ds, rep := Parsed(r, body)
		codes, codesRep := ParsedCodes(r, body)
		require.Same(t, rep, codesRep, name)
		require.Len(t, codes, len(ds), name)
		for i, d := range ds {
			worded += min(1, len(d.Message))
			d.Message = ""
			require.Equal(t, d, codes[i], "%s: finding %d", name, i)
		}
	}
	assert.Positive(t, worded, "Parsed words its findings")
}
