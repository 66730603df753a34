package robots

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/fastrobots/robots/internal/gzipbody"
)

// Errors of FromResponse, returned with a FullDisallow Robots
// (ReasonNetwork).
var (
	// ErrNoResponse: FromResponse was given a nil response.
	ErrNoResponse = errors.New("robots: no response")
	// ErrBadStatus: the status is outside 200-599.
	ErrBadStatus = errors.New("robots: invalid HTTP status")
)

// FromStatus returns the rules an HTTP answer to a robots.txt request
// sets, for a crawler that fetched it itself: the status goes through
// StatusPolicy, and under Conditional (2xx) body is parsed as Parse parses
// it. Otherwise body is ignored, the Robots has no groups, and every Agent
// of it honours the policy. Its Policy and Reason say which row applied.
//
// code is the status of the last response: a 3xx means the client did not
// follow the redirect, which leads nowhere (FullAllow).
func FromStatus(code int, body []byte, opts ...Option) *Robots {
	p, why := StatusPolicy(code)
	if p == Conditional {
		return Parse(body, opts...)
	}
	return withPolicy(p, why, opts)
}

// FromResponse is FromStatus for a response the crawler fetched itself
// with net/http. It reads the body only under Conditional (2xx), and at
// most the size limit plus one byte, to learn whether there was more
// (Truncated). A gzip body that the transport left compressed is
// decompressed, and the limit counts decompressed bytes.
//
// FromResponse does not close resp.Body, which the caller owns. It ignores
// resp.Request: the rules apply to the origin the crawler asked for, even
// when its client followed redirects elsewhere.
//
// The Robots is never nil. The error is non-nil when there was no usable
// response: resp is nil (ErrNoResponse), its status is outside 200-599
// (ErrBadStatus), the body failed before its end or the size limit, or a
// gzip body is corrupt. The Robots is then FullDisallow with
// ReasonNetwork, as Google treats incomplete data.
func FromResponse(resp *http.Response, opts ...Option) (*Robots, error) {
	if resp == nil {
		return withPolicy(FullDisallow, ReasonNetwork, opts), ErrNoResponse
	}
	p, why := StatusPolicy(resp.StatusCode)
	switch {
	case why == ReasonNetwork:
		return withPolicy(p, why, opts), fmt.Errorf("%w: %d", ErrBadStatus, resp.StatusCode)
	case p != Conditional:
		return withPolicy(p, why, opts), nil
	}
	body, err := readBody(resp, configure(opts).parse.BodyLimit())
	if err != nil {
		return withPolicy(FullDisallow, ReasonNetwork, opts), err
	}
	return Parse(body, opts...), nil
}

// withPolicy returns an empty Robots that answers p to every URL.
func withPolicy(p Policy, why Reason, opts []Option) *Robots {
	r := Parse(nil, opts...)
	r.policy, r.reason = uint8(p), uint8(why)
	return r
}

// readBody reads up to limit decompressed bytes, plus one to see truncation.
func readBody(resp *http.Response, limit int) ([]byte, error) {
	if resp.Body == nil {
		return nil, nil
	}
	var r io.Reader = gzipbody.Body(resp)
	if limit >= 0 {
		r = io.LimitReader(r, int64(limit)+1)
	}
	var buf bytes.Buffer
	if n := resp.ContentLength; n > 0 && limit >= 0 && n <= int64(limit) {
		buf.Grow(int(n) + 1) // the header is only trusted within the limit
	}
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
