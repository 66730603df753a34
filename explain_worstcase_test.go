package robots_test

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/lint/worstcase"
)

var updateExplain = flag.Bool("update", false, "rewrite testdata/worstcase/*.explain.golden from the current explanations")

// BenchmarkExplainWorst explains, on each worst-case shape at the size
// Google reads, the shape's URL for its agents: the largest selection and
// a URL that matches many rules. The file is parsed, and the agent's rules
// compiled, before the clock starts.
func BenchmarkExplainWorst(b *testing.B) {
	for _, s := range worstcase.Shapes {
		r := robots.Parse(s.Build(robots.MaxBytes))
		r.Explain(s.Agents, s.URL)
		b.Run(s.Name, func(b *testing.B) {
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
	line := func(format string, args ...any) { b.WriteString(clip(fmt.Sprintf(format, args...)) + "\n") }
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

// clip returns s, or when it is long its ends and a digest of the whole.
func clip(s string) string {
	if len(s) <= 400 {
		return s
	}
	return fmt.Sprintf("%s ... %s (%d bytes, sha256 %x)", s[:150], s[len(s)-150:], len(s), sha256.Sum256([]byte(s)))
}
