//go:build cgo

package surveysql

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// root is the repository's root, whose module holds the robots command.
const root = "../../../.."

// corpus is the licensed corpus in the repository.
var corpus = filepath.Join(root, "testdata", "corpus")

// tables are the Parquet tables a survey writes, each FILE.parquet, or
// FILE-K-of-N.parquet for a shard.
var tables = []string{"captures", "agents", "errors"}

var build struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// robotsBinary builds the robots command of this checkout once, in its
// module, as its users build it.
func robotsBinary(t testing.TB) string {
	t.Helper()
	build.once.Do(func() {
		build.dir, build.err = os.MkdirTemp("", "surveysql-")
		if build.err != nil {
			return
		}
		build.bin = filepath.Join(build.dir, "robots")
		cmd := exec.Command("go", "build", "-o", build.bin, ".")
		cmd.Dir = filepath.Join(root, "cmd", "robots")
		if out, err := cmd.CombinedOutput(); err != nil {
			build.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	require.NoError(t, build.err)
	return build.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
	os.Exit(code)
}

// survey runs robots survey with --out out and args, and returns what it
// printed on standard output and its exit status.
func survey(t testing.TB, out string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(robotsBinary(t), append([]string{"survey", "--out", out}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	require.Contains(t, []int{0, 1}, code, "robots survey %v: %s", args, stderr.String())
	return string(stdout), code
}

// usageDir writes captures with Content-Signal and Content-Usage lines
// and a crawl delay, which the corpus lacks, so that the usage table
// counts something.
func usageDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"managed.example.txt": "Content-Signal: search=yes, ai-train=no, use=reference\n\nUser-agent: *\nAllow: /\n",
		"paths.example.txt":   "User-agent: GPTBot\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y\nCrawl-delay: 2.5\nDisallow: /private\n",
		"search.example.txt":  "User-agent: *\nContent-Usage: search=y, train-ai=y\nContent-Signal: ai-input=yes, search=no\nDisallow: /cart\n",
		"blocked.example.txt": "User-agent: *\nContent-Signal: ai-input=no\nDisallow: /\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	return dir
}

// sqlString quotes s as an SQL string literal.
func sqlString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// openDB opens an in-memory DuckDB with the views summary.sql reads, over
// the Parquet files under dir whose names match TABLE+pattern.
func openDB(t testing.TB, dir, pattern string) *sql.DB {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1) // one connection: the views live in its catalog
	for _, table := range tables {
		files, err := filepath.Glob(filepath.Join(dir, table+pattern))
		require.NoError(t, err)
		require.NotEmpty(t, files, "no %s%s under %s", table, pattern, dir)
		_, err = db.Exec(fmt.Sprintf("CREATE VIEW %s AS SELECT * FROM read_parquet(%s)", table, sqlString(filepath.Join(dir, table+pattern))))
		require.NoError(t, err)
	}
	return db
}

// namedQuery is a query of summary.sql.
type namedQuery struct {
	name, sql string
}

// summaryQueries reads summary.sql: each query follows a "-- name:"
// line and ends with a semicolon.
func summaryQueries(t testing.TB) []namedQuery { return sqlQueries(t, "summary.sql") }

// sqlQueries reads the named queries of an SQL file of this directory.
func sqlQueries(t testing.TB, file string) []namedQuery {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	var qs []namedQuery
	for _, block := range strings.Split(string(data), "-- name: ")[1:] {
		name, body, _ := strings.Cut(block, "\n")
		body = strings.TrimSpace(body)
		var code strings.Builder // the lines that are not comments
		for line := range strings.Lines(body) {
			if !strings.HasPrefix(strings.TrimSpace(line), "--") {
				code.WriteString(line)
			}
		}
		require.True(t, strings.HasSuffix(body, ";"), "query %s ends with ;", name)
		require.Equal(t, 1, strings.Count(code.String(), ";"), "query %s is one statement", name)
		qs = append(qs, namedQuery{name: strings.TrimSpace(name), sql: body})
	}
	return qs
}

// query runs q and returns its rows, each column by name, values as the
// driver scans them (NULL as nil).
func query(t testing.TB, db *sql.DB, q string) []map[string]any {
	t.Helper()
	rows, err := db.Query(q)
	require.NoError(t, err, q)
	defer rows.Close()
	cols, err := rows.Columns()
	require.NoError(t, err)
	var out []map[string]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		require.NoError(t, rows.Scan(ptrs...))
		row := map[string]any{}
		for i, c := range cols {
			row[c] = vals[i]
		}
		out = append(out, row)
	}
	require.NoError(t, rows.Err())
	return out
}

// num reads an integer the driver scanned: sums come back as HUGEINT
// (*big.Int), counts as int64.
func num(t *testing.T, v any) int64 {
	t.Helper()
	switch n := v.(type) {
	case int64:
		return n
	case int32:
		return int64(n)
	case float64:
		return int64(n)
	case fmt.Stringer: // *big.Int, a HUGEINT sum
		i, err := strconv.ParseInt(n.String(), 10, 64)
		require.NoError(t, err)
		return i
	}
	t.Fatalf("not a number: %T %v", v, v)
	return 0
}

// printed is what the summary on standard output says.
type printed struct {
	captures, errors   int64
	median, p90        string // a size, or "over 512000"
	max, total         int64
	html, truncated    int64
	classes            map[string][]int64          // all, some, none, undecided, /-only as none, as all
	shares             map[string][]float64        // of all, some, none
	usage              map[string][]int64          // signal, search y/n, ai-input y/n, ai-train y/n, usage, train-ai y/n, ai-use y/n, search y/n, usage-paths
	causes             map[string]map[string]int64 // agent → "source class" → captures, from the causes table
	agentsInPrintOrder []string
}

var (
	totalsLine = regexp.MustCompile(`(?m)^robots survey: (\d+) captures answered, (\d+) errors$`)
	sizesLine  = regexp.MustCompile(`(?m)^sizes \(bytes\): median (over \d+|\d+), p90 (over \d+|\d+), max (\d+), total (\d+)$`)
	htmlLine   = regexp.MustCompile(`(?m)^html: (\d+) pages served as robots.txt`)
	cutLine    = regexp.MustCompile(`(?m)^truncated: (\d+) cut at 500 KiB`)
	share      = `(\d+) \(\s*([\d.]+)%\)`
	classLine  = regexp.MustCompile(`^(\S+)\s+` + share + `\s+` + share + `\s+` + share + `\s+` + share + `\s+` + share + `\s+(\d+)\s+(\d+)\s+\S`)
	yesNo      = `(\d+)/(\d+)`
	usageLine  = regexp.MustCompile(`^(\S+)\s+` + share + `\s+` + yesNo + `\s+` + yesNo + `\s+` + yesNo + `\s+` + share + `\s+` + yesNo + `\s+` + yesNo + `\s+` + yesNo + `\s+(\d+)$`)
)

// parseSummary reads the figures of the summary.
func parseSummary(t *testing.T, stdout string) printed {
	t.Helper()
	atoi := func(s string) int64 {
		n, err := strconv.ParseInt(s, 10, 64)
		require.NoError(t, err)
		return n
	}
	p := printed{classes: map[string][]int64{}, shares: map[string][]float64{}, usage: map[string][]int64{}}
	m := totalsLine.FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	p.captures, p.errors = atoi(m[1]), atoi(m[2])
	m = sizesLine.FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	p.median, p.p90, p.max, p.total = m[1], m[2], atoi(m[3]), atoi(m[4])
	m = htmlLine.FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	p.html = atoi(m[1])
	m = cutLine.FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	p.truncated = atoi(m[1])
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		if m := classLine.FindStringSubmatch(sc.Text()); m != nil {
			p.agentsInPrintOrder = append(p.agentsInPrintOrder, m[1])
			p.classes[m[1]] = []int64{atoi(m[2]), atoi(m[4]), atoi(m[6]), atoi(m[8]), atoi(m[12]), atoi(m[13])}
			var shares []float64
			for _, i := range []int{3, 5, 7} {
				f, err := strconv.ParseFloat(m[i], 64)
				require.NoError(t, err)
				shares = append(shares, f)
			}
			p.shares[m[1]] = shares
			assert.Equal(t, atoi(m[4]), atoi(m[10]), "every capture classed some is read otherwise by a /-only survey")
		} else if m := usageLine.FindStringSubmatch(sc.Text()); m != nil {
			var v []int64
			for i, s := range m[2:] {
				if i == 1 || i == 9 {
					continue // a share
				}
				v = append(v, atoi(s))
			}
			p.usage[m[1]] = v
		}
	}
	require.NotEmpty(t, p.classes, stdout)
	require.Len(t, p.usage, len(p.classes), stdout)
	p.causes = parseCauses(t, stdout)
	require.Len(t, p.causes, len(p.classes), stdout)
	return p
}

// parseCauses reads the causes table of the summary: its header names
// each column "source:class" (nogroup and unresolved alone), and each line
// after it gives an agent's captures per column.
func parseCauses(t *testing.T, stdout string) map[string]map[string]int64 {
	t.Helper()
	out := map[string]map[string]int64{}
	var columns []string
	for _, line := range strings.Split(stdout, "\n") {
		fields := strings.Fields(line)
		switch {
		case len(fields) > 1 && fields[0] == "agent" && fields[1] == "named:all":
			columns = nil
			for _, f := range fields[1:] {
				source, class, ok := strings.Cut(f, ":")
				switch {
				case !ok && source == "nogroup":
					class = "none"
				case !ok:
					class = source
				case class == "undec":
					class = "undecided"
				}
				columns = append(columns, source+" "+class)
			}
		case columns == nil:
		case len(fields) != len(columns)+1:
			columns = nil // the table ends
		default:
			row := map[string]int64{}
			for i, c := range columns {
				n, err := strconv.ParseInt(fields[i+1], 10, 64)
				require.NoError(t, err, line)
				row[c] = n
			}
			out[fields[0]] = row
		}
	}
	return out
}

// checkSummary runs every query of summary.sql on db and checks each of
// its figures against the summary p. It returns the results by query.
func checkSummary(t *testing.T, db *sql.DB, p printed) map[string][]map[string]any {
	t.Helper()
	results := map[string][]map[string]any{}
	for _, q := range summaryQueries(t) {
		results[q.name] = query(t, db, q.sql)
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range results {
			if !yield(k) {
				return
			}
		}
	})
	require.Equal(t, []string{"causes", "classes", "pages", "sizes", "statuses", "totals", "usage"}, names,
		"each query of summary.sql is checked here")

	tot := results["totals"][0]
	assert.Equal(t, p.captures, num(t, tot["captures"]), "captures")
	assert.Equal(t, p.errors, num(t, tot["errors"]), "errors")

	sz := results["sizes"][0]
	for _, q := range []struct {
		name, printed string
	}{{"median", p.median}, {"p90", p.p90}} {
		if over, ok := strings.CutPrefix(q.printed, "over "); ok {
			assert.Greater(t, num(t, sz[q.name]), mustInt(t, over), q.name)
		} else {
			assert.Equal(t, mustInt(t, q.printed), num(t, sz[q.name]), q.name)
		}
	}
	assert.Equal(t, p.max, num(t, sz["max"]), "max")
	assert.Equal(t, p.total, num(t, sz["total"]), "total")

	pg := results["pages"][0]
	assert.Equal(t, p.html, num(t, pg["html"]), "html")
	assert.Equal(t, p.truncated, num(t, pg["truncated"]), "truncated")

	var byStatus int64
	for _, r := range results["statuses"] {
		byStatus += num(t, r["captures"])
	}
	assert.Equal(t, p.captures, byStatus, "every capture has a status class")

	var agents []string
	for _, r := range results["classes"] {
		a := r["agent"].(string)
		agents = append(agents, a)
		want, ok := p.classes[a]
		if !assert.True(t, ok, "agent %s not in the summary", a) {
			continue
		}
		got := []int64{num(t, r["class_all"]), num(t, r["class_some"]), num(t, r["class_none"]), num(t, r["class_undecided"]), num(t, r["root_only_none"]), num(t, r["root_only_all"])}
		assert.Equal(t, want, got, "classes of %s: all, some, none, undecided, /-only as none, as all", a)
		for i, col := range []string{"share_all", "share_some", "share_none"} {
			f, ok := r[col].(float64)
			require.True(t, ok, "%s is %T", col, r[col])
			// Both round to one decimal, each its own way: at most one
			// step apart at a tie.
			assert.LessOrEqual(t, math.Abs(f-p.shares[a][i]), 0.1+1e-9, "%s of %s", col, a)
		}
	}
	assert.ElementsMatch(t, p.agentsInPrintOrder, agents)

	causes := map[string]map[string]int64{}
	for _, r := range results["causes"] {
		a := r["agent"].(string)
		if causes[a] == nil {
			causes[a] = map[string]int64{}
		}
		key := fmt.Sprint(r["source"], " ", r["class"])
		causes[a][key] = num(t, r["captures"])
		_, printed := p.causes[a][key]
		assert.True(t, printed, "the causes table has a column for %s", key)
	}
	for a, row := range p.causes {
		for key, n := range row {
			assert.Equal(t, n, causes[a][key], "causes of %s: %s", a, key)
		}
	}

	for _, r := range results["usage"] {
		a := r["agent"].(string)
		var got []int64
		for _, col := range []string{"signal", "search_yes", "search_no", "ai_input_yes", "ai_input_no", "ai_train_yes", "ai_train_no",
			"usage", "train_ai_yes", "train_ai_no", "ai_use_yes", "ai_use_no", "usage_search_yes", "usage_search_no", "usage_paths"} {
			got = append(got, num(t, r[col]))
		}
		assert.Equal(t, p.usage[a], got, "Content-Signal and Content-Usage of %s", a)
	}
	return results
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	require.NoError(t, err)
	return n
}

// canonical writes a row as JSON with its members sorted, absent where
// the value is NULL, so that a row read with DuckDB and a line of JSON
// Lines compare as strings.
func canonical(t *testing.T, row map[string]any) string {
	t.Helper()
	m := map[string]any{}
	for k, v := range row {
		switch v := v.(type) {
		case nil:
			continue
		case duckdb.Map:
			obj := map[string]any{}
			for mk, mv := range v {
				obj[mk.(string)] = mv
			}
			m[k] = obj
		default:
			m[k] = v
		}
	}
	b, err := json.Marshal(m)
	require.NoError(t, err)
	return string(b)
}

// jsonRows reads a JSON Lines file as canonical rows.
func jsonRows(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var rows []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.UseNumber()
		var m map[string]any
		require.NoError(t, dec.Decode(&m), sc.Text())
		rows = append(rows, canonical(t, m))
	}
	require.NoError(t, sc.Err())
	return rows
}

// sameRows checks that want and got hold the same rows as multisets,
// naming a few that differ rather than printing both.
func sameRows(t *testing.T, want, got []string, what string) {
	t.Helper()
	count := map[string]int{}
	for _, r := range want {
		count[r]++
	}
	for _, r := range got {
		count[r]--
	}
	var missing, extra []string
	for r, n := range count {
		if n > 0 {
			missing = append(missing, r)
		} else if n < 0 {
			extra = append(extra, r)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	assert.Equal(t, len(want), len(got), "%s: rows", what)
	assert.Empty(t, missing[:min(len(missing), 3)], "%s: %d rows missing, the first", what, len(missing))
	assert.Empty(t, extra[:min(len(extra), 3)], "%s: %d rows not expected, the first", what, len(extra))
}

// tableRows reads every row of a view as canonical rows.
func tableRows(t *testing.T, db *sql.DB, table string) []string {
	t.Helper()
	var rows []string
	for _, r := range query(t, db, "SELECT * FROM "+table) {
		rows = append(rows, canonical(t, r))
	}
	return rows
}

// TestSurveySummary: summary.sql, over the Parquet files of a survey of
// the corpus, a directory of captures with usage lines and an input that
// does not exist, gives every figure the command printed; and the rows
// DuckDB reads are those of a --format jsonl run of the same inputs, as
// sets: captures.jsonl holds the captures and the error rows, which
// Parquet writes to captures.parquet and errors.parquet.
func TestSurveySummary(t *testing.T) {
	inputs := []string{corpus, usageDir(t), filepath.Join(t.TempDir(), "missing")}
	pq, js := t.TempDir(), t.TempDir()
	stdout, code := survey(t, pq, inputs...)
	assert.Equal(t, 1, code, "an input is missing: its error row is written and the run exits 1")
	jstdout, _ := survey(t, js, append([]string{"--format", "jsonl"}, inputs...)...)
	assert.Equal(t, stdout, jstdout, "the summary does not depend on the format")

	db := openDB(t, pq, ".parquet")
	p := parseSummary(t, stdout)
	require.Equal(t, int64(2682+4), p.captures)
	require.Equal(t, int64(1), p.errors)
	res := checkSummary(t, db, p)
	assert.Positive(t, p.usage["GPTBot"][0], "the usage table counts a signal")
	assert.Positive(t, p.usage["GPTBot"][7], "the usage table counts a preference")
	statuses := map[string]int64{}
	for _, r := range res["statuses"] {
		statuses[fmt.Sprint(r["status_class"], " ", r["policy"])] = num(t, r["captures"])
	}
	assert.Equal(t, map[string]int64{"200 parsed": p.captures}, statuses, "plain files are given 200")

	captures := append(tableRows(t, db, "captures"), tableRows(t, db, "errors")...)
	sameRows(t, jsonRows(t, filepath.Join(js, "captures.jsonl")), captures, "captures and errors")
	agents := tableRows(t, db, "agents")
	assert.Len(t, agents, int(p.captures)*len(p.classes))
	sameRows(t, jsonRows(t, filepath.Join(js, "agents.jsonl")), agents, "agents")
}

// TestSurveyShardsOneTable: the files of the shards of a run, read
// together with a glob, are one table: the rows of the whole run, and the
// figures of its summary.
func TestSurveyShardsOneTable(t *testing.T) {
	const n = 3
	args := []string{"--agents", "GPTBot,*,Google-Extended", corpus}
	whole, shards := t.TempDir(), t.TempDir()
	stdout, code := survey(t, whole, args...)
	require.Equal(t, 0, code)
	for k := 1; k <= n; k++ {
		_, code := survey(t, shards, append([]string{"--shard", fmt.Sprintf("%d/%d", k, n)}, args...)...)
		require.Equal(t, 0, code)
	}
	wdb := openDB(t, whole, ".parquet")
	sdb := openDB(t, shards, "-*-of-3.parquet")
	p := parseSummary(t, stdout)
	// fmt prints maps sorted and a HUGEINT sum (*big.Int) as its digits.
	assert.Equal(t, fmt.Sprint(checkSummary(t, wdb, p)), fmt.Sprint(checkSummary(t, sdb, p)))
	for _, table := range tables {
		sameRows(t, tableRows(t, wdb, table), tableRows(t, sdb, table), table)
	}
}

// BenchmarkSummarySQL is the time DuckDB takes to run every query of
// summary.sql over the Parquet files of a survey of the shared corpus
// (../shared/corpus, 28,515 files), or of testdata/corpus without it.
func BenchmarkSummarySQL(b *testing.B) {
	input := filepath.Join(root, "..", "shared", "corpus", "robots-corpus.tar.gz")
	if _, err := os.Stat(input); err != nil {
		input = corpus
	}
	out := b.TempDir()
	if _, code := survey(b, out, input); code != 0 {
		b.Fatalf("robots survey %s exited %d", input, code)
	}
	db := openDB(b, out, ".parquet")
	qs := summaryQueries(b)
	for b.Loop() {
		for _, q := range qs {
			query(b, db, q.sql)
		}
	}
}
