package browsertest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// waitTimeout bounds every wait for the page: a hang guard, far above
// what a verdict takes.
const waitTimeout = 20 * time.Second

// chromium returns the browser to drive: $CHROMIUM, or Debian's chromium.
// Without one the test skips, naming the package to install, or fails
// under CI=true, where a skipped browser test would pass unseen.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	msg := "chromium not found: install Debian's chromium package (apt-get install chromium), or set CHROMIUM to a Chromium binary"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

var build struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// robotsBinary builds the robots command of this checkout once.
func robotsBinary(t *testing.T) string {
	t.Helper()
	build.once.Do(func() {
		build.dir, build.err = os.MkdirTemp("", "browsertest-")
		if build.err != nil {
			return
		}
		build.bin = filepath.Join(build.dir, "robots")
		out, err := exec.Command("go", "build", "-o", build.bin, "github.com/fastrobots/robots/cmd/robots").CombinedOutput()
		if err != nil {
			build.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	require.NoError(t, build.err)
	return build.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
	os.Exit(code)
}

// startServe runs "robots serve" with args on a free loopback port until
// the test ends, and returns its URL.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(robotsBinary(t), append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	lines := bufio.NewScanner(stdout)
	require.True(t, lines.Scan(), "robots serve printed nothing")
	base, ok := strings.CutPrefix(lines.Text(), "robots serve: listening on ")
	require.True(t, ok, lines.Text())
	go func() {
		for lines.Scan() {
		}
	}()
	return strings.TrimSuffix(base, "/")
}

// page is one browser tab on the tester.
type page struct {
	t   *testing.T
	ctx context.Context

	mu      sync.Mutex
	console []chromedp.ConsoleMessage
}

// openPage runs "robots serve" with serveArgs, starts a headless Chromium
// with a fresh profile, opens the tester with a viewport of width x
// height, and waits for its first verdicts (the example and its URLs).
func openPage(t *testing.T, width, height int64, serveArgs ...string) *page {
	t.Helper()
	return openPageWith(t, width, height, "", serveArgs...)
}

// openPageWith is openPage with a script that runs in the page before
// its own, when not "".
func openPageWith(t *testing.T, width, height int64, initScript string, serveArgs ...string) *page {
	t.Helper()
	browser := chromium(t)
	base := startServe(t, serveArgs...)
	p := newBrowser(t, browser, width, height, initScript)
	p.do(chromedp.Navigate(base + "/"))
	p.waitFor(`document.querySelectorAll('#results > li').length === 3 && !document.body.hasAttribute('aria-busy')`)
	return p
}

// newBrowser starts the headless Chromium at browser with a fresh profile
// and a viewport of width x height, and returns its page, recording the
// console's messages; initScript, when not "", runs in every document
// before its own scripts.
func newBrowser(t *testing.T, browser string, width, height int64, initScript string) *page {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(int(width), int(height)),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(cancel)
	p := &page{t: t, ctx: ctx}
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(width, height)))
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			p.mu.Lock()
			p.console = append(p.console, m)
			p.mu.Unlock()
		}
	}()
	if initScript != "" {
		_, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: initScript})
		require.NoError(t, err)
	}
	return p
}

// do runs actions, within waitTimeout.
func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitTimeout)
	defer cancel()
	require.NoError(p.t, chromedp.Do(ctx, actions...))
}

// eval returns the value of a JavaScript expression in the page.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	require.NoError(p.t, err, expr)
	return v
}

// waitFor waits until a JavaScript expression is true. It asks from Go:
// chromedp's Poll builds its predicate with new Function, which the page's
// Content-Security-Policy (no 'unsafe-eval') refuses.
func (p *page) waitFor(expr string) {
	p.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !eval[bool](p, "!!("+expr+")") {
		if time.Now().After(deadline) {
			p.t.Fatalf("waiting for %s; the page shows:\n%s", expr, eval[string](p, `document.querySelector('main').innerText`))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// typeInto replaces the content of the field sel by typing text, key by
// key, as a person would.
func (p *page) typeInto(sel, text string) {
	p.t.Helper()
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('`+sel+`').value = ''`), chromedp.SendKeys(chromedp.CSS(sel), text))
	require.Equal(p.t, text, eval[string](p, `document.querySelector('`+sel+`').value`), "typed into %s", sel)
}

// waitVerdicts waits until the page shows verdicts for exactly urls,
// answered after the last key typed, and returns them.
func (p *page) waitVerdicts(urls ...string) []verdict {
	p.t.Helper()
	want := strings.Join(urls, "\n")
	p.waitFor(fmt.Sprintf(`[...document.querySelectorAll('#results .url')].map(e => e.textContent).join('\n') === %q && !document.body.hasAttribute('aria-busy')`, want))
	return eval[[]verdict](p, `[...document.querySelectorAll('#results > li')].map(li => ({
		verdict: li.querySelector('.badge').textContent,
		url: li.querySelector('.url').textContent,
		decider: li.querySelector('.decider').textContent,
		details: li.querySelector('dl') ? li.querySelector('dl').innerText : '',
	}))`)
}

// verdict is one result card as the page shows it.
type verdict struct {
	Verdict string `json:"verdict"`
	URL     string `json:"url"`
	Decider string `json:"decider"`
	Details string `json:"details"`
}

// markedLines returns the numbers of the editor's lines that carry class,
// in the gutter and, checked to agree, in the highlight behind the text.
func (p *page) markedLines(class string) []int {
	p.t.Helper()
	gutter := eval[[]int](p, `[...document.querySelectorAll('#gutter .ln.`+class+`')].map(e => +e.dataset.line)`)
	behind := eval[[]int](p, `[...document.querySelectorAll('#backdrop .bl.`+class+`')].map(e => +e.dataset.line)`)
	assert.Equal(p.t, gutter, behind, "the gutter and the highlight agree on %s", class)
	if gutter == nil {
		return []int{}
	}
	return gutter
}

// errors returns what the page wrote to the console as errors or
// exceptions, Content-Security-Policy violations included.
func (p *page) errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, m := range p.console {
		if m.Type == chromedp.ConsoleError || m.IsException() || strings.Contains(m.Text, "Content Security Policy") {
			out = append(out, m.String())
		}
	}
	return out
}

// example is the robots.txt robots check reads by default
// (cmd/robots/web/example.txt), with its line numbers: the tests type it.
var example = mustRead("../../web/example.txt")

func mustRead(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestExampleVerdicts(t *testing.T) {
	p := openPage(t, 1280, 900)
	p.typeInto("#robots", example)
	p.typeInto("#agents", "Googlebot-Image, Googlebot")
	p.typeInto("#urls", "https://example.com/nogooglebot/photo.jpg\nhttps://example.com/drafts/plan.pdf")
	got := p.waitVerdicts("https://example.com/nogooglebot/photo.jpg", "https://example.com/drafts/plan.pdf")
	assert.Equal(t, "DISALLOWED", got[0].Verdict)
	assert.Equal(t, "Decided by line 2 Disallow: /nogooglebot/", got[0].Decider)
	assert.Contains(t, got[0].Details, `no group names "Googlebot-Image"; the fallback "Googlebot" is named by line 1`)
	assert.Equal(t, "ALLOWED", got[1].Verdict, "Googlebot's group has no rule for drafts")
	assert.Equal(t, "No rule matched: allowed by default.", got[1].Decider)
	assert.Equal(t, []int{2}, p.markedLines("decides-disallow"))
	assert.Equal(t, []int{}, p.markedLines("decides-allow"))
	assert.Equal(t, "2 URLs: 1 allowed, 1 disallowed.", eval[string](p, `document.querySelector('#summary').textContent`))

	// Another crawler falls to the '*' group, where the longest match wins.
	p.typeInto("#agents", "Bingbot")
	p.typeInto("#urls", "https://example.com/drafts/plan.pdf\nhttps://example.com/drafts/public/plan.pdf\nhttps://example.com/report.pdf")
	got = p.waitVerdicts("https://example.com/drafts/plan.pdf", "https://example.com/drafts/public/plan.pdf", "https://example.com/report.pdf")
	assert.Equal(t, []string{"DISALLOWED", "ALLOWED", "DISALLOWED"}, []string{got[0].Verdict, got[1].Verdict, got[2].Verdict})
	assert.Equal(t, "Decided by line 12 Disallow: /drafts/", got[0].Decider)
	assert.Contains(t, got[0].Details, "the longest match wins: 8 bytes against 1 byte for line 7 (Allow)")
	assert.Equal(t, "Decided by line 13 Allow: /drafts/public/", got[1].Decider)
	assert.Equal(t, "Decided by line 9 Disallow: /*.pdf$", got[2].Decider)
	assert.Equal(t, []int{9, 12}, p.markedLines("decides-disallow"))
	assert.Equal(t, []int{13}, p.markedLines("decides-allow"))

	assert.Equal(t, "No findings.", eval[string](p, `document.querySelector('#lint-summary').textContent`), "the example is clean")
	assert.Equal(t, []int{}, p.markedLines("lint-error"))
	assert.Empty(t, p.errors())
}

// trap is a robots.txt whose precedence surprises: an Allow and a
// Disallow of equal length (Allow wins the tie, and lint says the
// Disallow never decides), and a longer Disallow that shadows an Allow.
const trap = "User-agent: *\nDisallow: /page\nAllow: /page\nDisallow: /shop/\nAllow: /shop\n"

func TestPrecedenceTrap(t *testing.T) {
	p := openPage(t, 1280, 900)
	p.typeInto("#robots", trap)
	p.typeInto("#agents", "Googlebot")
	p.typeInto("#urls", "/page\n/shop/boots\n/shop")
	got := p.waitVerdicts("/page", "/shop/boots", "/shop")
	assert.Equal(t, "ALLOWED", got[0].Verdict)
	assert.Equal(t, "Decided by line 3 Allow: /page", got[0].Decider)
	assert.Contains(t, got[0].Details, "Allow wins a tie: both patterns are 5 bytes (line 2 disallows)")
	assert.Equal(t, "DISALLOWED", got[1].Verdict)
	assert.Equal(t, "Decided by line 4 Disallow: /shop/", got[1].Decider)
	assert.Contains(t, got[1].Details, "the longest match wins: 6 bytes against 5 bytes for line 5 (Allow)")
	assert.Equal(t, "ALLOWED", got[2].Verdict)
	assert.Equal(t, []int{4}, p.markedLines("decides-disallow"))
	assert.Equal(t, []int{3, 5}, p.markedLines("decides-allow"))

	// The lint marker: line 2 never decides.
	p.waitFor(`document.querySelector('#lint-summary').textContent === '1 error, 0 warnings.'`)
	assert.Equal(t, []int{2}, p.markedLines("lint-error"))
	assert.Contains(t, eval[string](p, `document.querySelector('#gutter .ln[data-line="2"]').title`), "[equal-priority]")
	finding := eval[string](p, `document.querySelector('#lint-list li[data-line="2"][data-code="equal-priority"]').innerText`)
	assert.Contains(t, finding, "Allow wins the tie, so this line never disallows anything")

	// RFC mode reads the same file the same way here.
	p.do(chromedp.Click(chromedp.CSS(`input[name="mode"][value="rfc"]`)))
	p.waitFor(`document.querySelector('input[value="rfc"]').checked && !document.body.hasAttribute('aria-busy')`)
	assert.Empty(t, p.errors())
}

func TestManyMatchingRules(t *testing.T) {
	// The server lists the first 100 matching rules of a URL; the page says
	// how many more there are, and names the winner, listed or not.
	p := openPage(t, 1280, 900)
	p.setValue("#robots", "User-agent: *\n"+strings.Repeat("Allow: /\n", 102)+"Disallow: /private\n") // pasted: 1,000 keys take long on a busy machine
	p.typeInto("#urls", "/private/x")
	got := p.waitVerdicts("/private/x")
	assert.Equal(t, "DISALLOWED", got[0].Verdict)
	assert.Equal(t, "Decided by line 104 Disallow: /private", got[0].Decider)
	assert.Contains(t, got[0].Details, "the '*' group applies (line 1)")
	assert.Contains(t, got[0].Details, "and 3 more rules")
	assert.Equal(t, 101, eval[int](p, `document.querySelectorAll('#results .matches li').length`))
	assert.Empty(t, p.errors())
}

func TestKeyboard(t *testing.T) {
	p := openPage(t, 1280, 900)
	p.do(chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
	var order []string
	for range 13 {
		p.do(chromedp.KeyEvent("\t"))
		order = append(order, eval[string](p, `(e => e.id || (e.name ? e.name + ':' + e.value : e.className))(document.activeElement)`))
		// The editor's outline is drawn around its gutter and text.
		outlined := `document.activeElement.id === 'robots' ? document.querySelector('#editor') : document.activeElement`
		assert.NotEqual(t, "none", eval[string](p, `getComputedStyle(`+outlined+`).outlineStyle`), "focus is visible on %s", order[len(order)-1])
	}
	assert.Equal(t, []string{"permalink", "copy-link", "load-url", "load-button", "example-button", "robots", "reading-toggle", "crawler", "agents", "mode:google", "urls", "pick", "goto"}, order,
		"the focus follows the page: the link, source, Google's reading, crawler, URLs, then the verdicts")

	// The first verdict's "line 2" link takes the caret to its line.
	assert.Equal(t, "2", eval[string](p, `document.activeElement.dataset.line`))
	p.do(chromedp.KeyEvent("\r"))
	p.waitFor(`document.activeElement.id === 'robots'`)
	selected := eval[string](p, `(e => e.value.slice(e.selectionStart, e.selectionEnd))(document.querySelector('#robots'))`)
	assert.Equal(t, "Disallow: /nogooglebot/", selected)
	assert.Equal(t, []int{2}, eval[[]int](p, `[...document.querySelectorAll('#backdrop .bl.jump')].map(e => +e.dataset.line)`))
}

func TestPhoneWidth(t *testing.T) {
	p := openPage(t, 390, 844)
	assert.LessOrEqual(t, eval[int](p, `document.documentElement.scrollWidth`), 390, "no sideways scrolling")
	assert.Greater(t, eval[float64](p, `document.querySelector('#agents').getBoundingClientRect().top`),
		eval[float64](p, `document.querySelector('#editor').getBoundingClientRect().bottom`), "one column: the crawler below the editor")
	assert.LessOrEqual(t, eval[float64](p, `document.querySelector('#results').getBoundingClientRect().right`), 390.0)
	assert.GreaterOrEqual(t, eval[float64](p, `parseFloat(getComputedStyle(document.querySelector('#urls')).fontSize)`), 14.0, "readable text")
	// The verdicts follow the URL box: its heading and the summary between.
	gap := eval[float64](p, `document.querySelector('#results > li').getBoundingClientRect().top - document.querySelector('#urls').getBoundingClientRect().bottom`)
	assert.Less(t, gap, float64(maxVerdictGap), "the first verdict is %.0f px below the URL box", gap)
	assert.Greater(t, gap, 0.0)
}

// maxVerdictGap is how far below the URL box, at most, the first verdict
// starts on a phone.
const maxVerdictGap = 100

func TestContentSecurityPolicyHolds(t *testing.T) {
	p := openPage(t, 1280, 900)
	// Script and style came from the server's own files, under its policy.
	assert.Equal(t, "flex", eval[string](p, `getComputedStyle(document.querySelector('#editor')).display`))
	// An inline script the page did not have is refused, and says so.
	p.do(chromedp.Evaluate[chromedp.Void](`(() => { const s = document.createElement('script'); s.textContent = 'window.inlineRan = true'; document.body.appendChild(s); })()`))
	assert.False(t, eval[bool](p, `window.inlineRan === true`), "inline script is blocked")
	p.waitFor(`true`)
	time.Sleep(200 * time.Millisecond) // the console message trails the refusal
	errs := p.errors()
	require.Len(t, errs, 1, "only the injected script is refused: %v", errs)
	assert.Contains(t, errs[0], "Content Security Policy")
}

func TestLoadFromURL(t *testing.T) {
	body := "User-agent: *\nDisallow: /cart\nCrawl-delay: 10\n"
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "max-age=3600")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(origin.Close)

	p := openPage(t, 1280, 900, "--allow-private")
	p.typeInto("#urls", origin.URL+"/cart/1")
	p.typeInto("#load-url", origin.URL+"/any/page")
	p.do(chromedp.KeyEvent("\r")) // Enter submits the form
	p.waitFor(fmt.Sprintf(`document.querySelector('#robots').value === %q`, body))
	status := eval[string](p, `document.querySelector('#load-status').innerText`)
	assert.Contains(t, status, origin.URL+"/robots.txt")
	assert.Contains(t, status, "200")
	assert.Contains(t, status, "conditional: the rules below decide (fetched)")
	assert.Contains(t, status, "1 h", "the cache lifetime, from max-age")
	got := p.waitVerdicts(origin.URL + "/cart/1")
	assert.Equal(t, "Decided by line 2 Disallow: /cart", got[0].Decider)
	p.waitFor(`document.querySelector('#lint-summary').textContent === '0 errors, 1 warning.'`)
	assert.Equal(t, []int{3}, p.markedLines("lint-warning"), "Crawl-delay, which Google ignores")
}

func TestLoadFromURLRefusesLoopbackByDefault(t *testing.T) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the guarded server reached %s", r.URL)
	}))
	t.Cleanup(origin.Close)
	p := openPage(t, 1280, 900)
	before := eval[string](p, `document.querySelector('#robots').value`)
	p.typeInto("#load-url", origin.URL)
	p.do(chromedp.KeyEvent("\r"))
	p.waitFor(`document.querySelector('#load-status .error') !== null`)
	assert.Contains(t, eval[string](p, `document.querySelector('#load-status').innerText`),
		"refused to connect to 127.0.0.1: a loopback address is not public")
	assert.Equal(t, before, eval[string](p, `document.querySelector('#robots').value`), "the editor keeps its text")
}

// TestScreenshot takes the pictures of the page docs/serve.md shows: the
// example, its URLs decided, as it opens (the line that decides two URLs
// names both), at a desktop width; and at a phone's width, scrolled to
// the URLs and their verdicts. It checks the pictures always, and writes
// them where SCREENSHOT and SCREENSHOT_PHONE say:
//
//	SCREENSHOT=../../../../docs/serve.png SCREENSHOT_PHONE=../../../../docs/serve-phone.png go test -run TestScreenshot ./...
func TestScreenshot(t *testing.T) {
	for _, shot := range []struct {
		env           string
		width, height int64
		scrollTo      string
	}{
		{"SCREENSHOT", 1280, 900, ""},
		{"SCREENSHOT_PHONE", 390, 844, `label[for="crawler"]`},
	} {
		t.Run(shot.env, func(t *testing.T) {
			p := openPage(t, shot.width, shot.height)
			if shot.scrollTo != "" {
				p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('` + shot.scrollTo + `').scrollIntoView()`))
			}
			png1 := p.screenshot()
			img, err := png.Decode(bytes.NewReader(png1))
			require.NoError(t, err)
			assert.Equal(t, int(shot.width), img.Bounds().Dx())
			assert.Equal(t, int(shot.height), img.Bounds().Dy())
			if path := os.Getenv(shot.env); path != "" {
				require.NoError(t, os.WriteFile(path, png1, 0o644))
				t.Logf("wrote %s", path)
			}
		})
	}
}
