package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/serve"
	"github.com/fastrobots/robots/fetch"
	"github.com/fastrobots/robots/internal/testkit/conformance"
)

// The doors are the ways a verdict leaves the project: the library's
// Decide, robots check --json, robots eval, robots explain --json,
// POST /api/check, and fetch.Checker, cold (Decide, its first check of an
// origin), warm (Allowed once the origin's resolution is kept) and in
// batches (AllowedBatch, DecideBatch). TestDoorsAgree asks each of them
// every conformance case and checks that each answers the reference's
// verdict and line.

// doorFile is a file of conformance cases and the share of its cases the
// test asks: every sample-th, or all under ROBOTS_HEAVY=1.
type doorFile struct {
	path   string
	sample int
}

// doorFiles are the files the doors are asked. The grammar-generated and
// real-world files are sampled (one case in sixteen: about 3,700 cases)
// unless ROBOTS_HEAVY is set; the real-world one sits beside the
// repository, in CI, and is skipped when it is absent.
var doorFiles = []doorFile{
	{"../../testdata/conformance/spec-test.jsonl", 1},
	{"../../testdata/conformance/google-unit.jsonl", 1},
	{"../../testdata/conformance/generated.jsonl.gz", 16},
	{"../../../shared/conformance/realworld.jsonl.gz", 16},
}

// doorCase is one case as the doors are asked it, with the reference's
// answer.
type doorCase struct {
	id         string
	body       []byte
	agent, url string
	allowed    bool
	line       int
}

// doorAnswer is what a door answered for a case: a verdict and a line, or
// an error.
type doorAnswer struct {
	Allowed bool   `json:"allowed"`
	Line    int    `json:"line"`
	Error   string `json:"error"`
	URL     string `json:"url"`
	URLB64  string `json:"url_b64"`
}

func TestDoorsAgree(t *testing.T) {
	lines, err := conformance.Lines("../../" + conformance.LinesFile)
	require.NoError(t, err)
	api := httptest.NewServer(serve.Handler(false))
	t.Cleanup(api.Close)
	dir := t.TempDir()
	heavy := os.Getenv("ROBOTS_HEAVY") != ""
	for _, f := range doorFiles {
		if _, err := os.Stat(f.path); err != nil {
			t.Logf("skipping %s: %v", f.path, err)
			continue
		}
		sample := f.sample
		if heavy {
			sample = 1
		}
		cases := loadDoorCases(t, f.path, sample, lines)
		answers := map[string][]doorAnswer{
			"library": libraryAnswers(cases),
			"eval":    evalAnswers(t, cases),
		}
		answers["checker"], answers["checker-warm"], answers["checker-allowedbatch"], answers["checker-decidebatch"] = checkerAnswers(cases)
		for _, b := range batches(cases) {
			path := filepath.Join(dir, "robots.txt")
			require.NoError(t, os.WriteFile(path, b[0].body, 0o600))
			answers["check"] = append(answers["check"], checkAnswers(t, path, b)...)
			answers["explain"] = append(answers["explain"], explainAnswers(t, path, b)...)
			answers["api"] = append(answers["api"], apiAnswers(t, api.URL, api.Client(), b)...)
		}
		warned := compareDoors(t, filepath.Base(f.path), cases, answers)
		t.Logf("%s: %d cases (one in %d), %d answered with a warning that they are not URLs", filepath.Base(f.path), len(cases), sample, warned)
	}
}

// compareDoors checks every door's answer to every case against the
// reference's, with no exception for strings that are not URLs, and
// returns how many cases check, explain and the API answered with a
// warning (URLWarning). Only the Checker, which fetches, refuses a URL
// without an http or https origin.
func compareDoors(t *testing.T, file string, cases []doorCase, answers map[string][]doorAnswer) int {
	warned, failed := 0, 0
	for door, got := range answers {
		require.Len(t, got, len(cases), "%s: %s answered another number of cases", file, door)
		for i, c := range cases {
			a := got[i]
			if door == "check" && api.URLWarning(c.url) != "" {
				warned++
			}
			switch {
			case a.Error != "" && isCheckerDoor(door) && !checkerTakes(c.url):
				continue
			case a.Error != "":
				failed++
				t.Errorf("%s %s: %s refused agent %q url %q: %s", file, c.id, door, c.agent, c.url, a.Error)
			case a.Allowed != c.allowed || a.Line != c.line:
				failed++
				if failed <= 30 {
					t.Errorf("%s %s: %s: agent %q url %q: allowed=%v line %d; the reference: allowed=%v line %d",
						file, c.id, door, c.agent, c.url, a.Allowed, a.Line, c.allowed, c.line)
				}
			}
		}
	}
	assert.Zero(t, failed, "%s: answers that differ from the reference", file)
	return warned
}

// loadDoorCases reads every sample-th case of path, with its line.
func loadDoorCases(t *testing.T, path string, sample int, lines map[string]int) []doorCase {
	var cases []doorCase
	n := 0
	err := conformance.Each(path, func(_ int, c *conformance.Case) error {
		if n++; (n-1)%sample != 0 {
			return nil
		}
		body, err := c.Body()
		if err != nil {
			return err
		}
		line, ok := lines[c.ID]
		if !ok {
			return fmt.Errorf("no line for %s", c.ID)
		}
		cases = append(cases, doorCase{id: c.ID, body: body, agent: c.UserAgent, url: c.URL, allowed: c.Expected, line: line})
		return nil
	})
	require.NoError(t, err)
	return cases
}

// batches splits cases into runs of consecutive cases with the same body
// and agent, which one command or request answers.
func batches(cases []doorCase) [][]doorCase {
	var out [][]doorCase
	for i := 0; i < len(cases); {
		j := i + 1
		for j < len(cases) && j-i < api.MaxURLs && cases[j].agent == cases[i].agent && bytes.Equal(cases[j].body, cases[i].body) {
			j++
		}
		out = append(out, cases[i:j])
		i = j
	}
	return out
}

func libraryAnswers(cases []doorCase) []doorAnswer {
	out := make([]doorAnswer, len(cases))
	for i, c := range cases {
		d := robots.Parse(c.body).Agent(c.agent).Decide(c.url)
		out[i] = doorAnswer{Allowed: d.Allowed, Line: d.Line()}
	}
	return out
}

// checkerAnswers asks a fetch.Checker each case, its robots.txt stored
// for the URL's origin as a 200 answer (Cache.Put): cold, Decide's verdict
// and line; warm, Allowed's verdict once Decide has kept the resolution,
// which takes the Checker's fast path for a plain URL, with Decide's line;
// then the batches on the warm cache, AllowedBatch's verdict with Decide's
// line, and DecideBatch's verdict and line, the URL alone in each.
func checkerAnswers(cases []doorCase) (cold, warm, allowedBatch, decideBatch []doorAnswer) {
	n := len(cases)
	cold, warm, allowedBatch, decideBatch = make([]doorAnswer, n), make([]doorAnswer, n), make([]doorAnswer, n), make([]doorAnswer, n)
	ctx := context.Background()
	for i, c := range cases {
		fail := func(err error) {
			cold[i], warm[i], allowedBatch[i], decideBatch[i] = doorAnswer{Error: err.Error()}, doorAnswer{Error: err.Error()}, doorAnswer{Error: err.Error()}, doorAnswer{Error: err.Error()}
		}
		cache := fetch.NewCache(nil, fetch.CacheOptions{})
		if _, err := cache.Put(c.url, 200, c.body, time.Now()); err != nil {
			fail(err)
			continue
		}
		checker := fetch.NewChecker(cache)
		v, err := checker.Decide(ctx, c.agent, c.url)
		if err != nil {
			fail(err)
			continue
		}
		cold[i] = doorAnswer{Allowed: v.Allowed, Line: v.Line}
		allowed, err := checker.Allowed(ctx, c.agent, c.url)
		warm[i] = answerOf(allowed, v.Line, err)
		got, err := checker.AllowedBatch(ctx, c.agent, []string{c.url}, nil)
		allowedBatch[i] = answerOf(len(got) == 1 && got[0], v.Line, err)
		vs, err := checker.DecideBatch(ctx, c.agent, []string{c.url}, nil)
		if err == nil && len(vs) == 1 {
			decideBatch[i] = doorAnswer{Allowed: vs[0].Allowed, Line: vs[0].Line}
		} else {
			decideBatch[i] = answerOf(false, 0, fmt.Errorf("DecideBatch: %d verdicts (%v)", len(vs), err))
		}
	}
	return cold, warm, allowedBatch, decideBatch
}

// answerOf is a door's answer: the verdict and line, or err.
func answerOf(allowed bool, line int, err error) doorAnswer {
	if err != nil {
		return doorAnswer{Error: err.Error()}
	}
	return doorAnswer{Allowed: allowed, Line: line}
}

// isCheckerDoor reports whether door is the Checker, cold, warm or in a
// batch.
func isCheckerDoor(door string) bool { return strings.HasPrefix(door, "checker") }

// checkerTakes reports whether a Checker answers for rawURL: one whose
// origin robots.Origin reads, over http or https. Any other it refuses
// with an error, and a crawler never fetches it.
func checkerTakes(rawURL string) bool {
	origin, err := robots.Origin(rawURL)
	return err == nil && (strings.HasPrefix(origin, "http://") || strings.HasPrefix(origin, "https://"))
}

// evalAnswers runs one eval over all cases, fed through a pipe.
func evalAnswers(t *testing.T, cases []doorCase) []doorAnswer {
	pr, pw := io.Pipe()
	go func() {
		w := bufio.NewWriter(pw)
		enc := json.NewEncoder(w)
		for i, c := range cases {
			_ = enc.Encode(map[string]any{"id": i, "robotstxt_b64": base64.StdEncoding.EncodeToString(c.body), "useragent": c.agent, "url": c.url})
		}
		_ = w.Flush()
		_ = pw.Close()
	}()
	r := invokeReader(runEval, pr)
	require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
	return decodeAnswers(t, "eval", r.Stdout)
}

// checkAnswers runs check --json on the URLs of one batch (after "--",
// where even a lone "-" is a URL, not stdin).
func checkAnswers(t *testing.T, path string, b []doorCase) []doorAnswer {
	r := invoke(runCheck, "", append([]string{"-f", path, "-a", b[0].agent, "--json", "--"}, urlsOf(b)...)...)
	require.Empty(t, nonWarnings("check", r.Stderr))
	return decodeAnswers(t, "check", r.Stdout)
}

// explainAnswers runs explain --json on the URLs of one batch.
func explainAnswers(t *testing.T, path string, b []doorCase) []doorAnswer {
	r := invoke(runExplain, "", append([]string{"-f", path, "-a", b[0].agent, "--json", "--"}, urlsOf(b)...)...)
	require.Empty(t, nonWarnings("explain", r.Stderr))
	got := decodeAnswers(t, "explain", r.Stdout)
	require.Len(t, got, len(b), "explain answers every URL")
	for i, c := range b {
		require.Equal(t, c.url, answerURL(t, got[i]), "explain answers in order")
	}
	return got
}

// apiAnswers posts the URLs of one batch to /api/check. A request holds
// at most 1 MiB, room for the 500 KiB Parse reads: a longer body is sent
// cut one byte past them, which parses the same.
func apiAnswers(t *testing.T, base string, client *http.Client, b []doorCase) []doorAnswer {
	body := b[0].body[:min(len(b[0].body), robots.MaxBytes+1)]
	req, err := json.Marshal(map[string]any{"robotstxt_b64": base64.StdEncoding.EncodeToString(body), "agents": []string{b[0].agent}, "urls": urlsOf(b)})
	require.NoError(t, err)
	resp, err := client.Post(base+"/api/check", "application/json", bytes.NewReader(req))
	require.NoError(t, err)
	defer resp.Body.Close()
	var out struct{ Results []doorAnswer }
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	return out.Results
}

func urlsOf(b []doorCase) []string {
	urls := make([]string, len(b))
	for i, c := range b {
		urls[i] = c.url
	}
	return urls
}

// decodeAnswers decodes one JSON answer a line.
func decodeAnswers(t *testing.T, door, s string) []doorAnswer {
	var out []doorAnswer
	dec := json.NewDecoder(strings.NewReader(s))
	for dec.More() {
		var a doorAnswer
		require.NoError(t, dec.Decode(&a), door)
		out = append(out, a)
	}
	return out
}

// answerURL is the URL an answer names, exact when it is not UTF-8.
func answerURL(t *testing.T, a doorAnswer) string {
	if a.URLB64 == "" {
		return a.URL
	}
	b, err := base64.StdEncoding.DecodeString(a.URLB64)
	require.NoError(t, err)
	return string(b)
}

// nonWarnings returns the lines of cmd's stderr other than its warnings
// (a string that is not a URL, an agent that is not a token) and the note
// that an over-long robots.txt was cut.
func nonWarnings(cmd, stderr string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if l == "" || strings.HasPrefix(l, "robots "+cmd+": warning: ") || strings.Contains(l, "input cut at "+strconv.Itoa(cli.MaxInputBytes)) {
			continue
		}
		out = append(out, l)
	}
	return out
}
