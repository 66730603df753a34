package main

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/cmd/robots/internal/serve"
	"github.com/fastrobots/robots/cmd/robots/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serveRules is the robots.txt the API and the commands answer alike, as
// the server's own tests read it.
const serveRules = "User-agent: Googlebot\nDisallow: /nogooglebot/\n\nUser-agent: *\nAllow: /\nDisallow: /drafts/\nAllow: /drafts/public/\nDisallow: /%62%61%7A\n"

// localAPI is robots serve's handler on a loopback port, its fetches
// allowed to reach loopback, where the test origins listen: the API door
// the command's answers are held to.
func localAPI(t *testing.T) *httptest.Server {
	s := httptest.NewServer(serve.Handler(true))
	t.Cleanup(s.Close)
	return s
}

func TestServeCheckAnswersLikeCheckJSON(t *testing.T) {
	s := localAPI(t)
	urls := []string{"https://example.com/nogooglebot/a", "/drafts/x", "https://example.com/drafts/public/x", "not a url", "/baz"}
	for _, tt := range []struct {
		agents []string
		mode   string
	}{
		{[]string{"Googlebot-Image", "Googlebot"}, "google"},
		{nil, ""},
		{[]string{"Bingbot"}, "rfc"},
	} {
		got := clitest.PostOK(t, s, "/api/check", clitest.JSON(t, map[string]any{
			"robotstxt": serveRules, "agents": tt.agents, "urls": urls, "mode": tt.mode}))
		args := []string{"-f", "-", "--json"}
		for _, a := range tt.agents {
			args = append(args, "-a", a)
		}
		if tt.mode != "" {
			args = append(args, "--mode", tt.mode)
		}
		want := invoke(runCheck, serveRules, append(args, urls...)...)
		assert.Equal(t, jsonLines(t, want.Stdout), got["results"], "agents %v, mode %q", tt.agents, tt.mode)
		assert.NotContains(t, got, "fetch", "no fetch when the text is given")
	}
}

func TestServeExplainAnswersLikeExplainJSON(t *testing.T) {
	s := localAPI(t)
	urls := []string{"https://example.com/drafts/public/x", "/nogooglebot/y", "/index.html", "ftp:", "/drafts/"}
	got := clitest.PostOK(t, s, "/api/explain", clitest.JSON(t, map[string]any{
		"robotstxt": serveRules, "agents": []string{"Googlebot-News", "Bingbot"}, "urls": urls}))
	want := invoke(runExplain, serveRules, append([]string{"-f", "-", "--json", "-a", "Googlebot-News", "-a", "Bingbot"}, urls...)...)
	results := got["results"].([]any)
	wantLines := jsonLines(t, want.Stdout)
	require.Len(t, results, len(urls))
	bad := results[3].(map[string]any)
	assert.Equal(t, "ftp:", bad["url"])
	assert.Contains(t, bad["warning"], "without a host", "a URL that is not one is explained, with a warning")
	// The API gives the selection once, beside the results; explain --json
	// gives it in each line.
	for _, l := range wantLines {
		assert.Equal(t, got["selection"], l.(map[string]any)["selection"])
		delete(l.(map[string]any), "selection")
	}
	assert.Equal(t, wantLines, results)
	assert.Contains(t, got["selection"].(map[string]any)["why"], `no group names "Googlebot-News", "Bingbot"`)

	first := results[0].(map[string]any)
	assert.Equal(t, true, first["allowed"])
	assert.Equal(t, 7.0, first["winner"].(map[string]any)["line"])
	assert.Contains(t, first["tie_break"], "the longest match wins")
}

func TestServeFetchAnswersLikeFetchJSON(t *testing.T) {
	s := localAPI(t)
	origin, _ := clitest.RobotsServer(t, 200, serveRules, "Cache-Control", "max-age=600")
	page := origin.URL + "/nogooglebot/x"
	got := clitest.PostOK(t, s, "/api/fetch", clitest.JSON(t, map[string]any{"url": page, "agents": []string{"Googlebot"}}))
	want := clitest.Object(t, invoke(runFetch, "", "--json", "-a", "Googlebot", page).Stdout)
	for k, v := range want {
		assert.Equal(t, v, got[k], "field %s", k)
	}
	assert.Equal(t, false, got["allowed"])
	assert.Equal(t, serveRules, got["body"], "the body parsed, for the editor")
	assert.NotContains(t, got, "body_b64", "a UTF-8 body needs no base64")
	assert.Equal(t, 600.0, got["cache_seconds"])
	assert.Equal(t, float64(len(serveRules)), got["bytes"])
}

// TestServeFetchNamesTheEmptyRule checks that /api/fetch and fetch --json
// both name the empty rule when no rule decides.
func TestServeFetchNamesTheEmptyRule(t *testing.T) {
	s := localAPI(t)
	origin, _ := clitest.RobotsServer(t, 200, "User-agent: *\nDisallow:\nDisallow: /x\n")
	page := origin.URL + "/y"
	got := clitest.PostOK(t, s, "/api/fetch", clitest.JSON(t, map[string]any{"url": page}))
	want := clitest.Object(t, invoke(runFetch, "", "--json", page).Stdout)
	for k, v := range want {
		assert.Equal(t, v, got[k], "field %s", k)
	}
	assert.Equal(t, true, got["allowed"])
	assert.Equal(t, 2.0, got["line"])
	assert.Equal(t, "Disallow:", got["rule"])
	assert.Equal(t, true, got["undecided"])
}

func TestServeLintAnswersLikeLintJSON(t *testing.T) {
	s := localAPI(t)
	body := "Disallow: /x\nUser-agent: *\nDisallow: /page\nAllow: /page\nCrawl-delay: 5\n"
	got := clitest.PostOK(t, s, "/api/lint", clitest.JSON(t, map[string]any{"robotstxt": body}))
	var want []map[string]any
	require.NoError(t, json.Unmarshal([]byte(invoke(runLint, body, "--json", "-").Stdout), &want))
	require.NotEmpty(t, want)
	for _, f := range want {
		delete(f, "file") // the API lints one file, unnamed
	}
	wantJSON, _ := json.Marshal(want)
	gotJSON, _ := json.Marshal(got["findings"])
	assert.JSONEq(t, string(wantJSON), string(gotJSON))

	clean := clitest.PostOK(t, s, "/api/lint", clitest.JSON(t, map[string]any{"robotstxt": string(web.Example)}))
	assert.Equal(t, []any{}, clean["findings"], "a clean file has an empty list, not null")
}

// jsonLines decodes each line of a command's --json output.
func jsonLines(t *testing.T, out string) []any {
	t.Helper()
	var all []any
	for line := range strings.Lines(out) {
		all = append(all, clitest.Object(t, line))
	}
	return all
}
