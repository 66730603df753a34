package survey

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/parquet-go/parquet-go"
)

const summarizeSynopsis = `robots survey summarize [--json] [--html FILE] DIR|FILE...

Rebuilds the summary of a survey from the files it wrote: captures,
agents and errors, as Parquet or JSON Lines, whole or in shards
(TABLE-K-of-N.parquet), with no database. The figures are those the run
printed, counted by the same code.

A DIR gives every output file in it; a FILE gives itself. The files of
one directory are one run: the shards of a run written to one directory
are merged. Files of several directories are several runs, summarised
one after the other, in the order given; --json then prints
{"runs": [{"run": DIR, ...}, ...]}.

--json prints the summary as one JSON document rather than text: the
captures, statuses and managed sections, and per agent its captures by
class and source, by the site's own rules, in managed sections, and by
each published method compared.

--html FILE writes the page robots survey --html writes, for one run.

Exits 0 on success, 1 when a file could not be read or a run's shards
are not all there, 2 on usage errors.`

// summarizeMaxLine bounds a line of a JSON Lines output read back: the
// survey writes a row as one line of a few hundred bytes, its strings
// (a URL, a file name, an error) each cut by their own bounds, so a
// longer line is no survey output.
const summarizeMaxLine = 1 << 20

// summarizeBatch is how many Parquet rows are read at a time.
const summarizeBatch = 1024

// summarizeMaxAgents bounds the distinct agents a run's rows may name:
// each costs the summary its counts, some kilobytes, where a row costs
// its file some bytes, so that files of rows naming a new agent each
// cannot make the summary hundreds of times their size. A survey answers
// for the few agents of --agents; 4,096 leaves room for every token of
// a crawler list.
const summarizeMaxAgents = 4096

// surveyOutputName matches the files a survey writes: the table, the
// shard, the format.
var surveyOutputName = regexp.MustCompile(`^(captures|agents|errors)(?:-([0-9]+)-of-([0-9]+))?\.(parquet|jsonl)$`)

// surveyOutput is one file of a run.
type surveyOutput struct {
	path, table, format string
	k, n                int // the shard, 0 for a whole run
}

// surveyOutputRun is the files of one run: those of one directory.
type surveyOutputRun struct {
	dir   string
	files []surveyOutput
	// whole is true when the run was named by its directory, so that its
	// shards are expected all there.
	whole bool
}

// runSummarize runs "robots survey summarize".
func runSummarize(args []string, stdout, stderr io.Writer) int {
	var asJSON bool
	var page string
	fs := cli.NewFlagSet("survey summarize", summarizeSynopsis, stderr)
	fs.BoolVar(&asJSON, "json", false, "print the summary as one JSON document")
	fs.StringVar(&page, "html", "", "write the HTML page of the summary to `FILE` (one run)")
	paths, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	runs, msg := surveyOutputRuns(paths)
	switch {
	case msg != "":
	case page == "" && cli.Given(fs, "html"):
		msg = "--html was given an empty file name"
	case page != "" && len(runs) > 1:
		msg = fmt.Sprintf("--html draws one run; %d directories were given", len(runs))
	}
	if msg != "" {
		fmt.Fprintf(stderr, "robots survey summarize: %s\n", msg)
		fs.Usage()
		return cli.ExitUsage
	}
	code := cli.ExitOK
	var sums []*surveySummary
	for _, run := range runs {
		for _, w := range run.missingShards() {
			fmt.Fprintf(stderr, "robots survey summarize: %s: %s\n", run.dir, w)
			code = cli.ExitNegative
		}
		sum, err := run.summary()
		if err != nil {
			fmt.Fprintf(stderr, "robots survey summarize: %v\n", err)
			return cli.ExitNegative
		}
		sums = append(sums, sum)
	}
	if err := writeSummaries(stdout, runs, sums, asJSON); err != nil {
		fmt.Fprintf(stderr, "robots survey summarize: %v\n", err)
		return cli.ExitUsage
	}
	if page != "" {
		p, err := createSurveyPage(page)
		if err == nil {
			defer p.abandon()
			err = p.write(surveyConfig{inputs: sums[0].inputs}, sums[0])
		}
		if err != nil {
			fmt.Fprintf(stderr, "robots survey summarize: %v\n", err)
			return cli.ExitUsage
		}
	}
	return code
}

// writeSummaries prints the summaries of runs: one run's alone, several
// each after a line naming its directory; as JSON, one run's document,
// or {"runs": [...]} of several, each with its "run".
func writeSummaries(w io.Writer, runs []surveyOutputRun, sums []*surveySummary, asJSON bool) error {
	if asJSON {
		var doc any = sums[0].json()
		if len(sums) > 1 {
			type named struct {
				Run string `json:"run"`
				summaryJSON
			}
			var all []named
			for i, s := range sums {
				all = append(all, named{runs[i].dir, s.json()})
			}
			doc = map[string]any{"runs": all}
		}
		b, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
	for i, s := range sums {
		if len(sums) > 1 {
			if _, err := fmt.Fprintf(w, "%s== run %s\n", map[bool]string{true: "\n"}[i > 0], runs[i].dir); err != nil {
				return err
			}
		}
		if err := s.write(w); err != nil {
			return err
		}
	}
	return nil
}

// surveyOutputRuns groups the files paths name into runs, by directory,
// in the order first named; or says in one line why they make none.
func surveyOutputRuns(paths []string) ([]surveyOutputRun, string) {
	if len(paths) == 0 {
		return nil, "no DIR or FILE given"
	}
	var runs []surveyOutputRun
	at := map[string]int{}
	add := func(dir string, whole bool) *surveyOutputRun {
		i, ok := at[dir]
		if !ok {
			i = len(runs)
			at[dir] = i
			runs = append(runs, surveyOutputRun{dir: dir})
		}
		runs[i].whole = runs[i].whole || whole
		return &runs[i]
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err.Error()
		}
		if fi.IsDir() {
			entries, err := os.ReadDir(p)
			if err != nil {
				return nil, err.Error()
			}
			run := add(filepath.Clean(p), true)
			for _, e := range entries {
				if o, ok := parseOutputName(filepath.Join(p, e.Name())); ok && e.Type().IsRegular() {
					run.addFile(o)
				}
			}
			continue
		}
		o, ok := parseOutputName(p)
		if !ok {
			return nil, fmt.Sprintf("%s is not a survey output (TABLE[-K-of-N].parquet or .jsonl, TABLE captures, agents or errors)", p)
		}
		add(filepath.Dir(filepath.Clean(p)), false).addFile(o)
	}
	for i := range runs {
		run := &runs[i]
		if len(run.files) == 0 {
			return nil, fmt.Sprintf("%s holds no survey output", run.dir)
		}
		if run.files[0].format != run.files[len(run.files)-1].format {
			return nil, fmt.Sprintf("%s holds both Parquet and JSON Lines outputs: name the files of one", run.dir)
		}
	}
	return runs, ""
}

// parseOutputName reads a survey output's file name.
func parseOutputName(path string) (surveyOutput, bool) {
	m := surveyOutputName.FindStringSubmatch(filepath.Base(path))
	if m == nil {
		return surveyOutput{}, false
	}
	o := surveyOutput{path: path, table: m[1], format: m[4]}
	if m[2] != "" {
		var err1, err2 error
		o.k, err1 = strconv.Atoi(m[2])
		o.n, err2 = strconv.Atoi(m[3])
		if err1 != nil || err2 != nil || o.n < 1 || o.k < 1 || o.k > o.n {
			return surveyOutput{}, false
		}
	}
	return o, true
}

// addFile adds o to the run, once, keeping the files in the order they
// are read: by format, table, then shard.
func (run *surveyOutputRun) addFile(o surveyOutput) {
	for _, f := range run.files {
		if f.path == o.path {
			return
		}
	}
	run.files = append(run.files, o)
	slices.SortFunc(run.files, func(a, b surveyOutput) int {
		if c := strings.Compare(a.format, b.format); c != 0 {
			return c
		}
		if c := strings.Compare(a.table, b.table); c != 0 {
			return c
		}
		if a.n != b.n {
			return a.n - b.n
		}
		return a.k - b.k
	})
}

// missingShards says, for a run named by its directory, which tables'
// shards are not all there, or are of runs split otherwise.
func (run *surveyOutputRun) missingShards() []string {
	if !run.whole {
		return nil
	}
	tables := []string{surveyTableCaptures, surveyTableAgents}
	if run.files[0].format == surveyFormatParquet {
		tables = append(tables, surveyTableErrors)
	}
	splits := map[int]map[string][]bool{} // n → table → shards seen
	for _, f := range run.files {
		if splits[f.n] == nil {
			splits[f.n] = map[string][]bool{}
		}
		if splits[f.n][f.table] == nil {
			splits[f.n][f.table] = make([]bool, f.n+1)
		}
		splits[f.n][f.table][f.k] = true
	}
	var out []string
	if len(splits) > 1 {
		out = append(out, "holds the files of runs split in different numbers of shards")
	}
	for _, n := range slices.Sorted(func(yield func(int) bool) {
		for n := range splits {
			if !yield(n) {
				return
			}
		}
	}) {
		for _, t := range tables {
			seen := splits[n][t]
			for k := range n + 1 {
				if (n == 0 || k > 0) && (seen == nil || !seen[k]) {
					if n == 0 {
						out = append(out, fmt.Sprintf("no %s file", t))
					} else {
						out = append(out, fmt.Sprintf("%s: shard %d of %d missing", t, k, n))
					}
				}
			}
		}
	}
	return out
}

// summary reads the run's files and counts their rows.
func (run *surveyOutputRun) summary() (*surveySummary, error) {
	s := newSurveySummary(nil)
	for _, f := range run.files {
		var err error
		switch {
		case f.format == surveyFormatJSONL && f.table == surveyTableCaptures:
			err = readJSONLRows(f.path, func(line []byte) error { return addJSONCapture(s, line) })
		case f.format == surveyFormatJSONL && f.table == surveyTableAgents:
			err = readJSONLRows(f.path, func(line []byte) error {
				var a agentRow
				if err := json.Unmarshal(line, &a); err != nil {
					return err
				}
				return addAgentRow(s, &a)
			})
		case f.table == surveyTableCaptures:
			err = readParquetRows(f.path, func(c *captureRow) error { s.addCapture(c); return nil })
		case f.table == surveyTableAgents:
			err = readParquetRows(f.path, func(a *agentRow) error { return addAgentRow(s, a) })
		default:
			err = readParquetRows(f.path, func(e *errorRow) error { s.addError(e); return nil })
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.path, err)
		}
	}
	return s, nil
}

// addAgentRow counts an agent row read back, its agent added to the
// summary's when new, up to summarizeMaxAgents.
func addAgentRow(s *surveySummary, a *agentRow) error {
	if _, ok := s.index[a.Agent]; !ok && len(s.agents) >= summarizeMaxAgents {
		return fmt.Errorf("the rows name more than %d agents", summarizeMaxAgents)
	}
	s.addAgent(s.agentIndex(a.Agent), a)
	return nil
}

// addJSONCapture counts a line of captures.jsonl: a capture, or an error
// row when it has an "error" member.
func addJSONCapture(s *surveySummary, line []byte) error {
	var probe struct {
		Error *string `json:"error"`
	}
	if err := json.Unmarshal(line, &probe); err != nil {
		return err
	}
	if probe.Error != nil {
		var e errorRow
		if err := json.Unmarshal(line, &e); err != nil {
			return err
		}
		s.addError(&e)
		return nil
	}
	var c captureRow
	if err := json.Unmarshal(line, &c); err != nil {
		return err
	}
	s.addCapture(&c)
	return nil
}

// readJSONLRows calls each with every line of the file at path, blank
// lines aside, each at most summarizeMaxLine bytes.
func readJSONLRows(path string, each func([]byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	lr := cli.NewLineReader(f, summarizeMaxLine)
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("line %d: %w", lr.Line(), err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := each(line); err != nil {
			return fmt.Errorf("line %d: %w", lr.Line(), err)
		}
	}
}

// readParquetRows calls each with every row of the Parquet file at path,
// read as T through the columns surveyParquetTags names, a batch at a
// time. A file parquet-go cannot read is an error, never a panic.
func readParquetRows[T any](path string, each func(*T) error) (err error) {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("not a readable Parquet file of the survey: %v", p)
		}
	}()
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		return err
	}
	var opts []parquet.ReaderOption
	for _, o := range surveyParquetTags(reflect.TypeFor[T]()) {
		opts = append(opts, o)
	}
	r := parquet.NewGenericReader[T](pf, opts...)
	defer r.Close()
	buf := make([]T, summarizeBatch)
	for {
		clear(buf)
		n, err := r.Read(buf)
		for i := range buf[:n] {
			if err := each(&buf[i]); err != nil {
				return err
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
