package serve

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http"
	"time"

	"github.com/fastrobots/robots/cmd/robots/web"
)

// contentSecurityPolicy lets the page load its script, style and icon
// from the server and nothing else: no inline script or style, no other
// host, no plugin, no framing, no form posted anywhere.
const contentSecurityPolicy = "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'"

// webAssets are the files of the page, by path, with their types.
var webAssets = []struct{ path, file, contentType string }{
	{"/{$}", "index.html", "text/html; charset=utf-8"},
	{"/app.js", "app.js", "text/javascript; charset=utf-8"},
	{"/style.css", "style.css", "text/css; charset=utf-8"},
	{"/favicon.svg", "favicon.svg", "image/svg+xml"},
}

// routePage routes GET and HEAD of the page's files.
func (s *server) routePage() {
	for _, a := range webAssets {
		data, err := fs.ReadFile(web.Files(), a.file)
		if err != nil {
			panic("robots serve: embedded file missing: " + a.file) // a build without them is broken
		}
		s.mux.Handle("GET "+a.path, assetHandler(data, a.contentType))
	}
	s.mux.Handle("GET /example.txt", assetHandler(web.Example, "text/plain; charset=utf-8"))
}

// assetHandler serves one embedded file, with an ETag so that a browser
// revalidates it cheaply instead of fetching it again.
func assetHandler(data []byte, contentType string) http.Handler {
	sum := sha256.Sum256(data)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("ETag", etag)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
	})
}
