package main

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// b64 returns s base64-encoded.
func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// evalLines runs eval over the input lines, checks that it succeeds, and
// returns its output lines.
func evalLines(t *testing.T, args []string, lines ...string) []string {
	t.Helper()
	return evalLinesExit(t, exitOK, args, lines...)
}

// evalLinesExit runs eval over the input lines, checks that it exits with
// code, and returns its output lines.
func evalLinesExit(t *testing.T, code int, args []string, lines ...string) []string {
	t.Helper()
	r := invoke(runEval, strings.Join(lines, "\n"), args...)
	require.Equal(t, code, r.code, r.stderr)
	return outputLines(r.stdout)
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
			out := evalLinesExit(t, exitBadQuery, nil, tt.in, good)
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
	assert.Equal(t, exitBadQuery, r.code)
	assert.Equal(t, "robots eval: 5 lines were not valid queries and got an error\n", r.stderr)
	out := outputLines(r.stdout)
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
	assertUsageErrors(t, runEval, "", []usageCase{
		{"missing file", []string{filepath.Join(t.TempDir(), "nope.jsonl")}, "nope.jsonl"},
		{"two files", []string{"a.jsonl", "b.jsonl"}, "at most one FILE"},
		{"unknown flag", []string{"-x"}, "flag provided but not defined: -x"},
		{"bad mode", []string{"--mode", "strict"}, `unknown mode "strict"`},
	})
}

func TestEvalAnswersOverlongLineWithError(t *testing.T) {
	long := `{"id":"big","robotstxt":"` + strings.Repeat("a", 300) + `","url":"/"}`
	var out []string
	lr := newLineReader(strings.NewReader(long+"\nshort\nlast"), 100)
	for {
		line, err := lr.next()
		if err != nil && err != errLineTooLong {
			break
		}
		if err == errLineTooLong {
			line = []byte("<too long>")
		}
		out = append(out, string(line))
	}
	assert.Equal(t, []string{"<too long>", "short", "last"}, out)
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
