package serve

import (
	"io"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/cmd/robots/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// get fetches path from s and returns the response with its body read.
func get(t *testing.T, base, path string, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	require.NoError(t, err)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

func TestServePageAndAssets(t *testing.T) {
	s := localAPI(t)
	for _, tt := range []struct{ path, contentType, contains string }{
		{"/", "text/html; charset=utf-8", `<script src="/app.js" defer></script>`},
		{"/app.js", "text/javascript; charset=utf-8", "'/api/explain'"},
		{"/style.css", "text/css; charset=utf-8", ".editor"},
		{"/favicon.svg", "image/svg+xml", "<svg"},
		{"/example.txt", "text/plain; charset=utf-8", string(web.Example)},
	} {
		resp, body := get(t, s.URL, tt.path)
		assert.Equal(t, http.StatusOK, resp.StatusCode, tt.path)
		assert.Equal(t, tt.contentType, resp.Header.Get("Content-Type"), tt.path)
		assert.Contains(t, body, tt.contains, tt.path)
		assert.Equal(t, contentSecurityPolicy, resp.Header.Get("Content-Security-Policy"), tt.path)
		assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"), tt.path)

		etag := resp.Header.Get("ETag")
		require.NotEmpty(t, etag, tt.path)
		again, _ := get(t, s.URL, tt.path, "If-None-Match", etag)
		assert.Equal(t, http.StatusNotModified, again.StatusCode, "%s: an unchanged file is not sent again", tt.path)
	}
}

func TestServePageRoutes(t *testing.T) {
	s := localAPI(t)
	resp, _ := get(t, s.URL, "/web/index.html")
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "only the page's files are served")
	resp, _ = get(t, s.URL, "/index.html")
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	status, _ := clitest.PostType(t, s, "/", "text/plain", "")
	assert.Equal(t, http.StatusMethodNotAllowed, status)
	head, err := http.Head(s.URL + "/")
	require.NoError(t, err)
	head.Body.Close()
	assert.Equal(t, http.StatusOK, head.StatusCode)
}

func TestServeContentSecurityPolicyIsStrict(t *testing.T) {
	assert.Contains(t, contentSecurityPolicy, "default-src 'self'")
	assert.NotContains(t, contentSecurityPolicy, "unsafe-inline")
	assert.NotContains(t, contentSecurityPolicy, "unsafe-eval")
	assert.NotContains(t, contentSecurityPolicy, "http", "no other host")
}

// The page must work under its policy: no inline script or style, nothing
// from another host. A browser would refuse them; the browser test in
// internal/browsertest sees the page work, this test says why.
func TestServePageHasNoInlineCodeNorOtherHosts(t *testing.T) {
	html, err := fs.ReadFile(web.Files(), "index.html")
	require.NoError(t, err)
	page := string(html)
	for _, script := range regexp.MustCompile(`<script[^>]*>`).FindAllString(page, -1) {
		assert.Contains(t, script, `src="/`, "every script is a file of the server: %s", script)
	}
	assert.NotContains(t, page, "<style")
	assert.NotRegexp(t, `\sstyle=`, page)
	assert.NotRegexp(t, `\son[a-z]+=`, page, "no inline event handlers")
	assert.NotRegexp(t, `(src|href)="(https?:)?//`, page, "nothing loaded from another host")

	css, err := fs.ReadFile(web.Files(), "style.css")
	require.NoError(t, err)
	assert.NotContains(t, string(css), "@import")
	assert.NotRegexp(t, `url\(`, string(css))

	js, err := fs.ReadFile(web.Files(), "app.js")
	require.NoError(t, err)
	for _, call := range regexp.MustCompile(`fetch\(([^,)]*)`).FindAllStringSubmatch(string(js), -1) {
		arg := strings.TrimSpace(call[1])
		// A path of the server, or one relative to the page (its example,
		// which a page without a server finds beside itself).
		sameOrigin := arg == "path" || regexp.MustCompile(`^'(/|[a-z][a-z.]*')`).MatchString(arg)
		assert.True(t, sameOrigin, "fetch only from the page's own origin: %s", call[0])
	}
	assert.NotContains(t, string(js), "innerHTML", "text from the user or the network is never parsed as HTML")
	assert.NotContains(t, string(js), "eval(")
}

func TestServePageIsAccessible(t *testing.T) {
	html, err := fs.ReadFile(web.Files(), "index.html")
	require.NoError(t, err)
	page := string(html)
	assert.Contains(t, page, `<html lang="en">`)
	assert.Contains(t, page, `name="viewport" content="width=device-width, initial-scale=1"`)
	// Every text field has a label.
	for _, m := range regexp.MustCompile(`<(?:input|textarea|select)[^>]*\sid="([^"]+)"[^>]*>`).FindAllStringSubmatch(page, -1) {
		if strings.Contains(m[0], `type="radio"`) {
			continue // labelled by the label around it
		}
		assert.Contains(t, page, `<label for="`+m[1]+`"`, "field %s has a label", m[1])
	}
	assert.Contains(t, page, `role="status" aria-live="polite"`, "verdicts are announced")
	assert.NotRegexp(t, `tabindex="[1-9]`, page, "the focus order is the document's")
	css, err := fs.ReadFile(web.Files(), "style.css")
	require.NoError(t, err)
	assert.Contains(t, string(css), ":focus-visible { outline: 3px solid", "focus is visible")
}
