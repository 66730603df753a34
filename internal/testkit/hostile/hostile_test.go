package hostile_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/hostile"
)

// TestFilesFillTheLimit pins each file's size (within the limit, and too
// close to it for one more rule line) and the rules it parses to.
func TestFilesFillTheLimit(t *testing.T) {
	want := map[string]int{
		"alternating": 2392, "distinct": 31999, "never-end": 509, "nested": 996,
		"nested-dollar": 997, "nested-busy": 123, "random-stars": 31, "dollar": 30116, "long-prefix": 34,
	}
	files := hostile.Files()
	require.Len(t, files, len(want))
	for _, f := range files {
		t.Run(f.Name, func(t *testing.T) {
			assert.LessOrEqual(t, len(f.Body), hostile.Limit)
			assert.Equal(t, want[f.Name], f.Rules)
			lines := strings.Split(strings.TrimSuffix(string(f.Body), "\n"), "\n")
			longest := 0
			for _, l := range lines {
				longest = max(longest, len(l)+1)
			}
			assert.Greater(t, len(f.Body)+longest, hostile.Limit, "room for one more rule line")

			r := robots.Parse(f.Body)
			assert.False(t, r.Truncated())
			require.Len(t, r.Groups(), 1)
			assert.Len(t, r.Groups()[0].Rules, f.Rules)
			for _, rule := range r.Groups()[0].Rules {
				assert.False(t, rule.Allow)
			}
		})
	}
}

func TestFilesAreDeterministic(t *testing.T) {
	for i, f := range hostile.Files() {
		again := hostile.Files()[i]
		assert.Equal(t, f.Body, again.Body, f.Name)
		assert.Equal(t, f.Path(4096, 0), again.Path(4096, 0), f.Name)
		assert.Equal(t, f.Path(4096, 1), again.Path(4096, 1), f.Name)
		assert.NotEqual(t, f.Path(4096, 0), f.Path(4096, 1), f.Name)
	}
}

func TestPathsHaveTheLengthAsked(t *testing.T) {
	for _, f := range hostile.Files() {
		for _, n := range []int{1, 2, 3, 4096, 1 << 20} {
			p := f.Path(n, 0)
			assert.Len(t, p, n, "%s(%d)", f.Name, n)
			assert.Equal(t, byte('/'), p[0], f.Name)
		}
	}
}

// TestClassifyFiles: the files that cost the most to classify fit the
// limit, are read whole, have distinct names and the same bytes on every
// call; LongStars parses to its rules.
func TestClassifyFiles(t *testing.T) {
	agents := []string{"Googlebot", "*", "GPTBot"}
	files := hostile.ClassifyFiles(agents)
	again := hostile.ClassifyFiles(agents)
	names := map[string]bool{}
	for i, f := range files {
		assert.LessOrEqual(t, len(f.Body), hostile.Limit, f.Name)
		assert.False(t, robots.Parse(f.Body).Truncated(), f.Name)
		assert.Positive(t, f.Rules, f.Name)
		assert.False(t, names[f.Name], "one file named %s", f.Name)
		names[f.Name] = true
		assert.Equal(t, f.Body, again[i].Body, f.Name)
	}
	long := hostile.LongStars()
	r := robots.Parse(long.Body)
	require.Len(t, r.Groups(), 1)
	assert.Len(t, r.Groups()[0].Rules, long.Rules)
}
