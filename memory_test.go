package robots_test

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/memstat"
)

// licensedBodies returns the bodies of the licensed corpus.
func licensedBodies(t *testing.T) [][]byte {
	t.Helper()
	dir := filepath.Join(corpusLicensed, "files")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out [][]byte
	for _, e := range entries {
		body, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		out = append(out, body)
	}
	return out
}

// TestMemoryBytesIsWhatIsHeld checks that MemoryBytes reports what parsed
// files really keep alive: the live heap that 2,500-odd real files hold,
// parsed, with their rules resolved and checked cold (their rules indexed
// after the first check), and compiled with automata built, is within
// 1.5× of the sum of what they report.
func TestMemoryBytesIsWhatIsHeld(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes what the heap holds")
	}
	bodies := licensedBodies(t)
	paths := []string{"/", "/index.html", "/search?q=a", "/wp-admin/x", "/a/b/c.pdf", "/user/1/profile", "/cart?id=2", "/static/app.js"}
	for _, tt := range []struct {
		name    string
		checks  int
		compile bool
	}{
		{"parsed", 0, false},
		{"cold", 1, false},
		{"cold indexed", 40, false},
		{"compiled", 40, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer debug.SetGCPercent(debug.SetGCPercent(-1))
			kept := make([]*robots.Robots, len(bodies))
			before := memstat.Live()
			for i, body := range bodies {
				r := robots.Parse(body)
				if tt.checks > 0 {
					a := r.Agent("Googlebot")
					if tt.compile {
						a.Compile()
					}
					for j := range tt.checks {
						a.AllowedPath(paths[j%len(paths)] + strings.Repeat("x", j%5))
					}
				}
				kept[i] = r
			}
			held := memstat.Live() - before
			var reported int64
			for _, r := range kept {
				reported += r.MemoryBytes()
			}
			ratio := float64(reported) / float64(held)
			t.Logf("%d files: %d bytes held, %d reported (%.2f), %.0f held per file", len(kept), held, reported, ratio, float64(held)/float64(len(kept)))
			assert.InDelta(t, 1, ratio, 0.34, "MemoryBytes within 1.5x of the heap held")
			runtime.KeepAlive(kept)
		})
	}
}
