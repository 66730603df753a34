package browsertest

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// text returns the textContent of the element sel, "" when there is none.
func (p *page) text(sel string) string {
	p.t.Helper()
	return eval[string](p, `(e => e ? e.textContent : '')(document.querySelector(`+jsString(sel)+`))`)
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string { return fmt.Sprintf("%q", s) }

// setValue replaces the value of the field sel at once, as a paste would,
// for texts too long to type key by key.
func (p *page) setValue(sel, value string) {
	p.t.Helper()
	p.do(chromedp.Evaluate[chromedp.Void](`(e => { e.value = ` + jsString(value) + `; e.dispatchEvent(new Event('input', { bubbles: true })); })(document.querySelector(` + jsString(sel) + `))`))
}

// labels returns, for each highlighted line, its number and the URLs its
// label names.
func (p *page) labels() map[int]string {
	p.t.Helper()
	got := eval[[][2]any](p, `[...document.querySelectorAll('#backdrop .bl .who')].map(w => [+w.parentElement.dataset.line, w.textContent])`)
	out := map[int]string{}
	for _, l := range got {
		out[int(l[0].(float64))] = l[1].(string)
	}
	return out
}

// googleTokens are the robots.txt tokens of Google's crawler overview the
// page offers: common crawlers, special-case crawlers, user-triggered
// fetchers and the usage token Google-Extended.
var googleTokens = []string{
	"Googlebot", "Googlebot-Image", "Googlebot-News", "Googlebot-Video", "Storebot-Google",
	"Google-InspectionTool", "GoogleOther", "GoogleOther-Image", "GoogleOther-Video",
	"Google-CloudVertexBot", "APIs-Google", "AdsBot-Google", "AdsBot-Google-Mobile",
	"Mediapartners-Google", "FeedFetcher-Google", "Google-Read-Aloud", "Google-Site-Verification",
	"GoogleProducer", "Google-Extended",
}

func TestDefaultAgentIsGooglebot(t *testing.T) {
	p := openPage(t, 1280, 900)
	assert.Equal(t, "Googlebot", eval[string](p, `document.querySelector('#agents').value`))
	assert.Equal(t, "Googlebot", eval[string](p, `document.querySelector('#crawler').value`))
	assert.Contains(t, p.text("#crawler-note"), "Obeys robots.txt on every automatic crawl")
	got := p.waitVerdicts("https://example.com/nogooglebot/page.html", "https://example.com/drafts/plan.pdf", "https://example.com/nogooglebot/photo.jpg")
	assert.Equal(t, "Decided by line 2 Disallow: /nogooglebot/", got[0].Decider, "Googlebot's own group")
	assert.Equal(t, "ALLOWED", got[1].Verdict, "the '*' group's Disallow of PDFs is not Googlebot's")
	assert.Contains(t, got[1].Details, `"Googlebot" is named by line 1`)
	assert.Empty(t, p.errors())
}

func TestGoogleCrawlerTokens(t *testing.T) {
	p := openPage(t, 1280, 900)
	options := eval[[]string](p, `[...document.querySelectorAll('#crawler option')].map(o => o.value)`)
	assert.ElementsMatch(t, append(append(append(googleTokens, tableTokens(true)...), tableTokens(false)...), ""), options,
		"Google's tokens, the crawler table's others, and another crawler")
	assert.Equal(t, []string{"Google: common crawlers", "Google: special-case crawlers", "Google: user-triggered fetchers", "Google: usage tokens", aiGroup, "Other crawlers"},
		eval[[]string](p, `[...document.querySelectorAll('#crawler optgroup')].map(g => g.label)`))

	choose := func(token string) {
		t.Helper()
		p.do(chromedp.SetValue(chromedp.CSS("#crawler"), token),
			chromedp.Evaluate[chromedp.Void](`document.querySelector('#crawler').dispatchEvent(new Event('change'))`))
	}

	// Googlebot-Image reads its own group if one names it, else Googlebot's,
	// and never the '*' group while Googlebot has one.
	p.setValue("#robots", "User-agent: Googlebot\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n")
	p.typeInto("#urls", "/private/cat.jpg\n/cat.jpg")
	choose("Googlebot-Image")
	assert.Equal(t, "Googlebot-Image, Googlebot", eval[string](p, `document.querySelector('#agents').value`))
	assert.Contains(t, p.text("#crawler-note"), "Fallback: Googlebot, then the \u2019*\u2019 groups.")
	p.waitFor(`document.querySelector('#results .result dl') && document.querySelector('#results .result dl').innerText.includes('Googlebot-Image')`)
	got := p.waitVerdicts("/private/cat.jpg", "/cat.jpg")
	assert.Equal(t, []string{"DISALLOWED", "ALLOWED"}, []string{got[0].Verdict, got[1].Verdict}, "Googlebot's group, not '*'")
	assert.Contains(t, got[0].Details, `no group names "Googlebot-Image"; the fallback "Googlebot" is named by line 1`)
	// The token alone would read '*': the cards say so, as the verdict or
	// the deciding line differs.
	p.waitFor(`document.querySelectorAll('#results dl').length === 2 && [...document.querySelectorAll('#results dl')].every(dl => dl.innerText.includes('Googlebot-Image alone'))`)
	got = p.waitVerdicts("/private/cat.jpg", "/cat.jpg")
	for _, v := range got {
		assert.Contains(t, v.Details, "Googlebot-Image alone\nDISALLOWED by line 5 Disallow: / (no group names \"Googlebot-Image\"", v.URL)
		assert.Contains(t, v.Details, "): the fallback decides instead.", v.URL)
	}

	// AdsBot ignores the '*' group: with no group of its own, nothing
	// applies, though the engine, reading '*', would disallow.
	choose("AdsBot-Google")
	assert.Equal(t, "AdsBot-Google", eval[string](p, `document.querySelector('#agents').value`))
	assert.Contains(t, p.text("#crawler-note"), "ignores the \u2019*\u2019 group")
	p.waitFor(`document.querySelector('#results .decider').textContent.startsWith('No rule applies')`)
	got = p.waitVerdicts("/private/cat.jpg", "/cat.jpg")
	for _, v := range got {
		assert.Equal(t, "ALLOWED", v.Verdict, v.URL)
		assert.Equal(t, "No rule applies: AdsBot-Google ignores the \u2019*\u2019 group and no group names it, so Google\u2019s crawler may fetch it.", v.Decider)
		assert.Contains(t, v.Details, "Token alone\nDISALLOWED by the \u2019*\u2019 group, line 5 Disallow: /")
	}
	assert.Equal(t, []int{}, p.markedLines("decides-disallow"), "no line decides for AdsBot")
	assert.Contains(t, p.text("#group-info"), "none applies to AdsBot-Google")

	// A group that names it applies as the engine reads it.
	p.setValue("#robots", "User-agent: AdsBot-Google\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n")
	p.waitFor(`document.querySelector('#results .decider').textContent.startsWith('Decided by line 2')`)
	got = p.waitVerdicts("/private/cat.jpg", "/cat.jpg")
	assert.Equal(t, []string{"DISALLOWED", "ALLOWED"}, []string{got[0].Verdict, got[1].Verdict})

	// Google-Extended is a usage token, and a user-triggered fetcher
	// generally ignores robots.txt: the page says so.
	choose("Google-Extended")
	assert.Contains(t, p.text("#crawler-note"), "A usage token, not a crawler")
	choose("FeedFetcher-Google")
	assert.Contains(t, p.text("#crawler-note"), "generally ignore robots.txt")

	// Free text for any other crawler; typing a Google token selects it.
	p.typeInto("#agents", "ExampleBot")
	assert.Equal(t, "", eval[string](p, `document.querySelector('#crawler').value`))
	p.typeInto("#agents", "bingbot")
	assert.Equal(t, "Bingbot", eval[string](p, `document.querySelector('#crawler').value`), "a crawler of the table")
	p.typeInto("#agents", "googlebot-news, googlebot")
	assert.Equal(t, "Googlebot-News", eval[string](p, `document.querySelector('#crawler').value`))
	assert.Empty(t, p.errors())
}

func TestPickedURLHighlightsItsLinesOnly(t *testing.T) {
	p := openPage(t, 1280, 900)
	p.typeInto("#agents", "Bingbot")
	p.typeInto("#urls", "/drafts/a\n/drafts/public/b\n/drafts/c\n/x.pdf")
	p.waitVerdicts("/drafts/a", "/drafts/public/b", "/drafts/c", "/x.pdf")

	// Every deciding line is highlighted, and names its URLs.
	assert.Equal(t, map[int]string{12: "URL 1, URL 3", 13: "URL 2", 9: "URL 4"}, p.labels())
	assert.Equal(t, []int{9, 12}, p.markedLines("decides-disallow"))
	assert.Equal(t, "disallows URL 1, URL 3\nGoogle reads: disallow rule", eval[string](p, `document.querySelector('#gutter .ln[data-line="12"]').title`))

	// A click on URL 2 highlights its lines only: the one that decides it
	// and, marked apart, the ones that match it without deciding.
	p.do(chromedp.Click(chromedp.CSS(`#results li[data-index="1"] button.pick`)))
	assert.Equal(t, map[int]string{13: "URL 2"}, p.labels())
	assert.Equal(t, []int{}, p.markedLines("decides-disallow"))
	assert.Equal(t, []int{13}, p.markedLines("decides-allow"))
	assert.Equal(t, []int{7, 12}, p.markedLines("matches"), "Allow: / and Disallow: /drafts/ match it too")
	assert.Equal(t, "true", eval[string](p, `document.querySelector('#results li[data-index="1"] button.pick').getAttribute('aria-pressed')`))

	// The keyboard: Enter on URL 3's button picks it; again, unpicks it.
	p.do(chromedp.Focus(chromedp.CSS(`#results li[data-index="2"] button.pick`)), chromedp.KeyEvent("\r"))
	assert.Equal(t, map[int]string{12: "URL 3"}, p.labels())
	assert.Equal(t, "false", eval[string](p, `document.querySelector('#results li[data-index="1"] button.pick').getAttribute('aria-pressed')`))
	p.do(chromedp.KeyEvent(" "))
	assert.Equal(t, map[int]string{12: "URL 1, URL 3", 13: "URL 2", 9: "URL 4"}, p.labels())

	// A click anywhere on a card picks it too.
	p.do(chromedp.Click(chromedp.CSS(`#results li[data-index="3"] .url`)))
	assert.Equal(t, map[int]string{9: "URL 4"}, p.labels())
	assert.Empty(t, p.errors())
}

// robotsOrigin serves body as /robots.txt on loopback.
func robotsOrigin(t *testing.T, body string) *httptest.Server {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(origin.Close)
	return origin
}

func TestLoadedFileStatesAndOtherHosts(t *testing.T) {
	body := "User-agent: *\nDisallow: /cart\n"
	origin := robotsOrigin(t, body)
	p := openPage(t, 1280, 900, "--allow-private")
	assert.Equal(t, "example", eval[string](p, `document.querySelector('#source-state').dataset.state`))
	assert.Equal(t, "Rules from the example file. They are no site\u2019s rules.", p.text("#source-state"))

	p.typeInto("#urls", origin.URL+"/cart/1\nhttps://other.example/cart/1\n/cart/2")
	p.typeInto("#load-url", origin.URL+"/")
	p.do(chromedp.KeyEvent("\r"))
	p.waitFor(fmt.Sprintf(`document.querySelector('#robots').value === %q`, body))
	assert.Equal(t, "fetched", eval[string](p, `document.querySelector('#source-state').dataset.state`))
	assert.Equal(t, "Rules from "+origin.URL+"/robots.txt, fetched (status 200).", p.text("#source-state"))

	// A URL on another host still gets the file's verdict, and the page says
	// that the file does not govern it.
	got := p.waitVerdicts(origin.URL+"/cart/1", "https://other.example/cart/1", "/cart/2")
	assert.Equal(t, []string{"DISALLOWED", "DISALLOWED", "DISALLOWED"}, []string{got[0].Verdict, got[1].Verdict, got[2].Verdict})
	notes := eval[[]string](p, `[...document.querySelectorAll('#results > li')].map(li => (e => e ? e.textContent : '')(li.querySelector('.foreign-note')))`)
	assert.Equal(t, "", notes[0])
	assert.Equal(t, "Not on "+origin.URL+", whose robots.txt the editor holds: that file does not govern this URL. The verdict is what the file would say if https://other.example served it.", notes[1])
	assert.Equal(t, "", notes[2], "a path is on the file's host")
	assert.Contains(t, p.text("#summary"), "1 URL not on "+origin.URL+", whose robots.txt the editor holds.")

	// Editing the fetched file says so, above the editor and in the fetch's
	// status, which fades.
	p.do(chromedp.SendKeys(chromedp.CSS("#robots"), "Allow: /cart/2\n"))
	p.waitFor(`document.querySelector('#source-state').dataset.state === 'edited'`)
	assert.Equal(t, "Rules from "+origin.URL+"/robots.txt, fetched (status 200), edited here. The verdicts are for the text in the editor, not for the site\u2019s file.", p.text("#source-state"))
	assert.True(t, eval[bool](p, `document.querySelector('#load-status .fetch-info').classList.contains('stale')`))
	p.waitFor(`document.querySelector('#results li[data-index="2"] .badge').textContent === 'ALLOWED'`) // the edit decides

	// The example again: no host governs it.
	p.do(chromedp.Click(chromedp.CSS("#example-button")))
	p.waitFor(`document.querySelector('#source-state').dataset.state === 'example'`)
	p.waitFor(`document.querySelectorAll('#results .foreign-note').length === 0`)
	assert.Empty(t, p.errors())
}

func TestRefusedLoadKeepsTheExampleAndSaysSo(t *testing.T) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the guarded server reached %s", r.URL)
	}))
	t.Cleanup(origin.Close)
	p := openPage(t, 1280, 900)
	p.typeInto("#load-url", origin.URL)
	p.do(chromedp.KeyEvent("\r"))
	p.waitFor(`document.querySelector('#load-status .error') !== null`)
	assert.Equal(t, "Nothing was loaded: the verdicts below are still for the example file.", p.text("#load-status .kept"))
	assert.Equal(t, "example", eval[string](p, `document.querySelector('#source-state').dataset.state`))

	// Edited, the example says so too, and a refused Load names it.
	p.do(chromedp.SendKeys(chromedp.CSS("#robots"), "# mine\n"))
	p.waitFor(`document.querySelector('#source-state').dataset.state === 'edited'`)
	assert.Equal(t, "Rules from the example file, edited here. They are no site\u2019s rules.", p.text("#source-state"))
	p.do(chromedp.Click(chromedp.CSS("#load-button")))
	p.waitFor(`(e => e && e.textContent.includes('edited here'))(document.querySelector('#load-status .kept'))`)
}

// localAPI stands in for the engine a page without a server has
// (window.robotsLocalAPI, set before the page's script runs): it asks the
// server, and counts what it is asked.
const localAPI = `window.localCalls = [];
window.robotsLocalAPI = (path, body) => {
	window.localCalls.push(path);
	return fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then(r => r.json());
};`

func TestPageWithoutServer(t *testing.T) {
	p := openPageWith(t, 1280, 900, localAPI)
	assert.Contains(t, eval[[]string](p, `window.localCalls`), "/api/explain", "the example's verdicts come from robotsLocalAPI")
	assert.Equal(t, "example", eval[string](p, `document.querySelector('#source-state').dataset.state`), "the example, found beside the page")
	assert.Contains(t, p.text("#served-by"), "No server behind this page")
	assert.Equal(t, "Load needs robots serve", eval[string](p, `document.querySelector('#load-url').placeholder`))

	p.typeInto("#load-url", "https://example.com/")
	p.do(chromedp.KeyEvent("\r"))
	p.waitFor(`document.querySelector('#load-status .error') !== null`)
	assert.Equal(t, "Load needs robots serve: this page runs without a server, and a page cannot fetch another site\u2019s robots.txt itself. The verdicts below are for the example file.", p.text("#load-status"))
	assert.NotContains(t, eval[[]string](p, `window.localCalls`), "/api/fetch")
	p.typeInto("#urls", "/nogooglebot/x")
	got := p.waitVerdicts("/nogooglebot/x")
	assert.Equal(t, "DISALLOWED", got[0].Verdict)
	assert.Empty(t, p.errors())
}

func TestPermalinkRoundTrip(t *testing.T) {
	p := openPage(t, 1280, 900)
	p.setValue("#robots", trap)
	p.typeInto("#agents", "Storebot-Google")
	p.typeInto("#urls", "/page\n/shop/boots\n/\u00e9t\u00e9")
	p.do(chromedp.Click(chromedp.CSS(`input[name="mode"][value="rfc"]`)))
	before := p.waitVerdicts("/page", "/shop/boots", "/\u00e9t\u00e9")
	p.waitFor(`location.hash.startsWith('#z=') && document.querySelector('#permalink').getAttribute('href') === location.hash`)
	link := eval[string](p, `location.href`)
	assert.Less(t, len(link), 400, "compressed")
	assert.NotContains(t, link, "shop", "the state is compressed")

	// A fresh tab of the same browser restores the state from the link.
	q := p.newTab()
	q.do(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(link))
	after := q.waitVerdicts("/page", "/shop/boots", "/\u00e9t\u00e9")
	assert.Equal(t, before, after)
	assert.Equal(t, trap, eval[string](q, `document.querySelector('#robots').value`))
	assert.Equal(t, "Storebot-Google", eval[string](q, `document.querySelector('#agents').value`))
	assert.Equal(t, "Storebot-Google", eval[string](q, `document.querySelector('#crawler').value`))
	assert.True(t, eval[bool](q, `document.querySelector('input[value="rfc"]').checked`))
	assert.Equal(t, "edited", eval[string](q, `document.querySelector('#source-state').dataset.state`), "the example, edited, as the link's page had it")
	assert.Equal(t, link, eval[string](q, `location.href`), "the same state, the same link")
	assert.Empty(t, q.errors())

	// Another link pasted into the first tab's address bar (a new fragment,
	// the same page) brings its state.
	q.typeInto("#urls", "/shop")
	q.waitVerdicts("/shop")
	q.waitFor(`location.href !== ` + jsString(link))
	other := eval[string](q, `location.hash`)
	p.do(chromedp.Evaluate[chromedp.Void](`location.hash = ` + jsString(other)))
	p.waitVerdicts("/shop")
	assert.Equal(t, "/shop", eval[string](p, `document.querySelector('#urls').value`))
}

func TestPermalinkWithoutCompression(t *testing.T) {
	p := openPage(t, 1280, 900)
	// A browser without CompressionStream writes the JSON uncompressed.
	p.do(chromedp.Evaluate[chromedp.Void](`delete window.CompressionStream`))
	p.typeInto("#urls", "/drafts/x")
	p.waitVerdicts("/drafts/x")
	p.waitFor(`location.hash.startsWith('#j=')`)
	link := eval[string](p, `location.href`)
	q := p.newTab()
	q.do(chromedp.Navigate(link))
	q.waitVerdicts("/drafts/x")
	assert.Equal(t, example, eval[string](q, `document.querySelector('#robots').value`))
	assert.Equal(t, "example", eval[string](q, `document.querySelector('#source-state').dataset.state`))
}

func TestPermalinkLimits(t *testing.T) {
	p := openPage(t, 1280, 900)
	// Over maxFragmentBytes: random base64 hardly compresses, so 100 KB of
	// it need more than 64 KiB of link.
	rnd := rand.New(rand.NewPCG(1, 2))
	var big strings.Builder
	big.WriteString("User-agent: *\n")
	for big.Len() < 100_000 {
		var b [24]byte
		for i := range b {
			b[i] = byte(rnd.Uint32())
		}
		fmt.Fprintf(&big, "Disallow: /%s\n", base64.RawURLEncoding.EncodeToString(b[:]))
	}
	p.setValue("#robots", big.String())
	p.waitFor(`document.querySelector('#permalink-note').dataset.over === 'true'`)
	assert.Regexp(t, `^No link: this state needs \d+ KiB in a link, over the 64 KiB a link may hold\.`, p.text("#permalink-note"))
	assert.True(t, eval[bool](p, `document.querySelector('#permalink').hidden`), "no link")
	assert.Equal(t, "", eval[string](p, `location.hash`), "nor a stale one in the address bar")

	// Back under it, the link is back.
	p.setValue("#robots", trap)
	p.waitFor(`!document.querySelector('#permalink').hidden && location.hash.startsWith('#z=')`)

	// A link that expands past maxStateBytes is not read: 2 MiB of one
	// byte deflate to a few KiB.
	var z bytes.Buffer
	w, err := flate.NewWriter(&z, flate.BestCompression)
	require.NoError(t, err)
	_, _ = w.Write([]byte(`{"v":1,"robots":"` + strings.Repeat("a", 2<<20) + `","agents":"","urls":"/","mode":"google"}`))
	require.NoError(t, w.Close())
	bomb := "#z=" + base64.RawURLEncoding.EncodeToString(z.Bytes())
	require.Less(t, len(bomb), 64<<10)
	base := eval[string](p, `location.origin`)
	q := p.newTab()
	q.do(chromedp.Navigate(base + "/" + bomb))
	q.waitFor(`document.querySelector('#source-state').dataset.state === 'example' && !document.body.hasAttribute('aria-busy')`)
	assert.Equal(t, "This link could not be read: it expands past 1024 KiB. The editor has the example instead.", q.text("#load-status .link-error"))
	assert.Equal(t, example, eval[string](q, `document.querySelector('#robots').value`))

	// Nor is one that is not a state of the page, opened anew (the query
	// makes it another document) or pasted into the open page.
	q.do(chromedp.Navigate(base + "/?again#z=not*base64"))
	q.waitFor(`(e => e && e.textContent === 'This link could not be read: not base64url. The editor has the example instead.')(document.querySelector('#load-status .link-error'))`)
	q.waitFor(`document.querySelector('#source-state').dataset.state === 'example'`)
	q.typeInto("#urls", "/kept")
	q.waitVerdicts("/kept")
	q.do(chromedp.Evaluate[chromedp.Void](`location.hash = '#j=e30'`)) // {}
	q.waitFor(`(e => e && e.textContent === 'This link could not be read: it is not a state of this page. The page keeps what it showed.')(document.querySelector('#load-status .link-error'))`)
	assert.Equal(t, "/kept", eval[string](q, `document.querySelector('#urls').value`))
}

func TestGroupDirectivesAndUsage(t *testing.T) {
	p := openPage(t, 1280, 900)
	p.setValue("#robots", "Sitemap: https://example.com/a.xml\nUser-agent: Bingbot\nCrawl-delay: 5\nRequest-rate: 1/10s\nContent-Signal: search=yes, ai-train=no\nDisallow: /x\n")
	p.typeInto("#agents", "Bingbot")
	p.typeInto("#urls", "/page")
	p.waitVerdicts("/page")
	p.waitFor(`document.querySelector('#group-info').textContent.includes('Crawl-delay')`)
	info := eval[string](p, `document.querySelector('#group-info').innerText`)
	assert.Contains(t, info, "Crawl-delay\n5 s (line 3); Google ignores it")
	assert.Contains(t, info, "Request-rate\n1 request every 10 s (line 4)")
	assert.Contains(t, info, "line 5 Content-Signal: search=yes, ai-train=no")
	assert.Contains(t, info, "Sitemaps\nhttps://example.com/a.xml")
	usage := eval[string](p, `document.querySelector('#results .result .ai-use').innerText`)
	assert.Contains(t, usage, "ai-train=no (Content-Signal, line 5)")
	assert.Contains(t, usage, "Search index: yes", "Bingbot, a search index, asks the search question")
	assert.NotContains(t, usage, "Training:", "Bingbot trains nothing, by the crawler table")
}

// lineGeometry returns, for each line of the editor, where the textarea
// puts it (its top, from the height a copy of the textarea with the lines
// before it needs) and where the box behind it and its number lie.
type lineGeometry struct {
	Text     float64 `json:"text"`
	Box      float64 `json:"box"`
	BoxH     float64 `json:"boxH"`
	Num      float64 `json:"num"`
	NumH     float64 `json:"numH"`
	TextNext float64 `json:"textNext"`
}

func (p *page) lineGeometry() []lineGeometry {
	p.t.Helper()
	return eval[[]lineGeometry](p, `(() => {
		const ta = document.querySelector('#robots');
		const copy = ta.cloneNode();
		copy.removeAttribute('id');
		copy.style.height = '0px';
		ta.parentElement.appendChild(copy);
		const pad = parseFloat(getComputedStyle(ta).paddingTop) + parseFloat(getComputedStyle(ta).paddingBottom);
		const lines = ta.value.split('\n');
		const heightOf = (n) => { copy.value = lines.slice(0, n).join('\n'); return n === 0 ? 0 : copy.scrollHeight - pad; };
		const boxes = document.querySelectorAll('#backdrop .bl');
		const nums = document.querySelectorAll('#gutter .ln');
		const out = lines.map((_, i) => ({
			text: heightOf(i), textNext: heightOf(i + 1),
			box: boxes[i].offsetTop - boxes[0].offsetTop, boxH: boxes[i].offsetHeight,
			num: nums[i].offsetTop - nums[0].offsetTop, numH: nums[i].offsetHeight,
		}));
		copy.remove();
		return out;
	})()`)
}

func TestLongLinesWrapAligned(t *testing.T) {
	for _, size := range []struct{ w, h int64 }{{1280, 900}, {390, 844}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			p := openPage(t, size.w, size.h)
			long := "User-agent: *\n" +
				"Disallow: /" + strings.Repeat("very-long-path-segment/", 12) + "\n" +
				"Allow: /" + strings.Repeat("x", 400) + "\n" +
				"# " + strings.Repeat("a comment that goes on ", 20) + "\n" +
				"\n\tDisallow: /tab\n" +
				"Disallow: /end\n"
			p.setValue("#robots", long)
			p.typeInto("#urls", "/"+strings.Repeat("very-long-path-segment/", 12)+"z\n/end")
			p.waitVerdicts("/"+strings.Repeat("very-long-path-segment/", 12)+"z", "/end")
			assert.Equal(t, 0, eval[int](p, `document.querySelector('#robots').scrollWidth - document.querySelector('#robots').clientWidth`), "no sideways scrolling: lines wrap")
			geo := p.lineGeometry()
			wrapped := 0
			for i, g := range geo {
				assert.InDelta(t, g.Text, g.Box, 0.5, "line %d: its box lies under it", i+1)
				assert.InDelta(t, g.TextNext-g.Text, g.BoxH, 0.5, "line %d: its box is as tall as it", i+1)
				assert.InDelta(t, g.Box, g.Num, 0.5, "line %d: its number is beside it", i+1)
				assert.InDelta(t, g.BoxH, g.NumH, 0.5, "line %d: its number is as tall", i+1)
				if g.BoxH > 30 {
					wrapped++
				}
			}
			assert.GreaterOrEqual(t, wrapped, 3, "the long lines wrap")
			assert.Equal(t, []int{2, 7}, p.markedLines("decides-disallow"))

			// Scrolled to the end, the last line's highlight still lies under it.
			p.do(chromedp.Evaluate[chromedp.Void](`(e => { e.scrollTop = e.scrollHeight; e.dispatchEvent(new Event('scroll')); })(document.querySelector('#robots'))`))
			assert.Equal(t, eval[float64](p, `document.querySelector('#robots').scrollTop`), eval[float64](p, `document.querySelector('#backdrop').scrollTop`))
			assert.Equal(t, eval[float64](p, `document.querySelector('#robots').scrollTop`), eval[float64](p, `document.querySelector('#gutter').scrollTop`))
			assert.Empty(t, p.errors())
		})
	}
}

// newTab opens a fresh tab of the same browser, for the rest of the test.
// Its first Run has no timeout: the tab lives as long as the context of
// that Run.
func (p *page) newTab() *page {
	p.t.Helper()
	tab, cancel := chromedp.NewContext(p.ctx)
	p.t.Cleanup(cancel)
	require.NoError(p.t, chromedp.Do(tab))
	return &page{t: p.t, ctx: tab}
}

// screenshot captures the page as PNG.
func (p *page) screenshot() []byte {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitTimeout)
	defer cancel()
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(p.t, err)
	return shot
}
