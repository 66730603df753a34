//go:build cgo

package surveysql

import (
	"encoding/csv"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runQuery runs the query runner with args and returns its exit status,
// standard output and standard error.
func runQuery(args ...string) (int, string, string) {
	var stdout, stderr strings.Builder
	code := Main(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// csvTable reads the CSV the runner wrote: its header, then the rows.
func csvTable(t *testing.T, text string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	require.NoError(t, err, text)
	return recs
}

// asTable is a result as the runner's CSV gives it, from the rows the
// driver scanned.
func asTable(cols []string, rows []map[string]any) [][]string {
	out := [][]string{cols}
	for _, r := range rows {
		var rec []string
		for _, c := range cols {
			rec = append(rec, FormatValue(r[c]))
		}
		out = append(out, rec)
	}
	return out
}

var runOnce struct {
	once   sync.Once
	out    string
	stdout string
	code   int
}

// corpusRun is a Parquet survey of the licensed corpus, made once for
// the tests of the runner in the directory of the robots binary, which
// TestMain removes.
func corpusRun(t *testing.T) (string, string) {
	t.Helper()
	runOnce.once.Do(func() {
		robotsBinary(t)
		runOnce.out = filepath.Join(build.dir, "corpus-run")
		runOnce.stdout, runOnce.code = survey(t, runOnce.out, "--agents", "GPTBot,*,Google-Extended", corpus)
	})
	require.Equal(t, 0, runOnce.code)
	return runOnce.out, runOnce.stdout
}

// TestQueryRunnerSummary: the runner, given summary.sql and a run's
// directory, gives every named query's result exactly as DuckDB's driver
// scans it, as CSV one query at a time and as aligned columns all at
// once; its totals are the captures the command printed.
func TestQueryRunnerSummary(t *testing.T) {
	out, stdout := corpusRun(t)
	db := openDB(t, out, ".parquet")
	p := parseSummary(t, stdout)
	qs := summaryQueries(t)
	for _, q := range qs {
		code, got, stderr := runQuery("-csv", "-f", "summary.sql", "-q", q.name, out)
		require.Equal(t, 0, code, stderr)
		table := csvTable(t, got)
		require.NotEmpty(t, table)
		want := asTable(table[0], query(t, db, q.sql))
		assert.Equal(t, want, table, q.name)
		if q.name == "totals" {
			assert.Equal(t, [][]string{{"captures", "errors"}, {fmt.Sprint(p.captures), fmt.Sprint(p.errors)}}, table)
		}
	}

	code, got, stderr := runQuery("-f", "summary.sql", out)
	require.Equal(t, 0, code, stderr)
	for _, q := range qs {
		assert.Contains(t, got, "# "+q.name+"\n")
	}
	totals := fmt.Sprintf("# totals\ncaptures  errors\n--------  ------\n%8d  %6d\n(1 row)\n", p.captures, p.errors)
	assert.Contains(t, got, totals, "numbers aligned right under their header")
	classes := got[strings.Index(got, "# classes\n"):]
	assert.Contains(t, classes, "\nGPTBot           ", "strings aligned left")
}

// TestQueryRunnerRuns: the files of a run's shards, named by their
// directory or one by one, are one table; a query of one's own runs over
// them; a directory without Parquet files, bad SQL and bad arguments say
// so and exit non-zero.
func TestQueryRunnerRuns(t *testing.T) {
	whole, _ := corpusRun(t)
	shards := t.TempDir()
	for k := 1; k <= 2; k++ {
		_, code := survey(t, shards, "--shard", fmt.Sprintf("%d/2", k), "--agents", "GPTBot,*,Google-Extended", corpus)
		require.Equal(t, 0, code)
	}
	count := "SELECT count(*) AS captures, count(DISTINCT input) AS inputs FROM captures"
	_, want, _ := runQuery("-csv", "-e", count, whole)
	require.Equal(t, fmt.Sprintf("captures,inputs\n%d,1\n", 2682), want)
	_, got, _ := runQuery("-csv", "-e", count, shards)
	assert.Equal(t, want, got, "two shards in one directory")
	files, err := filepath.Glob(filepath.Join(shards, "captures-*-of-2.parquet"))
	require.NoError(t, err)
	require.Len(t, files, 2)
	_, got, _ = runQuery(append([]string{"-csv", "-e", count}, files...)...)
	assert.Equal(t, want, got, "two shards' files named")

	// A query of one's own, with a map column.
	code, got, stderr := runQuery("-csv", "-e", `SELECT agent, count(*) AS n FROM agents WHERE agent = 'GPTBot' GROUP BY agent`, whole)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "agent,n\nGPTBot,2682\n", got)

	empty := t.TempDir()
	for _, tt := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-e", "SELECT 1", empty}, 1, "no Parquet file of a survey run"},
		{[]string{"-e", "SELECT nothing FROM captures", whole}, 1, "nothing"},
		{[]string{"-f", "summary.sql", "-q", "totals,nope", whole}, 2, `summary.sql has no query "nope"`},
		{[]string{"-e", "SELECT 1"}, 2, "no RUN given"},
		{[]string{"-f", "summary.sql", "-e", "SELECT 1", whole}, 2, "give one of -f FILE and -e SQL"},
		{[]string{"-q", "totals", "-e", "SELECT 1", whole}, 2, "-q selects queries of a file"},
		{[]string{"-e", "SELECT 1", filepath.Join(whole, "nope.parquet")}, 1, "no such file"},
		{[]string{"-e", "SELECT 1", filepath.Join("query", "main.go")}, 1, "not a table of a survey run"},
	} {
		code, stdout, stderr := runQuery(tt.args...)
		assert.Equal(t, tt.code, code, "%v: %s", tt.args, stderr)
		assert.Contains(t, stderr, tt.msg, tt.args)
		assert.Empty(t, stdout, tt.args)
	}
}

// TestQueryRunnerRedirects: redirects.sql runs through the runner over a
// run of WARC files, as TestRedirectsAcrossFiles runs it through the
// driver.
func TestQueryRunnerRedirects(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	a := warcResponse("http://one.example/robots.txt", "2025-06-01T12:00:00Z", 301, "Location: https://one.example/robots.txt\r\n", "")
	b := warcResponse("https://one.example/robots.txt", "2025-06-01T12:05:00Z", 200, "", "User-agent: *\nDisallow: /\n")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.warc"), []byte(a), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.warc"), []byte(b), 0o644))
	_, code := survey(t, out, "--agents", "GPTBot", filepath.Join(dir, "a.warc"), filepath.Join(dir, "b.warc"))
	require.Equal(t, 0, code)
	code, got, stderr := runQuery("-csv", "-f", "redirects.sql", out)
	require.Equal(t, 0, code, stderr)
	table := csvTable(t, got)
	require.Len(t, table, 2, got)
	row := map[string]string{}
	for i, c := range table[0] {
		row[c] = table[1][i]
	}
	assert.Equal(t, "http://one.example/robots.txt", row["url"])
	assert.Equal(t, filepath.Join(dir, "b.warc"), row["target_input"])
	assert.Equal(t, "GPTBot", row["agent"])
	assert.Equal(t, "all", row["class"])
}

// TestFormatValue: each type the driver scans is written in full, in one
// way.
func TestFormatValue(t *testing.T) {
	huge, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	for _, tt := range []struct {
		v    any
		want string
	}{
		{nil, ""},
		{"GPTBot", "GPTBot"},
		{int64(-42), "-42"},
		{int32(7), "7"},
		{5.6, "5.6"},
		{1e21, "1000000000000000000000"},
		{true, "true"},
		{huge, "123456789012345678901234567890"},
		{duckdb.Decimal{Width: 5, Scale: 1, Value: big.NewInt(563)}, "56.3"},
		{time.Date(2025, 6, 1, 12, 30, 0, 0, time.UTC), "2025-06-01T12:30:00Z"},
		{duckdb.Map{"search": "yes", "ai-train": "no"}, "{ai-train=no, search=yes}"},
		{[]any{"a", int64(1), nil}, "[a, 1, ]"},
		{map[string]any{"b": int64(2), "a": "x"}, "{a: x, b: 2}"},
		{[]byte("raw"), "raw"},
	} {
		assert.Equal(t, tt.want, FormatValue(tt.v), "%T %v", tt.v, tt.v)
	}
}

// TestQueryCommand: the command docs/survey.md gives a researcher
// without the duckdb command builds, from the repository's root with its
// workspace, and runs summary.sql's totals over a run.
func TestQueryCommand(t *testing.T) {
	out, stdout := corpusRun(t)
	p := parseSummary(t, stdout)
	bin := filepath.Join(t.TempDir(), "query")
	build := exec.Command("go", "build", "-o", bin, "./cmd/robots/internal/surveysql/query")
	build.Dir = root
	build.Env = append(os.Environ(), "GOWORK="+filepath.Join(mustAbs(t, root), "go.work"))
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	cmd := exec.Command(bin, "-f", "cmd/robots/internal/surveysql/summary.sql", "-q", "totals", "-csv", out)
	cmd.Dir = root
	got, err := cmd.Output()
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("captures,errors\n%d,%d\n", p.captures, p.errors), string(got))
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	require.NoError(t, err)
	return abs
}
