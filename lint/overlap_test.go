package lint

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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
