package lint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fastrobots/robots"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRFCPrecedenceFindings(t *testing.T) {
	const ua = "User-agent: *\n"
	runCases(t, []lintCase{
		{"same pattern", ua + "Disallow: /a\nAllow: /a\n", []string{"2:1 equal-priority"}},
		{"same pattern, allow first", ua + "Allow: /\nDisallow: /\n", []string{"3:1 equal-priority"}},
		{"same paths, same length", ua + "Disallow: /a**\nAllow: /a*$\n", []string{"2:1 equal-priority", "2:14 trailing-star"}},
		{"same length, fewer paths", ua + "Disallow: /ab\nAllow: /a*\n", []string{"2:1 dead-rule", "3:10 trailing-star"}},
		{"longer star covers", ua + "Allow: /shop/\nDisallow: /*shop/\n", []string{"2:1 dead-rule"}},
		{"longer prefix does not cover", ua + "Allow: /a\nDisallow: /ab\n", nil},
		{"longer allow covers a disallow", ua + "Disallow: /x\nAllow: /x*\n", []string{"2:1 dead-rule", "3:10 trailing-star"}},
		{"anchored does not cover open", ua + "Allow: /a\nDisallow: /a*$x$\n", []string{"3:14 dollar-inside"}},
		{"same kind is no conflict", ua + "Disallow: /a\nDisallow: /a*\n", []string{"3:13 trailing-star"}},
		{"the usual allow inside a disallow", ua + "Disallow: /drafts/\nAllow: /drafts/public/\n", nil},
		{"different crawlers do not compete", "User-agent: a\nDisallow: /x\n\nUser-agent: b\nAllow: /x\n", nil},
		{"merged groups compete", "User-agent: a\nDisallow: /x\n\nUser-agent: a\nAllow: /x\n", []string{"2:1 equal-priority"}},
		{"alive for one of its crawlers", "User-agent: a\nUser-agent: b\nDisallow: /x\n\nUser-agent: a\nAllow: /x\n", nil},
		{"dead for every one of its crawlers", "User-agent: a\nUser-agent: b\nDisallow: /x\n\nUser-agent: a\nAllow: /x\n\nUser-agent: b\nAllow: /*x\n",
			[]string{"3:1 dead-rule"}},
		{"index page still allows its directory", ua + "Allow: /d/index.html\nDisallow: /*d/index.html\n", nil},
		{"index page and its directory both covered", ua + "Allow: /d/index.html\nDisallow: /*d/index.html\nDisallow: /*d/$\n",
			[]string{"2:1 dead-rule"}},
		{"never-matching rules are left to pattern-no-slash", ua + "Allow: a\nDisallow: /*a\n", []string{"2:8 pattern-no-slash"}},
	})
}

func TestPrecedenceIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; b.Len() < 500<<10; i++ {
		b.WriteString("Disallow: /*a\nAllow: /*b\n")
	}
	assert.NotPanics(t, func() { Lint([]byte(b.String())) })
}

// TestPrecedenceOneKind: a file whose rules are all of one kind has no
// rule another beats nor ties with, so the precedence checks find
// nothing and do no work; one allow among them is analysed.
func TestPrecedenceOneKind(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow:\nAllow:\nAllow: x\n") // rules that match no path
	for i := range 300 {
		fmt.Fprintf(&b, "Disallow: /a%d\nDisallow: /a%d*\n", i%10, i)
	}
	ds, work := lint([]byte(b.String()), precedenceBudget)
	assert.Zero(t, work)
	for _, d := range ds {
		assert.NotContains(t, []Code{CodeDeadRule, CodeEqualPriority}, d.Code, "line %d", d.Line)
	}
	b.WriteString("Allow: /a1\n")
	ds, work = lint([]byte(b.String()), precedenceBudget)
	assert.Positive(t, work)
	assert.True(t, slices.ContainsFunc(ds, func(d Diagnostic) bool { return d.Code == CodeEqualPriority }),
		"Allow: /a1 ties with Disallow: /a1")
}

// TestRuleKindsCoverTheFile: the rule kinds the line checks record are
// never fewer than the parsed file's, so that skipping the parse when one
// kind was not seen skips nothing the precedence checks would find: for
// every file of the licensed corpus and for lines the parse reads as
// rules in odd ways (typos, a byte order mark, CR line breaks, a NUL, a
// rule past a cut line).
func TestRuleKindsCoverTheFile(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("..", "testdata", "corpus", "files*", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, names)
	var bodies [][]byte
	for _, name := range names {
		body, err := os.ReadFile(name)
		require.NoError(t, err)
		bodies = append(bodies, body)
	}
	for _, s := range []string{
		"User-agent: *\nDissallow: /a\nAllow: /a\n",
		"\ufeffUser-agent: *\rDisallow: /a\rallow:/b\r",
		"User-agent: *\nDisallow: /a\x00x\nAllow: /a\x00\n",
		"User-agent: *\nDisallow: /a\nAllow: " + strings.Repeat("/a", 20000) + "\n",
		"Allow: /a\nUser-agent: *\nDisallow: /a\n",
		"User-agent: *\nDisallow: *a\nAllow: a\n",
	} {
		bodies = append(bodies, []byte(s))
	}
	both := 0
	for _, body := range bodies {
		l, _ := lintFile(nil, body, precedenceBudget, true)
		whole := &linter{body: l.body, file: l.file, google: l.google, nul: l.nul}
		if whole.checkSize(body); !whole.checkWholeFile() {
			continue // the line checks, and the precedence ones, are not run
		}
		if bothKinds(robots.Parse([]byte(l.body)).Groups()) {
			both++
			require.True(t, l.ruleKinds[0] && l.ruleKinds[1], "%q", body[:min(len(body), 200)])
		}
	}
	assert.Positive(t, both)
}

// TestCandidatesFindAll: the precedence checks record the same dead rules
// and equal pairs, with the same rule beating each, when every pattern is
// a candidate as when only those with a '*' and the allows written as a
// disallow is are, on random files whose patterns share prefixes, stars,
// anchors and index pages.
func TestCandidatesFindAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"/", "a", "b", "/a", "/b", "*", "index.html", "?"}
	pattern := func() string {
		var b strings.Builder
		b.WriteString([]string{"/", "*", "/a"}[rng.IntN(3)])
		for range rng.IntN(4) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		if rng.IntN(5) == 0 {
			b.WriteString("$")
		}
		return b.String()
	}
	var dead, equal int
	for i := range 3000 {
		var b strings.Builder
		for range 1 + rng.IntN(3) {
			for range 1 + rng.IntN(2) {
				fmt.Fprintf(&b, "User-agent: %s\n", []string{"a", "b", "*"}[rng.IntN(3)])
			}
			for range 1 + rng.IntN(6) {
				fmt.Fprintf(&b, "%s: %s\n", []string{"Allow", "Disallow"}[rng.IntN(2)], pattern())
			}
		}
		l, _ := lintFile(nil, []byte(b.String()), precedenceBudget, true)
		some, every := l.analysePrecedence(math.MaxInt, false), l.analysePrecedence(math.MaxInt, true)
		if some == nil || every == nil {
			require.Equal(t, some == nil, every == nil, "file %d:\n%s", i, b.String())
			continue
		}
		require.Equal(t, every.dead, some.dead, "file %d:\n%s", i, b.String())
		require.Equal(t, every.equal, some.equal, "file %d:\n%s", i, b.String())
		for n := range some.dead {
			dead += min(1, some.dead[n].count)
			equal += min(1, some.equal[n].count)
		}
	}
	assert.Positive(t, dead, "rules found dead")
	assert.Positive(t, equal, "equal pairs found")
}
