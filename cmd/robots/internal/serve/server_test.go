package serve

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// apiServer starts the server's handler configured by c on a loopback
// port.
func apiServer(t *testing.T, c serverConfig) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(newServer(c))
	t.Cleanup(s.Close)
	return s
}

// localAPI is an API server whose fetches may reach loopback, where the
// test origins listen.
func localAPI(t *testing.T) *httptest.Server {
	return apiServer(t, serverConfig{allowPrivate: true})
}

const serveRules = "User-agent: Googlebot\nDisallow: /nogooglebot/\n\nUser-agent: *\nAllow: /\nDisallow: /drafts/\nAllow: /drafts/public/\nDisallow: /%62%61%7A\n"

func TestServeCheckVerdictsInOrder(t *testing.T) {
	s := localAPI(t)
	got := clitest.PostOK(t, s, "/api/check", clitest.JSON(t, map[string]any{
		"robotstxt": serveRules, "agents": []string{"Googlebot-Image", "Googlebot"},
		"urls": []string{"https://example.com/nogooglebot/a", "/drafts/x", "/nogooglebot/"}}))
	assert.Equal(t, []any{
		map[string]any{"url": "https://example.com/nogooglebot/a", "allowed": false, "line": 2.0, "rule": "Disallow: /nogooglebot/"},
		map[string]any{"url": "/drafts/x", "allowed": true, "line": 0.0, "rule": ""},
		map[string]any{"url": "/nogooglebot/", "allowed": false, "line": 2.0, "rule": "Disallow: /nogooglebot/"},
	}, got["results"])
}

func TestServeCheckModeChangesVerdict(t *testing.T) {
	s := localAPI(t)
	verdict := func(mode string) any {
		got := clitest.PostOK(t, s, "/api/check", clitest.JSON(t, map[string]any{"robotstxt": serveRules, "urls": []string{"/baz"}, "mode": mode}))
		return got["results"].([]any)[0].(map[string]any)["allowed"]
	}
	assert.Equal(t, true, verdict("google"), "Google compares bytes: /%%62%%61%%7A is not /baz")
	assert.Equal(t, false, verdict("RFC"), "RFC 9309 decodes percent-encoding first; the mode is read in any case")
}

func TestServeCheckTakesBase64(t *testing.T) {
	s := localAPI(t)
	body := "User-agent: *\nDisallow: /caf\xe9\n"
	got := clitest.PostOK(t, s, "/api/check", clitest.JSON(t, map[string]any{
		"robotstxt_b64": base64.StdEncoding.EncodeToString([]byte(body)), "urls": []string{"/caf%E9"}}))
	r := got["results"].([]any)[0].(map[string]any)
	assert.Equal(t, false, r["allowed"], "the exact bytes, not UTF-8, decide")
	assert.Equal(t, base64.StdEncoding.EncodeToString([]byte("Disallow: /caf\xe9")), r["rule_b64"])
}

func TestServeCheckOriginFetchesTheRobotsTxt(t *testing.T) {
	s := localAPI(t)
	origin, n := clitest.RobotsServer(t, 200, serveRules, "Cache-Control", "max-age=3600")
	got := clitest.PostOK(t, s, "/api/check", clitest.JSON(t, map[string]any{
		"origin": origin.URL + "/any/page", "agents": []string{"Googlebot"},
		"urls": []string{origin.URL + "/nogooglebot/a", "/drafts/x", "https://elsewhere.example/nogooglebot/a"}}))
	assert.Equal(t, int64(1), n.Load(), "one fetch per request")
	assert.Equal(t, map[string]any{
		"robots_txt": origin.URL + "/robots.txt", "final_url": origin.URL + "/robots.txt", "redirects": 0.0,
		"status": 200.0, "policy": "conditional", "reason": "fetched",
		"cache_seconds": 3600.0, "bytes": float64(len(serveRules)), "truncated": false,
	}, got["fetch"])
	results := got["results"].([]any)
	assert.Equal(t, map[string]any{"url": origin.URL + "/nogooglebot/a", "allowed": false, "line": 2.0, "rule": "Disallow: /nogooglebot/"}, results[0])
	assert.Equal(t, map[string]any{"url": "/drafts/x", "allowed": true, "line": 0.0, "rule": ""}, results[1])
	assert.Equal(t, "https://elsewhere.example/nogooglebot/a", results[2].(map[string]any)["url"])
	assert.Contains(t, results[2].(map[string]any)["error"], "not on "+origin.URL+", whose robots.txt was fetched",
		"a robots.txt governs its own origin only")
}

func TestServeCheckOriginFollowsThePolicy(t *testing.T) {
	s := localAPI(t)
	for _, tt := range []struct {
		status  int
		policy  string
		allowed bool
	}{
		{404, "full allow", true},
		{503, "full disallow", false},
		{429, "full disallow", false},
	} {
		origin, _ := clitest.RobotsServer(t, tt.status, "User-agent: *\nDisallow: /\n")
		got := clitest.PostOK(t, s, "/api/check", clitest.JSON(t, map[string]any{"origin": origin.URL, "urls": []string{"/a", origin.URL + "/b"}}))
		assert.Equal(t, tt.policy, got["fetch"].(map[string]any)["policy"], "status %d", tt.status)
		for _, r := range got["results"].([]any) {
			assert.Equal(t, tt.allowed, r.(map[string]any)["allowed"], "status %d", tt.status)
			assert.Equal(t, "", r.(map[string]any)["rule"], "no rule decides under a %s", tt.policy)
		}
	}
}

func TestServeExplainOrigin(t *testing.T) {
	s := localAPI(t)
	origin, _ := clitest.RobotsServer(t, 200, serveRules)
	got := clitest.PostOK(t, s, "/api/explain", clitest.JSON(t, map[string]any{"origin": origin.URL, "urls": []string{"/drafts/a"}}))
	assert.Equal(t, "conditional", got["fetch"].(map[string]any)["policy"])
	assert.Equal(t, 6.0, got["results"].([]any)[0].(map[string]any)["winner"].(map[string]any)["line"])

	gone, _ := clitest.RobotsServer(t, 410, "")
	status, body := clitest.Post(t, s, "/api/explain", clitest.JSON(t, map[string]any{"origin": gone.URL, "urls": []string{"/a"}}))
	assert.Equal(t, http.StatusUnprocessableEntity, status)
	assert.Equal(t, `{"error":"`+gone.URL+`/robots.txt: full allow (unavailable (4xx)): no rules to explain"}`+"\n", body)
}

func TestServeLintOrigin(t *testing.T) {
	s := localAPI(t)
	origin, _ := clitest.RobotsServer(t, 200, "User-agent: *\nDisallow: /a\nAllow: /a\n")
	got := clitest.PostOK(t, s, "/api/lint", clitest.JSON(t, map[string]any{"origin": origin.URL}))
	assert.Equal(t, 200.0, got["fetch"].(map[string]any)["status"])
	findings := got["findings"].([]any)
	require.Len(t, findings, 1)
	assert.Equal(t, "equal-priority", findings[0].(map[string]any)["code"])

	empty, _ := clitest.RobotsServer(t, 200, "")
	got = clitest.PostOK(t, s, "/api/lint", clitest.JSON(t, map[string]any{"origin": empty.URL}))
	assert.Equal(t, []any{}, got["findings"], "an empty robots.txt is a file, with nothing to report")

	failing, _ := clitest.RobotsServer(t, 500, "")
	status, out := clitest.Post(t, s, "/api/lint", clitest.JSON(t, map[string]any{"origin": failing.URL}))
	assert.Equal(t, http.StatusUnprocessableEntity, status)
	assert.Contains(t, out, "full disallow (server error (5xx)): no rules to lint")
}

func TestServeFetchFollowsRedirects(t *testing.T) {
	s := localAPI(t)
	target, _ := clitest.RobotsServer(t, 200, "User-agent: *\nDisallow: /\n")
	hop := httptest.NewServer(http.RedirectHandler(target.URL+"/robots.txt", http.StatusMovedPermanently))
	t.Cleanup(hop.Close)
	got := clitest.PostOK(t, s, "/api/fetch", clitest.JSON(t, map[string]any{"url": hop.URL + "/"}))
	assert.Equal(t, 1.0, got["redirects"])
	assert.Equal(t, target.URL+"/robots.txt", got["final_url"])
	assert.Equal(t, "User-agent: *\nDisallow: /\n", got["body"], "the body of the last response, not of the redirect")
	assert.Equal(t, false, got["allowed"])
}

func TestServeFetchBodyIsCutWhereGoogleStops(t *testing.T) {
	s := localAPI(t)
	long := "User-agent: *\nDisallow: /a\n" + strings.Repeat("# padding\n", cli.MaxInputBytes/10+10) + "Disallow: /late\n"
	origin, _ := clitest.RobotsServer(t, 200, long)
	got := clitest.PostOK(t, s, "/api/fetch", clitest.JSON(t, map[string]any{"url": origin.URL + "/late"}))
	assert.Equal(t, true, got["truncated"])
	assert.Equal(t, float64(cli.MaxInputBytes), got["bytes"])
	assert.Equal(t, long[:cli.MaxInputBytes], got["body"])
	assert.Equal(t, true, got["allowed"], "the rule past 500 KiB is not read")
}

func TestServeFetchBodyNotUTF8(t *testing.T) {
	s := localAPI(t)
	body := "User-agent: *\nDisallow: /\xff\n"
	origin, _ := clitest.RobotsServer(t, 200, body)
	got := clitest.PostOK(t, s, "/api/fetch", clitest.JSON(t, map[string]any{"url": origin.URL}))
	assert.Equal(t, base64.StdEncoding.EncodeToString([]byte(body)), got["body_b64"])
}

func TestServeFetchPolicies(t *testing.T) {
	s := localAPI(t)
	for _, tt := range []struct {
		status  int
		policy  string
		allowed bool
	}{
		{404, "full allow", true},
		{500, "full disallow", false},
	} {
		origin, _ := clitest.RobotsServer(t, tt.status, "User-agent: *\nDisallow: /\n")
		got := clitest.PostOK(t, s, "/api/fetch", clitest.JSON(t, map[string]any{"url": origin.URL + "/a"}))
		assert.Equal(t, tt.policy, got["policy"])
		assert.Equal(t, tt.allowed, got["allowed"])
		assert.Equal(t, "", got["body"], "no body is read from a %d", tt.status)
	}
}

func TestServeFetchUserAgentIsTheFirstAgent(t *testing.T) {
	s := localAPI(t)
	ua := make(chan string, 1)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua <- r.UserAgent()
		w.WriteHeader(404)
	}))
	t.Cleanup(origin.Close)
	clitest.PostOK(t, s, "/api/fetch", clitest.JSON(t, map[string]any{"url": origin.URL, "agents": []string{"ExampleBot", "Googlebot"}}))
	assert.Equal(t, "ExampleBot/1.0 (+https://github.com/fastrobots/robots)", <-ua)
}

func TestServeRequestErrors(t *testing.T) {
	s := localAPI(t)
	for _, tt := range []struct {
		name, path, body string
		status           int
		msg              string
	}{
		{"empty body", "/api/check", ``, 400, "malformed JSON: empty body"},
		{"cut JSON", "/api/check", `{"robotstxt": "`, 400, "ends inside the JSON value"},
		{"bad syntax", "/api/check", `{"robotstxt" "x"}`, 400, "malformed JSON at byte 14"},
		{"not an object", "/api/check", `["/a"]`, 400, "must be a JSON object, not a JSON array"},
		{"wrong type", "/api/check", `{"robotstxt": 1, "urls": ["/"]}`, 400, `field "robotstxt": a JSON number where a string is wanted`},
		{"urls not a list", "/api/explain", `{"robotstxt": "", "urls": "/a"}`, 400, `field "urls": a JSON string where an array of strings is wanted`},
		{"unknown field", "/api/check", `{"robotstxt": "", "urls": ["/"], "agent": "Googlebot"}`, 400, `unknown field "agent"`},
		{"lint takes no mode", "/api/lint", `{"robotstxt": "", "mode": "rfc"}`, 400, `unknown field "mode"`},
		{"data after the object", "/api/check", `{"robotstxt": "", "urls": ["/"]} {}`, 400, "data after the request object"},
		{"no robots.txt", "/api/check", `{"urls": ["/"]}`, 400, "no robots.txt: give robotstxt, robotstxt_b64 or origin"},
		{"null robots.txt", "/api/lint", `{"robotstxt": null}`, 400, "no robots.txt"},
		{"two robots.txt", "/api/check", `{"robotstxt": "", "origin": "https://example.com", "urls": ["/"]}`, 400, "not several"},
		{"bad base64", "/api/lint", `{"robotstxt_b64": "%%%"}`, 400, "robotstxt_b64: illegal base64 data"},
		{"bad mode", "/api/check", `{"robotstxt": "", "urls": ["/"], "mode": "bing"}`, 400, `mode: unknown mode "bing" (want google or rfc)`},
		{"bad mode in fetch", "/api/fetch", `{"url": "https://example.com", "mode": "x"}`, 400, `unknown mode "x"`},
		{"no URL", "/api/check", `{"robotstxt": ""}`, 400, "urls: no URL given"},
		{"empty URL list", "/api/explain", `{"robotstxt": "", "urls": []}`, 400, "urls: no URL given"},
		{"origin without scheme", "/api/check", `{"origin": "example.com", "urls": ["/"]}`, 400, "URL has no scheme"},
		{"origin not http", "/api/check", `{"origin": "ftp://example.com", "urls": ["/"]}`, 400, "only http and https URLs can be fetched"},
		{"fetch without URL", "/api/fetch", `{}`, 400, "no origin: give the URL of the site or page"},
		{"fetch with both names", "/api/fetch", `{"origin": "https://example.com", "url": "https://example.com"}`, 400, "give origin or url, not both"},
		{"unknown endpoint", "/api/verdict", `{}`, 404, "no API at /api/verdict"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, body := clitest.Post(t, s, tt.path, tt.body)
			assert.Equal(t, tt.status, status, body)
			var e map[string]string
			require.NoError(t, json.Unmarshal([]byte(body), &e), body)
			assert.Contains(t, e["error"], tt.msg)
			assert.Len(t, e, 1, "an error answer holds only the error")
		})
	}
}

func TestServeRequiresJSONContentType(t *testing.T) {
	s := localAPI(t)
	body := `{"robotstxt": "", "urls": ["/"]}`
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "", "application/json-seq", "multipart/form-data; boundary=x"} {
		status, out := clitest.PostType(t, s, "/api/check", ct, body)
		assert.Equal(t, http.StatusUnsupportedMediaType, status, "Content-Type %q", ct)
		assert.Contains(t, out, "Content-Type: application/json")
	}
	status, _ := clitest.PostType(t, s, "/api/check", "application/json; charset=utf-8", body)
	assert.Equal(t, http.StatusOK, status, "parameters are fine")
}

func TestServeAPIMethodNotAllowed(t *testing.T) {
	s := localAPI(t)
	for _, path := range []string{"/api/check", "/api/explain", "/api/lint", "/api/fetch"} {
		for _, method := range []string{http.MethodGet, http.MethodPut, http.MethodDelete, http.MethodHead} {
			req, err := http.NewRequest(method, s.URL+path, nil)
			require.NoError(t, err)
			resp, err := s.Client().Do(req)
			require.NoError(t, err)
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, "%s %s", method, path)
			assert.Equal(t, http.MethodPost, resp.Header.Get("Allow"))
			if method != http.MethodHead {
				assert.Equal(t, fmt.Sprintf(`{"error":"%s takes POST, not %s"}`+"\n", path, method), string(b))
			}
		}
	}
}

func TestServeRequestBodyLimit(t *testing.T) {
	s := localAPI(t)
	// A request of exactly api.MaxRequestBytes is read; one byte more is not.
	frame := clitest.JSON(t, map[string]any{"robotstxt": "", "urls": []string{"/"}})
	pad := api.MaxRequestBytes - len(frame)
	atLimit := strings.Replace(frame, `"robotstxt":""`, `"robotstxt":"`+strings.Repeat("#", pad)+`"`, 1)
	require.Len(t, atLimit, api.MaxRequestBytes)
	status, out := clitest.Post(t, s, "/api/check", atLimit)
	assert.Equal(t, http.StatusOK, status, out)

	over := strings.Replace(atLimit, `"robotstxt":"`, `"robotstxt":"#`, 1)
	for _, path := range []string{"/api/check", "/api/explain", "/api/lint", "/api/fetch"} {
		status, out = clitest.Post(t, s, path, over)
		assert.Equal(t, http.StatusRequestEntityTooLarge, status, path)
		assert.Equal(t, fmt.Sprintf(`{"error":"request body larger than %d bytes"}`+"\n", api.MaxRequestBytes), out)
	}
	// Whitespace after a full object counts too: the limit is on the body.
	status, _ = clitest.Post(t, s, "/api/check", frame+strings.Repeat(" ", api.MaxRequestBytes))
	assert.Equal(t, http.StatusRequestEntityTooLarge, status)
}

func TestServeURLLimit(t *testing.T) {
	s := localAPI(t)
	urls := make([]string, api.MaxURLs)
	for i := range urls {
		urls[i] = fmt.Sprintf("/p%d", i)
	}
	for _, path := range []string{"/api/check", "/api/explain"} {
		got := clitest.PostOK(t, s, path, clitest.JSON(t, map[string]any{"robotstxt": "User-agent: *\nDisallow: /p9\n", "urls": urls}))
		results := got["results"].([]any)
		require.Len(t, results, api.MaxURLs, path)
		assert.Equal(t, "/p9999", results[api.MaxURLs-1].(map[string]any)["url"], "in the order given")
		assert.Equal(t, false, results[api.MaxURLs-1].(map[string]any)["allowed"])

		status, out := clitest.Post(t, s, path, clitest.JSON(t, map[string]any{"robotstxt": "", "urls": append(urls, "/one-more")}))
		assert.Equal(t, http.StatusBadRequest, status, path)
		assert.Contains(t, out, fmt.Sprintf("urls: %d given, at most %d are accepted in one request", api.MaxURLs+1, api.MaxURLs))
	}
}

func TestServeAgentLimit(t *testing.T) {
	s := localAPI(t)
	agents := make([]string, api.MaxAgents)
	for i := range agents {
		agents[i] = fmt.Sprintf("Bot%d", i)
	}
	agents[api.MaxAgents-1] = "Googlebot"
	got := clitest.PostOK(t, s, "/api/check", clitest.JSON(t, map[string]any{"robotstxt": serveRules, "agents": agents, "urls": []string{"/nogooglebot/"}}))
	assert.Equal(t, false, got["results"].([]any)[0].(map[string]any)["allowed"], "the last agent of the list still counts")

	tooMany := append(agents, "One-more")
	for path, body := range map[string]map[string]any{
		"/api/check":   {"robotstxt": serveRules, "agents": tooMany, "urls": []string{"/"}},
		"/api/explain": {"robotstxt": serveRules, "agents": tooMany, "urls": []string{"/"}},
		"/api/fetch":   {"url": "http://127.0.0.1:1/", "agents": tooMany},
	} {
		status, out := clitest.Post(t, s, path, clitest.JSON(t, body))
		assert.Equal(t, http.StatusBadRequest, status, path)
		assert.Contains(t, out, fmt.Sprintf("agents: %d given, at most %d are accepted", api.MaxAgents+1, api.MaxAgents))
	}
}

// hangingOrigin is an origin whose robots.txt never comes: it answers
// when the client gives up, or after a minute.
func hangingOrigin(t *testing.T) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(time.Minute):
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func TestServeFetchTimeoutIsANetworkFailure(t *testing.T) {
	s := apiServer(t, serverConfig{allowPrivate: true, fetchTimeout: 100 * time.Millisecond})
	origin := hangingOrigin(t)
	start := time.Now()
	got := clitest.PostOK(t, s, "/api/fetch", clitest.JSON(t, map[string]any{"url": origin.URL + "/a"}))
	assert.Less(t, time.Since(start), 10*time.Second, "hang guard")
	assert.Equal(t, "full disallow", got["policy"])
	assert.Equal(t, "network failure", got["reason"])
	assert.Equal(t, false, got["allowed"])
	assert.Contains(t, got["fetch_error"], "deadline exceeded")
}

func TestServeDefaultTimeoutsNest(t *testing.T) {
	s := newServer(serverConfig{})
	assert.Equal(t, fetchTimeout, s.fetchTimeout)
	assert.Equal(t, 10*time.Second, answerWriteTimeout)
	assert.Less(t, readTimeout+fetchTimeout, writeTimeout, "the page's answers and the API's errors before any work are written after the request is read and its robots.txt fetched")
}

// TestServeFetchTakesOriginAsCheckDoes: /api/fetch names its URL origin,
// as check, explain and lint do, and still takes url, its first name;
// both at once, or neither, is a 400.
func TestServeFetchTakesOriginAsCheckDoes(t *testing.T) {
	s := localAPI(t)
	origin, _ := clitest.RobotsServer(t, 200, serveRules)
	page := origin.URL + "/nogooglebot/x"
	byURL := clitest.PostOK(t, s, "/api/fetch", clitest.JSON(t, map[string]any{"url": page, "agents": []string{"Googlebot"}}))
	byOrigin := clitest.PostOK(t, s, "/api/fetch", clitest.JSON(t, map[string]any{"origin": page, "agents": []string{"Googlebot"}}))
	assert.Equal(t, byURL["allowed"], byOrigin["allowed"])
	assert.Equal(t, page, byOrigin["url"])
	assert.Equal(t, false, byOrigin["allowed"])
	for _, body := range []map[string]any{{"origin": page, "url": page}, {"agents": []string{"Googlebot"}}} {
		status, out := clitest.Post(t, s, "/api/fetch", clitest.JSON(t, body))
		assert.Equal(t, http.StatusBadRequest, status, out)
	}
}
