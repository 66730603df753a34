// Package gzipbody reads the body of an HTTP response to a robots.txt
// request as it is parsed: decompressed when it is gzip that the
// transport left compressed. Package robots (FromResponse) and package
// fetch (which keeps the bytes it parsed, to share them) read bodies
// through it, so that both decide alike which bodies are gzip.
package gzipbody

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Compressed reports whether resp's body is gzip the transport left
// compressed: Content-Encoding says gzip and resp.Uncompressed is false,
// as when the request asked for gzip itself.
func Compressed(resp *http.Response) bool {
	return !resp.Uncompressed && strings.EqualFold(strings.TrimSpace(resp.Header.Get("Content-Encoding")), "gzip")
}

// Body returns resp's body as it is parsed: a reader that decompresses
// it when it is Compressed, resp.Body itself otherwise. The gzip header is
// read on the first Read, whose error a corrupt header is. Closing the
// reader closes resp.Body.
func Body(resp *http.Response) io.ReadCloser {
	if resp.Body == nil || !Compressed(resp) {
		return resp.Body
	}
	return &reader{raw: resp.Body}
}

// reader decompresses a gzip body on first read.
type reader struct {
	raw io.ReadCloser
	zr  *gzip.Reader
	err error
}

func (g *reader) Read(p []byte) (int, error) {
	if g.zr == nil && g.err == nil {
		g.zr, g.err = gzip.NewReader(g.raw)
		if g.err != nil {
			g.err = fmt.Errorf("gzip body: %w", g.err)
		}
	}
	if g.err != nil {
		return 0, g.err
	}
	return g.zr.Read(p)
}

func (g *reader) Close() error { return g.raw.Close() }
