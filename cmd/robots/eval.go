package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
)

const evalSynopsis = `robots eval [--mode google|rfc] [--progress] [FILE]

Reads JSON Lines queries from FILE (gzipped when it ends in .gz), or stdin
when FILE is absent or -. Each line is an object:

  {"id": any, "robotstxt_b64": "...", "robotstxt": "...", "useragent": "...", "url": "..."}

robotstxt_b64 (the exact bytes) wins over robotstxt when present; id is
optional; useragent and url are required (a missing useragent is an
error, while "useragent": "" asks for the empty agent). For each line, in
order, one line is written:

  {"id": any, "allowed": true, "line": N}

where line is the line Google's reference parser names for the verdict:
the deciding rule's; when no rule decided, that of the first empty Allow
of the agent's groups, else of their first empty Disallow (an empty rule
matches every path and decides nothing); 0 when there is neither. Every
line that holds anything but its line ending gets exactly one answer: one
that is not a valid query (bad JSON, a missing field) gets {"id": any,
"error": "..."}, with the id when it can be read, and the run goes on.
Empty lines, with nothing before their line ending, are skipped.

Only the first 500 KiB of a robots.txt are read, as Google reads them. A
line longer than 748204 bytes (the base64 of 500 KiB, and 64 KiB for the
rest) is decoded as it is read: the first 500 KiB of its robots.txt are
kept and the rest is checked and dropped; its other fields may hold 64
KiB in all.

The input is read and answered a line at a time, in constant memory; an
answer is written out as soon as the input waits. Consecutive queries
with the same robots.txt share one parse. With --progress, or when stderr
is a terminal (--progress=false turns it off), the count of queries
answered and the rate are shown on stderr. Exits 0 when every line was a
valid query, 1 when some line got an error, 2 when the input could not be
read.`

// maxEvalLine is the longest input line eval holds: the base64 of a
// robots.txt as long as robots.MaxBytes, the most Parse reads, plus
// evalLineRoom. A longer line is decoded as it is read (evallong.go).
const maxEvalLine = 4*((robots.MaxBytes+2)/3) + evalLineRoom

// evalLineRoom is the room maxEvalLine leaves for the other fields.
const evalLineRoom = 64 << 10

// evalQuery is one input line of eval.
type evalQuery struct {
	ID        json.RawMessage `json:"id"`
	RobotsB64 *string         `json:"robotstxt_b64"`
	Robots    *string         `json:"robotstxt"`
	UserAgent *string         `json:"useragent"`
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
	var mode cli.ModeFlag
	var showProgress bool
	fs := cli.NewFlagSet("eval", evalSynopsis, stderr)
	fs.Var(&mode, "mode", "how robots.txt is read: google (Google's parser, the default) or rfc (strict RFC 9309)")
	fs.BoolVar(&showProgress, "progress", false, "show the count of queries answered and the rate on stderr (the default when stderr is a terminal)")
	files, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if len(files) > 1 {
		fmt.Fprintln(stderr, "robots eval: at most one FILE")
		fs.Usage()
		return cli.ExitUsage
	}
	if !cli.Given(fs, "progress") {
		showProgress = cli.IsTerminal(stderr)
	}
	in, err := openInput(files, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "robots eval: %v\n", err)
		return cli.ExitUsage
	}
	defer in.Close()
	var prog *cli.Progress
	if showProgress {
		prog = cli.NewProgress(stderr, cli.IsTerminal(stderr))
	}
	return evalStream(in, cli.NewOutput("eval", stdout, stderr), newEvaluator(mode.Option()), prog)
}

// openInput opens the one FILE of files, or stdin when there is none or it
// is "-".
func openInput(files []string, stdin io.Reader) (io.ReadCloser, error) {
	if len(files) == 0 || files[0] == "-" {
		return io.NopCloser(stdin), nil
	}
	return cli.OpenMaybeGzip(files[0])
}

// evalStream answers every query line of r on out, in order, and returns
// the exit code of the run. The answers written before a read error are
// flushed too. prog, when not nil, is told of each answer.
func evalStream(r io.Reader, out *cli.Output, ev *evaluator, prog *cli.Progress) int {
	failed, err := answerAll(cli.NewLineReader(r, maxEvalLine), out, ev, prog)
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	prog.Finish()
	return streamExit(out, failed, err, "1 line was not a valid query and got an error", "%d lines were not valid queries and got an error")
}

// streamExit ends a run over JSON Lines (eval, report --jsonl): a read or
// write error is a usage error; lines answered with an error are said, with
// one or many, and exit 1; otherwise 0.
func streamExit(out *cli.Output, failed int, err error, one, many string) int {
	switch {
	case err != nil:
		out.Errorf("%v", err)
		return cli.ExitUsage
	case failed == 1:
		out.Errorf("%s", one)
		return cli.ExitBadQuery
	case failed > 1:
		out.Errorf(many, failed)
		return cli.ExitBadQuery
	}
	return cli.ExitOK
}

// answerAll writes an answer to out for each line of lines that is not
// empty, and returns how many of them were errors.
func answerAll(lines *cli.LineReader, out *cli.Output, ev *evaluator, prog *cli.Progress) (failed int, err error) {
	enc := api.NewJSONEncoder(out.W)
	for {
		if lines.Idle() {
			_ = out.Flush() // a write error shows again at the next write
		}
		line, err := lines.Next()
		var ans evalAnswer
		switch {
		case errors.Is(err, io.EOF):
			return failed, nil
		case errors.Is(err, api.ErrLineTooLong):
			ans = ev.answerLong(line, lines.Rest())
		case err != nil:
			return failed, err
		case len(line) == 0:
			continue
		default:
			ans = ev.answer(line)
		}
		if ans.Error != "" {
			failed++
		}
		if err := enc.Encode(&ans); err != nil {
			return failed, err
		}
		prog.Add()
	}
}

// evaluator answers queries, keeping the file it parsed last: query sets
// hold many queries a file, one after the other, and parsing costs more
// than comparing the bytes.
type evaluator struct {
	opt    robots.Option
	body   []byte         // a copy of the body parsed last
	parsed *robots.Robots // its parse, nil before the first
	parses int            // how many files were parsed
}

// newEvaluator returns an evaluator parsing with opt.
func newEvaluator(opt robots.Option) *evaluator { return &evaluator{opt: opt} }

// answer decodes one query line and returns its verdict or its error.
func (ev *evaluator) answer(line []byte) evalAnswer {
	var q evalQuery
	if err := json.Unmarshal(line, &q); err != nil {
		return evalAnswer{ID: readID(line), Error: "bad JSON: " + err.Error()}
	}
	body, err := q.body()
	return ev.complete(&q, body, err)
}

// complete answers q, whose robots.txt is body unless reading it failed
// with err: the error, or that of a missing field, or the verdict.
func (ev *evaluator) complete(q *evalQuery, body []byte, err error) evalAnswer {
	ans := evalAnswer{ID: q.ID}
	if err == nil {
		err = q.missing()
	}
	if err != nil {
		ans.Error = err.Error()
		return ans
	}
	return ev.decide(ans, body, *q.UserAgent, *q.URL)
}

// decide completes ans with the verdict for url under body for agent, and
// the line the reference parser names for it.
func (ev *evaluator) decide(ans evalAnswer, body []byte, agent, url string) evalAnswer {
	d := ev.robots(body).Agent(agent).Decide(url)
	line := d.Line()
	ans.Allowed, ans.Line = &d.Allowed, &line
	return ans
}

// robots returns body parsed, reusing the last parse when body is the
// same.
func (ev *evaluator) robots(body []byte) *robots.Robots {
	if ev.parsed == nil || !bytes.Equal(body, ev.body) {
		ev.parsed = robots.Parse(body, ev.opt)
		ev.body = append(ev.body[:0], body...)
		ev.parses++
	}
	return ev.parsed
}

// body returns the query's robots.txt bytes: robotstxt_b64 decoded when
// present, else robotstxt.
func (q *evalQuery) body() ([]byte, error) {
	switch {
	case q.RobotsB64 != nil:
		b, err := base64.StdEncoding.DecodeString(*q.RobotsB64)
		if err != nil {
			return nil, badRobotsB64(err)
		}
		return b, nil
	case q.Robots != nil:
		return []byte(*q.Robots), nil
	}
	return nil, errNoRobots
}

// errNoRobots is the answer to a query giving neither robotstxt_b64 nor
// robotstxt, short or long.
var errNoRobots = errors.New("missing robotstxt_b64 and robotstxt")

// badRobotsB64 is the answer to a query whose robotstxt_b64 does not
// decode, with err, why; short or long.
func badRobotsB64(err error) error { return fmt.Errorf("bad robotstxt_b64: %v", err) }

// missing reports the first required field the query lacks.
func (q *evalQuery) missing() error {
	switch {
	case q.URL == nil:
		return errors.New("missing url")
	case q.UserAgent == nil:
		return errors.New("missing useragent")
	}
	return nil
}

// readID returns the id of a query line that is not a valid query, when
// it can be read: the line is an object whose "id" member comes before
// whatever is wrong (the line may be cut). It returns nil otherwise.
func readID(line []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok {
			return nil
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if strings.EqualFold(key, "id") { // as json.Unmarshal matches names
			return v
		}
	}
}
