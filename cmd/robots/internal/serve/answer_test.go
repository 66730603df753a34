package serve

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// worstExplain is a request of the shapes that make explain's answer
// largest for its size.
type worstExplain struct {
	name   string
	path   string
	rules  string
	agents []string
	urls   []string
}

// worstShapes returns the shapes: many long agents and many URLs; many
// rules matching every URL; long rule values decided on each of many
// URLs; long URLs.
func worstShapes() []worstExplain {
	agents := make([]string, api.MaxAgents)
	for i := range agents {
		agents[i] = fmt.Sprintf("Agent%03d", i) + strings.Repeat("a", 5000)
	}
	repeat := func(u string, n int) []string {
		l := make([]string, n)
		for i := range l {
			l[i] = u
		}
		return l
	}
	longValue := "User-agent: *\nDisallow: /" + strings.Repeat("*", 16_000) + "\n"
	return []worstExplain{
		{"many agents, many URLs", "/api/explain", "User-agent: *\nDisallow: /private\n", agents, repeat("/", 1000)},
		{"many agents, check", "/api/check", "User-agent: *\nDisallow: /private\n", agents, repeat("/", 1000)},
		{"many matching rules", "/api/explain", "User-agent: *\n" + strings.Repeat("allow:/\n", 10_000), nil, repeat("/", 20)},
		{"long values, explain", "/api/explain", longValue, nil, repeat("/", 1000)},
		{"long values, check", "/api/check", longValue, nil, repeat("", api.MaxURLs)},
		{"long URLs", "/api/explain", "User-agent: *\nDisallow: /p\n", nil, repeat("/p"+strings.Repeat("%01", 300), 1000)},
		{"long URLs, check", "/api/check", "User-agent: *\nDisallow: /p\n", nil, repeat("/p"+strings.Repeat("\u2028", 300), 500)},
	}
}

// heavyShapes are the shapes at the sizes first reported, run with
// ROBOTS_HEAVY=1: 2,000 URLs beside 100 agents of 5 KB, and 63,998
// matching rules explained for 150 URLs, past the work bound.
func heavyShapes() []worstExplain {
	many := worstShapes()[0]
	many.name, many.urls = "2,000 URLs, 100 agents of 5 KB", make([]string, 2000)
	for i := range many.urls {
		many.urls[i] = "/"
	}
	rules := worstExplain{name: "63,998 matching rules, 150 URLs", path: "/api/explain",
		rules: "User-agent: *\n" + strings.Repeat("allow:/\n", 63_998), urls: many.urls[:150]}
	return []worstExplain{many, rules}
}

func TestServeAnswersAreBoundedByTheRequest(t *testing.T) {
	s := apiServer(t, serverConfig{})
	shapes := worstShapes()
	if os.Getenv("ROBOTS_HEAVY") != "" {
		shapes = append(shapes, heavyShapes()...)
	}
	for _, tt := range shapes {
		body := clitest.JSON(t, map[string]any{"robotstxt": tt.rules, "agents": tt.agents, "urls": tt.urls})
		require.LessOrEqual(t, len(body), api.MaxRequestBytes, tt.name)
		resp := clitest.PostRaw(t, s.URL, tt.path, body)
		switch resp.Status {
		case http.StatusOK:
			assert.LessOrEqual(t, len(resp.Body), api.AnswerLimit(len(body)), tt.name)
		case http.StatusRequestEntityTooLarge:
			if strings.Contains(resp.Body, "units of work") { // past the work bound, refused before any work
				break
			}
			assert.Equal(t, `{"error":"`+api.TooLargeAnswer(api.AnswerLimit(len(body))).Msg+`"}`+"\n", resp.Body, tt.name)
		default:
			t.Errorf("%s: status %d: %.200s", tt.name, resp.Status, resp.Body)
		}
		t.Logf("%s: request %d bytes, status %d, answer %d bytes", tt.name, len(body), resp.Status, len(resp.Body))
	}
}

func TestServeExplainGivesTheSelectionOnce(t *testing.T) {
	s := apiServer(t, serverConfig{})
	shape := worstShapes()[0]
	status, out := clitest.Post(t, s, "/api/explain", clitest.JSON(t, map[string]any{"robotstxt": shape.rules, "agents": shape.agents, "urls": shape.urls}))
	require.Equal(t, http.StatusOK, status)
	for _, a := range []string{shape.agents[0], shape.agents[api.MaxAgents-1]} {
		assert.Equal(t, 3, strings.Count(out, a), "once in selection.agents, once in selection.why, once in warnings (not a product token)")
	}
	got := clitest.Object(t, out)
	assert.Equal(t, "global", got["selection"].(map[string]any)["reason"])
	assert.Len(t, got["results"], len(shape.urls))
	assert.NotContains(t, got["results"].([]any)[0], "selection")
}

func TestServeExplainCapsTheMatches(t *testing.T) {
	s := apiServer(t, serverConfig{})
	for _, tt := range []struct {
		rules      string
		shown      int
		more       float64
		winnerLine float64
	}{
		{"User-agent: *\n" + strings.Repeat("allow:/\n", api.MaxMatchesShown), api.MaxMatchesShown, 0, 2},
		{"User-agent: *\n" + strings.Repeat("allow:/\n", 10_000), api.MaxMatchesShown, 10_000 - api.MaxMatchesShown, 2},
		// The winner is the longest, past the rules listed: it is given.
		{"User-agent: *\n" + strings.Repeat("allow:/\n", 200) + "disallow:/p\n", api.MaxMatchesShown, 101, 202},
	} {
		got := clitest.PostOK(t, s, "/api/explain", clitest.JSON(t, map[string]any{"robotstxt": tt.rules, "urls": []string{"/p"}}))
		r := got["results"].([]any)[0].(map[string]any)
		assert.Len(t, r["matches"], tt.shown)
		if tt.more == 0 {
			assert.NotContains(t, r, "more_matches")
		} else {
			assert.Equal(t, tt.more, r["more_matches"])
		}
		assert.Equal(t, tt.winnerLine, r["winner"].(map[string]any)["line"])
	}
}
