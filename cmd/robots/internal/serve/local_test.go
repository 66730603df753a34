package serve

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/internal/testkit/conformance"
)

// sameAnswer posts body to path on s and asks api.Local the same, and
// fails unless both give the same answer: the same bytes with status 200,
// or the same error and status. It returns the answer.
func sameAnswer(t *testing.T, base, path, body string) string {
	t.Helper()
	served := clitest.PostRaw(t, base, path, body)
	local, err := api.Local(path, []byte(body))
	if err != nil {
		want, _ := json.Marshal(requestErrorJSON{err.Msg})
		assert.Equal(t, err.Status, served.Status, "%s %.200s: %s", path, body, err.Msg)
		assert.JSONEq(t, string(want), served.Body, "%s %.200s", path, body)
		return served.Body
	}
	assert.Equal(t, http.StatusOK, served.Status, "%s %.200s: %s", path, body, served.Body)
	assert.Equal(t, served.Body, string(local), "%s %.200s", path, body)
	return served.Body
}

func TestLocalAnswersAsServeOnTheSpecTests(t *testing.T) {
	base := startHandler(t, newServer(serverConfig{}))
	cases := 0
	err := conformance.Each(filepath.Join("../../../../testdata/conformance", "spec-test.jsonl"), func(_ int, c *conformance.Case) error {
		body, err := c.Body()
		require.NoError(t, err)
		for _, mode := range []string{"google", "rfc"} {
			req, err := json.Marshal(map[string]any{"robotstxt": string(body), "agents": []string{c.UserAgent}, "urls": []string{c.URL}, "mode": mode})
			require.NoError(t, err)
			for _, path := range []string{"/api/check", "/api/explain"} {
				sameAnswer(t, base, path, string(req))
			}
		}
		lint, err := json.Marshal(map[string]any{"robotstxt": string(body)})
		require.NoError(t, err)
		sameAnswer(t, base, "/api/lint", string(lint))
		cases++
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, 400, cases)
}

func TestLocalRefusesAsServe(t *testing.T) {
	base := startHandler(t, newServer(serverConfig{}))
	for _, tt := range []struct{ path, body string }{
		{"/api/check", `{"robotstxt": "", "urls": []}`},
		{"/api/check", `{"robotstxt": "", "urls": ["/"], "mode": "strict"}`},
		{"/api/check", `{"robotstxt": "", "urls": ["/"], "agents": ["a\nb"]}`},
		{"/api/check", `{"robotstxt": "", "urls": ["/"], "URLS": ["/x"]}`},
		{"/api/check", `{"robotstxt": "", "robotstxt_b64": "", "urls": ["/"]}`},
		{"/api/check", `{"robotstxt": "", "urls": ["/"], "extra": 1}`},
		{"/api/check", `{"robotstxt": "", "urls": ["/"]} {}`},
		{"/api/check", `[]`},
		{"/api/check", ``},
		{"/api/explain", `{"robotstxt": "", "urls": "/"}`},
		{"/api/lint", `{"robotstxt_b64": "not base64"}`},
		{"/api/lint", `{}`},
		{"/api/check", `{"robotstxt": "` + strings.Repeat("x", api.MaxRequestBytes) + `", "urls": ["/"]}`},
		{"/api/nothing", `{}`},
	} {
		sameAnswer(t, base, tt.path, tt.body)
	}
	// A URL that is not one gets its verdict and a warning, and one with a
	// NUL its error in the results, as on the server.
	assert.Contains(t, sameAnswer(t, base, "/api/check", `{"robotstxt": "", "urls": ["not a url", "/ok"]}`), `"warning":`)
	assert.Contains(t, sameAnswer(t, base, "/api/check", `{"robotstxt": "", "urls": ["/a\u0000b", "/ok"]}`), `"error":`)
}
