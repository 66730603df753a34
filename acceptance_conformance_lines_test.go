package robots_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/conformance"
)

// TestConformanceLines checks, for every case of the verdict files, that
// Decision.Line is the line the reference parser names, cold and compiled:
// the deciding rule's, or, when only empty rules match, the first empty
// Allow's, else the first empty Disallow's.
func TestConformanceLines(t *testing.T) {
	want, err := conformance.Lines(conformance.LinesFile)
	require.NoError(t, err)
	files := []string{"testdata/conformance/spec-test.jsonl", "testdata/conformance/google-unit.jsonl", "testdata/conformance/generated.jsonl.gz"}
	if _, err := os.Stat(sharedRealworld); err == nil {
		files = append(files, sharedRealworld)
	}
	for _, path := range files {
		n, failed, empty := 0, 0, 0
		err := conformance.Each(path, func(_ int, c *conformance.Case) error {
			body, err := c.Body()
			if err != nil {
				return err
			}
			line, ok := want[c.ID]
			require.True(t, ok, "%s: no line for %s", path, c.ID)
			n++
			a := robots.Parse(body).Agent(c.UserAgent)
			cold := a.Decide(c.URL)
			hot := a.Compile().Decide(c.URL)
			if cold.Empty != nil {
				empty++
			}
			if cold.Line() != line || hot.Line() != line {
				failed++
				if failed <= 20 {
					t.Errorf("%s (%s): agent %q url %q: line %d cold, %d compiled; the reference names %d",
						c.ID, filepath.Base(path), c.UserAgent, c.URL, cold.Line(), hot.Line(), line)
				}
			}
			return nil
		})
		require.NoError(t, err)
		assert.Zero(t, failed, "%s: %d of %d cases name another line than the reference", path, failed, n)
		t.Logf("%s: %d cases, %d named by an empty rule", filepath.Base(path), n, empty)
	}
}
