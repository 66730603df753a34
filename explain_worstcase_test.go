package robots_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/memstat"
	"github.com/fastrobots/robots/internal/testkit/worstcase"
)

var updateExplain = flag.Bool("update", false, "rewrite testdata/worstcase/*.explain.golden from the current explanations")

// BenchmarkExplainWorst explains, on each worst-case shape at the size
// Google reads, the shape's URL for its agents: the largest selection and
// a URL that matches many rules. The file is parsed, and the agent's rules
// compiled, before the clock starts.
func BenchmarkExplainWorst(b *testing.B) {
	for _, s := range worstcase.Shapes {
		b.Run(s.Name, func(b *testing.B) {
			r := robots.Parse(s.Build(robots.MaxBytes))
			r.Explain(s.Agents, s.URL)
			b.ReportAllocs()
			for b.Loop() {
				r.Explain(s.Agents, s.URL)
			}
		})
	}
}

// TestExplainWorstCaseGolden holds the explanation on a small instance of
// each worst-case shape to testdata/worstcase/<shape>.explain.golden.
func TestExplainWorstCaseGolden(t *testing.T) {
	for _, s := range worstcase.Shapes {
		t.Run(s.Name, func(t *testing.T) {
			r := robots.Parse(s.Build(s.SmallSize()))
			got := renderExplanation(r.Explain(s.Agents, s.URL))
			path := filepath.Join("testdata", "worstcase", s.Name+".explain.golden")
			if *updateExplain {
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, string(want), got)
		})
	}
}

// renderExplanation writes every field of e, one a line, with long strings
// cut.
func renderExplanation(e robots.Explanation) string {
	var b strings.Builder
	line := func(format string, args ...any) { b.WriteString(worstcase.Clip(fmt.Sprintf(format, args...)) + "\n") }
	rule := 0
	if e.Rule != nil {
		rule = e.Rule.Line
	}
	line("allowed %v, rule at line %d, implicit %v", e.Allowed, rule, e.Implicit)
	line("path %q", e.Path)
	sel := e.Selection
	line("selection %v, agents %q, agent %q", sel.Reason, sel.Agents, sel.Agent)
	line("groups %v", sel.Groups)
	line("lines %v", sel.Lines)
	line("why %s", sel.Why)
	line("matches %s", strings.Join(matchLines(e.Matches), " "))
	line("winner %d: %s", e.Winner, e.TieBreak)
	return b.String()
}

// TestExplainWorstCaseScaledUp explains each shape at the size Google
// reads and holds the explanation to that of the small instance: the same
// verdict, reason and agent, lists that start with the first half of the
// small one's (the matches up to their lines), and the same tie-break up
// to its numbers.
func TestExplainWorstCaseScaledUp(t *testing.T) {
	digits := regexp.MustCompile(`[0-9]+`)
	for _, s := range worstcase.Shapes {
		t.Run(s.Name, func(t *testing.T) {
			small := robots.Parse(s.Build(s.SmallSize())).Explain(s.Agents, s.URL)
			big := robots.Parse(s.Build(robots.MaxBytes)).Explain(s.Agents, s.URL)
			assert.Equal(t, small.Allowed, big.Allowed)
			assert.Equal(t, small.Path, big.Path)
			assert.Equal(t, small.Selection.Reason, big.Selection.Reason)
			assert.Equal(t, small.Selection.Agent, big.Selection.Agent)
			assertStartsWith(t, big.Selection.Groups, firstHalf(small.Selection.Groups), "groups")
			assertStartsWith(t, big.Selection.Lines, firstHalf(small.Selection.Lines), "lines")
			assertStartsWith(t, strings.Split(big.Selection.Why, ", "), firstHalf(strings.Split(small.Selection.Why, ", ")), "why")
			blank := func(s string) string { return digits.ReplaceAllString(s, "N") }
			matches := func(e robots.Explanation) []string {
				ms := matchLines(e.Matches)
				for i := range ms {
					ms[i] = blank(ms[i])
				}
				return ms
			}
			assertStartsWith(t, matches(big), firstHalf(matches(small)), "matches, up to their lines")
			assert.Equal(t, blank(small.TieBreak), blank(big.TieBreak))
		})
	}
}

func firstHalf[T any](s []T) []T { return s[:len(s)/2] }

func assertStartsWith[T any](t *testing.T, s, prefix []T, what string) {
	t.Helper()
	if assert.GreaterOrEqual(t, len(s), len(prefix), what) {
		assert.Equal(t, prefix, s[:len(prefix)], what)
	}
}

// TestExplainWorkIsLinear explains each shape at two sizes, one twice the
// other, and checks that the bytes Explain allocates grow no more than
// linearly. The rules are compiled before the count starts.
func TestExplainWorkIsLinear(t *testing.T) {
	const size = 128 << 10
	for _, s := range worstcase.Shapes {
		t.Run(s.Name, func(t *testing.T) {
			var allocs [2]uint64
			for i, n := range []int{size, 2 * size} {
				r := robots.Parse(s.Build(n))
				r.Explain(s.Agents, s.URL)
				allocs[i] = memstat.AllocatedBy(func() { r.Explain(s.Agents, s.URL) })
			}
			assert.LessOrEqual(t, float64(allocs[1]), 2.5*float64(max(allocs[0], 4<<10)), "bytes allocated: %d, then %d", allocs[0], allocs[1])
		})
	}
}
