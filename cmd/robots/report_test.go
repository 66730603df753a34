package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/web"
	"github.com/fastrobots/robots/internal/testkit/conformance"
	"github.com/fastrobots/robots/internal/testkit/memstat"
)

// reportingFile holds Google's report of 9,998 bodies.
const reportingFile = "../../testdata/conformance/reporting.jsonl.gz"

// reportJSON is a report in the form of reporting.jsonl.gz, which report
// --json and --jsonl write; Error is set in --jsonl's error lines.
type reportJSON struct {
	LastLine int      `json:"last_line"`
	Valid    int      `json:"valid"`
	Unused   int      `json:"unused"`
	Lines    [][9]int `json:"lines"`
	Error    string   `json:"error"`
}

// reportingCase is a line of reporting.jsonl.gz: a body and Google's
// report of it.
type reportingCase struct {
	conformance.Case
	Report reportJSON `json:"report"`
}

// decodeReport decodes one output line of report --json or --jsonl,
// refusing members a report does not have.
func decodeReport(t *testing.T, line string) reportJSON {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	var r reportJSON
	require.NoError(t, dec.Decode(&r), line)
	return r
}

// reportSample has a line of each kind the table tells apart, and each
// flag.
const reportSample = "User-agent: Googlebot\n" +
	"Dissallow: /x # typo\n" +
	"Disallow /y\n" +
	"Crawl-delay: 5\n" +
	"Foo: bar\n" +
	"hello\n" +
	"# a comment\n" +
	"\n" +
	"Allow: /a\r\n" +
	"Sitemap: https://example.com/s.xml\r" +
	"Disallow: /long"

func TestReportTable(t *testing.T) {
	t.Setenv("COLUMNS", "80")
	long := reportSample + strings.Repeat("x", 17000) + "\n"
	r := invoke(runReport, long, "-")
	require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
	assert.Empty(t, r.Stderr)
	want := "" +
		"LINE  GOOGLE READS  FLAGS              TEXT\n" +
		"   1  user-agent                       User-agent: Googlebot\n" +
		"   2  disallow      typo, has comment  Dissallow: /x # typo\n" +
		"   3  disallow      missing colon      Disallow /y\n" +
		"   4  unused key                       Crawl-delay: 5\n" +
		"   5  unknown key                      Foo: bar\n" +
		"   6  no directive                     hello\n" +
		"   7  comment                          # a comment\n" +
		"   8  empty\n" +
		"   9  allow                            Allow: /a\n" +
		"  10  sitemap                          Sitemap: https://example.com/s.xml\n" +
		"  11  disallow      too long           Disallow: /longxxxxxxxxxxxxxxxxxxxxxxxxx…\n" +
		"  12  empty\n" +
		"12 lines, 6 valid directives, 2 unused directives\n"
	assert.Equal(t, want, r.Stdout)
}

// TestReportTableSaysWhatGoogleReads: the second column tells a directive
// Google uses, one it does not, an unknown key, a line without a
// directive, a comment and an empty line apart, and the third shows each
// flag Google sets.
func TestReportTableSaysWhatGoogleReads(t *testing.T) {
	t.Setenv("COLUMNS", "200")
	tests := []struct {
		line, reads, flags string
	}{
		{"User-agent: *", "user-agent", ""},
		{"useragent: *", "user-agent", "typo"},
		{"Allow: /", "allow", ""},
		{"Disallow: /", "disallow", ""},
		{"Disalow /x # why", "disallow", "typo, missing colon, has comment"},
		{"Sitemap: https://example.com/s.xml", "sitemap", ""},
		{"Noindex: /x", "unused key", ""},
		{"Host: example.com", "unused key", ""},
		{"Foo: bar", "unknown key", ""},
		{"Foo bar baz", "no directive", ""},
		{": no key", "no directive", ""},
		{"User-agent:", "user-agent", ""},
		{"Disallow # a comment", "no directive", "has comment"},
		{"  # a comment", "comment", ""},
		{" \t ", "empty", ""},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			r := invoke(runReport, tt.line, "-")
			require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
			rows := outputLines(r.Stdout)
			require.Len(t, rows, 3, r.Stdout)
			header, row := rows[0], rows[1]
			// cell is the row's text under the header from one column's
			// name to the next's.
			cell := func(name, next string) string {
				from, to := strings.Index(header, name), strings.Index(header, next)
				if from >= len(row) {
					return ""
				}
				return strings.TrimSpace(row[from:min(to, len(row))])
			}
			assert.Equal(t, "1", cell("LINE", "GOOGLE READS"), row)
			assert.Equal(t, tt.reads, cell("GOOGLE READS", "FLAGS"), row)
			assert.Equal(t, tt.flags, cell("FLAGS", "TEXT"), row)
		})
	}
}

// TestReportTableCutsTextToColumns: no row is wider than $COLUMNS, or
// than 100 columns when it gives no width, and a row cut ends in "…";
// a terminal too narrow still shows 20 columns of text.
func TestReportTableCutsTextToColumns(t *testing.T) {
	body := "User-agent: *\nDisallow: /" + strings.Repeat("é", 300) + "\nAllow: /short\n"
	tests := []struct {
		columns string
		width   int
	}{
		{"60", 60},
		{"150", 150},
		{"", 100},
		{"wide", 100},
		{"-3", 100},
		{"10", len("LINE  GOOGLE READS  FLAGS  ") + 20},
	}
	for _, tt := range tests {
		t.Run(tt.columns, func(t *testing.T) {
			t.Setenv("COLUMNS", tt.columns)
			r := invoke(runReport, body, "-")
			require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
			rows := outputLines(r.Stdout)
			require.Len(t, rows, 6)
			for _, row := range rows[:len(rows)-1] { // the summary is not cut
				assert.LessOrEqual(t, utf8.RuneCountInString(row), tt.width, row)
			}
			assert.Equal(t, tt.width, utf8.RuneCountInString(rows[2]), "the long line fills the row")
			assert.True(t, strings.HasSuffix(rows[2], "é…"), rows[2])
			assert.True(t, strings.HasSuffix(rows[3], "Allow: /short"), rows[3])
		})
	}
}

// TestReportTableShowsBytesSafely: the text column holds no control
// character and no byte that is not UTF-8; it shows them as Go escapes,
// and a backslash as \\ so that an escape cannot be mistaken for text.
func TestReportTableShowsBytesSafely(t *testing.T) {
	t.Setenv("COLUMNS", "100")
	tests := []struct {
		name, line, shown string
	}{
		{"invalid UTF-8", "Disallow: /\xff\xfe", `Disallow: /\xff\xfe`},
		{"NUL", "Disallow: /a\x00b", `Disallow: /a\x00b`},
		{"tab", "Disallow:\t/a", `Disallow:\t/a`},
		{"escape sequence", "Disallow: /\x1b[31mred", `Disallow: /\x1b[31mred`},
		{"backslash", `Disallow: /a\x00`, `Disallow: /a\\x00`},
		{"zero width space", "Disallow: /a\u200bb", `Disallow: /a\u200bb`},
		{"printable UTF-8", "Disallow: /ツ", "Disallow: /ツ"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := invoke(runReport, tt.line, "-")
			require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
			assert.True(t, utf8.ValidString(r.Stdout))
			for _, c := range r.Stdout {
				assert.True(t, c == '\n' || !unicode.IsControl(c), "control character %U in %q", c, r.Stdout)
			}
			rows := outputLines(r.Stdout)
			assert.True(t, strings.HasSuffix(rows[1], "  "+tt.shown), "%q, want it to end in %q", rows[1], tt.shown)
		})
	}
}

// TestReportReadsTheExampleWithoutFile: without FILE, report reads the
// example check and explain read, and stdin for -.
func TestReportReadsTheExampleWithoutFile(t *testing.T) {
	r := invoke(runReport, "", "--json")
	require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
	want := invoke(runReport, string(web.Example), "--json", "-")
	require.Equal(t, cli.ExitOK, want.Code, want.Stderr)
	assert.Equal(t, want.Stdout, r.Stdout)
	got := decodeReport(t, r.Stdout)
	assert.Equal(t, strings.Count(string(web.Example), "\n")+1, got.LastLine)
	assert.Equal(t, 8, got.Valid)

	file := invoke(runReport, "", "--json", "web/example.txt")
	assert.Equal(t, want.Stdout, file.Stdout)
}

// TestReportJSONMatchesGoogle: report --json of every body of
// reporting.jsonl.gz is Google's report of it, and is byte for byte the
// JSON form of the API (api.ReportJSON), which report writes a row at a
// time rather than building it whole.
func TestReportJSONMatchesGoogle(t *testing.T) {
	n, failed := 0, 0
	err := conformance.Each(reportingFile, func(line int, c *reportingCase) error {
		body, err := c.Body()
		if err != nil {
			return err
		}
		n++
		r := invoke(runReport, string(body), "--json", "-")
		var apiForm strings.Builder
		require.NoError(t, api.NewJSONEncoder(&apiForm).Encode(api.ReportJSON(robots.ReportOf(body))))
		if r.Code != cli.ExitOK || !assert.Equal(t, c.Report, decodeReport(t, r.Stdout), "reporting.jsonl.gz:%d (%s)", line, c.ID) ||
			!assert.Equal(t, apiForm.String(), r.Stdout, "reporting.jsonl.gz:%d (%s)", line, c.ID) {
			if failed++; failed >= 10 {
				return fmt.Errorf("stopping after %d differences", failed)
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, 9998, n)
}

// TestReportJSONLMatchesGoogle: the whole of reporting.jsonl.gz through
// report --jsonl gives Google's report of each line, in order.
func TestReportJSONLMatchesGoogle(t *testing.T) {
	var want []reportJSON
	require.NoError(t, conformance.Each(reportingFile, func(_ int, c *reportingCase) error {
		want = append(want, c.Report)
		return nil
	}))
	in, err := conformance.Open(reportingFile)
	require.NoError(t, err)
	defer in.Close()
	r := invokeReader(runReport, in, "--jsonl")
	require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
	assert.Empty(t, r.Stderr)
	got := outputLines(r.Stdout)
	require.Len(t, got, len(want))
	failed := 0
	for i, line := range got {
		if !assert.Equal(t, want[i], decodeReport(t, line), "line %d", i+1) {
			if failed++; failed >= 10 {
				break
			}
		}
	}
}

// TestReportJSONLAnswersEveryLine: a line that cannot be read gets an
// error object in its place, the others their report, and the exit status
// says that some line failed; empty lines are skipped.
func TestReportJSONLAnswersEveryLine(t *testing.T) {
	body := "User-agent: *\nDisallow: /x\n"
	ok := reportJSON{LastLine: 3, Valid: 2, Lines: [][9]int{{1, 1, 0, 0, 0, 0, 1, 0, 0}, {2, 3, 0, 0, 0, 0, 1, 0, 0}, {3, 0, 0, 1, 0, 0, 0, 0, 0}}}
	in := strings.Join([]string{
		`{"robotstxt_b64":"` + b64(body) + `"}`,
		`garbage`,
		``,
		`{"id":1,"robotstxt":` + quote(body) + `,"useragent":"x","url":"/"}`,
		`{"robotstxt_b64":"%%%"}`,
		`{"id":2}`,
		`{"robotstxt":7}`,
		`{"robotstxt_b64":"` + b64(body) + `","robotstxt":"ignored"}`,
	}, "\n")
	r := invoke(runReport, in, "--jsonl")
	assert.Equal(t, cli.ExitBadQuery, r.Code)
	assert.Equal(t, "robots report: 4 lines could not be read and got an error\n", r.Stderr)
	got := outputLines(r.Stdout)
	require.Len(t, got, 7, r.Stdout)
	for i, want := range []reportJSON{
		ok,
		{Error: "bad JSON: invalid character 'g' looking for beginning of value"},
		ok,
		{Error: "bad robotstxt_b64: illegal base64 data at input byte 0"},
		{Error: "missing robotstxt_b64 and robotstxt"},
		{Error: "bad JSON: json: cannot unmarshal number into Go struct field reportQuery.robotstxt of type string"},
		ok,
	} {
		assert.Equal(t, want, decodeReport(t, got[i]), "output line %d: %s", i+1, got[i])
	}

	one := invoke(runReport, `{"robotstxt":""}`+"\nnot JSON\n", "--jsonl")
	assert.Equal(t, cli.ExitBadQuery, one.Code)
	assert.Equal(t, "robots report: 1 line could not be read and got an error\n", one.Stderr)
	assert.Len(t, outputLines(one.Stdout), 2)

	none := invoke(runReport, "", "--jsonl")
	assert.Equal(t, cli.ExitOK, none.Code)
	assert.Empty(t, none.Stdout)
}

// TestReportJSONLReadsLongLines: a line longer than eval holds, its
// robots.txt longer than 500 KiB, is reported on the first 500 KiB, as
// report --json reports on the file; and a long line that is not a query
// gets an error.
func TestReportJSONLReadsLongLines(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < robots.MaxBytes+300<<10; i++ {
		fmt.Fprintf(&b, "User-agent: bot%d\nDisallow: /%d\nCrawl-delay: 1\n", i, i)
	}
	body := b.String()
	fromFile := invoke(runReport, "", "--json", writeTemp(t, body))
	require.Equal(t, cli.ExitOK, fromFile.Code)
	assert.Contains(t, fromFile.Stderr, "input cut at 512000 bytes")
	want := decodeReport(t, fromFile.Stdout)
	assert.Equal(t, robots.ReportOf([]byte(body[:robots.MaxBytes])).LastLine, want.LastLine)

	b64Line := `{"id":"b64","robotstxt_b64":"` + b64(body) + `"}`
	textLine := `{"robotstxt":` + quote(body) + `,"id":"text"}`
	require.Greater(t, len(b64Line), maxEvalLine)
	require.Greater(t, len(textLine), maxEvalLine)
	r := invoke(runReport, b64Line+"\n"+textLine+"\n"+`{"robotstxt":"`+strings.Repeat("a", maxEvalLine)+"\n", "--jsonl")
	assert.Equal(t, cli.ExitBadQuery, r.Code)
	got := outputLines(r.Stdout)
	require.Len(t, got, 3)
	assert.Equal(t, want, decodeReport(t, got[0]))
	assert.Equal(t, want, decodeReport(t, got[1]))
	assert.Equal(t, reportJSON{Error: "bad JSON: unexpected end of line in a string"}, decodeReport(t, got[2]))
}

// TestReportJSONLBoundsMemoryOnAHugeLine: a line far longer than the
// limit is decoded as it is read, not gathered first.
func TestReportJSONLBoundsMemoryOnAHugeLine(t *testing.T) {
	const size = 64 << 20
	before := memstat.Live()
	var atEnd int64
	in := io.MultiReader(
		strings.NewReader(`{"robotstxt":"`),
		io.LimitReader(&endless{fill: 'a'}, size),
		&lineGen{n: 1, line: func(int) string { return `"}` + "\n" + `{"robotstxt":"x"}` }, atEnd: func() { atEnd = memstat.Live() }})
	r := invokeReader(runReport, in, "--jsonl")
	require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
	got := outputLines(r.Stdout)
	require.Len(t, got, 2)
	assert.Equal(t, reportJSON{LastLine: 1, Lines: [][9]int{{1, 0, 0, 0, 0, 0, 0, 1, 0}}}, decodeReport(t, got[0]))
	assert.Equal(t, reportJSON{LastLine: 1, Lines: [][9]int{{1, 0, 0, 0, 0, 0, 0, 0, 0}}}, decodeReport(t, got[1]))
	growth := atEnd - before
	t.Logf("live heap after a %d MiB line: %d KiB more than before", size>>20, growth>>10)
	assert.Less(t, growth, int64(16<<20))
}

// TestReportJSONLStreams reports on many generated lines and measures the
// live heap when the input ends: a command that kept the lines or the
// reports would hold tens of MiB then.
func TestReportJSONLStreams(t *testing.T) {
	const n = 100_000
	before := memstat.Live()
	var atEnd int64
	in := &lineGen{n: n, line: func(i int) string {
		return `{"id":` + itoa(i) + `,"robotstxt":"User-agent: *\nDisallow: /` + itoa(i) + `\n"}`
	}, atEnd: func() { atEnd = memstat.Live() }}
	var out lineCounter
	var stderr strings.Builder
	assert.Equal(t, cli.ExitOK, runReport([]string{"--jsonl"}, in, &out, &stderr), stderr.String())
	assert.Equal(t, n, out.lines)
	assert.Equal(t, `{"last_line":3,"valid":2,"unused":0,"lines":[[1,1,0,0,0,0,1,0,0],[2,3,0,0,0,0,1,0,0],[3,0,0,1,0,0,0,0,0]]}`, string(out.last))
	growth := atEnd - before
	t.Logf("live heap at the end of %d lines: %d KiB more than before", n, growth>>10)
	assert.Less(t, growth, int64(8<<20))
}

// TestReportJSONLAnswersAsTheInputArrives: with lines fed one at a time
// through a pipe, each report is written before the next line is sent.
func TestReportJSONLAnswersAsTheInputArrives(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- runReport([]string{"--jsonl"}, inR, outW, io.Discard)
		outW.Close()
	}()
	reports := bufio.NewReader(outR)
	for i := range 3 {
		_, err := io.WriteString(inW, `{"robotstxt":"Allow: /`+itoa(i)+`"}`+"\n")
		require.NoError(t, err)
		line, err := readLineWithin(reports, 10*time.Second)
		require.NoError(t, err, "no report for line %d before the next", i+1)
		assert.Equal(t, `{"last_line":1,"valid":1,"unused":0,"lines":[[1,2,0,0,0,0,1,0,0]]}`+"\n", line)
	}
	inW.Close()
	assert.Equal(t, cli.ExitOK, <-done)
}

func TestReportUsageErrors(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"unknown flag", []string{"--mode", "rfc", "robots.txt"}, "flag provided but not defined: -mode"},
		{"two files", []string{"a.txt", "b.txt"}, "robots report: at most one FILE"},
		{"--jsonl with a file", []string{"--jsonl", "a.txt"}, "robots report: --jsonl reads stdin and takes no FILE"},
		{"--jsonl with stdin named", []string{"--jsonl", "-"}, "robots report: --jsonl reads stdin and takes no FILE"},
		{"--json and --jsonl", []string{"--json", "--jsonl"}, "robots report: --json and --jsonl do not go together (--jsonl writes JSON)"},
		{"empty file name", []string{""}, "robots report: an empty file name was given (leave FILE out to use the example)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := invoke(runReport, "", tt.args...)
			assert.Equal(t, cli.ExitUsage, r.Code)
			assert.Empty(t, r.Stdout)
			assert.Equal(t, tt.stderr+"\nsee robots help report\n", r.Stderr)
		})
	}
}

// TestReportUnreadableFile: a file that cannot be read is an error on
// stderr, exit 2, and no report.
func TestReportUnreadableFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.txt")
	for _, args := range [][]string{{missing}, {"--json", missing}} {
		r := invoke(runReport, "", args...)
		assert.Equal(t, cli.ExitUsage, r.Code)
		assert.Empty(t, r.Stdout)
		assert.Equal(t, "robots report: open "+missing+": no such file or directory\n", r.Stderr)
	}
}

// TestReportHelp: robots help report prints the synopsis and both flags.
func TestReportHelp(t *testing.T) {
	r := invoke(run, "", "help", "report")
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.True(t, strings.HasPrefix(r.Stdout, "Usage: robots report [--json] [FILE|-]"), r.Stdout)
	assert.Contains(t, r.Stdout, "\n  --json\n")
	assert.Contains(t, r.Stdout, "\n  --jsonl\n")
	listed := invoke(run, "", "help")
	assert.Contains(t, listed.Stdout, "  report   print Google's report")
}

// TestReportTableOfALongFile: a file past the 500 KiB Google reads is
// reported as far as Google reads it, its last line cut there, and the
// table has a row for each line the report holds, no more.
func TestReportTableOfALongFile(t *testing.T) {
	line := "Disallow: /" + strings.Repeat("x", 100) + "\n"
	body := "User-agent: *\n" + strings.Repeat(line, 600<<10/len(line)) + "\n\n\n"
	r := invoke(runReport, body, "-")
	require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
	want := robots.ReportOf([]byte(body))
	rows := outputLines(r.Stdout)
	require.Len(t, rows, want.LastLine+2, "a header, a row a line, a summary")
	assert.Less(t, want.LastLine, strings.Count(body, "\n"), "the lines past 500 KiB are not read")
}
