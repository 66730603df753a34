//go:build cgo

package surveysql

import (
	"database/sql"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/duckdb/duckdb-go/v2"
)

// Tables are the tables of a survey run, each the Parquet files whose
// names start with the table's: TABLE.parquet, or TABLE-K-of-N.parquet
// for a shard. The query runner makes a view of each over the files of
// the runs it is given.
var Tables = []string{"captures", "agents", "errors"}

// Query is one query to run: a name of a file's "-- name:" line, or ""
// for an ad-hoc one, and its SQL.
type Query struct {
	Name, SQL string
}

// ParseQueries reads the named queries of an SQL file as summary.sql and
// redirects.sql write them: each follows a "-- name: NAME" line and runs
// to the next, its comment lines kept. A file without such a line is one
// query.
func ParseQueries(text string) []Query {
	blocks := strings.Split(text, "-- name: ")
	if len(blocks) == 1 {
		return []Query{{SQL: strings.TrimSpace(text)}}
	}
	var qs []Query
	for _, block := range blocks[1:] {
		name, body, _ := strings.Cut(block, "\n")
		qs = append(qs, Query{Name: strings.TrimSpace(name), SQL: strings.TrimSpace(body)})
	}
	return qs
}

// runFiles returns, for each table, the Parquet files of it among the
// runs named: a directory's TABLE*.parquet, or a file named so.
func runFiles(runs []string) (map[string][]string, error) {
	files := map[string][]string{}
	for _, run := range runs {
		fi, err := os.Stat(run)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			table := tableOf(filepath.Base(run))
			if table == "" {
				return nil, fmt.Errorf("%s: not a table of a survey run (%s.parquet, or TABLE-K-of-N.parquet for a shard)", run, strings.Join(Tables, ", "))
			}
			files[table] = append(files[table], run)
			continue
		}
		found := false
		for _, table := range Tables {
			matches, err := filepath.Glob(filepath.Join(run, table+"*.parquet"))
			if err != nil {
				return nil, err
			}
			for _, m := range matches {
				if tableOf(filepath.Base(m)) == table {
					files[table] = append(files[table], m)
					found = true
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("%s: no Parquet file of a survey run (robots survey --format parquet writes captures.parquet, agents.parquet, errors.parquet)", run)
		}
	}
	return files, nil
}

// tableOf is the table a file of a run belongs to, by its name, or "".
func tableOf(name string) string {
	rest, ok := strings.CutSuffix(name, ".parquet")
	if !ok {
		return ""
	}
	for _, table := range Tables {
		if s, ok := strings.CutPrefix(rest, table); ok && (s == "" || s[0] == '-') {
			return table
		}
	}
	return ""
}

// sqlLiteral quotes s as an SQL string literal.
func sqlLiteral(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// OpenRuns opens an in-memory DuckDB with a view of each table over the
// Parquet files of the runs named, directories or files: the shards of a
// run, or several runs, are one table (their columns matched by name, so
// that runs with and without --compare read together). A table no run
// holds has no view.
func OpenRuns(runs []string) (*sql.DB, error) {
	files, err := runFiles(runs)
	if err != nil {
		return nil, err
	}
	connector, err := duckdb.NewConnector("", nil)
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(connector)
	db.SetMaxOpenConns(1) // one connection: the views live in its catalog
	for _, table := range Tables {
		if len(files[table]) == 0 {
			continue
		}
		quoted := make([]string, len(files[table]))
		for i, f := range files[table] {
			quoted[i] = sqlLiteral(f)
		}
		q := fmt.Sprintf("CREATE VIEW %s AS SELECT * FROM read_parquet([%s], union_by_name = true)", table, strings.Join(quoted, ", "))
		if _, err := db.Exec(q); err != nil {
			db.Close()
			return nil, fmt.Errorf("%s: %w", table, err)
		}
	}
	return db, nil
}

// Result is what a query gave: its columns and its rows, each value as
// the driver scanned it (NULL as nil).
type Result struct {
	Columns []string
	Rows    [][]any
}

// Run runs q on db.
func Run(db *sql.DB, q string) (*Result, error) {
	rows, err := db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	res := &Result{Columns: cols}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		res.Rows = append(res.Rows, vals)
	}
	return res, rows.Err()
}

// FormatValue writes a value as the table and CSV outputs show it: NULL
// as "", numbers in full (a HUGEINT sum, a DECIMAL, a DOUBLE with the
// digits it needs), times in RFC 3339, maps as {key=value, ...} in key
// order, lists as [a, b].
func FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int32, int16, int8, int, uint64, uint32, uint16, uint8:
		return fmt.Sprint(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32)
	case *big.Int:
		return x.String()
	case time.Time:
		return x.Format(time.RFC3339Nano)
	case duckdb.Map:
		keys := slices.SortedFunc(maps.Keys(x), func(a, b any) int { return strings.Compare(FormatValue(a), FormatValue(b)) })
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = FormatValue(k) + "=" + FormatValue(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case map[string]any: // a STRUCT
		keys := slices.Sorted(maps.Keys(x))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ": " + FormatValue(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = FormatValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case fmt.Stringer: // duckdb.Decimal, *duckdb.UUID
		return x.String()
	}
	return fmt.Sprint(v)
}

// numeric reports whether a column's values are numbers, which the table
// aligns right.
func numeric(rows [][]any, col int) bool {
	seen := false
	for _, r := range rows {
		switch r[col].(type) {
		case nil:
		case int64, int32, int16, int8, int, uint64, uint32, uint16, uint8, float64, float32, *big.Int, duckdb.Decimal:
			seen = true
		default:
			return false
		}
	}
	return seen
}

// WriteTable writes res as a table of aligned columns, a header and a
// rule, NULL written NULL, and the count of rows after.
func WriteTable(w io.Writer, res *Result) error {
	cells := make([][]string, len(res.Rows))
	widths := make([]int, len(res.Columns))
	for i, c := range res.Columns {
		widths[i] = utf8.RuneCountInString(c)
	}
	for r, row := range res.Rows {
		cells[r] = make([]string, len(row))
		for i, v := range row {
			s := FormatValue(v)
			if v == nil {
				s = "NULL"
			}
			s = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(s)
			cells[r][i] = s
			widths[i] = max(widths[i], utf8.RuneCountInString(s))
		}
	}
	right := make([]bool, len(res.Columns))
	for i := range res.Columns {
		right[i] = numeric(res.Rows, i)
	}
	var b strings.Builder
	line := func(fields []string) {
		for i, f := range fields {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(f))
			if right[i] {
				b.WriteString(pad + f)
			} else if i < len(fields)-1 {
				b.WriteString(f + pad)
			} else {
				b.WriteString(f)
			}
		}
		b.WriteString("\n")
	}
	line(res.Columns)
	rule := make([]string, len(widths))
	for i, n := range widths {
		rule[i] = strings.Repeat("-", n)
	}
	line(rule)
	for _, row := range cells {
		line(row)
	}
	if len(res.Rows) == 1 {
		b.WriteString("(1 row)\n")
	} else {
		fmt.Fprintf(&b, "(%d rows)\n", len(res.Rows))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteCSV writes res as CSV (RFC 4180): a header, then the rows, NULL as
// an empty field.
func WriteCSV(w io.Writer, res *Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(res.Columns); err != nil {
		return err
	}
	rec := make([]string, len(res.Columns))
	for _, row := range res.Rows {
		for i, v := range row {
			rec[i] = FormatValue(v)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// queryUsage is the runner's usage text.
const queryUsage = `usage: go run ./cmd/robots/internal/surveysql/query [-f FILE.sql [-q NAME,...] | -e SQL] [-csv] RUN...

Runs SQL over the Parquet output of robots survey with DuckDB's library,
linked in: no duckdb command is needed. Each RUN is a directory a run wrote
(--out DIR), or one of its files; the shards of a run, or several runs,
are read as one table. The views captures, agents and errors are made over
their files, as summary.sql and redirects.sql expect.

  -f FILE   run the named queries of FILE ("-- name: NAME" before each), in order
  -q NAMES  with -f, only these queries (comma-separated)
  -e SQL    run this query
  -csv      write CSV (RFC 4180) rather than aligned columns
`

// Main is the query runner: it parses args, runs the queries and writes
// their results to stdout, and returns the exit status: 0, 1 when a query
// fails, 2 for bad arguments.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("query", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	file := fs.String("f", "", "")
	names := fs.String("q", "", "")
	adhoc := fs.String("e", "", "")
	asCSV := fs.Bool("csv", false, "")
	usage := func(msg string) int {
		fmt.Fprintf(stderr, "query: %s\n%s", msg, queryUsage)
		return 2
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, queryUsage)
			return 0
		}
		return usage(err.Error())
	}
	switch {
	case (*file == "") == (*adhoc == ""):
		return usage("give one of -f FILE and -e SQL")
	case *names != "" && *file == "":
		return usage("-q selects queries of a file: give -f FILE")
	case fs.NArg() == 0:
		return usage("no RUN given: the directory of a run's Parquet files")
	}
	queries := []Query{{SQL: *adhoc}}
	if *file != "" {
		text, err := os.ReadFile(*file)
		if err != nil {
			return usage(err.Error())
		}
		queries = ParseQueries(string(text))
		if *names != "" {
			var picked []Query
			for _, n := range strings.Split(*names, ",") {
				i := slices.IndexFunc(queries, func(q Query) bool { return q.Name == strings.TrimSpace(n) })
				if i < 0 {
					return usage(fmt.Sprintf("%s has no query %q", *file, strings.TrimSpace(n)))
				}
				picked = append(picked, queries[i])
			}
			queries = picked
		}
	}
	db, err := OpenRuns(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "query: %v\n", err)
		return 1
	}
	defer db.Close()
	for i, q := range queries {
		res, err := Run(db, q.SQL)
		if err != nil {
			if q.Name != "" {
				fmt.Fprintf(stderr, "query: %s: %v\n", q.Name, err)
			} else {
				fmt.Fprintf(stderr, "query: %v\n", err)
			}
			return 1
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if q.Name != "" && len(queries) > 1 {
			fmt.Fprintf(stdout, "# %s\n", q.Name)
		}
		write := WriteTable
		if *asCSV {
			write = WriteCSV
		}
		if err := write(stdout, res); err != nil {
			fmt.Fprintf(stderr, "query: %v\n", err)
			return 1
		}
	}
	return 0
}
