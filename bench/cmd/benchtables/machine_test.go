package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMachineLine(t *testing.T) {
	run, err := ParseRun(strings.NewReader("BenchmarkParse/fastrobots-2 1 100 ns/op\nBenchmarkParse/fastrobots-2 1 110 ns/op\n"))
	require.NoError(t, err)
	cases := []struct {
		name, machine string
		want          []string
		not           []string
	}{
		{"full run", "go version go1.26.8 linux/amd64\nnproc: 2\ncpu: AMD EPYC\n2026-11-23T20:08:52Z\n",
			[]string{"`go version go1.26.8 linux/amd64`", "2 cores", "CPU `AMD EPYC`", "run started 2026-11-23T20:08:52Z", "median of the"},
			[]string{"run again"}},
		{"updated", "nproc: 2\n2026-11-23T20:08:52Z\nupdated 2026-11-25T01:50:00Z: ./run.sh --update -bench Frontier\n",
			[]string{"run started 2026-11-23T20:08:52Z", "`./run.sh --update -bench Frontier` selects were run again, started 2026-11-25T01:50:00Z"},
			[]string{"run started updated"}},
		{"nothing", "", []string{"Machine: not recorded."}, nil},
	}
	for _, c := range cases {
		got := MachineLine(c.machine, run)
		for _, w := range c.want {
			assert.Contains(t, got, w, c.name)
		}
		for _, n := range c.not {
			assert.NotContains(t, got, n, c.name)
		}
	}
}
