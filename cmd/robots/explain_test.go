package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExplainExample(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"own group", []string{"-a", "Googlebot", "https://example.com/nogooglebot/x"}, cli.ExitNegative,
			`DISALLOWED https://example.com/nogooglebot/x  (line 2: Disallow: /nogooglebot/)
  path:    /nogooglebot/x
  group:   "Googlebot" is named by line 1
  crawler: Googlebot: Google, search index; Google says it follows robots.txt (https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers)
  matched: line 2  Disallow: /nogooglebot/  priority 13  <- decides
  why:     the only rule that matched
`},
		{"longest match", []string{"-a", "Bingbot", "https://example.com/drafts/public/plan.pdf"}, cli.ExitOK,
			`ALLOWED https://example.com/drafts/public/plan.pdf  (line 13: Allow: /drafts/public/)
  path:    /drafts/public/plan.pdf
  group:   no group names "Bingbot"; the '*' group applies (line 6)
  crawler: Bingbot: Microsoft, search index; Microsoft says it follows robots.txt (https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0)
  matched: line 7   Allow: /                priority 1
           line 9   Disallow: /*.pdf$       priority 7
           line 12  Disallow: /drafts/      priority 8
           line 13  Allow: /drafts/public/  priority 15  <- decides
  why:     the longest match wins: 15 bytes against 8 bytes for line 12 (Disallow)
`},
		{"fallback, nothing matches", []string{"-a", "Googlebot-Image", "-a", "Googlebot", "https://example.com/a.pdf"}, cli.ExitOK,
			`ALLOWED https://example.com/a.pdf  (no rule matched)
  path:    /a.pdf
  group:   no group names "Googlebot-Image"; the fallback "Googlebot" is named by line 1
  matched: no rule
  why:     no rule matched: allowed by default
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := invoke(runExplain, "", tt.args...)
			assert.Equal(t, tt.code, r.Code)
			assert.Equal(t, tt.want, r.Stdout)
			assert.Empty(t, r.Stderr)
		})
	}
}

func TestExplainTieAndIndexPage(t *testing.T) {
	body := "User-agent: *\nDisallow: /docs/\nAllow: /docs/\nAllow: /docs/index.html\n"
	r := invoke(runExplain, body, "-f", "-", "https://example.com/docs/", "https://example.com/docs/a")
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.Equal(t, `ALLOWED https://example.com/docs/  (line 4: Allow: /docs/index.html)
  path:    /docs/
  group:   no agent was given; the '*' group applies (line 1)
  matched: line 2  Disallow: /docs/                      priority 6
           line 3  Allow: /docs/                         priority 6
           line 4  Allow: /docs/index.html (as /docs/$)  priority 7  <- decides
  why:     the longest match wins: 7 bytes against 6 bytes for line 2 (Disallow)
ALLOWED https://example.com/docs/a  (line 3: Allow: /docs/)
  path:    /docs/a
  group:   no agent was given; the '*' group applies (line 1)
  matched: line 2  Disallow: /docs/  priority 6
           line 3  Allow: /docs/     priority 6  <- decides
  why:     Allow wins a tie: both patterns are 6 bytes (line 2 disallows)
`, r.Stdout)
}

func TestExplainJSON(t *testing.T) {
	r := invoke(runExplain, "", "--json", "-a", "Bingbot", "https://example.com/drafts/plan", "https://example.com/x")
	assert.Equal(t, cli.ExitNegative, r.Code)
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	require.Len(t, lines, 2)
	type match struct {
		Line     int
		Allow    bool
		Value    string
		Pattern  string
		Priority int
	}
	var got struct {
		URL       string
		Path      string
		Allowed   bool
		Selection struct {
			Reason string
			Agents []string
			Agent  string
			Groups []int
			Lines  []int
			Why    string
		}
		Matches  []match
		Winner   *match
		TieBreak string `json:"tie_break"`
	}
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &got))
	assert.Equal(t, "https://example.com/drafts/plan", got.URL)
	assert.Equal(t, "/drafts/plan", got.Path)
	assert.False(t, got.Allowed)
	assert.Equal(t, "global", got.Selection.Reason)
	assert.Equal(t, []string{"Bingbot"}, got.Selection.Agents)
	assert.Equal(t, []int{1}, got.Selection.Groups)
	assert.Equal(t, []int{6}, got.Selection.Lines)
	assert.Equal(t, []match{{7, true, "/", "/", 1}, {12, false, "/drafts/", "/drafts/", 8}}, got.Matches)
	require.NotNil(t, got.Winner)
	assert.Equal(t, 12, got.Winner.Line)
	assert.Equal(t, "the longest match wins: 8 bytes against 1 byte for line 7 (Allow)", got.TieBreak)

	none := invoke(runExplain, "User-agent: a\nDisallow: /\n", "--json", "-f", "-", "-a", "b", "/x")
	assert.Equal(t, cli.ExitOK, none.Code)
	assert.Contains(t, none.Stdout, `"reason":"none"`)
	assert.Contains(t, none.Stdout, `"matches":[]`)
	assert.Contains(t, none.Stdout, `"winner":null`)
}

func TestExplainRFCRobotsTxt(t *testing.T) {
	r := invoke(runExplain, "User-agent: *\nDisallow: /\n", "-f", "-", "--mode", "rfc", "https://example.com/robots.txt")
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.Contains(t, r.Stdout, "ALLOWED https://example.com/robots.txt  (/robots.txt is always allowed under RFC 9309)\n")
	assert.Contains(t, r.Stdout, "why:     /robots.txt is always allowed under RFC 9309")
}

func TestExplainUsageErrorsExitTwo(t *testing.T) {
	clitest.AssertUsageErrors(t, runExplain, "", []clitest.UsageCase{
		{Name: "no URL", Args: []string{"-a", "Googlebot"}, Stderr: "no URL given"},
		{Name: "unknown flag", Args: []string{"-x", "https://example.com/"}, Stderr: "flag provided but not defined: -x"},
		{Name: "missing file", Args: []string{"-f", "/nonexistent/robots.txt", "https://example.com/"}, Stderr: "robots.txt"},
		{Name: "bad mode", Args: []string{"--mode", "lenient", "https://example.com/"}, Stderr: `unknown mode "lenient"`},
		// An unset variable in a script: not the example in its place.
		{Name: "an empty -f", Args: []string{"-f", "", "https://example.com/"}, Stderr: "-f was given an empty file name (leave -f out to use the example)"},
		{Name: "an empty -f=", Args: []string{"-f=", "https://example.com/"}, Stderr: "-f was given an empty file name"},
	})
}

func TestExplainAgreesWithCheck(t *testing.T) {
	for _, u := range []string{"https://example.com/", "https://example.com/a.pdf", "https://example.com/drafts/x", "https://example.com/nogooglebot/"} {
		for _, agent := range []string{"Googlebot", "Bingbot"} {
			c := invoke(runCheck, "", "-a", agent, u)
			e := invoke(runExplain, "", "-a", agent, u)
			assert.Equal(t, c.Code, e.Code, "%s %s", agent, u)
			assert.True(t, strings.HasPrefix(e.Stdout, c.Stdout), "%s %s", agent, u)
		}
	}
}

func TestRunDispatchesToLintAndExplain(t *testing.T) {
	assert.Equal(t, cli.ExitOK, invoke(run, "User-agent: *\nDisallow:\n", "lint", "-").Code)
	assert.Equal(t, cli.ExitNegative, invoke(run, "", "explain", "-a", "Googlebot", "https://example.com/nogooglebot/x").Code)
	for _, name := range []string{"lint", "explain"} {
		r := invoke(run, "", "help", name)
		assert.Equal(t, cli.ExitOK, r.Code)
		assert.Contains(t, r.Stdout, "Usage: robots "+name)
	}
}

// TestExplainJSONKeepsBytesThatAreNotUTF8: a JSON string holds UTF-8 only,
// so a URL, path or rule value with other bytes shows them as U+FFFD; the
// *_b64 field beside it gives them back exactly.
func TestExplainJSONKeepsBytesThatAreNotUTF8(t *testing.T) {
	url := "/a%FF/\xfex"
	r := invoke(runExplain, "User-agent: *\nDisallow: /a\xff\nAllow: /b\n", "-f", "-", "--json", url, "/b")
	assert.Equal(t, cli.ExitNegative, r.Code, r.Stderr)
	lines := outputLines(r.Stdout)
	require.Len(t, lines, 2)
	type match struct {
		Value    string
		ValueB64 string `json:"value_b64"`
		Pattern  string
	}
	var got struct {
		URL     string
		URLB64  string `json:"url_b64"`
		Path    string
		PathB64 string `json:"path_b64"`
		Matches []match
		Winner  match
	}
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &got))
	assert.Equal(t, "/a%FF/\uFFFDx", got.URL)
	assert.Equal(t, url, unb64(t, got.URLB64))
	assert.Equal(t, url, unb64(t, got.PathB64))
	require.Len(t, got.Matches, 1)
	assert.Equal(t, match{"/a\uFFFD", b64("/a\xff"), "/a%FF"}, got.Matches[0])
	assert.Equal(t, "/a\xff", unb64(t, got.Winner.ValueB64))
	assert.NotContains(t, lines[1], "_b64", "strings that are UTF-8 need no copy")
}

func TestRawB64(t *testing.T) {
	for _, s := range []string{"", "/a", "/é", "/\uFFFD"} {
		assert.Empty(t, api.RawB64(s), s)
	}
	for _, s := range []string{"\xff", "/a\xc3", "/\xed\xa0\x80"} {
		assert.Equal(t, s, unb64(t, api.RawB64(s)), s)
	}
}

// TestExplainAnswersStringsThatAreNotURLs: explain, like check, answers a
// string that is not a URL for the path Google's reference reads in it,
// and warns; an agent that is not a product token is warned of too.
func TestExplainAnswersStringsThatAreNotURLs(t *testing.T) {
	r := invoke(runExplain, "", "-a", "Googlebot", "example.com/nogooglebot/x")
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.True(t, strings.HasPrefix(r.Stdout, "DISALLOWED example.com/nogooglebot/x  (line 2: Disallow: /nogooglebot/)\n  path:    /nogooglebot/x\n"), r.Stdout)
	assert.Contains(t, r.Stderr, `robots explain: warning: "example.com/nogooglebot/x": neither an absolute URL`)

	r = invoke(runExplain, "", "-a", "Googlebot/2.1", "--json", "https://example.com/nogooglebot/x")
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.Contains(t, r.Stderr, `robots explain: warning: agent "Googlebot/2.1" is not a product token`)
}

// TestExplainNamesTheCrawler: when the first agent is a crawler of the
// table (package crawlers), explain says who operates it, what for, and
// what the operator says of robots.txt, with its page; a crawler that may
// not follow robots.txt gets the operator's words and the reminder that
// the verdict is what the file asks of it. Another agent gets no line.
// explain --json gives the row as "crawler".
func TestExplainNamesTheCrawler(t *testing.T) {
	body := "User-agent: ChatGPT-User\nDisallow: /\n"
	r := invoke(runExplain, body, "-f", "-", "-a", "chatgpt-user", "/page")
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.Contains(t, r.Stdout, "\n  crawler: ChatGPT-User: OpenAI, user-triggered fetch; OpenAI says it may not follow robots.txt: "+
		`"Because these actions are initiated by a user, robots.txt rules may not apply." (https://developers.openai.com/api/docs/bots); `+
		"the verdict is what the file asks of it, not what it does\n  matched:")

	gpt := invoke(runExplain, body, "-f", "-", "-a", "GPTBot", "/page")
	assert.Contains(t, gpt.Stdout, "\n  crawler: GPTBot: OpenAI, training; OpenAI says it follows robots.txt (https://developers.openai.com/api/docs/bots)\n")
	bytespider := invoke(runExplain, body, "-f", "-", "-a", "Bytespider", "/page")
	assert.Contains(t, bytespider.Stdout, "\n  crawler: Bytespider: ByteDance, not stated; no page of ByteDance found says whether it follows robots.txt: ")

	other := invoke(runExplain, body, "-f", "-", "-a", "cohere-ai", "-a", "GPTBot", "/page")
	assert.NotContains(t, other.Stdout, "crawler:", "the first agent names the crawler, and cohere-ai is not in the table")

	j := invoke(runExplain, body, "-f", "-", "--json", "-a", "ChatGPT-User", "/page")
	var got struct{ Crawler *api.CrawlerJSON }
	require.NoError(t, json.Unmarshal([]byte(j.Stdout), &got))
	require.NotNil(t, got.Crawler)
	assert.Equal(t, api.CrawlerJSON{Token: "ChatGPT-User", Operator: "OpenAI", Purpose: "user-triggered fetch", AI: true, Robots: "no",
		Says: "Because these actions are initiated by a user, robots.txt rules may not apply.", URL: "https://developers.openai.com/api/docs/bots",
		UsagePurposes: []string{"ai-use"}, Note: got.Crawler.Note}, *got.Crawler)
	assert.Contains(t, got.Crawler.Note, "may not follow robots.txt")
	none := invoke(runExplain, body, "-f", "-", "--json", "-a", "cohere-ai", "/page")
	assert.NotContains(t, none.Stdout, `"crawler"`)
}
