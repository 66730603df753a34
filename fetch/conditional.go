package fetch

import (
	"io"
	"net/http"
	"time"

	"github.com/fastrobots/robots/internal/gzipbody"
)

// A Cache refreshes an expired copy with a conditional request, and a 304
// Not Modified renews the copy without a new body. Fetch never sends
// validators, so for it a 304 leads nowhere (FullAllow).

// maxValidatorBytes bounds the ETag or Last-Modified a cache keeps, so a
// hostile server cannot make every node keep a huge header; a longer one
// is dropped.
const maxValidatorBytes = 512

// validators are sent only with a request for url, the copy's FinalURL.
type validators struct {
	url, etag, lastModified string
}

func (v validators) empty() bool { return v.etag == "" && v.lastModified == "" }

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

// renewedBy keeps the copy's validators where the 304 sent none.
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

type fetchRequest struct {
	cond     validators
	keepBody bool // keep the bytes parsed, to share them
}

type fetched struct {
	res *Result
	// valid are the validators of the final 2xx response, or those of the
	// copy a 304 renewed.
	valid validators
	// body is what was parsed, when asked for and no more than
	// MaxSharedBody; nil otherwise.
	body []byte
	// On a 304, res is only a placeholder with the status and the time.
	notModified bool
	// renewFor is the lifetime the 304's Cache-Control gives; 0 keeps the
	// copy's lifetime.
	renewFor time.Duration
}

// bodyCapture keeps the bytes read through it, up to limit; past that
// the body is not shared.
type bodyCapture struct {
	io.ReadCloser
	buf      []byte
	limit    int
	overflow bool
}

// captureBody decompresses a gzip body first, as robots.FromResponse
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

func (c *bodyCapture) parsed(n int) []byte {
	if c.overflow || n > len(c.buf) || n > MaxSharedBody {
		return nil
	}
	if n == 0 {
		return []byte{}
	}
	return c.buf[:n:n]
}
