package robots_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/lint"
)

// TestLintEveryDiagnostic lints testdata/lint/every.txt, a file crafted to
// hold an instance of every finding, and expects exactly those: no more,
// no less, at these positions. A new code needs a line there. Each code
// has one instance but ignored-by-google, which every Content-Usage and
// Content-Signal line also has.
func TestLintEveryDiagnostic(t *testing.T) {
	body, err := os.ReadFile("testdata/lint/every.txt")
	require.NoError(t, err)
	want := []string{
		"1:1 utf16",                 // the file starts with FF FE
		"2:10 sitemap-relative",     // Sitemap: /sitemap.xml
		"3:1 rule-outside-group",    // Disallow: /before-any-group
		"4:1 ignored-by-google",     // Content-Signal: ai-train=no (also: every usage line below)
		"4:1 signal-outside-group",  // the same line, before any user-agent line
		"5:1 agent-without-rules",   // User-agent: Slurp, then Crawl-delay, then another user-agent
		"6:1 ignored-by-google",     // Crawl-delay: 10
		"7:22 agent-token-cut",      // User-agent: Googlebot/2.1
		"8:1 equal-priority",        // Disallow: /private, with Allow: /private on line 9
		"10:9 missing-colon",        // Disallow /tmp/
		"11:1 accepted-typo",        // Dissallow: /old/
		"12:1 empty-allow",          // Allow:
		"13:11 pattern-no-slash",    // Disallow: private/
		"14:13 dollar-inside",       // Disallow: /a$b
		"15:17 trailing-star",       // Disallow: /cache*
		"16:1 dead-rule",            // Allow: /shop/, beaten by Disallow: /*shop/ on line 17
		"18:15 invalid-value",       // Request-rate: often
		"19:1 unknown-directive",    // Foo: bar
		"20:1 unparsed-line",        // This line has no colon
		"21:10 sitemap-invalid",     // Sitemap: ftp://...
		"22:13 empty-agent",         // User-agent: 123bot
		"23:15 invalid-utf8",        // Disallow: /caf\xE9
		"24:12 stray-bom",           // Disallow: /\uFEFFnews
		"25:13 nul-byte",            // Disallow: /a\x00/b
		"26:1 managed-override",     // the * group: Perplexity-User, which the block of line 40 names, never reads it
		"27:1 ignored-by-google",    // Content-Signal: search=yes, in the User-agent: * group of line 26
		"30:1 ignored-by-google",    //
		"30:1 usage-disallowed",     // Content-Usage: /a/b train-ai=n, under Disallow: /a/ of line 29
		"31:1 ignored-by-google",    //
		"31:16 usage-malformed",     // Content-Usage: train-ai=n;;
		"32:1 ignored-by-google",    //
		"32:16 usage-unknown-key",   // Content-Usage: genai=n
		"33:1 ignored-by-google",    //
		"33:16 usage-path-no-slash", // Content-Usage: blog/ train-ai=n
		"34:1 ignored-by-google",    // Content-Usage: /x train-ai=n
		"35:1 ignored-by-google",    //
		"35:1 usage-conflict",       // Content-Usage: /x train-ai=y
		"36:1 split-star-group",     // a second User-agent: * group after the one holding line 27
		"37:16664 line-too-long",    // Disallow: /long/aaa... (17,016 bytes)
		"38:1 html",                 // <html>
		"39:1 llm-policy",           // LLM-Policy: /llms.txt
		"40:1 managed-section",      // # BEGIN Cloudflare Managed content, to line 43
		// User-agent: Perplexity-User, in the block
		"41:13 crawler-ignores-robots",
		"75:1 truncated", // the line that starts at byte 512,000
	}
	var got []string
	codes := map[lint.Code]int{}
	for _, d := range lint.Lint(body) {
		got = append(got, fmt.Sprintf("%d:%d %s", d.Line, d.Column, d.Code))
		codes[d.Code]++
		assert.Equal(t, d.Code.Severity(), d.Severity, d.Code)
		assert.NotEmpty(t, d.Message, d.Code)
	}
	assert.Equal(t, want, got)
	for _, c := range lint.Codes {
		if c.Code == lint.CodeIgnoredByGoogle {
			assert.Positive(t, codes[c.Code], "every.txt should hold a %s", c.Code)
			continue
		}
		assert.Equal(t, 1, codes[c.Code], "every.txt should hold one %s", c.Code)
	}
}

// lintClean are files with nothing to report: the usual forms of a
// well-written robots.txt.
var lintClean = map[string]string{
	"Google's example": "User-agent: Googlebot\nDisallow: /nogooglebot/\n\nUser-agent: *\nAllow: /\n\n" +
		"Sitemap: https://www.example.com/sitemap.xml\n",
	"allow all":             "User-agent: *\nDisallow:\n",
	"disallow all":          "User-agent: *\nDisallow: /\n",
	"empty":                 "",
	"comments only":         "# nothing to see\n#\n",
	"shared group":          "User-agent: Googlebot\nUser-agent: Bingbot\nDisallow: /private/\nAllow: /private/public/\n",
	"wildcards and anchors": "User-agent: *\nDisallow: /*.pdf$\nDisallow: /*?sessionid=\nAllow: /*.pdf?download=1$\n",
	"byte order mark":       "\xEF\xBB\xBFUser-agent: *\r\nDisallow: /tmp/\r\n",
	"index page":            "User-agent: *\nDisallow: /docs/\nAllow: /docs/index.html\n",
}

func TestLintCleanFiles(t *testing.T) {
	for name, body := range lintClean {
		t.Run(name, func(t *testing.T) {
			assert.Empty(t, lint.Lint([]byte(body)))
		})
	}
	example, err := os.ReadFile("cmd/robots/web/example.txt")
	require.NoError(t, err)
	assert.Empty(t, lint.Lint(example), "the robots command's example")
}

// lintCorpusFiles lists the licensed corpus's files: robots.txt bodies in
// files/, HTML pages served as robots.txt in files_html/.
func lintCorpusFiles(t *testing.T) (robotsFiles, htmlFiles []string) {
	t.Helper()
	robotsFiles, err := filepath.Glob(filepath.Join(corpusLicensed, "files", "*.txt"))
	require.NoError(t, err)
	htmlFiles, err = filepath.Glob(filepath.Join(corpusLicensed, "files_html", "*.txt"))
	require.NoError(t, err)
	return robotsFiles, htmlFiles
}

// lintCorpusWant pins, per code, how many files of the licensed corpus's
// files/ have findings with it. docs/lint.md reports these numbers; change
// both together.
var lintCorpusWant = map[lint.Code]int{
	lint.CodeTruncated:         2,
	lint.CodeUTF16:             4,
	lint.CodeHTML:              1,
	lint.CodeInvalidUTF8:       2,
	lint.CodeUnknownDirective:  13,
	lint.CodeAcceptedTypo:      1,
	lint.CodeMissingColon:      3,
	lint.CodeUnparsedLine:      4,
	lint.CodeIgnoredByGoogle:   563,
	lint.CodeInvalidValue:      2,
	lint.CodeRuleOutsideGroup:  7,
	lint.CodeAgentWithoutRules: 109,
	lint.CodeAgentTokenCut:     437,
	lint.CodeEmptyAgent:        72,
	lint.CodePatternNoSlash:    87,
	lint.CodeEmptyAllow:        2,
	lint.CodeDollarInside:      5,
	lint.CodeTrailingStar:      757,
	lint.CodeSitemapRelative:   26,
	lint.CodeSitemapInvalid:    4,
	lint.CodeEqualPriority:     3,
	lint.CodeDeadRule:          5,
	// Notes.
	lint.CodeCrawlerIgnoresRobots: 122,
}

// TestLintCorpusReport lints the licensed corpus and prints, per code, the
// files and findings it has: the measurement of docs/lint.md. Run it with
// go test -run TestLintCorpusReport -v .
func TestLintCorpusReport(t *testing.T) {
	robotsFiles, htmlFiles := lintCorpusFiles(t)
	require.NotEmpty(t, robotsFiles, "testdata/corpus is missing")
	files, findings := map[lint.Code]int{}, map[lint.Code]int{}
	all := map[lint.Code][]corpusFinding{}
	clean := 0
	for _, path := range robotsFiles {
		body, err := os.ReadFile(path)
		require.NoError(t, err)
		ds := lint.Lint(body)
		if len(ds) == 0 {
			clean++
		}
		seen := map[lint.Code]bool{}
		for _, d := range ds {
			findings[d.Code]++
			all[d.Code] = append(all[d.Code], corpusFinding{filepath.Base(path), d})
			if !seen[d.Code] {
				seen[d.Code] = true
				files[d.Code]++
			}
		}
	}
	var report strings.Builder
	fmt.Fprintf(&report, "%d robots.txt files, %d without findings\n\n| code | severity | files | findings |\n|---|---|---|---|\n",
		len(robotsFiles), clean)
	for _, c := range lint.Codes {
		fmt.Fprintf(&report, "| `%s` | %s | %d | %d |\n", c.Code, c.Severity, files[c.Code], findings[c.Code])
	}
	t.Log("\n" + report.String())
	t.Log("\nSample to check by hand:\n" + strings.Join(lintSample(all, 30), "\n"))
	for _, c := range lint.Codes {
		assert.Equal(t, lintCorpusWant[c.Code], files[c.Code], "files with %s (update docs/lint.md too)", c.Code)
	}

	// Every HTML page served as robots.txt is reported as such, and as
	// nothing else.
	for _, path := range htmlFiles {
		body, err := os.ReadFile(path)
		require.NoError(t, err)
		ds := lint.Lint(body)
		codes := make([]lint.Code, len(ds))
		for i, d := range ds {
			codes[i] = d.Code
		}
		assert.True(t, slices.Contains(codes, lint.CodeHTML), "%s: %v", path, codes)
	}
	t.Logf("%d HTML pages, all reported as html", len(htmlFiles))
}

// corpusFinding is a finding and the corpus file it is in.
type corpusFinding struct {
	file string
	lint.Diagnostic
}

// lintSample picks n findings for checking by hand: one of every code that
// has any, then a second of the most frequent codes, each taken at evenly
// spaced places in file order so that the pick is fixed and spread out.
func lintSample(all map[lint.Code][]corpusFinding, n int) []string {
	codes := make([]lint.Code, 0, len(all))
	for _, c := range lint.Codes {
		if len(all[c.Code]) > 0 {
			codes = append(codes, c.Code)
		}
	}
	quota := map[lint.Code]int{}
	for _, c := range codes {
		quota[c] = 1
	}
	byCount := slices.Clone(codes)
	slices.SortStableFunc(byCount, func(a, b lint.Code) int { return len(all[b]) - len(all[a]) })
	for i := 0; len(codes) < n && i < len(byCount) && len(codes)+i < n; i++ {
		quota[byCount[i]]++
	}
	var out []string
	for _, c := range codes {
		fs := all[c]
		for k := range quota[c] {
			f := fs[k*len(fs)/quota[c]]
			out = append(out, fmt.Sprintf("%s:%s", f.file, f.Diagnostic))
		}
	}
	return out
}

// FuzzLint checks that Lint accepts any bytes and that its findings are
// well formed: in order, on lines of the file, with their code's severity.
func FuzzLint(f *testing.F) {
	for _, body := range lintClean {
		f.Add([]byte(body))
	}
	f.Add([]byte("\xFF\xFEU\x00s\x00e\x00r\x00"))
	f.Add([]byte("User-agent: a\nCrawl-delay: x\nUser-agent: b/1\nDisallow /a$b*\nAllow: /a*\n\x00\xEF\xBB\xBF<html>"))
	f.Add([]byte("Sitemap: //x\nDissallow: a\nUser-agent: *\nAllow: /*d/index.html\nDisallow: /*d/$\n"))
	f.Add([]byte("Content-Signal: ai-train=no, x\nUser-agent: *\nContent-Signal: search=yes,ai-train=yes\nContent-Usage: /a train-ai=n;;\n" +
		"Disallow: /a\nContent-Usage: /a/b train-ai=y, genai=n\nContent-Usage: blog/ search=y\n\nUser-agent: *\nAllow: /\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		ds := lint.Lint(body)
		lines := robots.Parse(body).Lines()
		for i, d := range ds {
			if d.Line < 1 || d.Line > lines || d.Column < 1 || d.Severity != d.Code.Severity() || d.Message == "" {
				t.Fatalf("malformed finding %+v (file of %d lines)", d, lines)
			}
			if i > 0 && (ds[i-1].Line > d.Line || ds[i-1].Line == d.Line && ds[i-1].Column > d.Column) {
				t.Fatalf("findings out of order: %v then %v", ds[i-1], d)
			}
		}
	})
}
