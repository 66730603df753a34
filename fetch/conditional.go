package fetch

import (
	"io"
	"net/http"
	"time"

	"github.com/fastrobots/robots/internal/gzipbody"
)

// A Cache refreshes an expired copy with a conditional request: it sends
// the copy's validators (If-None-Match with its ETag, If-Modified-Since
// with its Last-Modified), and a 304 Not Modified then renews the copy
// (same rules, new lifetime) instead of fetching and parsing the body
// again. Fetch never sends validators, so for it, as in the status table,
// a 304 answers no conditional request and leads nowhere (FullAllow).

// maxValidatorBytes bounds the ETag or Last-Modified a cache keeps. A
// longer one is dropped and the copy is refreshed without it: real
// validators are tens of bytes, and a hostile server could send a header
// of a megabyte for every node to keep.
const maxValidatorBytes = 512

// validators identify the copy of a robots.txt a cache holds: the ETag and
// Last-Modified of the response it came from, and the URL of that
// response (the copy's FinalURL), the only request they are sent with.
type validators struct {
	url, etag, lastModified string
}

func (v validators) empty() bool { return v.etag == "" && v.lastModified == "" }

// validatorsOf returns the validators of a response to a request for url,
// each dropped when longer than maxValidatorBytes.
func validatorsOf(url string, h http.Header) validators {
	v := validators{url: url, etag: h.Get("ETag"), lastModified: h.Get("Last-Modified")}
	if len(v.etag) > maxValidatorBytes {
		v.etag = ""
	}
	if len(v.lastModified) > maxValidatorBytes {
		v.lastModified = ""
	}
	if v.empty() {
		return validators{}
	}
	return v
}

// renewedBy returns the validators of a copy a 304 renewed: those the 304
// sent, and the copy's where it sent none.
func (v validators) renewedBy(h http.Header) validators {
	n := validatorsOf(v.url, h)
	if n.etag == "" {
		n.etag = v.etag
	}
	if n.lastModified == "" {
		n.lastModified = v.lastModified
	}
	n.url = v.url
	return n
}

// addTo makes req conditional when the validators belong to its URL, and
// reports whether it did.
func (v validators) addTo(req *http.Request) bool {
	if v.empty() || req.URL.String() != v.url {
		return false
	}
	if v.etag != "" {
		req.Header.Set("If-None-Match", v.etag)
	}
	if v.lastModified != "" {
		req.Header.Set("If-Modified-Since", v.lastModified)
	}
	return true
}

// fetchRequest is what a Cache asks of a fetch besides the URL.
type fetchRequest struct {
	cond     validators // sent with the request for cond.url
	keepBody bool       // keep the bytes parsed, to share them
}

// fetched is a fetch's outcome as a Cache needs it.
type fetched struct {
	res *Result
	// valid are the validators of the final response of a 2xx, or those of
	// the copy a 304 renewed.
	valid validators
	// body is what was parsed, when asked for and no more than
	// MaxSharedBody; nil otherwise.
	body []byte
	// notModified is true when the server answered the conditional request
	// with 304: the copy whose validators were sent holds, and res is only
	// a placeholder with the status and the time.
	notModified bool
	// renewFor is the lifetime the 304's Cache-Control gives; 0 when it
	// sent none, and the copy keeps its lifetime.
	renewFor time.Duration
}

// bodyCapture keeps the bytes read through it, up to limit; past that it
// keeps nothing more and the body is not shared.
type bodyCapture struct {
	io.ReadCloser
	buf      []byte
	limit    int
	overflow bool
}

// captureBody puts a bodyCapture under resp's body. A gzip body the
// transport left compressed is decompressed first, as robots.FromResponse
// would, so that what is kept is what is parsed.
func captureBody(resp *http.Response) *bodyCapture {
	if gzipbody.Compressed(resp) {
		resp.Body, resp.Uncompressed = gzipbody.Body(resp), true
	}
	c := &bodyCapture{ReadCloser: resp.Body, limit: MaxSharedBody + 1}
	resp.Body = c
	return c
}

func (c *bodyCapture) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	switch {
	case c.overflow:
	case len(c.buf)+n > c.limit:
		c.overflow, c.buf = true, nil
	default:
		c.buf = append(c.buf, p[:n]...)
	}
	return n, err
}

// parsed returns the first n bytes read, those the parse read; nil when
// more than MaxSharedBody were read.
func (c *bodyCapture) parsed(n int) []byte {
	if c.overflow || n > len(c.buf) || n > MaxSharedBody {
		return nil
	}
	if n == 0 {
		return []byte{}
	}
	return c.buf[:n:n]
}
