package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReplaceSection(t *testing.T) {
	doc := "# T\n\n" + BeginMarker + "\nold\n" + EndMarker + "\n\nafter\n"
	out, err := ReplaceSection([]byte(doc), []byte("new\nlines\n"))
	require.NoError(t, err)
	assert.Equal(t, "# T\n\n"+BeginMarker+"\nnew\nlines\n"+EndMarker+"\n\nafter\n", string(out))
	sec, err := Section(out)
	require.NoError(t, err)
	assert.Equal(t, "new\nlines\n", string(sec))
}

func TestSectionErrors(t *testing.T) {
	for _, doc := range []string{
		"no markers\n",
		BeginMarker + "\nno end\n",
		EndMarker + "\n" + BeginMarker + "\nend before begin\n",
		BeginMarker + "\n" + EndMarker + "\n" + BeginMarker + "\n" + EndMarker + "\n",
		"text " + BeginMarker + "\nx\n" + EndMarker + "\n", // not on a line of its own
	} {
		_, err := Section([]byte(doc))
		assert.Error(t, err, "%q", doc)
	}
}

// TestDocsTablesAreGenerated fails when the generated section of
// docs/benchmarks.md is not what the committed run in bench/results gives:
// a figure edited by hand, or a run committed without its tables (run.sh
// writes both).
func TestDocsTablesAreGenerated(t *testing.T) {
	want, err := Generate("../../results")
	require.NoError(t, err)
	doc, err := os.ReadFile("../../../docs/benchmarks.md")
	require.NoError(t, err)
	got, err := Section(doc)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got),
		"docs/benchmarks.md's tables differ from bench/results: cd bench && go run ./cmd/benchtables -docs ../docs/benchmarks.md")
}
