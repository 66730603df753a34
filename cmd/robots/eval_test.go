package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/internal/testkit/conformance"
	"github.com/fastrobots/robots/internal/testkit/memstat"
)

// b64 returns s base64-encoded.
func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// evalLines runs eval over the input lines, checks that it succeeds, and
// returns its output lines.
func evalLines(t *testing.T, args []string, lines ...string) []string {
	t.Helper()
	return evalLinesExit(t, cli.ExitOK, args, lines...)
}

// evalLinesExit runs eval over the input lines, checks that it exits with
// code, and returns its output lines.
func evalLinesExit(t *testing.T, code int, args []string, lines ...string) []string {
	t.Helper()
	r := invoke(runEval, strings.Join(lines, "\n"), args...)
	require.Equal(t, code, r.Code, r.Stderr)
	return outputLines(r.Stdout)
}

// outputLines splits output into its lines.
func outputLines(out string) []string {
	if out == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}

func TestEvalAnswersEachQuery(t *testing.T) {
	body := "User-agent: FooBot\nAllow: /a/public\nDisallow: /a/\n"
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"string id and deciding disallow line",
			`{"id":"x1","robotstxt":` + quote(body) + `,"useragent":"FooBot","url":"http://e.com/a/b"}`,
			`{"id":"x1","allowed":false,"line":3}`},
		{"number id and deciding allow line",
			`{"id":42,"robotstxt":` + quote(body) + `,"useragent":"FooBot","url":"http://e.com/a/public"}`,
			`{"id":42,"allowed":true,"line":2}`},
		{"object id echoed verbatim",
			`{"id":{"k":[1,2]},"robotstxt":` + quote(body) + `,"useragent":"FooBot","url":"http://e.com/"}`,
			`{"id":{"k":[1,2]},"allowed":true,"line":0}`},
		{"no id, no rule matched gives line 0",
			`{"robotstxt":` + quote(body) + `,"useragent":"BarBot","url":"http://e.com/a/b"}`,
			`{"allowed":true,"line":0}`},
		{"base64 body wins over text",
			`{"id":1,"robotstxt_b64":"` + b64(body) + `","robotstxt":"User-agent: *\nDisallow: /\n","useragent":"FooBot","url":"http://e.com/a/b"}`,
			`{"id":1,"allowed":false,"line":3}`},
		{"empty base64 body allows all even with text present",
			`{"id":2,"robotstxt_b64":"","robotstxt":"User-agent: *\nDisallow: /\n","useragent":"FooBot","url":"http://e.com/x"}`,
			`{"id":2,"allowed":true,"line":0}`},
		{"null base64 falls back to text",
			`{"id":3,"robotstxt_b64":null,"robotstxt":"User-agent: *\nDisallow: /\n","useragent":"FooBot","url":"http://e.com/x"}`,
			`{"id":3,"allowed":false,"line":2}`},
		{"CRLF line ending",
			`{"id":4,"robotstxt":"","useragent":"a","url":"/"}` + "\r",
			`{"id":4,"allowed":true,"line":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, []string{tt.want}, evalLines(t, nil, tt.in))
		})
	}
}

func TestEvalReportsMalformedLinesAndGoesOn(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"bad JSON keeps the id read before the error", `{"id":"a","url":`, `{"id":"a","error":"bad JSON: `},
		{"bad JSON before the id", `{"url":,"id":"a"}`, `{"error":"bad JSON: `},
		{"not an object", `[1,2]`, `{"error":"bad JSON: `},
		{"wrong field type keeps id", `{"id":"b","robotstxt":"","url":7}`, `{"id":"b","error":"bad JSON: `},
		{"bad base64", `{"id":"c","robotstxt_b64":"!!!","url":"/"}`, `{"id":"c","error":"bad robotstxt_b64: `},
		{"missing url", `{"id":"d","robotstxt":""}`, `{"id":"d","error":"missing url"}`},
		{"missing body", `{"id":"e","url":"/"}`, `{"id":"e","error":"missing robotstxt_b64 and robotstxt"}`},
		{"missing useragent is not the '*' groups", `{"id":"f","robotstxt":"","url":"/"}`, `{"id":"f","error":"missing useragent"}`},
		{"null useragent", `{"id":"g","robotstxt":"","useragent":null,"url":"/"}`, `{"id":"g","error":"missing useragent"}`},
	}
	good := `{"id":"ok","robotstxt":"User-agent: *\nDisallow: /\n","useragent":"x","url":"/p"}`
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := invoke(runEval, tt.in+"\n"+good)
			assert.Equal(t, cli.ExitBadQuery, r.Code)
			assert.Equal(t, "robots eval: 1 line was not a valid query and got an error\n", r.Stderr)
			out := outputLines(r.Stdout)
			require.Len(t, out, 2)
			assert.True(t, strings.HasPrefix(out[0], tt.want), out[0])
			assert.Equal(t, `{"id":"ok","allowed":false,"line":2}`, out[1])
		})
	}
}

// TestEvalAnswersEveryLineThatIsNotEmpty: only truly empty lines are
// skipped; a line of whitespace of any kind gets an error, so that the
// answers stay aligned with the queries.
func TestEvalAnswersEveryLineThatIsNotEmpty(t *testing.T) {
	q := func(id int, url string) string {
		return `{"id":` + itoa(id) + `,"robotstxt":"User-agent: *\nDisallow: /no\n","useragent":"x","url":"` + url + `"}`
	}
	in := []string{"", q(1, "/no"), "   ", q(2, "/yes"), "\f", "\u00a0", "\u0085", "\t", "\r", "", q(3, "/no/x"), ""}
	r := invoke(runEval, strings.Join(in, "\n"))
	assert.Equal(t, cli.ExitBadQuery, r.Code)
	assert.Equal(t, "robots eval: 5 lines were not valid queries and got an error\n", r.Stderr)
	out := outputLines(r.Stdout)
	require.Len(t, out, 8)
	assert.Equal(t, `{"id":1,"allowed":false,"line":2}`, out[0])
	assert.Equal(t, `{"id":2,"allowed":true,"line":0}`, out[2])
	for _, i := range []int{1, 3, 4, 5, 6} {
		assert.True(t, strings.HasPrefix(out[i], `{"error":"bad JSON: `), out[i])
	}
	assert.Equal(t, `{"id":3,"allowed":false,"line":2}`, out[7])
}

func TestEvalEmptyUserAgentIsAnAgent(t *testing.T) {
	body := quote("User-agent: *\nDisallow: /\n")
	assert.Equal(t, []string{`{"allowed":false,"line":2}`},
		evalLines(t, nil, `{"robotstxt":`+body+`,"useragent":"","url":"/a"}`))
}

func TestEvalAnswersQueriesSharingABodyIndependently(t *testing.T) {
	body := quote("User-agent: FooBot\nDisallow: /x\n\nUser-agent:\nDisallow: /\n")
	q := func(agent string) string {
		return `{"robotstxt":` + body + `,"useragent":"` + agent + `","url":"/a"}`
	}
	assert.Equal(t, []string{
		`{"allowed":false,"line":5}`,
		`{"allowed":true,"line":0}`,
		`{"allowed":false,"line":5}`,
	}, evalLines(t, nil, q(""), q("BarBot"), q("")))
}

func TestEvalEmptyInputWritesNothing(t *testing.T) {
	assert.Empty(t, evalLines(t, nil))
}

func TestEvalRFCModeAlwaysAllowsRobotsTxt(t *testing.T) {
	in := `{"robotstxt":"User-agent: *\nDisallow: /\n","useragent":"x","url":"http://e.com/robots.txt"}`
	assert.Equal(t, []string{`{"allowed":false,"line":2}`}, evalLines(t, nil, in))
	assert.Equal(t, []string{`{"allowed":true,"line":0}`}, evalLines(t, []string{"--mode", "rfc"}, in))
}

func TestEvalReadsFileArgument(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(`{"id":"f","robotstxt":"","useragent":"x","url":"/"}`+"\n"), 0o644))
	for _, args := range [][]string{{path}, {"--mode", "google", path}, {path, "--mode", "rfc"}} {
		assert.Equal(t, []string{`{"id":"f","allowed":true,"line":0}`}, evalLines(t, args))
	}
}

func TestEvalUsageErrorsExitTwo(t *testing.T) {
	clitest.AssertUsageErrors(t, runEval, "", []clitest.UsageCase{
		{Name: "missing file", Args: []string{filepath.Join(t.TempDir(), "nope.jsonl")}, Stderr: "nope.jsonl"},
		{Name: "two files", Args: []string{"a.jsonl", "b.jsonl"}, Stderr: "at most one FILE"},
		{Name: "unknown flag", Args: []string{"-x"}, Stderr: "flag provided but not defined: -x"},
		{Name: "bad mode", Args: []string{"--mode", "strict"}, Stderr: `unknown mode "strict"`},
	})
}

// quote returns s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// itoa returns n in decimal.
func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestEvalLineLimitHoldsTheBase64OfMaxBytes(t *testing.T) {
	assert.Equal(t, base64.StdEncoding.EncodedLen(robots.MaxBytes)+evalLineRoom, maxEvalLine)
	assert.Contains(t, evalSynopsis, "longer than "+itoa(maxEvalLine)+" bytes", "the usage text states the limit")

	body := "User-agent: *\nDisallow: /x\n" + strings.Repeat("#", robots.MaxBytes-len("User-agent: *\nDisallow: /x\n"))
	full := `{"id":"full","robotstxt_b64":"` + b64(body) + `","useragent":"a","url":"/x"}`
	require.LessOrEqual(t, len(full), maxEvalLine)
	r := invoke(runEval, full+"\n"+`{"id":"next","robotstxt":"","useragent":"a","url":"/"}`)
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.Equal(t, []string{`{"id":"full","allowed":false,"line":2}`, `{"id":"next","allowed":true,"line":0}`}, outputLines(r.Stdout))
}

// TestEvalAnswersLongLines checks that a line longer than maxEvalLine, its
// robots.txt longer than Parse reads, is answered as the library answers
// for the whole body, in either field, with its members in any order, and
// that one which is not a valid query gets the error a short one would.
func TestEvalAnswersLongLines(t *testing.T) {
	head := "User-agent: *\nDisallow: /x\nAllow: /x/\u00e9\n"
	body := head + strings.Repeat("# padding \u00e9\n", maxEvalLine/12) + "Disallow: /y\n"
	require.Greater(t, len(body), maxEvalLine)
	tests := []struct {
		name, line, want string
	}{
		{"base64", `{"id":1,"robotstxt_b64":"` + b64(body) + `","useragent":"a","url":"/x"}`, `{"id":1,"allowed":false,"line":2}`},
		{"text", `{"id":2,"robotstxt":` + quote(body) + `,"useragent":"a","url":"/x/%C3%A9"}`, `{"id":2,"allowed":true,"line":3}`},
		{"escaped text", `{"id":3,"robotstxt":"` + strings.ReplaceAll(quote(body)[1:len(quote(body))-1], `\n`, `\u000a`) + `","useragent":"a","url":"/x"}`, `{"id":3,"allowed":false,"line":2}`},
		{"fields last", `{"robotstxt":` + quote(body) + `,"url":"/y","useragent":"a","id":{"n":[4]}}`, `{"id":{"n":[4]},"allowed":true,"line":0}`},
		{"names in any case", `{"ID":5,"RobotsTxt":` + quote(body) + `,"UserAgent":"a","URL":"/x"}`, `{"id":5,"allowed":false,"line":2}`},
		{"the last member wins", `{"id":6,"robotstxt_b64":"` + b64(body) + `","robotstxt_b64":null,"robotstxt":"User-agent: *\nDisallow: /\n","useragent":"a","url":"/x"}`, `{"id":6,"allowed":false,"line":2}`},
		{"bad base64 past the limit", `{"id":7,"robotstxt_b64":"` + b64(body) + `!","useragent":"a","url":"/x"}`,
			`{"id":7,"error":"bad robotstxt_b64: illegal base64 data at input byte ` + itoa(base64.StdEncoding.EncodedLen(len(body))) + `"}`},
		{"missing url", `{"id":8,"robotstxt":` + quote(body) + `,"useragent":"a"}`, `{"id":8,"error":"missing url"}`},
		{"cut in a string", `{"id":9,"robotstxt":` + quote(body)[:maxEvalLine+10], `{"id":9,"error":"bad JSON: unexpected end of line in a string"}`},
		{"bad escape", `{"id":10,"robotstxt":` + quote(body)[:maxEvalLine+10] + `\x"}`, `{"id":10,"error":"bad JSON: invalid character 'x' in string escape code"}`},
		{"wrong type", `{"id":11,"robotstxt":` + quote(body) + `,"useragent":"a","url":7}`, `{"id":11,"error":"bad JSON: json: cannot unmarshal number into Go struct field evalQuery.url of type string"}`},
		{"trailing garbage", `{"id":12,"robotstxt":` + quote(body) + `,"useragent":"a","url":"/"} x`, `{"id":12,"error":"bad JSON: invalid character 'x' after top-level value"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Greater(t, len(tt.line), maxEvalLine)
			r := invoke(runEval, tt.line+"\r\n"+`{"id":"next","robotstxt":"","useragent":"a","url":"/"}`)
			assert.Equal(t, []string{tt.want, `{"id":"next","allowed":true,"line":0}`}, outputLines(r.Stdout))
		})
	}
}

// TestEvalLongLineMatchesTheLibrary answers a corpus file longer than
// Parse reads, given whole, and checks the verdict and line against the
// library's for the same body, for URLs its rules decide.
func TestEvalLongLineMatchesTheLibrary(t *testing.T) {
	body, err := os.ReadFile("../../testdata/corpus/files/02270.txt")
	require.NoError(t, err)
	require.Greater(t, len(body), robots.MaxBytes)
	parsed := robots.Parse(body)
	agent := parsed.Agent("Googlebot")
	rules := 0
	for _, g := range parsed.Groups() {
		rules += len(g.Rules)
	}
	stride := rules/16 + 1 // each query repeats the body: a few suffice
	var in strings.Builder
	var want []string
	n := 0
	for i, g := range parsed.Groups() {
		for j, rule := range g.Rules {
			if n++; n%stride != 0 {
				continue
			}
			u := strings.TrimSuffix(strings.ReplaceAll(rule.Value, "*", "a"), "$") + "z"
			fmt.Fprintf(&in, `{"id":"%d.%d","robotstxt_b64":"%s","useragent":"Googlebot","url":%s}`+"\n", i, j, b64(string(body)), quote(u))
			d := agent.Decide(u)
			want = append(want, fmt.Sprintf(`{"id":"%d.%d","allowed":%v,"line":%d}`, i, j, d.Allowed, d.Line()))
		}
	}
	require.Greater(t, len(want), 10)
	r := invoke(runEval, in.String())
	assert.Equal(t, cli.ExitOK, r.Code, r.Stderr)
	assert.Equal(t, want, outputLines(r.Stdout))
}

// TestEvalBoundsMemoryOnAHugeLine: a line far longer than the limit is
// decoded as it is read, not gathered first.
func TestEvalBoundsMemoryOnAHugeLine(t *testing.T) {
	const size = 256 << 20
	before := memstat.Live()
	var atEnd int64
	in := io.MultiReader(
		strings.NewReader(`{"id":"huge","robotstxt":"`),
		io.LimitReader(&endless{fill: 'a'}, size),
		&lineGen{n: 1, line: func(int) string {
			return `","useragent":"a","url":"/"}` + "\n" + `{"id":"after","robotstxt":"","useragent":"a","url":"/"}`
		}, atEnd: func() { atEnd = memstat.Live() }})
	r := invokeReader(runEval, in)
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.Equal(t, []string{`{"id":"huge","allowed":true,"line":0}`, `{"id":"after","allowed":true,"line":0}`}, outputLines(r.Stdout))
	growth := atEnd - before
	t.Logf("live heap after a %d MiB line: %d KiB more than before", size>>20, growth>>10)
	assert.Less(t, growth, int64(16<<20))
}

// TestEvalStreamsQueries answers many generated queries and measures the
// live heap when the input ends: a command that kept the queries or the
// answers would hold tens of MiB then.
func TestEvalStreamsQueries(t *testing.T) {
	const n = 200_000
	before := memstat.Live()
	var atEnd int64
	in := &lineGen{n: n, line: func(i int) string {
		return `{"id":` + itoa(i) + `,"robotstxt":"User-agent: *\nDisallow: /no\n","useragent":"x","url":"/no/` + itoa(i) + `"}`
	}, atEnd: func() { atEnd = memstat.Live() }}
	var out lineCounter
	var stderr strings.Builder
	assert.Equal(t, cli.ExitOK, runEval(nil, in, &out, &stderr), stderr.String())
	assert.Equal(t, n, out.lines)
	assert.Equal(t, `{"id":199999,"allowed":false,"line":2}`, string(out.last))
	growth := atEnd - before
	t.Logf("live heap at the end of %d queries: %d KiB more than before", n, growth>>10)
	assert.Less(t, growth, int64(8<<20))
}

// TestEvalAnswersAsTheInputArrives: with queries fed one at a time through
// a pipe, each answer is written before the next query is sent.
func TestEvalAnswersAsTheInputArrives(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- runEval(nil, inR, outW, io.Discard)
		outW.Close()
	}()
	answers := bufio.NewReader(outR)
	for i := range 3 {
		_, err := io.WriteString(inW, `{"id":`+itoa(i)+`,"robotstxt":"","useragent":"a","url":"/"}`+"\n")
		require.NoError(t, err)
		line, err := readLineWithin(answers, 10*time.Second)
		require.NoError(t, err, "no answer for query %d before the next", i)
		assert.Equal(t, `{"id":`+itoa(i)+`,"allowed":true,"line":0}`+"\n", line)
	}
	inW.Close()
	assert.Equal(t, cli.ExitOK, <-done)
}

func TestEvalReusesTheParseOfTheSameBody(t *testing.T) {
	q := func(body, url string) []byte {
		return []byte(`{"robotstxt":` + quote(body) + `,"useragent":"a","url":"` + url + `"}`)
	}
	a, b := "User-agent: *\nDisallow: /a\n", "User-agent: *\nDisallow: /b\n"
	ev := newEvaluator(robots.WithMode(robots.Google))
	var got []bool
	for _, line := range [][]byte{q(a, "/a"), q(a, "/b"), q(a, "/a"), q(b, "/a"), q(b, "/b"), q(a, "/a")} {
		ans := ev.answer(line)
		require.Empty(t, ans.Error)
		got = append(got, *ans.Allowed)
	}
	assert.Equal(t, []bool{false, true, false, true, false, false}, got)
	assert.Equal(t, 3, ev.parses, "one parse per run of the same body")
	b64Body := []byte(`{"robotstxt_b64":"` + b64(a) + `","useragent":"a","url":"/a"}`)
	ev.answer(b64Body)
	assert.Equal(t, 3, ev.parses, "the same bytes in base64 are the same body")
}

// TestEvalReuseKeepsConformanceVerdicts answers every case of the verdict
// files with one evaluator and checks each answer, verdict and line,
// against a parse of its own.
func TestEvalReuseKeepsConformanceVerdicts(t *testing.T) {
	checked := 0
	for _, file := range []string{"spec-test.jsonl", "google-unit.jsonl", "generated.jsonl.gz"} {
		path := filepath.Join("../../testdata/conformance", file)
		ev := newEvaluator(robots.WithMode(robots.Google))
		n := 0
		err := conformance.Each(path, func(line int, c *conformance.Case) error {
			raw, err := json.Marshal(c)
			require.NoError(t, err)
			ans := ev.answer(raw)
			body, err := c.Body()
			require.NoError(t, err)
			want := robots.Parse(body).Agent(c.UserAgent).Decide(c.URL)
			wantLine := want.Line()
			require.Empty(t, ans.Error, "%s:%d", path, line)
			if *ans.Allowed != want.Allowed || *ans.Line != wantLine {
				t.Errorf("%s:%d: reused parse says allowed=%v line %d, a fresh one allowed=%v line %d",
					path, line, *ans.Allowed, *ans.Line, want.Allowed, wantLine)
			}
			n++
			return nil
		})
		require.NoError(t, err)
		t.Logf("%s: %d queries, %d parses", file, n, ev.parses)
		assert.Less(t, ev.parses, n, "%s: some parse was reused", file)
		checked += n
	}
	assert.Equal(t, 400+145+35414, checked)
}

func TestEvalProgress(t *testing.T) {
	q := `{"robotstxt":"","useragent":"a","url":"/"}`
	r := invoke(runEval, q+"\n"+q+"\n"+q+"\n", "--progress")
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.Len(t, outputLines(r.Stdout), 3)
	assert.Regexp(t, `^robots eval: 3 queries in [0-9.]+m?s, [0-9]+ queries/s\n$`, r.Stderr)

	quiet := invoke(runEval, q+"\n")
	assert.Empty(t, quiet.Stderr, "no progress when stderr is not a terminal")
}

func TestProgressReportsEveryInterval(t *testing.T) {
	clock := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time {
		clock = clock.Add(cli.ProgressInterval / 2)
		return clock
	}
	var w strings.Builder
	p := cli.NewProgressClock(&w, false, now)
	for range 1024 {
		p.Add()
	}
	p.Finish()
	// The clock is read every 256 answers, half an interval on each time.
	assert.Equal(t, "robots eval: 512 queries in 1s, 512 queries/s\n"+
		"robots eval: 1024 queries in 2s, 512 queries/s\n"+
		"robots eval: 1024 queries in 2.5s, 410 queries/s\n", w.String())

	var term strings.Builder
	p = cli.NewProgressClock(&term, true, now)
	for range 512 {
		p.Add()
	}
	p.Finish()
	assert.Equal(t, "\r\x1b[Krobots eval: 512 queries in 1s, 512 queries/s"+
		"\r\x1b[Krobots eval: 512 queries in 1.5s, 341 queries/s\n", term.String(), "a terminal's line is rewritten")

	var none *cli.Progress
	none.Add()
	none.Finish()
}

func TestReadID(t *testing.T) {
	tests := []struct {
		line string
		want string // "" for none
	}{
		{`{"id":"a","url":`, `"a"`},
		{`{"url":"/","id":{"k":[1,2]},"x":}`, `{"k":[1,2]}`},
		{`{"ID":7,`, `7`},
		{`{"robotstxt":"cut`, ``},
		{`{"url":,"id":1}`, ``},
		{`[1,2]`, ``},
		{`   `, ``},
		{"\f", ``},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			assert.Equal(t, tt.want, string(readID([]byte(tt.line))))
		})
	}
}
