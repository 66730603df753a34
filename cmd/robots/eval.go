package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/conformance"
)

const evalSynopsis = `robots eval [--mode google|rfc] [FILE]

Reads JSON Lines queries from FILE (gzipped when it ends in .gz), or stdin
when FILE is absent or -. Each line is an object:

  {"id": any, "robotstxt_b64": "...", "robotstxt": "...", "useragent": "...", "url": "..."}

robotstxt_b64 (the exact bytes) wins over robotstxt when present; id is
optional. For each line, in order, one line is written:

  {"id": any, "allowed": true, "line": N}

where line is the line of the deciding rule, 0 when no rule decided. A line
that cannot be answered gets {"id": any, "error": "..."} and the run goes on.
Blank lines are skipped. Exits 0 when the input could be read, 2 otherwise.`

// maxEvalLine is the longest input line eval reads; longer ones are
// answered with an error.
const maxEvalLine = 64 << 20

// evalQuery is one input line of eval.
type evalQuery struct {
	ID        json.RawMessage `json:"id"`
	RobotsB64 *string         `json:"robotstxt_b64"`
	Robots    *string         `json:"robotstxt"`
	UserAgent string          `json:"useragent"`
	URL       *string         `json:"url"`
}

// evalAnswer is one output line of eval: a verdict, or an error.
type evalAnswer struct {
	ID      json.RawMessage `json:"id,omitempty"`
	Allowed *bool           `json:"allowed,omitempty"`
	Line    *int            `json:"line,omitempty"`
	Error   string          `json:"error,omitempty"`
}

// runEval runs "robots eval": it answers each JSON Lines query of the input
// with a JSON line on stdout.
func runEval(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var mode modeFlag
	fs := newFlagSet("eval", evalSynopsis, stderr)
	fs.Var(&mode, "mode", "how robots.txt is read: google (Google's parser, the default) or rfc (strict RFC 9309)")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(files) > 1 {
		fmt.Fprintln(stderr, "robots eval: at most one FILE")
		fs.Usage()
		return exitUsage
	}
	in, err := openInput(files, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "robots eval: %v\n", err)
		return exitUsage
	}
	defer in.Close()
	if err := evalStream(in, stdout, mode.option()); err != nil {
		fmt.Fprintf(stderr, "robots eval: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// openInput opens the one FILE of files, or stdin when there is none or it
// is "-".
func openInput(files []string, stdin io.Reader) (io.ReadCloser, error) {
	if len(files) == 0 || files[0] == "-" {
		return io.NopCloser(stdin), nil
	}
	return conformance.Open(files[0])
}

// evalStream answers every query line of r on w, in order. The answers
// written before a read error are flushed too.
func evalStream(r io.Reader, w io.Writer, opt robots.Option) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	err := answerAll(newLineReader(r, maxEvalLine), bw, opt)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

// answerAll writes an answer to w for each non-blank line of lines.
func answerAll(lines *lineReader, w io.Writer, opt robots.Option) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for {
		line, err := lines.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, errLineTooLong) {
			return err
		}
		if err == nil && len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		ans := evalAnswer{Error: fmt.Sprintf("line longer than %d MiB", maxEvalLine>>20)}
		if err == nil {
			ans = answer(line, opt)
		}
		if err := enc.Encode(&ans); err != nil {
			return err
		}
	}
	return nil
}

// answer decodes one query line and returns its verdict or its error.
func answer(line []byte, opt robots.Option) evalAnswer {
	var q evalQuery
	err := json.Unmarshal(line, &q)
	ans := evalAnswer{ID: q.ID}
	if err != nil {
		ans.Error = "bad JSON: " + err.Error()
		return ans
	}
	body, err := q.body()
	if err == nil && q.URL == nil {
		err = errors.New("missing url")
	}
	if err != nil {
		ans.Error = err.Error()
		return ans
	}
	d := robots.Parse(body, opt).Agent(q.UserAgent).Decide(*q.URL)
	ans.Allowed, ans.Line = &d.Allowed, new(int)
	if d.Rule != nil {
		*ans.Line = d.Rule.Line
	}
	return ans
}

// body returns the query's robots.txt bytes: robotstxt_b64 decoded when
// present, else robotstxt.
func (q *evalQuery) body() ([]byte, error) {
	switch {
	case q.RobotsB64 != nil:
		b, err := base64.StdEncoding.DecodeString(*q.RobotsB64)
		if err != nil {
			return nil, fmt.Errorf("bad robotstxt_b64: %v", err)
		}
		return b, nil
	case q.Robots != nil:
		return []byte(*q.Robots), nil
	}
	return nil, errors.New("missing robotstxt_b64 and robotstxt")
}
