package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixture parses testdata/bench.txt, a run written by hand: -count 3 for
// the Shop benchmarks, 2 for CheckNamed, 1 elsewhere; a skipped library, a
// result split by a library's own output, notes logged twice, variants, a
// benchmark and a library the tables do not name.
func fixture(t *testing.T) *Run {
	t.Helper()
	f, err := os.Open("testdata/bench.txt")
	require.NoError(t, err)
	defer f.Close()
	r, err := ParseRun(f)
	require.NoError(t, err)
	return r
}

func TestParseRunMedians(t *testing.T) {
	r := fixture(t)
	cases := []struct {
		bench, lib, unit string
		want             float64
	}{
		{"ShopParse", "fastrobots", "ns/op", 38000},   // 40000, 33000, 38000
		{"ShopParse", "fastrobots", "MB/s", 420},      // 400, 500, 420
		{"ShopParse", "slyrz", "MB/s", 160},           // 150, 170, 160
		{"ShopCold", "fastrobots", "ns/op", 45000},    // 50000, 40000, 45000
		{"CheckNamed", "fastrobots", "ns/op", 55},     // 50, 60: the mean of the middle two
		{"CheckNamed", "temoto-group", "ns/op", 8500}, // 8000, 9000
		{"PathologicalScaling/n=2500", "grobotstxt", "ns/op", 8170494},
		{"Memory", "fastrobots", "B/automaton-star", 90000},
	}
	for _, c := range cases {
		got, ok := r.Median(c.bench, c.lib, c.unit)
		if assert.True(t, ok, "%s/%s %s", c.bench, c.lib, c.unit) {
			assert.Equal(t, c.want, got, "%s/%s %s", c.bench, c.lib, c.unit)
		}
	}
	fewest, most, someEven := r.Runs()
	assert.Equal(t, []any{1, 3, true}, []any{fewest, most, someEven})
	assert.Equal(t, "Test CPU @ 1.00GHz", r.CPU)
}

func TestParseRunMissing(t *testing.T) {
	r := fixture(t)
	for _, k := range []sampleKey{
		{"Memory", "temoto", "B/automaton-star"}, // a metric only fastrobots reports
		{"CheckStar", "fastrobots", "ns/op"},     // a library the benchmark lacks
		{"ShopCheck", "samclarke", "ns/op"},      // a library that skipped
		{"Parse", "fastrobots", "ns/op"},         // a benchmark not in the run
	} {
		_, ok := r.Median(k.bench, k.lib, k.unit)
		assert.False(t, ok, "%+v", k)
	}
}

// TestParseRunSplitLine reads the result that benjaminestes' own output
// (it prints "oh no! ..." when a rule's regexp does not compile) pushed
// off its name's line.
func TestParseRunSplitLine(t *testing.T) {
	r := fixture(t)
	got, ok := r.Median("Crawl", "benjaminestes", "ns/op")
	require.True(t, ok)
	assert.Equal(t, 180e6, got)
	got, _ = r.Median("Crawl", "benjaminestes", "panics")
	assert.Equal(t, 8.0, got)
}

func TestParseRunOrder(t *testing.T) {
	r := fixture(t)
	assert.Equal(t, []string{"ShopParse", "ShopResolve", "ShopCold", "ShopCheck", "Crawl",
		"Frontier", "Frontier/parallel", "Frontier/transport", "CheckNamed", "CheckStar",
		"PathologicalScaling/n=1250", "PathologicalScaling/n=2500", "Memory", "Fetch"}, r.Benchmarks)
	assert.Equal(t, []string{"ns/op", "B/automaton-star", "B/file-median", "ns/file", "states-star", "B/op", "allocs/op"}, r.Units["Memory"])
}

// TestParseRunNotes checks that logged lines lose their file:line, that a
// note logged by every run is kept once, and that a skip is noted.
func TestParseRunNotes(t *testing.T) {
	r := fixture(t)
	assert.Equal(t, []Note{
		{"ShopCheck", "samclarke", "SKIP", "samclarke cannot parse and resolve shop.txt: {Files:1 Panics:1}"},
		{"Crawl", "benjaminestes", "BENCH", "8 panics per pass, first in [files/00078.txt files/00097.txt]"},
		{"Memory", "temoto", "BENCH", "22 of 2037 sampled files not measured (refused by the library or made it panic)"},
	}, r.Notes)
}

func TestParseRunSkipWithoutMessage(t *testing.T) {
	r, err := ParseRun(strings.NewReader("--- SKIP: BenchmarkPathological/temoto-2\n--- FAIL: BenchmarkParse/slyrz\nPASS\n"))
	require.NoError(t, err)
	assert.Equal(t, []Note{{"Pathological", "temoto", "SKIP", ""}, {"Parse", "slyrz", "FAIL", ""}}, r.Notes)
}

func TestSplitName(t *testing.T) {
	cases := []struct {
		name, bench, lib string
		ok               bool
	}{
		{"BenchmarkParse/fastrobots-2", "Parse", "fastrobots", true},
		{"BenchmarkParse/temoto-group-16", "Parse", "temoto-group", true},
		{"BenchmarkParse/temoto-group", "Parse", "temoto-group", true}, // GOMAXPROCS 1: no suffix
		{"BenchmarkPathologicalScaling/grobotstxt/n=1250-2", "PathologicalScaling/n=1250", "grobotstxt", true},
		{"BenchmarkParse-2", "", "", false},
		{"Parse/fastrobots-2", "", "", false},
	}
	for _, c := range cases {
		bench, lib, ok := splitName(c.name)
		assert.Equal(t, []any{c.bench, c.lib, c.ok}, []any{bench, lib, ok}, c.name)
	}
}

// TestParseRunVerbose reads `go test -v -bench` output, as run.sh makes:
// each name on a line of its own before its result, and skips with their
// message.
func TestParseRunVerbose(t *testing.T) {
	f, err := os.Open("testdata/verbose.txt")
	require.NoError(t, err)
	defer f.Close()
	r, err := ParseRun(f)
	require.NoError(t, err)
	assert.Equal(t, []string{"Pathological"}, r.Benchmarks)
	assert.Equal(t, []string{"fastrobots", "benjaminestes"}, r.Libs)
	got, ok := r.Median("Pathological", "benjaminestes", "ns/first-check")
	assert.True(t, ok)
	assert.Equal(t, 132354314.0, got)
	assert.Equal(t, []Note{{"Pathological", "samclarke", "SKIP", "skipped: one check took 1.234s, over the 1s cap"}}, r.Notes)
}
