package lint

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

	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/lint/worstcase"
)

var update = flag.Bool("update", false, "rewrite testdata/worstcase/*.golden from the current findings")

// BenchmarkLintWorst lints each worst-case shape at the size Google reads.
func BenchmarkLintWorst(b *testing.B) {
	for _, s := range worstcase.Shapes {
		body := s.Build(compile.DefaultMaxBytes)
		b.Run(s.Name, func(b *testing.B) {
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
		b.WriteString(clip(d.String()))
		b.WriteByte('\n')
	}
	return b.String()
}

// clip returns s, or when it is long its ends and a digest of the whole.
func clip(s string) string {
	if len(s) <= 400 {
		return s
	}
	return fmt.Sprintf("%s ... %s (%d bytes, sha256 %x)", s[:150], s[len(s)-150:], len(s), sha256.Sum256([]byte(s)))
}
