package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/internal/testkit/conformance"
)

// evalConformance runs eval over a file of reference verdicts and checks
// that every answer agrees with the reference. It returns the number of
// cases checked.
func evalConformance(t *testing.T, path string) int {
	t.Helper()
	r := invoke(runEval, "", path)
	require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
	answers := bufio.NewScanner(bytes.NewReader([]byte(r.Stdout)))
	n, failed := 0, 0
	err := conformance.Each(path, func(line int, c *conformance.Case) error {
		require.True(t, answers.Scan(), "no answer for %s", c.ID)
		var ans struct {
			ID      string
			Allowed *bool
			Error   string
		}
		require.NoError(t, json.Unmarshal(answers.Bytes(), &ans))
		require.Equal(t, c.ID, ans.ID, "answers out of order")
		n++
		if ans.Allowed == nil || *ans.Allowed != c.Expected {
			failed++
			if failed <= 20 {
				t.Errorf("%s (%s:%d): agent %q url %q: got %s, reference says allowed=%v",
					c.ID, filepath.Base(path), line, c.UserAgent, c.URL, answers.Text(), c.Expected)
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.False(t, answers.Scan(), "more answers than cases")
	assert.Zero(t, failed, "cases disagreeing with the reference")
	return n
}

func TestEvalConformance(t *testing.T) {
	tests := []struct {
		file  string
		cases int
	}{
		{"spec-test.jsonl", 400},
		{"google-unit.jsonl", 145},
		{"generated.jsonl.gz", 35414},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			assert.Equal(t, tt.cases, evalConformance(t, filepath.Join("../../testdata/conformance", tt.file)))
		})
	}
}

// sharedRealworld is the case file of real sites' bodies, kept outside the
// repository; CI places ../shared beside it.
const sharedRealworld = "../../../shared/conformance/realworld.jsonl.gz"

func TestEvalConformanceRealworld(t *testing.T) {
	if _, err := os.Stat(sharedRealworld); err != nil {
		t.Skipf("skipping: %s is not present (%v); it sits beside the repository in CI", sharedRealworld, err)
	}
	assert.Equal(t, 24460, evalConformance(t, sharedRealworld))
}
