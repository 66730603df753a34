package main

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/fastrobots/robots/bench"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/tables.md")

// TestLibOrderIsBenchLibs keeps the columns in the order of bench.Libs(),
// which the command does not import (it needs the standard library only).
func TestLibOrderIsBenchLibs(t *testing.T) {
	var names []string
	for _, lib := range bench.Libs() {
		names = append(names, lib.Name())
	}
	assert.Equal(t, names, LibOrder)
	assert.Equal(t, Highlight, LibOrder[0])
}

func TestColumns(t *testing.T) {
	assert.Equal(t, append(LibOrder[:len(LibOrder):len(LibOrder)], "newlib"), Columns(fixture(t)))
}

func TestBestPeer(t *testing.T) {
	r := fixture(t)
	cols := Columns(r)
	lib, v, ok := BestPeer(r, cols, "Crawl", "ns/op") // temoto 300 ms, benjaminestes 180 ms
	assert.Equal(t, []any{"benjaminestes", 180e6, true}, []any{lib, v, ok})
	_, _, ok = BestPeer(r, cols, "ShopResolve", "ns/op") // fastrobots alone
	assert.False(t, ok)
}

// tablesOf renders the fixture's tables.
func tablesOf(t *testing.T) string {
	t.Helper()
	out, err := Generate("testdata")
	require.NoError(t, err)
	return string(out)
}

// TestTables checks rows of the rendered fixture: medians per library, "—"
// for a library or a metric without a result, the fastest peer and the
// ratio on times only, and the notes under their family's table.
func TestTables(t *testing.T) {
	lines := strings.Split(tablesOf(t), "\n")
	for _, want := range []string{
		// newlib, outside LibOrder, has a column only in the table of its results.
		"| benchmark | unit | fastrobots | temoto | temoto-group | grobotstxt | slyrz | samclarke | benjaminestes | newlib | fastest peer | fastrobots ÷ fastest peer |",
		"| benchmark | unit | fastrobots | temoto | temoto-group | grobotstxt | slyrz | samclarke | benjaminestes | fastest peer | fastrobots ÷ fastest peer |",
		"| `ShopParse` | ns/op | 38 µs | — | — | — | 105 µs | — | — | slyrz | 0.36× |",
		"|  | MB/s | 420 | — | — | — | 160 | — | — |  |  |",
		// fastrobots alone: no peer to compare with.
		"| `ShopResolve` | ns/op | 40 µs | — | — | — | — | — | — | — | — |",
		// a peer alone: no ratio.
		"| `CheckStar` | ns/op | — | 71 µs | — | — | — | — | — | temoto | — |",
		"| `Crawl` | ns/op | 100 ms | 300 ms | — | — | — | — | 180 ms | benjaminestes | 0.56× |",
		"|  | B/automaton-star | 87.9 KiB | — | — | — | — | — | — |  |  |",
		"| `PathologicalScaling/n=1250` | ns/op | 1.66 µs | — | — | 3.35 ms | — | — | — | grobotstxt | 0.0005× |",
		"| `Fetch` | ns/op | 5 µs | — | — | — | — | — | — | 9 µs | newlib | 0.56× |",
		"- `ShopCheck/samclarke`: skipped: samclarke cannot parse and resolve shop.txt: {Files:1 Panics:1}",
		"- `Crawl/benjaminestes`: 8 panics per pass, first in [files/00078.txt files/00097.txt]",
		"No results: the run has none of CorpusParse, Corpus, CorpusAll.",
		"| `ShopCold` ns/op ≤ 0.25 × slyrz's | 45 µs | slyrz: 200 µs | 0.23× | met |",
		"| `ShopResolve` B/op ≤ 32 KiB | 39.1 KiB | 32 KiB | 1.2× | **not met** |",
		"| fastrobots | 0 / 400 | 0 / 145 | 0 | 0 |",
		"Machine: `go version go1.26.0 linux/amd64`, 2 cores, CPU `Test CPU @ 1.00GHz`, run started 2026-01-02T03:04:05Z. " +
			"Every figure is the median of the 1 to 3 runs in `bench/results/bench.txt` (of an even number of runs, the mean of the middle two).",
	} {
		assert.Contains(t, lines, want)
	}
	assert.Equal(t, 1, strings.Count(strings.Join(lines, "\n"), "22 of 2037 sampled files"), "a note logged by every run is listed once")
}

func TestTablesOrder(t *testing.T) {
	out := tablesOf(t)
	var at []int
	for _, h := range []string{"### Targets", "### Cold path", "### The real crawl", "### Checks on realistic.txt",
		"### Pathological rules", "### The whole corpus", "### Memory", "### Other benchmarks", "### Conformance"} {
		i := strings.Index(out, h)
		require.GreaterOrEqual(t, i, 0, h)
		at = append(at, i)
	}
	assert.IsIncreasing(t, at)
}

// TestGolden compares the whole output with testdata/tables.md (go test
// -update rewrites it), and checks that two runs give the same bytes.
func TestGolden(t *testing.T) {
	out := tablesOf(t)
	require.Equal(t, out, tablesOf(t), "two runs differ")
	if *update {
		require.NoError(t, os.WriteFile("testdata/tables.md", []byte(out), 0o644))
	}
	want, err := os.ReadFile("testdata/tables.md")
	require.NoError(t, err)
	assert.Equal(t, string(want), out, "run go test -update to accept the new output")
}

func TestGenerateWithoutOptionalFiles(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile("testdata/bench.txt")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(dir+"/bench.txt", b, 0o644))
	out, err := Generate(dir)
	require.NoError(t, err)
	assert.NotContains(t, string(out), "### Conformance")
	assert.True(t, bytes.Contains(out, []byte("Machine: CPU `Test CPU @ 1.00GHz`.")), "the CPU comes from bench.txt")
	_, err = Generate(t.TempDir())
	assert.Error(t, err, "bench.txt is required")
}

func TestNoteText(t *testing.T) {
	cases := []struct {
		n    Note
		want string
	}{
		{Note{Kind: "BENCH", Text: "22 files not measured"}, "22 files not measured"},
		{Note{Kind: "SKIP"}, "skipped"},
		{Note{Kind: "SKIP", Text: "corpus absent"}, "skipped: corpus absent"},
		{Note{Kind: "SKIP", Text: "skipped: one check took 2s"}, "skipped: one check took 2s"},
		{Note{Kind: "FAIL", Text: "slyrz refuses the file"}, "failed: slyrz refuses the file"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, noteText(c.n), "%+v", c.n)
	}
}
