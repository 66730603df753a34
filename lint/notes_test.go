package lint

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/crawlers"
	"github.com/fastrobots/robots/managed"
)

// withCode returns the findings of body with code.
func withCode(body string, code Code) []Diagnostic {
	var out []Diagnostic
	for _, d := range Lint([]byte(body)) {
		if d.Code == code {
			out = append(out, d)
		}
	}
	return out
}

// TestLLMPolicyIsANote: an LLM-Policy line, which crawler-commons reads
// as a file-wide extension, is a note wherever it stands, not an unknown
// directive; Google's report still reads an unknown key there.
func TestLLMPolicyIsANote(t *testing.T) {
	runCases(t, []lintCase{
		{"in a group", "User-agent: *\nAllow: /\nLLM-Policy: /llms.txt\n", []string{"3:1 llm-policy"}},
		{"before any group", "LLM-Policy: https://example.com/llms.txt\nUser-agent: *\nAllow: /\n", []string{"1:1 llm-policy"}},
		{"any case", "User-agent: *\nDisallow: /x\nllm-policy: /ai.txt\n", []string{"3:1 llm-policy"}},
		{"a typo is unknown, with its fix", "User-agent: *\nDisallow: /x\nLLM-Polcy: /llms.txt\n", []string{"3:1 unknown-directive"}},
	})
	d := withCode("LLM-Policy: /llms.txt\n", CodeLLMPolicy)
	require.Len(t, d, 1)
	assert.Equal(t, Note, d[0].Severity)
	assert.Contains(t, d[0].Message, `"/llms.txt"`)
	assert.Contains(t, d[0].Message, "crawler-commons")
	typo := withCode("LLM-Polcy: /llms.txt\n", CodeUnknownDirective)
	require.Len(t, typo, 1)
	assert.Contains(t, typo[0].Message, `did you mean "LLM-Policy"?`)
	rep := robots.ReportOf([]byte("LLM-Policy: /llms.txt\n"))
	assert.Equal(t, robots.TagUnknown, rep.Lines[0].Tag, "Google's report is Google's")
}

// TestCrawlerIgnoresRobots: a user-agent line naming a crawler whose
// operator says it may not follow robots.txt gets a note with the
// operator's words and page; every other row of the table, and '*', gets
// none.
func TestCrawlerIgnoresRobots(t *testing.T) {
	ignoring := 0
	for _, c := range crawlers.All() {
		body := "User-agent: " + c.Token + "\nDisallow: /\n"
		ds := withCode(body, CodeCrawlerIgnoresRobots)
		if c.Robots != crawlers.MayIgnore {
			assert.Empty(t, ds, c.Token)
			continue
		}
		ignoring++
		if assert.Len(t, ds, 1, c.Token) {
			d := ds[0]
			assert.Equal(t, Note, d.Severity)
			assert.Equal(t, 1, d.Line)
			assert.Equal(t, 13, d.Column, "at the value")
			assert.Contains(t, d.Message, c.URL, c.Token)
			assert.Contains(t, d.Message, c.Says, c.Token)
			assert.Contains(t, d.Message, c.Operator+" says it may not follow robots.txt", c.Token)
		}
	}
	assert.Equal(t, 4, ignoring, "ChatGPT-User, Perplexity-User, meta-externalfetcher, Amzn-User")
	runCases(t, []lintCase{
		// The token Google reads, in any case; the cut is a warning of its own.
		{"cut token", "User-agent: chatgpt-user/1.0\nDisallow: /\n", []string{"1:13 crawler-ignores-robots", "1:25 agent-token-cut"}},
		{"one of several lines", "User-agent: GPTBot\nUser-agent: Perplexity-User\nDisallow: /\n", []string{"2:13 crawler-ignores-robots"}},
		{"star", "User-agent: *\nDisallow: /\n", nil},
		{"not in the table", "User-agent: cohere-ai\nDisallow: /\n", nil},
	})
}

// TestNoteIsNoError: notes are their own severity, written "note", and
// make robots lint exit 0 (the command's test holds that).
func TestNoteIsNoError(t *testing.T) {
	b, err := Note.MarshalText()
	require.NoError(t, err)
	assert.Equal(t, "note", string(b))
	var s Severity
	require.NoError(t, s.UnmarshalText(b))
	assert.Equal(t, Note, s)
	for _, c := range []Code{CodeLLMPolicy, CodeCrawlerIgnoresRobots, CodeManagedSection, CodeManagedOverride} {
		assert.Equal(t, Note, c.Severity(), c)
	}
}

// cloudflareExample is Cloudflare's documented managed robots.txt with a
// site's file after it (package managed's testdata).
func cloudflareExample(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../managed/testdata/cloudflare-docs-example.txt")
	require.NoError(t, err)
	return string(b)
}

// managedBlock is a Cloudflare block as its documentation shows it,
// shortened: a '*' group with a Content-Signal line and Allow: /, and
// groups disallowing two AI crawlers.
const managedBlock = "# BEGIN Cloudflare Managed content\n" + // 1
	"User-Agent: *\n" + // 2
	"Content-signal: search=yes, ai-train=no\n" + // 3
	"Allow: /\n" + // 4
	"\n" + // 5
	"User-agent: GPTBot\n" + // 6
	"Disallow: /\n" + // 7
	"\n" + // 8
	"User-agent: ClaudeBot\n" + // 9
	"Disallow: /\n" + // 10
	"# END Cloudflare Managed Content\n" // 11

// managedNotes are the findings of body with the codes of the managed
// checks.
func managedNotes(body string) []string {
	return slices.DeleteFunc(findings(body), func(s string) bool {
		return !strings.HasSuffix(s, " "+string(CodeManagedSection)) && !strings.HasSuffix(s, " "+string(CodeManagedOverride))
	})
}

func TestManagedNotes(t *testing.T) {
	tests := []lintCase{
		{"no section", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /\n", []string{}},
		{"the block alone", managedBlock, []string{"1:1 managed-section"}},
		// The crawlers the block names never read the site's '*' rules.
		{"the site's star group", managedBlock + "User-agent: *\nDisallow: /admin/\nDisallow: /tmp/\n",
			[]string{"1:1 managed-section", "12:1 managed-override"}},
		// The site names GPTBot itself: its '*' rules never applied to
		// GPTBot; the block's group merges with the site's.
		{"the site names a crawler too", managedBlock + "User-agent: GPTBot\nAllow: /blog/\n\nUser-agent: *\nDisallow: /admin/\n",
			[]string{"1:1 managed-section", "12:1 managed-override", "15:1 managed-override"}},
		// The block's Allow: / ties with the site's Disallow: /, and wins.
		{"a tie the block wins", managedBlock + "User-agent: *\nDisallow: /\n",
			[]string{"1:1 managed-section", "12:1 managed-override", "13:1 managed-override"}},
		// Longer than the block's Allow: /, the site's rule decides.
		{"the site's longer rule", managedBlock + "User-agent: *\nDisallow: /*\n",
			[]string{"1:1 managed-section", "12:1 managed-override"}},
		// No User-agent line after the END marker: the site's rule joins
		// the block's last group.
		{"a stray rule", managedBlock + "Disallow: /admin/\n", []string{"1:1 managed-section", "12:1 managed-override"}},
		{"a site group with no rule", managedBlock + "User-agent: *\nCrawl-delay: 5\n", []string{"1:1 managed-section"}},
		{"unclosed", "# BEGIN Cloudflare Managed content\nUser-agent: GPTBot\nDisallow: /\n", []string{"1:1 managed-section"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := managedNotes(tt.body)
			if got == nil {
				got = []string{}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// message returns the message of the finding of body at line with code.
func message(t *testing.T, body string, line int, code Code) string {
	t.Helper()
	for _, d := range withCode(body, code) {
		if d.Line == line {
			assert.Equal(t, Note, d.Severity)
			return d.Message
		}
	}
	t.Fatalf("no %s on line %d of %q", code, line, body)
	return ""
}

func TestManagedNoteMessages(t *testing.T) {
	doc := cloudflareExample(t)
	assert.Equal(t, "lines 8 to 38 are Cloudflare's managed robots.txt, which the CDN writes before the site's own rules: these follow from line 39, and Google reads the two as one file, merging the groups that name the same crawlers",
		message(t, doc, 8, CodeManagedSection))
	assert.Equal(t, "the managed block names Amazonbot, Applebot-Extended, Bytespider, CCBot, ClaudeBot, Google-Extended, GPTBot and meta-externalagent, which no group of the site's names: each reads the CDN's group for it and not this User-agent: * group, so its 3 rules (lines 40 to 42) never apply to them",
		message(t, doc, 39, CodeManagedOverride))

	site := managedBlock + "User-agent: GPTBot\nAllow: /blog/\n\nUser-agent: *\nDisallow: /\n"
	assert.Equal(t, "the managed block names GPTBot too (line 6): Google merges its group with this one, so the CDN's rules for GPTBot (line 7 Disallow: /) apply with this group's, and the longest match of either decides",
		message(t, site, 12, CodeManagedOverride))
	assert.Equal(t, "the managed block names ClaudeBot, which no group of the site's names: each reads the CDN's group for it and not this User-agent: * group, so its rule (line 16) never applies to them",
		message(t, site, 15, CodeManagedOverride))
	assert.Equal(t, `for every crawler no group names, the managed block's "Allow: /" (line 4) matches every path this Disallow matches and wins the tie, as an Allow: this line never decides for them`,
		message(t, site, 16, CodeManagedOverride))
	assert.Equal(t, "this line follows the managed block with no User-agent line of its own: it belongs to the CDN's group of line 9 (User-agent: ClaudeBot), not to a group of the site's",
		message(t, managedBlock+"Disallow: /admin/\n", 12, CodeManagedOverride))
	assert.Contains(t, message(t, "# BEGIN Cloudflare Managed content\nUser-agent: GPTBot\nDisallow: /\n", 1, CodeManagedSection), "no END marker")
}

// managedLinter is the state the managed checks read for body.
func managedLinter(body string) (*linter, *managedFile) {
	r := robots.Parse([]byte(body), robots.WithReport())
	l := &linter{body: body, data: []byte(body), file: r, google: r.Report()}
	return l, newManagedFile(managed.Find(l.data), r.Groups())
}

// randomManagedFile builds a file of a managed block and a site's lines
// from a few patterns and crawlers, so that rules of the two cover, tie
// with and beat one another, and rules stray after the block.
func randomManagedFile(rng *rand.Rand) string {
	patterns := []string{"/", "/a", "/a*", "/ab", "*", "/*b", "/a$", "/$", "/b/", "/*", "/a/index.html"}
	agents := []string{"*", "GPTBot", "ClaudeBot", "CCBot"}
	var b strings.Builder
	rules := func() {
		for range 1 + rng.IntN(3) {
			kind := "Disallow"
			if rng.IntN(2) == 0 {
				kind = "Allow"
			}
			fmt.Fprintf(&b, "%s: %s\n", kind, patterns[rng.IntN(len(patterns))])
		}
	}
	groups := func(n int) {
		for range n {
			for range 1 + rng.IntN(2) {
				fmt.Fprintf(&b, "User-agent: %s\n", agents[rng.IntN(len(agents))])
			}
			rules()
		}
	}
	b.WriteString("# BEGIN Cloudflare Managed content\n")
	groups(1 + rng.IntN(3))
	b.WriteString("# END Cloudflare Managed Content\n")
	if rng.IntN(3) == 0 {
		rules() // the site's rules join the block's last group
	}
	groups(rng.IntN(4))
	return b.String()
}

// TestManagedOverridesAreSound checks the managed-override claims on
// random files against the engine: a site's rule said never to decide
// for a crawler is never the deciding rule of that crawler, on every path
// of the patterns' alphabet; a crawler said not to read the site's '*'
// groups never gets a rule of them.
func TestManagedOverridesAreSound(t *testing.T) {
	var paths []string
	var grow func(p string)
	grow = func(p string) {
		paths = append(paths, p)
		if len(p) < 5 {
			for _, c := range []string{"a", "b", "/", "index.html"} {
				grow(p + c)
			}
		}
	}
	grow("/")
	rng := rand.New(rand.NewPCG(56, 1))
	claims := 0
	for range 1500 {
		body := randomManagedFile(rng)
		r := robots.Parse([]byte(body))
		l, m := managedLinter(body)
		order, beaten := l.beatenRules(m, managedBudget)
		for _, line := range order {
			b := beaten[line]
			agents := slices.Clone(b.tokens)
			if b.star {
				agents = append(agents, "UnnamedBot")
			}
			for _, a := range agents {
				agent := r.Agent(a)
				for _, p := range paths {
					if d := agent.Decide(p); d.Rule != nil && d.Rule.Line == line {
						t.Fatalf("line %d said never to decide for %s decides %s in\n%s", line, a, p, body)
					}
				}
				claims++
			}
		}
		only, _ := m.cdnAgents()
		for _, a := range only {
			agent := r.Agent(a)
			for _, gi := range r.GroupsFor() {
				if !m.cdn[gi] && slices.Contains(r.GroupsFor(a), gi) {
					t.Fatalf("%s reads the site's '*' group %d in\n%s", a, gi, body)
				}
			}
			for _, p := range paths {
				if d := agent.Decide(p); d.Rule != nil && !m.inSection(d.Rule.Line) && isSiteStarRule(r, m, d.Rule.Line) {
					t.Fatalf("%s is decided by the site's '*' rule of line %d in\n%s", a, d.Rule.Line, body)
				}
			}
			claims++
		}
	}
	assert.Greater(t, claims, 1000, "the claims checked")
	t.Logf("%d claims checked", claims)
}

// isSiteStarRule reports whether line is a rule of a '*' group of the
// site's.
func isSiteStarRule(r *robots.Robots, m *managedFile, line int) bool {
	for _, gi := range r.GroupsFor() {
		if m.cdn[gi] {
			continue
		}
		for _, rule := range m.groups[gi].Rules {
			if rule.Line == line {
				return true
			}
		}
	}
	return false
}

// TestManagedBudget: a block and a site whose rules would take far more
// comparisons than managedBudget are checked within it: some of the
// site's rules are reported, not all.
func TestManagedBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("# BEGIN Cloudflare Managed content\nUser-agent: *\n")
	const cdnRules = 2000
	for i := range cdnRules {
		fmt.Fprintf(&b, "Allow: /%d\n", i)
	}
	b.WriteString("Allow: /\n# END Cloudflare Managed Content\nUser-agent: *\n")
	const siteRules = 2 * managedBudget / cdnRules
	for range siteRules {
		b.WriteString("Disallow: /\n")
	}
	n := len(withCode(b.String(), CodeManagedOverride))
	assert.Positive(t, n)
	assert.Less(t, n, siteRules, "the budget stops the check")
}

// managedWorst builds a file of size bytes whose managed block and site
// hold as many rules as fit, each of the site's beaten by the block's
// last: the most pairs the managed checks could compare.
func managedWorst(size int) []byte {
	var b strings.Builder
	b.WriteString("# BEGIN Cloudflare Managed content\nUser-agent: *\n")
	for i := 0; b.Len() < size/2; i++ {
		fmt.Fprintf(&b, "Allow: /%d\n", i)
	}
	b.WriteString("Allow: /\n# END Cloudflare Managed Content\nUser-agent: *\n")
	for b.Len() < size-len("Disallow: /\n") {
		b.WriteString("Disallow: /\n")
	}
	return []byte(b.String())
}

// BenchmarkLintManagedWorst lints managedWorst at the size Google reads:
// the managed checks stop at managedBudget.
func BenchmarkLintManagedWorst(b *testing.B) {
	body := managedWorst(compile.DefaultMaxBytes)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		Lint(body)
	}
}

// TestNotesSharedCorpus lints the real-world corpus beside the repository
// (../shared) and pins the notes: every file with Cloudflare's managed
// block gets its managed-section note, and those whose site has '*' rules
// the note that the eight AI crawlers the block names never read them.
// docs/lint.md gives the figures.
func TestNotesSharedCorpus(t *testing.T) {
	f, err := os.Open("../../shared/corpus/robots-corpus.tar.gz")
	if err != nil {
		t.Skipf("../shared is not beside the repository: %v", err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	require.NoError(t, err)
	tr := tar.NewReader(z)
	files, found := map[Code]int{}, map[Code]int{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if h.Typeflag != tar.TypeReg {
			continue
		}
		body, err := io.ReadAll(tr)
		require.NoError(t, err)
		seen := map[Code]bool{}
		for _, d := range Lint(body) {
			if d.Severity != Note {
				continue
			}
			found[d.Code]++
			if !seen[d.Code] {
				seen[d.Code] = true
				files[d.Code]++
			}
			if d.Code == CodeManagedOverride {
				assert.Contains(t, d.Message, "the managed block names Amazonbot, Applebot-Extended, Bytespider, CCBot, ClaudeBot, Google-Extended, GPTBot and meta-externalagent, which no group of the site's names", h.Name)
			}
		}
	}
	t.Logf("files with each note %v, notes %v", files, found)
	assert.Equal(t, map[Code]int{CodeManagedSection: 9, CodeManagedOverride: 8, CodeCrawlerIgnoresRobots: 1151}, files)
	assert.Equal(t, map[Code]int{CodeManagedSection: 9, CodeManagedOverride: 8, CodeCrawlerIgnoresRobots: 1461}, found)
}

// TestManagedHint: the block is looked for only in a file whose comments
// hold the word managed, in any case, as every marker does; a marker
// written in another case is still found.
func TestManagedHint(t *testing.T) {
	assert.True(t, containsFold("# BEGIN Cloudflare MANAGED content", managedHint))
	assert.True(t, containsFold("#mmmanaged", managedHint))
	assert.False(t, containsFold("# manage the bots", managedHint))
	assert.False(t, containsFold("", managedHint))
	runCases(t, []lintCase{
		{"upper-case markers", "# begin CLOUDFLARE MANAGED CONTENT\nUser-agent: GPTBot\nDisallow: /\n# end cloudflare managed content\n",
			[]string{"1:1 managed-section"}},
		{"a marker after a rule", "User-agent: *\nDisallow: /x # BEGIN Cloudflare Managed content\n", nil},
	})
}
