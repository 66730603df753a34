package main

import (
	"strings"
	"testing"

	"github.com/fastrobots/robots/bench"
	"github.com/stretchr/testify/require"
)

func TestWriteTable(t *testing.T) {
	sets := []bench.ConformanceSet{{Name: "one"}, {Name: "two"}}
	tallies := [][]bench.Tally{
		{{Cases: 10}, {Cases: 20}},
		{{Cases: 10, Disagreements: 3, Panics: 1}, {Cases: 20, Disagreements: 5, Panics: 2, Refused: 4}},
	}
	var b strings.Builder
	require.NoError(t, writeTable(&b, []string{"a", "bb"}, sets, []string{"x/y.jsonl.gz"}, tallies))
	lines := strings.Split(b.String(), "\n")
	require.Contains(t, lines, "# Left out, absent: x/y.jsonl.gz")
	require.Contains(t, lines, "library  one     two     panics  refused")
	require.Contains(t, lines, "a        0 / 10  0 / 20  0       0")
	require.Contains(t, lines, "bb       3 / 10  5 / 20  3       4")
}
