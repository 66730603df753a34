package serve

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An agent that no HTTP header can carry is refused by every endpoint
// that takes agents, before anything is fetched: the fetch would fail
// before sending anything and read as a network failure.
func TestServeRefusesControlBytesInAgents(t *testing.T) {
	s := localAPI(t)
	origin, fetches := clitest.RobotsServer(t, 200, "User-agent: *\nDisallow: /private/\n")
	for _, c := range []byte{'\r', '\n', 0, 0x7f, 0x01, 0x1f} {
		agents := []string{"Googlebot", "Bad" + string(c) + "Bot"}
		want := fmt.Sprintf("agents[1]: control byte 0x%02x at byte 3", c)
		for path, body := range map[string]map[string]any{
			"/api/check":          {"robotstxt": serveRules, "agents": agents, "urls": []string{"/"}},
			"/api/explain":        {"robotstxt": serveRules, "agents": agents, "urls": []string{"/"}},
			"/api/check (origin)": {"origin": origin.URL, "agents": agents, "urls": []string{"/"}},
			"/api/fetch":          {"url": origin.URL + "/private/x", "agents": agents},
			"/api/fetch (first)":  {"url": origin.URL + "/private/x", "agents": agents[1:]},
		} {
			status, out := clitest.Post(t, s, strings.Fields(path)[0], clitest.JSON(t, body))
			assert.Equal(t, http.StatusBadRequest, status, "%s, byte 0x%02x: %s", path, c, out)
			if path == "/api/fetch (first)" {
				assert.Contains(t, clitest.Object(t, out)["error"], "agents[0]: control byte", path)
				continue
			}
			assert.Contains(t, clitest.Object(t, out)["error"], want, path)
		}
	}
	assert.Zero(t, fetches.Load(), "no robots.txt was fetched for a refused request")

	got := clitest.PostOK(t, s, "/api/fetch", clitest.JSON(t, map[string]any{"url": origin.URL + "/private/x", "agents": []string{"Tab\tBot"}}))
	assert.Equal(t, "conditional", got["policy"], "a tab may stand in a header: the fetch goes out")
	assert.Equal(t, int64(1), fetches.Load())
}

// A key given twice is refused, at any level, compared as encoding/json
// matches keys to fields: after unescaping and case folding.
func TestServeRefusesDuplicateKeys(t *testing.T) {
	s := localAPI(t)
	for _, tt := range []struct {
		name, path, body, key string
	}{
		{"mode twice", "/api/check", `{"robotstxt": "", "urls": ["/"], "mode": "rfc", "mode": "google"}`, `"mode"`},
		{"same value twice", "/api/check", `{"robotstxt": "", "urls": ["/"], "urls": ["/"]}`, `"urls"`},
		{"another case", "/api/explain", `{"robotstxt": "", "urls": ["/"], "ROBOTSTXT": "User-agent: *\nDisallow: /\n"}`, `"ROBOTSTXT"`},
		{"escaped", "/api/check", `{"robotstxt": "", "urls": ["/"], "mo\u0064e": "rfc", "mode": "google"}`, `"mode"`},
		{"Unicode folding", "/api/check", `{"robotstxt": "", "urls": ["/a"], "url\u017f": ["/b"]}`, `"urlſ"`},
		{"lint", "/api/lint", `{"robotstxt": "", "robotstxt": "x"}`, `"robotstxt"`},
		{"fetch", "/api/fetch", `{"url": "http://127.0.0.1:1/", "agents": [], "Agents": ["Googlebot"]}`, `"Agents"`},
	} {
		status, out := clitest.Post(t, s, tt.path, tt.body)
		assert.Equal(t, http.StatusBadRequest, status, "%s: %s", tt.name, out)
		assert.Equal(t, "duplicate key "+tt.key+": give each field once", clitest.Object(t, out)["error"], tt.name)
	}
	clitest.PostOK(t, s, "/api/check", `{"robotstxt": "", "urls": ["/"], "mode": "rfc", "agents": ["a", "a"]}`)
}

// A bad value is quoted in the answer only up to api.MaxEchoBytes.
func TestServeDoesNotEchoLongValues(t *testing.T) {
	s := localAPI(t)
	long := strings.Repeat("x", api.MaxRequestBytes-200)
	for _, tt := range []struct {
		path, field, value string
		rest               map[string]any
		msg                string
	}{
		{"/api/check", "mode", long, map[string]any{"robotstxt": "", "urls": []string{"/"}}, "mode: unknown mode "},
		{"/api/fetch", "mode", long, map[string]any{"url": "https://example.com"}, "mode: unknown mode "},
		{"/api/fetch", "url", "ftp://" + long, map[string]any{}, "only http and https URLs can be fetched"},
		{"/api/check", "origin", long, map[string]any{"urls": []string{"/"}}, "URL has no scheme"},
	} {
		tt.rest[tt.field] = tt.value
		status, out := clitest.Post(t, s, tt.path, clitest.JSON(t, tt.rest))
		require.Equal(t, http.StatusBadRequest, status, tt.path)
		msg, _ := clitest.Object(t, out)["error"].(string)
		assert.Contains(t, msg, tt.msg, tt.field)
		assert.Contains(t, msg, api.QuoteInput(tt.value), tt.field)
		assert.Less(t, len(out), 4*api.MaxEchoBytes, "the answer quotes a cut of the value: %s", out)
	}
}
