package robots_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/conformance"
)

// runConformance checks every case of a file of reference verdicts and
// returns how many it checked.
func runConformance(t *testing.T, path string) int {
	t.Helper()
	n, failed := 0, 0
	err := conformance.Each(path, func(line int, c *conformance.Case) error {
		body, err := c.Body()
		if err != nil {
			return err
		}
		n++
		// The first checks of a crawler test its rules one by one (cold);
		// compiled, its automaton answers: both must agree with the
		// reference, and so must the statement of the semantics they are
		// tested against (compile.Reference).
		cold := robots.Parse(body).Agent(c.UserAgent).Allowed(c.URL)
		hot := robots.Parse(body).Agent(c.UserAgent).Compile().Allowed(c.URL)
		_, ref := referenceDecide(body, robots.Google, c.UserAgent, c.URL)
		for tier, got := range map[string]bool{"cold": cold, "compiled": hot, "compile.Reference": ref.Allowed()} {
			if got != c.Expected {
				failed++
				if failed <= 20 {
					t.Errorf("%s (%s:%d), %s: agent %q url %q: allowed=%v, reference says %v\n%q",
						c.ID, filepath.Base(path), line, tier, c.UserAgent, c.URL, got, c.Expected, body[:min(len(body), 400)])
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
	if failed > 0 {
		t.Errorf("%d of %d cases disagree with the reference", failed, n)
	}
	return n
}

func TestConformanceSpecTest(t *testing.T) {
	require.Equal(t, 400, runConformance(t, "testdata/conformance/spec-test.jsonl"))
}

func TestConformanceGoogleUnit(t *testing.T) {
	require.Equal(t, 145, runConformance(t, "testdata/conformance/google-unit.jsonl"))
}

func TestConformanceGenerated(t *testing.T) {
	require.Equal(t, 35414, runConformance(t, "testdata/conformance/generated.jsonl.gz"))
}

// TestConformanceUsageMixed runs the spec-test and google-unit cases with
// Content-Usage and Content-Signal lines inserted (usage_verdict_test.go's
// places), as the reference decides them: the same verdicts as without.
func TestConformanceUsageMixed(t *testing.T) {
	require.Equal(t, 2153, runConformance(t, "testdata/conformance/usage-mixed.jsonl.gz"))
}

// sharedRealworld is the case file of real sites' bodies, which their
// licences keep out of this repository; CI places ../shared beside it.
const sharedRealworld = "../shared/conformance/realworld.jsonl.gz"

func TestConformanceRealworld(t *testing.T) {
	if _, err := os.Stat(sharedRealworld); err != nil {
		t.Skipf("skipping: %s is not present (%v); it sits beside the repository in CI", sharedRealworld, err)
	}
	require.Equal(t, 24460, runConformance(t, sharedRealworld))
}
