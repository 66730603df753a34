package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseConformance(t *testing.T) {
	f, err := os.Open("testdata/conformance.txt")
	require.NoError(t, err)
	defer f.Close()
	c, err := ParseConformance(f)
	require.NoError(t, err)
	assert.Equal(t, []string{"library", "spec-test", "google-unit", "panics", "refused"}, c.Header)
	assert.Equal(t, [][]string{
		{"fastrobots", "0 / 400", "0 / 145", "0", "0"},
		{"slyrz", "23 / 400", "15 / 145", "0", "0"},
	}, c.Rows)
	assert.Contains(t, c.Comment, "Left out, absent: ../../shared/conformance/realworld.jsonl.gz")
}

func TestParseConformanceNoTable(t *testing.T) {
	_, err := ParseConformance(strings.NewReader("# only a comment\n"))
	assert.Error(t, err)
}
