package browsertest

import (
	"encoding/json"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// api posts req to the page's own API, robots serve's or the WebAssembly
// engine's in the static page, and decodes the answer into out: what the
// page was told, to hold what it shows against.
func (p *page) api(path string, req, out any) {
	p.t.Helper()
	js, err := json.Marshal(req)
	require.NoError(p.t, err)
	answer := evalWith[string](p, `(r => (window.robotsLocalAPI ? window.robotsLocalAPI(`+jsString(path)+`, r) :
		fetch(`+jsString(path)+`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(r) }).then(a => a.json()))
		.then(a => JSON.stringify(a)))(`+string(js)+`)`, chromedp.EvalAwaitPromise)
	require.NoError(p.t, json.Unmarshal([]byte(answer), out), answer)
}

// visible reports whether the element sel is rendered with a size, not
// hidden (a tooltip would not do).
func (p *page) visible(sel string) bool {
	p.t.Helper()
	return eval[bool](p, `(e => !!e && e.checkVisibility() && e.getBoundingClientRect().height > 0)(document.querySelector(`+jsString(sel)+`))`)
}

// urlWarnings returns the warning each result card shows, "" where it
// shows none.
func (p *page) urlWarnings() []string {
	p.t.Helper()
	return eval[[]string](p, `[...document.querySelectorAll('#results > li')].map(li => (w => w ? w.textContent : '')(li.querySelector('.url-warning')))`)
}

const warnedRobots = "User-agent: *\nDisallow: /private\n"

// googlebotRobots has a group for Googlebot alone: Googlebot/2.1 reads
// none.
const googlebotRobots = "User-agent: Googlebot\nDisallow: /private\n"

func TestURLWarningBesideItsVerdict(t *testing.T) {
	checkURLWarnings(t, openPage(t, 1280, 900))
}

func TestStaticURLWarningBesideItsVerdict(t *testing.T) {
	chromium(t)
	base, _ := serveStatic(t, staticSite(t), nil)
	checkURLWarnings(t, openStatic(t, base+"/"))
}

// checkURLWarnings checks that a string that is not a URL gets its
// verdict, as Google's reference gives one, and the API's warning beside
// it; that a URL or a path gets none; and that fixing the string clears
// its warning.
func checkURLWarnings(t *testing.T, p *page) {
	urls := []string{"example.com/private", "http://example.com/x%zz", "/private"}
	var answer struct {
		Results []struct {
			Allowed bool   `json:"allowed"`
			Warning string `json:"warning"`
		} `json:"results"`
	}
	p.api("/api/check", map[string]any{"robotstxt": warnedRobots, "agents": []string{"Googlebot"}, "urls": urls}, &answer)
	require.Len(t, answer.Results, 3)
	require.Contains(t, answer.Results[0].Warning, `"/private"`, "the API warns of the first")
	require.Contains(t, answer.Results[1].Warning, "%zz", "the API warns of the second")
	require.Empty(t, answer.Results[2].Warning, "a path is no warning")

	p.setValue("#robots", warnedRobots)
	p.typeInto("#agents", "Googlebot")
	p.typeInto("#urls", urls[0]+"\n"+urls[1]+"\n"+urls[2])
	got := p.waitVerdicts(urls...)
	assert.Equal(t, []string{"DISALLOWED", "ALLOWED", "DISALLOWED"}, []string{got[0].Verdict, got[1].Verdict, got[2].Verdict})
	assert.Equal(t, "Decided by line 2 Disallow: /private", got[0].Decider, "the path Google reads in it decides")
	assert.Equal(t, []string{answer.Results[0].Warning, answer.Results[1].Warning, ""}, p.urlWarnings())
	assert.True(t, p.visible(`#results li[data-index="0"] .url-warning`))
	assert.Equal(t, "3 URLs: 1 allowed, 2 disallowed; 2 not a URL or a path, answered for the path Google reads in them.", p.text("#summary"))
	assert.Equal(t, []int{2}, p.markedLines("decides-disallow"))

	// A crawler that ignores the '*' group gets no rule, and the warning
	// stays.
	p.typeInto("#agents", "AdsBot-Google")
	p.waitFor(`document.querySelector('#results li[data-index="0"] .badge').textContent === 'ALLOWED' && !document.body.hasAttribute('aria-busy')`)
	assert.Equal(t, []string{answer.Results[0].Warning, answer.Results[1].Warning, ""}, p.urlWarnings())

	// The string made a URL: its warning goes.
	p.typeInto("#agents", "Googlebot")
	p.typeInto("#urls", "https://example.com/private")
	got = p.waitVerdicts("https://example.com/private")
	assert.Equal(t, "DISALLOWED", got[0].Verdict)
	assert.Equal(t, []string{""}, p.urlWarnings())
	assert.Equal(t, "1 URL: 0 allowed, 1 disallowed.", p.text("#summary"))
	assert.Empty(t, p.errors())
}

func TestAgentWarningNearTheAgents(t *testing.T) {
	checkAgentWarnings(t, openPage(t, 1280, 900))
}

func TestStaticAgentWarningNearTheAgents(t *testing.T) {
	chromium(t)
	base, _ := serveStatic(t, staticSite(t), nil)
	checkAgentWarnings(t, openStatic(t, base+"/"))
}

// checkAgentWarnings checks that an agent that is not a product token
// shows the API's warning under the agents field, visibly, with URLs and
// without, and that the warning goes when the agent is a token again.
func checkAgentWarnings(t *testing.T, p *page) {
	var answer struct {
		Warnings []string `json:"warnings"`
	}
	p.api("/api/check", map[string]any{"robotstxt": googlebotRobots, "agents": []string{"Googlebot/2.1"}, "urls": []string{"/"}}, &answer)
	require.Len(t, answer.Warnings, 1)
	require.Contains(t, answer.Warnings[0], `the token it reads in such a User-Agent is "Googlebot"`)

	p.setValue("#robots", googlebotRobots)
	p.typeInto("#urls", "/private")
	p.typeInto("#agents", "Googlebot/2.1")
	p.waitFor(`document.querySelectorAll('#agent-warnings li').length === 1 && !document.body.hasAttribute('aria-busy')`)
	assert.Equal(t, answer.Warnings[0], p.text("#agent-warnings li"))
	assert.True(t, p.visible("#agent-warnings li"), "shown, not only in a tooltip")
	below := eval[float64](p, `document.querySelector('#agent-warnings').getBoundingClientRect().top - document.querySelector('#agents').getBoundingClientRect().bottom`)
	assert.True(t, below >= 0 && below < 40, "right under the agents field: %.0f px below it", below)
	assert.Equal(t, "ALLOWED", p.waitVerdicts("/private")[0].Verdict, "no group names Googlebot/2.1")

	p.typeInto("#agents", "Googlebot")
	p.waitFor(`document.querySelectorAll('#agent-warnings li').length === 0 && !document.body.hasAttribute('aria-busy')`)
	assert.Equal(t, "DISALLOWED", p.waitVerdicts("/private")[0].Verdict, "Googlebot's group")
	assert.False(t, p.visible("#agent-warnings"), "no warning, no room taken")

	// Without URLs, the page still says so.
	p.setValue("#urls", "")
	p.typeInto("#agents", "Googlebot/2.1")
	p.waitFor(`document.querySelectorAll('#agent-warnings li').length === 1 && !document.body.hasAttribute('aria-busy')`)
	assert.Equal(t, answer.Warnings[0], p.text("#agent-warnings li"))
	p.typeInto("#agents", "Googlebot")
	p.waitFor(`document.querySelectorAll('#agent-warnings li').length === 0 && !document.body.hasAttribute('aria-busy')`)
	assert.Empty(t, p.errors())
}
