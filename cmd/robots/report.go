package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
)

const reportSynopsis = `robots report [--json] [FILE|-]  or  robots report --jsonl

Prints Google's report of a robots.txt, line by line: what Search
Console's robots.txt report says of each line, as google/robotstxt's
reporting library (RobotsParsingReporter) gives it. FILE is read, stdin
when it is -, or the built-in example robots.txt when it is absent (robots
example prints it). Only the first 500 KiB are read, as Google reads them;
a longer file is cut there, and a line on stderr says so.

Each row gives the line's number, what Google reads there, the flags set,
and the line's text, cut to the terminal's width ($COLUMNS, else 100
columns); a byte that is not printable UTF-8, and a backslash, are
written as Go escapes (\t, \x00, \xff, \\). What Google reads is one of:

  user-agent, allow, disallow, sitemap: a directive Google uses
  unused key: a key other crawlers read and Google does not (crawl-delay,
    host, noindex, ...)
  unknown key: a key and a value, the key one no crawler is known to use
  no directive: text that is not a key and a value
  comment: nothing but a comment
  empty: nothing but white space

The flags are: typo, the key is a misspelling Google accepts (Dissallow,
useragent); missing colon, the key and the value are two words without a
colon between them, which Google reads as a directive; too long, the line
is longer than the 16,663 bytes Google reads of it; has comment, a '#'
follows what the line holds. A last row counts the lines, the valid
directives (user-agent, allow, disallow, sitemap) and the unused ones
(any other key with a value).

With --json, writes the report as one JSON object in the form of Google's
reports in testdata/conformance/reporting.jsonl.gz:

  {"last_line":2,"valid":2,"unused":0,"lines":[[1,1,0,0,0,0,1,0,0],[2,3,0,0,0,0,1,0,0]]}

each line an array [line, tag, typo, empty, has_comment, is_comment,
has_directive, too_long, missing_colon]: tag is 0 unknown (no directive
or an unknown key), 1 user-agent, 2 allow, 3 disallow, 4 sitemap or 5
unused; the others are 0 or 1.

With --jsonl, reads JSON Lines on stdin, each an object with robotstxt_b64
(the exact bytes in base64, which wins) or robotstxt (the text), as robots
eval reads them, other members ignored, and writes the report of each, in
the form --json writes, one a line, in order. A line that is not such an
object gets {"error": "..."} in its place and the run goes on; empty
lines are skipped. The input is read a line at a time in bounded memory:
a line longer than robots eval holds is decoded as it is read, and the
first 500 KiB of its robots.txt kept.

Exits 0 on success, 1 when some --jsonl line got an error, 2 on usage
errors or unreadable input.`

// reportDefaultColumns is the width of the table when $COLUMNS does not
// give one: the command reads no terminal size, which would take a
// dependency or a system call per platform.
const reportDefaultColumns = 100

// reportMinText is the fewest columns the text of a row is given, however
// narrow the terminal: a table wider than the terminal still says more
// than one that shows no text.
const reportMinText = 20

// runReport runs "robots report": Google's report of a robots.txt as a
// table, as one JSON object, or for each line of a JSON Lines stream.
func runReport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var asJSON, jsonl bool
	fs := cli.NewFlagSet("report", reportSynopsis, stderr)
	fs.BoolVar(&asJSON, "json", false, "write the report as one JSON object, in the form of Google's reports")
	fs.BoolVar(&jsonl, "jsonl", false, "read JSON Lines on stdin, each with robotstxt_b64 or robotstxt, and write one report a line")
	files, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if msg := reportArgsError(files, asJSON, jsonl); msg != "" {
		fmt.Fprintf(stderr, "robots report: %s\n", msg)
		fs.Usage()
		return cli.ExitUsage
	}
	out := cli.NewOutput("report", stdout, stderr)
	if jsonl {
		return reportStream(stdin, out)
	}
	file := ""
	if len(files) == 1 {
		file = files[0]
	}
	body, err := readRobots("report", file, stdin, stderr)
	if err != nil {
		out.Errorf("%v", err)
		return cli.ExitUsage
	}
	r := robots.ReportOf(body)
	if asJSON {
		err = writeReportJSON(out.W, r)
	} else {
		err = writeReportTable(out.W, body[:min(len(body), robots.MaxBytes)], r, reportColumns())
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		out.Errorf("%v", err)
		return cli.ExitUsage
	}
	return cli.ExitOK
}

// reportArgsError says why the arguments do not make a run, or returns "".
// An empty FILE is most often an unset variable in a script: reading the
// example in its place would report on a file nobody wrote.
func reportArgsError(files []string, asJSON, jsonl bool) string {
	switch {
	case len(files) > 1:
		return "at most one FILE"
	case jsonl && asJSON:
		return "--json and --jsonl do not go together (--jsonl writes JSON)"
	case jsonl && len(files) > 0:
		return "--jsonl reads stdin and takes no FILE"
	case len(files) == 1 && files[0] == "":
		return "an empty file name was given (leave FILE out to use the example)"
	}
	return ""
}

// reportColumns returns the width of the terminal as $COLUMNS gives it,
// or reportDefaultColumns.
func reportColumns() int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return reportDefaultColumns
}

// reportReads says what Google reads on a line: its tag, or, for a line
// without a directive, what it holds instead.
func reportReads(l robots.LineReport) string {
	switch {
	case l.HasDirective && l.Tag == robots.TagUnused:
		return "unused key"
	case l.HasDirective && l.Tag == robots.TagUnknown:
		return "unknown key"
	case l.HasDirective:
		return l.Tag.String()
	case l.Comment:
		return "comment"
	case l.Empty:
		return "empty"
	}
	return "no directive"
}

// reportReadsWidth is the width of the widest reportReads, and of its
// header, so that the column lines up the same in every table.
const reportReadsWidth = len("no directive")

// appendFlags appends to b the flags of l that reportReads does not
// already say, separated by commas.
func appendFlags(b []byte, l robots.LineReport) []byte {
	add := func(set bool, name string) {
		if !set {
			return
		}
		if len(b) > 0 {
			b = append(b, ", "...)
		}
		b = append(b, name...)
	}
	add(l.Typo, "typo")
	add(l.MissingColon, "missing colon")
	add(l.TooLong, "too long")
	add(l.HasComment && !l.Comment, "has comment")
	return b
}

// writeReportTable writes r as a table of columns columns, one row a
// line, showing each line's text from body, which is the body r reports
// on, already cut to the bytes ReportOf reads.
func writeReportTable(w *bufio.Writer, body []byte, r *robots.Report, columns int) error {
	numWidth := max(len("LINE"), len(strconv.Itoa(r.LastLine)))
	flagsWidth := len("FLAGS")
	var flags []byte
	for _, l := range r.Lines {
		flags = appendFlags(flags[:0], l)
		flagsWidth = max(flagsWidth, len(flags))
	}
	textWidth := max(columns-(numWidth+2+reportReadsWidth+2+flagsWidth+2), reportMinText)
	var row []byte
	writeRow := func(num, reads, flags, text string) {
		row = fmt.Appendf(row[:0], "%*s  %s", numWidth, num, reads)
		if flags != "" || text != "" {
			row = fmt.Appendf(row, "%*s  %s", reportReadsWidth-len(reads), "", flags)
		}
		if text != "" {
			row = fmt.Appendf(row, "%*s  %s", flagsWidth-len(flags), "", text)
		}
		row = append(row, '\n')
		_, _ = w.Write(row) // a write error stays in w, and its flush returns it
	}
	writeRow("LINE", "GOOGLE READS", "FLAGS", "TEXT")
	for _, l := range r.Lines {
		flags = appendFlags(flags[:0], l)
		writeRow(strconv.Itoa(l.Line), reportReads(l), string(flags), showText(string(body[l.Start:l.End]), textWidth))
	}
	_, err := fmt.Fprintf(w, "%s, %s, %s\n", plural(r.LastLine, "line"), plural(r.Valid, "valid directive"), plural(r.Unused, "unused directive"))
	return err // a write error stays in w, and the last write returns it
}

// plural returns "n thing", with an s unless n is 1.
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// showText returns s as a terminal may show it, in at most width columns
// (counting a rune as one): printable UTF-8 as it is, a backslash, a
// control character and any other rune that is not printable as its Go
// escape, each byte that is not UTF-8 as \xNN. Text that does not fit is
// cut after whole runes and escapes, and ends in "…".
func showText(s string, width int) string {
	var b strings.Builder
	cols := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		var piece string
		switch {
		case r == utf8.RuneError && n == 1:
			piece = `\x` + strconv.FormatUint(uint64(s[i])|0x100, 16)[1:]
		case r == '\\':
			piece = `\\`
		case unicode.IsPrint(r):
			piece = s[i : i+n]
		default:
			q := strconv.QuoteRune(r) // '\t', '\x00', '\u200b'
			piece = q[1 : len(q)-1]
		}
		w := utf8.RuneCountInString(piece)
		// The last column is kept for "…" unless the piece ends the text.
		if cols+w > width || (cols+w == width && i+n < len(s)) {
			b.WriteString("…")
			break
		}
		b.WriteString(piece)
		cols += w
		i += n
	}
	return b.String()
}

// writeReportJSON writes r as one JSON object on a line, in the form of
// the reports of reporting.jsonl.gz, byte for byte what encoding
// api.ReportJSON(r) writes. It writes a row at a time, through w's
// buffer, rather than building the whole object: a body of 500 KiB may
// have half a million lines, which api.ReportJSON holds at 72 bytes each.
func writeReportJSON(w *bufio.Writer, r *robots.Report) error {
	b := w.AvailableBuffer()
	b = append(b, `{"last_line":`...)
	b = strconv.AppendInt(b, int64(r.LastLine), 10)
	b = append(b, `,"valid":`...)
	b = strconv.AppendInt(b, int64(r.Valid), 10)
	b = append(b, `,"unused":`...)
	b = strconv.AppendInt(b, int64(r.Unused), 10)
	b = append(b, `,"lines":[`...)
	_, _ = w.Write(b)
	for i, l := range r.Lines {
		b = w.AvailableBuffer()
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for j, v := range api.ReportRow(l) {
			if j > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, ']')
		_, _ = w.Write(b) // a write error stays in w, and the last write returns it
	}
	_, err := w.WriteString("]}\n")
	return err
}

// reportQuery is what report --jsonl reads of an input line: eval's
// robots.txt members, and no others, which a report does not need.
type reportQuery struct {
	RobotsB64 *string `json:"robotstxt_b64"`
	Robots    *string `json:"robotstxt"`
}

// evalQuery returns q as eval's query, whose body methods it shares.
func (q *reportQuery) evalQuery() *evalQuery {
	return &evalQuery{RobotsB64: q.RobotsB64, Robots: q.Robots}
}

// reportError is the output line of report --jsonl for a line it cannot
// read.
type reportError struct {
	Error string `json:"error"`
}

// reportStream writes the report of every line of r to out, in order, and
// returns the exit code of the run. The reports written before a read
// error are flushed too.
func reportStream(r io.Reader, out *cli.Output) int {
	failed, err := reportAll(cli.NewLineReader(r, maxEvalLine), out)
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	return streamExit(out, failed, err, "1 line could not be read and got an error", "%d lines could not be read and got an error")
}

// reportAll writes a report or an error to out for each line of lines that
// is not empty, and returns how many were errors.
func reportAll(lines *cli.LineReader, out *cli.Output) (failed int, err error) {
	enc := api.NewJSONEncoder(out.W)
	for {
		if lines.Idle() {
			_ = out.Flush() // a write error shows again at the next write
		}
		line, err := lines.Next()
		var body []byte
		var bodyErr error
		switch {
		case errors.Is(err, io.EOF):
			return failed, nil
		case errors.Is(err, api.ErrLineTooLong):
			body, bodyErr = longReportBody(line, lines.Rest())
		case err != nil:
			return failed, err
		case len(line) == 0:
			continue
		default:
			body, bodyErr = reportBody(line)
		}
		if bodyErr != nil {
			failed++
			err = enc.Encode(reportError{bodyErr.Error()})
		} else {
			err = writeReportJSON(out.W, robots.ReportOf(body))
		}
		if err != nil {
			return failed, err
		}
	}
}

// reportBody returns the robots.txt of an input line of report --jsonl.
func reportBody(line []byte) ([]byte, error) {
	var q reportQuery
	if err := json.Unmarshal(line, &q); err != nil {
		return nil, errors.New("bad JSON: " + err.Error())
	}
	return q.evalQuery().body()
}

// longReportBody returns the robots.txt of an input line too long to hold,
// prefix then rest, as far as Parse reads it: it decodes the line as it is
// read, as eval's answerLong does.
func longReportBody(prefix []byte, rest io.Reader) ([]byte, error) {
	var q reportQuery
	d, err := readLongQuery(prefix, rest, &q)
	if err != nil {
		return nil, errors.New("bad JSON: " + err.Error())
	}
	return d.bodyOf(q.evalQuery())
}
