package lint

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/internal/testkit/memstat"
	"github.com/fastrobots/robots/internal/testkit/worstcase"
)

var update = flag.Bool("update", false, "rewrite testdata/worstcase/*.golden from the current findings")

// BenchmarkLintWorst lints each worst-case shape at the size Google reads.
func BenchmarkLintWorst(b *testing.B) {
	for _, s := range worstcase.Shapes {
		b.Run(s.Name, func(b *testing.B) {
			body := s.Build(compile.DefaultMaxBytes)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				Lint(body)
			}
		})
	}
}

// TestLintWorstCaseGolden holds the findings on a small instance of each
// worst-case shape to testdata/worstcase/<shape>.golden.
func TestLintWorstCaseGolden(t *testing.T) {
	for _, s := range worstcase.Shapes {
		t.Run(s.Name, func(t *testing.T) {
			got := renderFindings(Lint(s.Build(s.SmallSize())))
			path := filepath.Join("testdata", "worstcase", s.Name+".golden")
			if *update {
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, string(want), got)
		})
	}
}

// renderFindings writes one finding a line, with long strings cut.
func renderFindings(ds []Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(worstcase.Clip(d.String()))
		b.WriteByte('\n')
	}
	return b.String()
}

// TestLintWorstCaseScaledUp lints each shape at the size Google reads and
// holds the findings to those on the small instance: on the first half of
// the lines the two files share, the findings are the same, and every
// finding is of a kind the small instance has, up to the numbers and
// quoted values in its message.
func TestLintWorstCaseScaledUp(t *testing.T) {
	for _, s := range worstcase.Shapes {
		t.Run(s.Name, func(t *testing.T) {
			smallBody, bigBody := s.Build(s.SmallSize()), s.Build(compile.DefaultMaxBytes)
			small, big := Lint(smallBody), Lint(bigBody)
			cut := sharedLines(smallBody, bigBody) / 2
			assert.Equal(t, renderFindings(upTo(small, cut)), renderFindings(upTo(big, cut)), "findings on lines 1 to %d", cut)
			kinds := map[string]bool{}
			for _, d := range small {
				kinds[findingKind(d)] = true
			}
			for _, d := range big {
				if !kinds[findingKind(d)] {
					t.Fatalf("a finding of a kind the small instance lacks: %s", worstcase.Clip(d.String()))
				}
			}
		})
	}
}

// sharedLines returns the number of whole lines a and b start with.
func sharedLines(a, b []byte) int {
	n := 0
	for i := 0; i < min(len(a), len(b)) && a[i] == b[i]; i++ {
		if a[i] == '\n' {
			n++
		}
	}
	return n
}

// upTo returns the findings on lines 1 to n.
func upTo(ds []Diagnostic, n int) []Diagnostic {
	var out []Diagnostic
	for _, d := range ds {
		if d.Line <= n {
			out = append(out, d)
		}
	}
	return out
}

var (
	quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	number = regexp.MustCompile(`[0-9]+`)
)

// findingKind is a finding's code and message, with its quoted values and
// numbers blanked.
func findingKind(d Diagnostic) string {
	return string(d.Code) + ": " + number.ReplaceAllString(quoted.ReplaceAllString(d.Message, `"…"`), "N")
}

// TestLintWorkIsLinear lints each shape at two sizes, one seven times the
// other, and checks that neither the bytes allocated nor the steps of the
// precedence checks grow more than linearly. Seven times the file is at
// most fourteen times the bytes: tables and slices that grow by doubling
// hold between one and two times what they need, so a ratio of sizes as
// small as two cannot tell linear growth (up to four times, on a file that
// just fills a table) from quadratic; at seven, linear is at most fourteen
// and quadratic forty-nine. Three shapes are quadratic in the precedence
// checks by nature: each rule has a number of candidates to beat it that
// grows with the file ('*' patterns sharing a literal prefix), or a group
// is part of a number of selections that grows with the file;
// precedenceBudget caps them, and TestPrecedenceBudget checks that it
// does. Both sizes are within the scratch a parse keeps pooled for the
// next (compile's builderKeepBytes), and leastAllocated counts a call
// that reuses it, so that the ratio measures growth alone.
func TestLintWorkIsLinear(t *testing.T) {
	const size, times = 64<<10 + 1024, 7 // seven times: the larger stays under the 500 KiB lint reads
	quadratic := map[string]bool{"star-patterns": true, "star-backtrack": true, "merged-agents": true}
	for _, s := range worstcase.Shapes {
		t.Run(s.Name, func(t *testing.T) {
			one, many := s.Build(size), s.Build(times*size)
			a1, a2 := leastAllocated(func() { Lint(one) }), leastAllocated(func() { Lint(many) })
			t.Logf("bytes allocated: %d, then %d (%.2fx)", a1, a2, float64(a2)/float64(a1))
			assert.LessOrEqual(t, float64(a2), 2*times*float64(a1), "bytes allocated: %d, then %d", a1, a2)
			if quadratic[s.Name] {
				return
			}
			_, w1 := lint(one, math.MaxInt)
			_, w2 := lint(many, math.MaxInt)
			t.Logf("precedence steps: %d, then %d", w1, w2)
			assert.LessOrEqual(t, float64(w2), 1.25*times*float64(max(w1, 1000)), "precedence steps: %d, then %d", w1, w2)
		})
	}
}

// leastAllocated is the fewest bytes f allocates over three calls: the
// parser's pooled scratch is reused when the pool kept it, which a
// collection may empty at any time, so one call's count varies by the
// scratch (up to 40 % on a 32-bit build) and the least is f's own.
func leastAllocated(f func()) uint64 {
	least := memstat.AllocatedBy(f)
	for range 2 {
		least = min(least, memstat.AllocatedBy(f))
	}
	return least
}

// TestPrecedenceBudget checks that precedenceBudget bounds the work of the
// precedence checks on the shapes that need it, at the size Google reads,
// and that a budget cut only leaves findings out: the findings under a
// small budget are some of those under an unlimited one.
func TestPrecedenceBudget(t *testing.T) {
	for _, name := range []string{"star-patterns", "merged-agents"} {
		s, ok := worstcase.Get(name)
		require.True(t, ok)
		body := s.Build(compile.DefaultMaxBytes)
		_, work := lint(body, precedenceBudget)
		assert.GreaterOrEqual(t, work, precedenceBudget, "%s needs the budget", name)
		assert.LessOrEqual(t, work, precedenceBudget+len(body), "%s stops at the budget", name)

		body = s.Build(32 << 10)
		all, work := lint(body, math.MaxInt)
		for _, budget := range []int{1, work / 3, 2 * work / 3} {
			some, _ := lint(body, budget)
			assert.Less(t, len(some), len(all), "%s under a budget of %d", name, budget)
			assert.Subset(t, all, some, "%s under a budget of %d", name, budget)
		}
		full, _ := lint(body, work)
		assert.Equal(t, all, full, "%s with just enough budget", name)
	}
}
