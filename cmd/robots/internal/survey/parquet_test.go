package survey

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/cmd/robots/internal/warctest"
	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// surveyOut runs robots survey in the given format with --out in a new
// directory, and returns the directory and the run.
func surveyOut(t *testing.T, format string, args ...string) (string, clitest.Result) {
	t.Helper()
	out := t.TempDir()
	r := clitest.Invoke(Run, "", append([]string{"--format", format, "--out", out}, args...)...)
	return out, r
}

// readParquet reads the rows of the Parquet file at path as T, the row
// struct the command writes from, through the same mapping of columns.
func readParquet[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	st, err := f.Stat()
	require.NoError(t, err)
	var opts []parquet.ReaderOption
	for _, o := range surveyParquetTags(reflect.TypeFor[T]()) {
		opts = append(opts, o)
	}
	rows, err := parquet.Read[T](f, st.Size(), opts...)
	require.NoError(t, err, path)
	return rows
}

// readJSONRows decodes the JSON Lines file at path as T.
func readJSONRows[T any](t *testing.T, path string) []T {
	t.Helper()
	var rows []T
	readJSONL(t, path, func(line string) {
		var row T
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(&row), line)
		rows = append(rows, row)
	})
	return rows
}

// splitJSONCaptures splits the lines of captures.jsonl into captures and
// error rows, which Parquet writes to tables of their own.
func splitJSONCaptures(t *testing.T, path string) (captures []captureRow, errs []errorRow) {
	t.Helper()
	readJSONL(t, path, func(line string) {
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if strings.Contains(line, `"error":`) {
			var e errorRow
			require.NoError(t, dec.Decode(&e), line)
			errs = append(errs, e)
			return
		}
		var c captureRow
		require.NoError(t, dec.Decode(&c), line)
		captures = append(captures, c)
	})
	return captures, errs
}

// checkSameRows runs the survey with args in both formats and checks
// that the Parquet files hold the rows of the JSON Lines files, in the
// same order, and that the summaries are the same.
func checkSameRows(t *testing.T, wantCode int, args ...string) (captures []captureRow, agents []agentRow, errs []errorRow) {
	t.Helper()
	pq, pr := surveyOut(t, surveyFormatParquet, args...)
	js, jr := surveyOut(t, surveyFormatJSONL, args...)
	all := func(string) bool { return true }
	errRow := func(line string) bool { return strings.Contains(line, `"error":`) }
	checkNulls(t, filepath.Join(pq, "agents.parquet"), filepath.Join(js, "agents.jsonl"), all)
	checkNulls(t, filepath.Join(pq, "captures.parquet"), filepath.Join(js, "captures.jsonl"), func(l string) bool { return !errRow(l) })
	checkNulls(t, filepath.Join(pq, "errors.parquet"), filepath.Join(js, "captures.jsonl"), errRow)
	require.Equal(t, wantCode, pr.Code, pr.Stderr)
	require.Equal(t, wantCode, jr.Code, jr.Stderr)
	assert.Equal(t, jr.Stdout, pr.Stdout, "the summary does not depend on the format")
	assert.Equal(t, jr.Stderr, pr.Stderr)

	wantCaptures, wantErrs := splitJSONCaptures(t, filepath.Join(js, "captures.jsonl"))
	wantAgents := readJSONRows[agentRow](t, filepath.Join(js, "agents.jsonl"))
	captures = readParquet[captureRow](t, filepath.Join(pq, "captures.parquet"))
	agents = readParquet[agentRow](t, filepath.Join(pq, "agents.parquet"))
	errs = readParquet[errorRow](t, filepath.Join(pq, "errors.parquet"))
	assert.Equal(t, wantCaptures, nilIfEmpty(captures))
	assert.Equal(t, wantAgents, nilIfEmpty(agents))
	assert.Equal(t, wantErrs, nilIfEmpty(errs))
	return captures, agents, errs
}

func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// checkNulls checks that the Parquet file at path has a null exactly
// where the JSON Lines rows omit a member: the rows read as structs
// cannot tell a null from a zero value.
func checkNulls(t *testing.T, path string, jsonPath string, keep func(line string) bool) {
	t.Helper()
	var want []string
	readJSONL(t, jsonPath, func(line string) {
		if !keep(line) {
			return
		}
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(line), &m))
		want = append(want, strings.Join(slices.Sorted(maps.Keys(m)), ","))
	})
	pf := openParquet(t, path)
	field := map[int]string{} // leaf column index to top-level column
	for i, c := range pf.Schema().Columns() {
		field[i] = c[0]
	}
	var got []string
	for _, rg := range pf.RowGroups() {
		rows := rg.Rows()
		buf := make([]parquet.Row, 256)
		for {
			n, err := rows.ReadRows(buf)
			for _, row := range buf[:n] {
				present := map[string]bool{}
				for _, v := range row {
					if !v.IsNull() {
						present[field[v.Column()]] = true
					}
				}
				got = append(got, strings.Join(slices.Sorted(maps.Keys(present)), ","))
			}
			if err != nil {
				break
			}
		}
		rows.Close()
	}
	require.Equal(t, len(want), len(got))
	for i := range want {
		if !assert.Equal(t, want[i], got[i], "row %d of %s: the members present", i, filepath.Base(path)) {
			break
		}
	}
}

// TestSurveyParquetCorpus: over the licensed corpus, with the default
// agents, the Parquet files hold the rows the JSON Lines files do, field
// for field, nulls where a JSON member is absent.
func TestSurveyParquetCorpus(t *testing.T) {
	captures, agents, errs := checkSameRows(t, cli.ExitOK, warctest.LicensedCorpus)
	assert.Len(t, captures, 2682)
	assert.Len(t, agents, 2682*len(surveyDefaultAgents))
	assert.Empty(t, errs)
	var truncated, html, noHost, delays int
	for _, c := range captures {
		truncated += b2i(c.Truncated)
		html += b2i(c.HTML)
		noHost += b2i(c.Host == "")
	}
	for _, a := range agents {
		delays += b2i(a.CrawlDelay != nil)
	}
	// The figures the summary prints for the corpus (docs/survey.md).
	assert.Equal(t, 2, truncated)
	assert.Equal(t, 105, html)
	assert.Positive(t, delays, "some files set a crawl delay")
	assert.Positive(t, noHost, "some sites name no host: null host and url")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestSurveyParquetUsageAndErrors: the maps of Content-Signal and
// Content-Usage, the crawl delay, the group line, and error rows with and
// without an offset, against the JSON Lines rows.
func TestSurveyParquetUsageAndErrors(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"managed.example.txt": "Content-Signal: search=yes, ai-train=no, use=reference\n\nUser-agent: *\nAllow: /\n",
		"paths.example.txt":   "User-agent: GPTBot\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y\nCrawl-delay: 2.5\nDisallow: /private\n",
		"blocked.example.txt": "User-agent: *\nContent-Signal: ai-input=no\nDisallow: /\n",
	}
	for name, body := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	archive := buildArchive(t, surveyArchiveFiles, true)
	data, err := os.ReadFile(archive)
	require.NoError(t, err)
	cut := filepath.Join(t.TempDir(), "cut.tar.gz")
	require.NoError(t, os.WriteFile(cut, data[:len(data)*2/3], 0o644))
	missing := filepath.Join(t.TempDir(), "missing")

	_, agents, errs := checkSameRows(t, cli.ExitNegative, "--agents", "GPTBot,*", dir, cut, missing)
	require.Len(t, errs, 2)
	assert.Equal(t, cut, errs[0].Input)
	assert.Positive(t, errs[0].Offset)
	assert.Equal(t, missing, errs[1].Input)
	assert.Zero(t, errs[1].Offset, "null offset: read back as 0")
	var signal, usage bool
	for _, a := range agents {
		if a.Host == "managed.example" && a.Agent == "GPTBot" {
			signal = true
			assert.Equal(t, map[string]string{"search": "yes", "ai-train": "no", "use": "reference"}, a.Signal)
		}
		if a.Host == "paths.example" && a.Agent == "GPTBot" {
			usage = true
			assert.Equal(t, map[string]string{"train-ai": "no"}, a.Usage)
			require.NotNil(t, a.CrawlDelay)
			assert.Equal(t, 2.5, *a.CrawlDelay)
			assert.Equal(t, 1, a.GroupLine)
		}
	}
	assert.True(t, signal && usage, "the rows with usage lines were read")
}

// parquetColumnType describes a column's type as the tests expect it:
// the logical type of a leaf (the physical one when it has none), and
// MAP<key,value> for a map.
func parquetColumnType(n parquet.Node) string {
	if n.Leaf() {
		return n.Type().String()
	}
	if n.Type().String() == "MAP" {
		kv := n.Fields()[0]
		return "MAP<" + parquetColumnType(kv.Fields()[0]) + "," + parquetColumnType(kv.Fields()[1]) + ">"
	}
	return "GROUP"
}

// surveyParquetColumns are the columns of each table, as docs/survey.md
// gives them: name, type and whether it is nullable.
var surveyParquetColumns = map[string][]string{
	surveyTableCaptures: {
		"index INT(64,true)", "input STRING", "file STRING", "site STRING",
		"host STRING null", "url STRING null", "status INT(64,true)", "bytes INT(64,true)",
		"truncated BOOLEAN", "html BOOLEAN", "sitemaps INT(64,true)", "valid INT(64,true)",
		"unused INT(64,true)", "lint_errors INT(64,true)", "lint_warnings INT(64,true)",
	},
	surveyTableAgents: {
		"index INT(64,true)", "url STRING null", "host STRING null", "agent STRING",
		"group STRING", "group_line INT(64,true) null", "group_agent STRING null",
		"class STRING", "allowed_example STRING null", "disallowed_example STRING null",
		"root_allowed BOOLEAN", "content_signal MAP<STRING,STRING> null",
		"content_usage MAP<STRING,STRING> null", "usage_paths BOOLEAN", "crawl_delay DOUBLE null",
	},
	surveyTableErrors: {
		"index INT(64,true)", "input STRING", "file STRING null", "site STRING null",
		"error STRING", "offset INT(64,true) null",
	},
}

// describeColumns lists the top-level columns of schema as
// surveyParquetColumns does.
func describeColumns(schema *parquet.Schema) []string {
	var cols []string
	for _, f := range schema.Fields() {
		d := f.Name() + " " + parquetColumnType(f)
		if f.Optional() {
			d += " null"
		}
		cols = append(cols, d)
	}
	return cols
}

// TestSurveyParquetSchema: the columns of the files a run writes are
// named as the JSON members, snake_case, and typed for SQL: ints INT64,
// booleans BOOLEAN, strings UTF-8, nullable where the JSON member may be
// absent. Every JSON member of the row structs is a column: a field
// added to them, if any is added, checks against the same rules.
func TestSurveyParquetSchema(t *testing.T) {
	out, r := surveyOut(t, surveyFormatParquet, "--agents", "GPTBot", warctest.LicensedCorpus)
	require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
	snake := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	for table, rowType := range map[string]reflect.Type{
		surveyTableCaptures: reflect.TypeFor[captureRow](),
		surveyTableAgents:   reflect.TypeFor[agentRow](),
		surveyTableErrors:   reflect.TypeFor[errorRow](),
	} {
		t.Run(table, func(t *testing.T) {
			pf := openParquet(t, filepath.Join(out, table+".parquet"))
			got := describeColumns(pf.Schema())
			for _, want := range surveyParquetColumns[table] {
				assert.Contains(t, got, want)
			}
			// The JSON members, and the column each should be.
			var members []string
			for i := range rowType.NumField() {
				sf := rowType.Field(i)
				name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
				if !sf.IsExported() || name == "-" {
					continue
				}
				members = append(members, name)
				assert.Regexp(t, snake, name)
				col := slices.IndexFunc(got, func(c string) bool { return strings.HasPrefix(c, name+" ") })
				if !assert.GreaterOrEqual(t, col, 0, "no column for %s.%s", rowType.Name(), sf.Name) {
					continue
				}
				nullable := strings.Contains(opts, "omit") || sf.Type.Kind() == reflect.Pointer
				assert.Equal(t, nullable, strings.HasSuffix(got[col], " null"), got[col])
				ft := sf.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				wantType := map[reflect.Kind]string{
					reflect.Int: "INT(64,true)", reflect.Int64: "INT(64,true)", reflect.Int32: "INT(32,true)",
					reflect.Bool: "BOOLEAN", reflect.String: "STRING", reflect.Float64: "DOUBLE",
					reflect.Map: "MAP<STRING,STRING>",
				}[ft.Kind()]
				if ft == reflect.TypeFor[time.Time]() {
					wantType = "TIMESTAMP(isAdjustedToUTC=true,unit=MICROS)"
				}
				assert.Equal(t, name+" "+wantType, strings.TrimSuffix(got[col], " null"))
			}
			assert.Len(t, got, len(members), "a column for each JSON member, no other: %v", got)
		})
	}
}

// TestSurveyParquetTags: the mapping of a row struct to columns follows
// its JSON tags for the types a row may gain (a fetch time, a nullable
// count); a field it cannot type stops it.
func TestSurveyParquetTags(t *testing.T) {
	type futureRow struct {
		Index   int       `json:"index"`
		Fetched time.Time `json:"fetch_time"`
		Hops    int32     `json:"hops,omitempty"`
		Status  *int      `json:"redirect_status,omitempty"`
		Note    string    `json:"note,omitzero"`
		Skipped string    `json:"-"`
		Plain   bool
		hidden  int
	}
	var opts []parquet.SchemaOption
	for _, o := range surveyParquetTags(reflect.TypeFor[futureRow]()) {
		opts = append(opts, o)
	}
	schema := parquet.SchemaOf(futureRow{}, opts...)
	assert.Equal(t, []string{
		"index INT(64,true)", "fetch_time TIMESTAMP(isAdjustedToUTC=true,unit=MICROS)",
		"hops INT(32,true) null", "redirect_status INT(64,true) null", "note STRING null", "Plain BOOLEAN",
	}, describeColumns(schema))

	// A round trip: microseconds kept, zero values of omitempty fields null.
	var buf bytes.Buffer
	wopts := []parquet.WriterOption{}
	for _, o := range surveyParquetTags(reflect.TypeFor[futureRow]()) {
		wopts = append(wopts, o)
	}
	w := parquet.NewGenericWriter[futureRow](&buf, wopts...)
	at := time.Date(2025, 6, 1, 12, 30, 0, 123456000, time.UTC)
	status := 301
	in := []futureRow{{Index: 1, Fetched: at, Hops: 2, Status: &status, Note: "n", Skipped: "x", hidden: 3}, {Index: 2, Fetched: at}}
	_, err := w.Write(in)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	pf, err := parquet.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	rows := pf.RowGroups()[0].Rows()
	defer rows.Close()
	got := make([]parquet.Row, 2)
	n, _ := rows.ReadRows(got)
	require.Equal(t, 2, n)
	hops, _ := schema.Lookup("hops")
	assert.True(t, got[1][hops.ColumnIndex].IsNull(), "a zero omitempty field is null")
	assert.False(t, got[0][hops.ColumnIndex].IsNull())
	ts, _ := schema.Lookup("fetch_time")
	assert.Equal(t, at.UnixMicro(), got[0][ts.ColumnIndex].Int64())

	type embedded struct{ captureRow }
	assert.PanicsWithValue(t, "survey parquet: embedded.captureRow is embedded", func() {
		surveyParquetTags(reflect.TypeFor[embedded]())
	})
	type sliced struct {
		Paths []string `json:"paths"`
	}
	assert.PanicsWithValue(t, "survey parquet: sliced.Paths: no Parquet type for []string", func() {
		surveyParquetTags(reflect.TypeFor[sliced]())
	})
}

// TestSurveyParquetShards: a shard writes its tables as
// TABLE-K-of-N.parquet and nothing else, and the shards' rows are one
// run's rows.
func TestSurveyParquetShards(t *testing.T) {
	const n = 3
	whole, r := surveyOut(t, surveyFormatParquet, "--agents", "GPTBot", warctest.LicensedCorpus)
	require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
	want := readParquet[agentRow](t, filepath.Join(whole, "agents.parquet"))
	wantCaptures := readParquet[captureRow](t, filepath.Join(whole, "captures.parquet"))
	var got []agentRow
	var gotCaptures []captureRow
	for k := 1; k <= n; k++ {
		out, r := surveyOut(t, surveyFormatParquet, "--agents", "GPTBot", "--shard", fmt.Sprintf("%d/%d", k, n), warctest.LicensedCorpus)
		require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
		entries, err := os.ReadDir(out)
		require.NoError(t, err)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		suffix := "-" + strconv.Itoa(k) + "-of-" + strconv.Itoa(n) + ".parquet"
		assert.Equal(t, []string{"agents" + suffix, "captures" + suffix, "errors" + suffix}, names)
		got = append(got, readParquet[agentRow](t, filepath.Join(out, "agents"+suffix))...)
		gotCaptures = append(gotCaptures, readParquet[captureRow](t, filepath.Join(out, "captures"+suffix))...)
	}
	slices.SortFunc(got, func(a, b agentRow) int { return a.Index - b.Index })
	slices.SortFunc(gotCaptures, func(a, b captureRow) int { return a.Index - b.Index })
	assert.Equal(t, want, got)
	assert.Equal(t, wantCaptures, gotCaptures)
}

// TestSurveyParquetEmpty: an input with no capture gives three files of
// no rows, each with all its table's columns, which a reader opens as it
// opens any other.
func TestSurveyParquetEmpty(t *testing.T) {
	out, r := surveyOut(t, surveyFormatParquet, t.TempDir())
	require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
	assert.Contains(t, r.Stdout, "robots survey: 0 captures answered, 0 errors\n")
	for table, rowType := range map[string]any{
		surveyTableCaptures: captureRow{},
		surveyTableAgents:   agentRow{},
		surveyTableErrors:   errorRow{},
	} {
		var opts []parquet.SchemaOption
		for _, o := range surveyParquetTags(reflect.TypeOf(rowType)) {
			opts = append(opts, o)
		}
		cols := describeColumns(parquet.SchemaOf(rowType, opts...))
		assert.Subset(t, cols, surveyParquetColumns[table])
		pf := openParquet(t, filepath.Join(out, table+".parquet"), table)
		assert.Zero(t, pf.NumRows(), table)
		assert.Equal(t, cols, describeColumns(pf.Schema()), table)
	}
}

// TestSurveyParquetRowGroups: a row group holds at most
// surveyParquetRowGroupRows rows, the writer starts the next when one is
// full, and the memory it holds does not grow with the row groups
// written.
func TestSurveyParquetRowGroups(t *testing.T) {
	dir := t.TempDir()
	w, err := newSurveyParquetWriter(dir, ".parquet")
	require.NoError(t, err)
	const perCapture = 1024
	const groups = 6
	total := groups*surveyParquetRowGroupRows + 1
	var heap []uint64
	for i, written := 0, 0; written < total; i++ {
		k := min(perCapture, total-written)
		res := &surveyResult{row: &captureRow{Index: i, Input: "in", File: "f", Site: "s.example", Status: 200}, agentRs: make([]agentRow, k)}
		for j := range res.agentRs {
			res.agentRs[j] = agentRow{Index: i, URL: "https://s.example/robots.txt", Host: "s.example", Agent: "GPTBot", Group: "*", Class: "some", Allowed: "/", Disallowed: "/" + strconv.Itoa(written+j)}
		}
		require.NoError(t, w.write(res))
		written += k
		if written%surveyParquetRowGroupRows == 0 {
			// Twice: the first GC moves pooled buffers to the victim
			// cache, the second frees them.
			runtime.GC()
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			heap = append(heap, ms.HeapAlloc)
		}
	}
	require.NoError(t, w.close())

	pf := openParquet(t, filepath.Join(dir, "agents.parquet"))
	var sizes []int64
	for _, rg := range pf.RowGroups() {
		sizes = append(sizes, rg.NumRows())
	}
	want := slices.Repeat([]int64{surveyParquetRowGroupRows}, groups)
	assert.Equal(t, append(want, 1), sizes)

	require.Len(t, heap, groups)
	t.Logf("heap after each row group: %v", heap)
	for _, h := range heap[1:] {
		assert.Less(t, h, heap[0]+8<<20, "the heap does not grow with the row groups written: %v", heap)
	}
}

// TestSurveyParquetTableRuns: rows whose optional columns mix zero and
// set values, in the shapes that a single write gets wrong (a set run
// after as many nulls as it is long, then nulls), are written with a null
// exactly where the JSON row omits the member.
func TestSurveyParquetTableRuns(t *testing.T) {
	shapes := [][]string{
		{"", "/a", "", "", ""},
		{"", "", "/a", "/b", "", "", ""},
		{"/a", "", "/b", "", "/c", "", "", "", ""},
		{"", "", "", "", "/a", "/b", "/c", "/d", ""},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var random []string
	for range 200 {
		random = append(random, []string{"", "/x"}[rng.IntN(2)])
	}
	shapes = append(shapes, random)
	for i, allowed := range shapes {
		rows := make([]agentRow, len(allowed))
		for j, a := range allowed {
			rows[j] = agentRow{Index: j, Agent: "a", Group: surveyGroupAny, Class: "some", Allowed: a}
			if a != "" && j%2 == 0 {
				rows[j].GroupLine, rows[j].Signal = j, map[string]string{"search": "yes"}
			}
		}
		dir := t.TempDir()
		w := &surveyParquetWriter{}
		table, err := newSurveyParquetTable[agentRow](w, filepath.Join(dir, "agents.parquet"))
		require.NoError(t, err)
		require.NoError(t, table.write(rows))
		require.NoError(t, errors.Join(table.w.Close(), w.closeFiles()))
		var lines []byte
		for j := range rows {
			lines = append(lines, jsonLine(&rows[j])...)
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, "agents.jsonl"), lines, 0o644))
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			checkNulls(t, filepath.Join(dir, "agents.parquet"), filepath.Join(dir, "agents.jsonl"), func(string) bool { return true })
			assert.Equal(t, rows, readParquet[agentRow](t, filepath.Join(dir, "agents.parquet")))
		})
	}
}

// TestSurveyParquetNulls: a table tells each field it writes as null when
// zero as reflect.Value.IsZero tells it, in a zero row, with each field
// set alone and with all set, for every row type; an empty string cut
// from a longer one is zero, an empty map that is not nil is not.
func TestSurveyParquetNulls(t *testing.T) {
	checkTableNulls[captureRow](t)
	checkTableNulls[agentRow](t)
	checkTableNulls[errorRow](t)
}

func checkTableNulls[T any](t *testing.T) {
	w := &surveyParquetWriter{}
	table, err := newSurveyParquetTable[T](w, filepath.Join(t.TempDir(), "table.parquet"))
	require.NoError(t, err)
	defer func() { require.NoError(t, errors.Join(table.w.Close(), w.closeFiles())) }()
	require.NotEmpty(t, table.zeroNull)
	check := func(row *T) {
		t.Helper()
		v := reflect.ValueOf(row).Elem()
		mask := table.nulls(row)
		for i, f := range table.zeroNull {
			assert.Equal(t, v.Field(f.index).IsZero(), mask&(1<<i) != 0, "%s.%s", v.Type().Name(), v.Type().Field(f.index).Name)
		}
	}
	set := func(v reflect.Value, empty bool) {
		switch v.Kind() {
		case reflect.String:
			s := "/x"
			if empty {
				s = s[:0]
			}
			v.SetString(s)
		case reflect.Int, reflect.Int64:
			v.SetInt(7)
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Map:
			v.Set(reflect.MakeMap(v.Type()))
		default:
			t.Fatalf("no value for a %s", v.Type())
		}
	}
	var zero, all T
	check(&zero)
	for _, f := range table.zeroNull {
		for _, empty := range []bool{false, true} {
			var row T
			set(reflect.ValueOf(&row).Elem().Field(f.index), empty)
			check(&row)
		}
		set(reflect.ValueOf(&all).Elem().Field(f.index), false)
	}
	check(&all)
	assert.Zero(t, table.nulls(&all), "every field set")
	assert.Equal(t, uint64(1)<<len(table.zeroNull)-1, table.nulls(&zero), "every field zero")
}

// TestSurveyParquetBounds: a table's column chunks carry their statistics
// (the least and greatest value) and the file's page index the bounds of
// each page, which readers filter row groups and pages by, though the
// pages' own headers do not repeat them.
func TestSurveyParquetBounds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agents.parquet")
	w := &surveyParquetWriter{}
	table, err := newSurveyParquetTable[agentRow](w, path)
	require.NoError(t, err)
	names := []string{"GPTBot", "Amazonbot", "CCBot", "ClaudeBot", "Bytespider"}
	var rows []agentRow
	for i := range 1000 {
		rows = append(rows, agentRow{Index: i, Agent: names[i%len(names)], Group: surveyGroupAny, Class: "some"})
	}
	require.NoError(t, table.write(rows))
	require.NoError(t, errors.Join(table.w.Close(), w.closeFiles()))

	pf := openParquet(t, path)
	leaf, ok := pf.Schema().Lookup("agent")
	require.True(t, ok)
	least, greatest := slices.Min(names), slices.Max(names)
	stats := pf.Metadata().RowGroups[0].Columns[leaf.ColumnIndex].MetaData.Statistics
	assert.Equal(t, least, string(stats.MinValue), "the chunk's least agent")
	assert.Equal(t, greatest, string(stats.MaxValue), "the chunk's greatest agent")
	require.Greater(t, len(pf.ColumnIndexes()), leaf.ColumnIndex, "a page index")
	index := pf.ColumnIndexes()[leaf.ColumnIndex]
	require.NotEmpty(t, index.MinValues)
	assert.Equal(t, least, string(slices.MinFunc(index.MinValues, bytes.Compare)), "the pages' least agent")
	assert.Equal(t, greatest, string(slices.MaxFunc(index.MaxValues, bytes.Compare)), "the pages' greatest agent")
}

// openParquet opens the Parquet file at path for the test, closing it
// when the test ends; msgAndArgs label a failure to open it.
func openParquet(t *testing.T, path string, msgAndArgs ...any) *parquet.File {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err, msgAndArgs...)
	t.Cleanup(func() { f.Close() })
	st, err := f.Stat()
	require.NoError(t, err, msgAndArgs...)
	pf, err := parquet.OpenFile(f, st.Size())
	require.NoError(t, err, msgAndArgs...)
	return pf
}
