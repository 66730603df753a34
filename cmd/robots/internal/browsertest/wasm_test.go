package browsertest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/conformance"
)

// staticSite builds the static tester into a temporary folder with
// cmd/robots/web/build-static.sh, as its users do, and returns the folder.
func staticSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("bash", "../../web/build-static.sh", dir).CombinedOutput()
	require.NoError(t, err, "%s", out)
	t.Log(strings.TrimSpace(string(out)))
	return dir
}

// serveStatic serves dir with a plain file server on a loopback port,
// and returns its URL and the paths it was asked for. When before is not
// nil, it sees each request first.
func serveStatic(t *testing.T, dir string, before func(w http.ResponseWriter, r *http.Request)) (string, func() []string) {
	var mu sync.Mutex
	var asked []string
	files := http.FileServer(http.Dir(dir))
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.Method+" "+r.URL.Path)
		mu.Unlock()
		if before != nil {
			before(w, r)
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s.URL, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), asked...)
	}
}

// openStatic opens url in a headless Chromium, as openPage opens the
// page of robots serve, and waits for the example's verdicts.
func openStatic(t *testing.T, url string) *page {
	t.Helper()
	p := navigate(t, url)
	p.waitFor(`document.querySelectorAll('#results > li .badge').length === 3 && !document.body.hasAttribute('aria-busy')`)
	return p
}

// navigate opens url in a new headless Chromium.
func navigate(t *testing.T, url string) *page {
	t.Helper()
	p := newBrowser(t, chromium(t), 1280, 900, "")
	p.do(chromedp.Navigate(url))
	return p
}

func TestStaticPageShowsTheExampleVerdicts(t *testing.T) {
	chromium(t)
	base, asked := serveStatic(t, staticSite(t), nil)
	p := openStatic(t, base+"/")
	// The URLs the page offers with its example, whatever they are.
	p.waitFor(`document.querySelector('#urls').value.trim() !== ''`)
	urls := strings.Fields(eval[string](p, `document.querySelector('#urls').value`))
	require.NotEmpty(t, urls)
	got := p.waitVerdicts(urls...)
	// The verdicts robots check gives for the example and these URLs.
	agent := eval[string](p, `document.querySelector('#agents').value`)
	agents := strings.FieldsFunc(agent, func(r rune) bool { return r == ',' || r == ' ' })
	ex := robots.Parse([]byte(example)).Agent(agents...)
	for _, v := range got {
		want := "DISALLOWED"
		if ex.Allowed(v.URL) {
			want = "ALLOWED"
		}
		assert.Equal(t, want, v.Verdict, "%s for %s", v.URL, agent)
	}
	p.waitFor(`document.querySelector('#lint-summary').textContent !== ''`)
	// The list of crawlers, from the engine's /api/crawlers: Google's, the
	// crawler table's others, and another crawler.
	assert.Equal(t, len(googleTokens)+len(tableTokens(true))+len(tableTokens(false))+1, eval[int](p, `document.querySelectorAll('#crawler option').length`))
	assert.Equal(t, "Googlebot", eval[string](p, `document.querySelector('#crawler').value`))
	assert.Empty(t, p.errors(), "no console error, no Content-Security-Policy refusal")
	for _, a := range asked() {
		assert.False(t, strings.Contains(a, "/api/"), "the static page asked the file server for %s", a)
	}

	// Load needs robots serve, and says so.
	p.typeInto("#load-url", "https://example.com/")
	p.do(chromedp.KeyEvent("\r"))
	p.waitFor(`document.querySelector('#load-status').innerText.includes('Load needs robots serve')`)
}

func TestStaticQueuesCallsUntilTheEngineLoads(t *testing.T) {
	chromium(t)
	gate := make(chan struct{})
	base, _ := serveStatic(t, staticSite(t), func(_ http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.wasm" {
			<-gate
		}
	})
	release := sync.OnceFunc(func() { close(gate) })
	t.Cleanup(release) // before the server's Close, which waits for the held request
	p := navigate(t, base+"/")
	p.waitFor(`typeof window.robotsLocalAPI === 'function'`)
	p.do(chromedp.Evaluate[chromedp.Void](`window.early = window.robotsLocalAPI('/api/check',
		{robotstxt: 'User-agent: *\nDisallow: /private\n', urls: ['/private/x']}).then(a => JSON.stringify(a))`))
	assert.Equal(t, 0, eval[int](p, `document.querySelectorAll('#results > li .badge').length`), "no verdict before the engine loads")
	release()
	got := evalWith[string](p, `window.early`, chromedp.EvalAwaitPromise)
	assert.JSONEq(t, `{"results":[{"url":"/private/x","allowed":false,"line":2,"rule":"Disallow: /private"}]}`, got)
	p.waitFor(`document.querySelectorAll('#results > li .badge').length === 3`)
}

func TestStaticLoadsFromAServerWithoutTheWasmType(t *testing.T) {
	chromium(t)
	base, _ := serveStatic(t, staticSite(t), func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.wasm" {
			w.Header().Set("Content-Type", "application/octet-stream") // streaming compilation refuses it
		}
	})
	p := openStatic(t, base+"/")
	assert.Equal(t, 3, eval[int](p, `document.querySelectorAll('#results > li .badge').length`))
}

func TestStaticSaysWhenTheEngineDidNotLoad(t *testing.T) {
	chromium(t)
	dir := staticSite(t)
	require.NoError(t, os.Remove(filepath.Join(dir, "robots.wasm")))
	base, _ := serveStatic(t, dir, nil)
	p := navigate(t, base+"/")
	p.waitFor(`typeof window.robotsLocalAPI === 'function'`)
	msg := evalWith[string](p, `window.robotsLocalAPI('/api/check', {robotstxt: '', urls: ['/']}).then(() => 'answered', e => e.message)`, chromedp.EvalAwaitPromise)
	assert.Equal(t, "the tester's engine did not load: robots.wasm: 404 Not Found", msg)
}

// specCase is a spec-test case as the page is asked about it.
type specCase struct {
	conformance.Case
	request map[string]any
}

// TestStaticVerdictsOnTheSpecTests asks the page's engine, robots.wasm,
// to check, explain and lint each spec-test case, and checks each answer
// against robots serve's whole answer, and each verdict against the
// robots package's and the reference parser's (the case's expected
// value).
func TestStaticVerdictsOnTheSpecTests(t *testing.T) {
	chromium(t)
	var cases []specCase
	err := conformance.Each(filepath.Join("../../../../testdata/conformance", "spec-test.jsonl"), func(_ int, c *conformance.Case) error {
		body, err := c.Body()
		if err != nil {
			return err
		}
		cases = append(cases, specCase{Case: *c, request: map[string]any{
			"robotstxt_b64": base64.StdEncoding.EncodeToString(body), "agents": []string{c.UserAgent}, "urls": []string{c.URL},
		}})
		return nil
	})
	require.NoError(t, err)
	require.Len(t, cases, 400)

	base, _ := serveStatic(t, staticSite(t), nil)
	p := openStatic(t, base+"/")
	requests := make([]map[string]any, len(cases))
	for i, c := range cases {
		requests[i] = c.request
	}
	server := startServe(t)
	// Each endpoint the page uses, all cases in one evaluation: each
	// answer as JSON text, or its error.
	for _, path := range []string{"/api/check", "/api/explain", "/api/lint"} {
		asked := requests
		if path == "/api/lint" {
			asked = make([]map[string]any, len(cases))
			for i, c := range cases {
				asked[i] = map[string]any{"robotstxt_b64": c.request["robotstxt_b64"]}
			}
		}
		js, err := json.Marshal(asked)
		require.NoError(t, err)
		answers := evalWith[[]string](p, `Promise.all(`+string(js)+`.map(r => window.robotsLocalAPI('`+path+`', r)
			.then(a => JSON.stringify(a), e => 'error: ' + e.message)))`, chromedp.EvalAwaitPromise)
		require.Len(t, answers, len(cases))
		for i, c := range cases {
			assert.JSONEq(t, postServe(t, server, path, asked[i]), answers[i], "%s %s: robots serve", path, c.ID)
			if path == "/api/check" {
				checkVerdict(t, c, answers[i])
			}
		}
	}
}

// checkVerdict checks the verdict of answer, the page's answer to the
// check of c, against the robots package and the reference parser.
func checkVerdict(t *testing.T, c specCase, answer string) {
	t.Helper()
	var got struct {
		Results []struct {
			Allowed *bool `json:"allowed"`
		} `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(answer), &got), "%s: %s", c.ID, answer)
	require.Len(t, got.Results, 1, c.ID)
	require.NotNil(t, got.Results[0].Allowed, "%s: %s", c.ID, answer)
	body, err := c.Body()
	require.NoError(t, err)
	allowed := *got.Results[0].Allowed
	assert.Equal(t, robots.Parse(body).Agent(c.UserAgent).Allowed(c.URL), allowed, "%s: the robots package", c.ID)
	assert.Equal(t, c.Expected, allowed, "%s: the reference parser", c.ID)
}

// evalWith is eval with evaluation options.
func evalWith[T any](p *page, expr string, opts ...chromedp.EvaluateOption) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, opts...))
	require.NoError(p.t, err, expr)
	return v
}

// postServe posts req as JSON to path on robots serve at base, and
// returns the answer of status 200.
func postServe(t *testing.T, base, path string, req any) string {
	t.Helper()
	b, err := json.Marshal(req)
	require.NoError(t, err)
	resp, err := http.Post(base+path, "application/json", strings.NewReader(string(b)))
	require.NoError(t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(out))
	return string(out)
}
