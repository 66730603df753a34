package fetch

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/fastrobots/robots"
)

// ErrRequestTarget is the error a Transport returns, wrapped in a
// *RequestTargetError, for a request whose request-target robots.txt
// cannot decide: neither a path nor an absolute URL, or holding bytes no
// client sends.
var ErrRequestTarget = errors.New("fetch: request-target is neither a path nor an absolute http(s) URL")

// RequestTargetError is a request refused because of the request-target
// Go's client would write on the request line. It unwraps to
// ErrRequestTarget.
type RequestTargetError struct {
	Target string
}

func (e *RequestTargetError) Error() string {
	return fmt.Sprintf("%v: %q", ErrRequestTarget, e.Target)
}

// Unwrap returns ErrRequestTarget.
func (e *RequestTargetError) Unwrap() error { return ErrRequestTarget }

// wireRequest is the request-target and Host header Go's client writes
// for a request (net/http's Request.write). URL.Opaque, URL.RawPath and
// Host can make them differ from URL.String(), so the Transport checks
// what is actually sent.
type wireRequest struct {
	// scheme is lower-cased.
	scheme string
	// host is the Host header.
	host string
	// target is the request-target before "?", as URL.RequestURI writes
	// it; for a CONNECT without a path, the authority and no query.
	target string
	// query is sent after a "?" when hasQuery.
	query    string
	hasQuery bool
}

// wireRequestOf keeps the query apart from the target so that it builds
// no string for a URL whose path needs no escaping.
func wireRequestOf(req *http.Request) wireRequest {
	u := req.URL
	w := wireRequest{scheme: strings.ToLower(u.Scheme), host: req.Host, query: u.RawQuery,
		hasQuery: u.ForceQuery || u.RawQuery != ""}
	if w.host == "" {
		w.host = u.Host
	}
	switch {
	case req.Method == http.MethodConnect && u.Path == "":
		w.target, w.query, w.hasQuery = w.host, "", false
		if u.Opaque != "" {
			w.target = u.Opaque
		}
	case u.Opaque != "":
		w.target = u.Opaque
		if strings.HasPrefix(w.target, "//") {
			w.target = u.Scheme + ":" + w.target
		}
	default:
		if w.target = u.EscapedPath(); w.target == "" {
			w.target = "/"
		}
	}
	return w
}

func (w wireRequest) requestTarget() string {
	if !w.hasQuery {
		return w.target
	}
	return w.target + "?" + w.query
}

func (w *wireRequest) appendOriginForm(b []byte) []byte {
	b = append(b, w.scheme...)
	b = append(b, "://"...)
	b = append(b, w.host...)
	b = append(b, w.target...)
	if w.hasQuery {
		b = append(b, '?')
		b = append(b, w.query...)
	}
	return b
}

func (w *wireRequest) originForm() bool { return strings.HasPrefix(w.target, "/") }

// pageURLs returns the URLs the server may read the request as, each of
// which robots.txt must allow. An absolute-form target names its own
// origin, which servers take in place of the Host header (RFC 9112
// section 3.2.2); when that differs from the Host header's, the path on
// the Host header's origin is also checked, for servers that ignore the
// absolute form. Any target other than a path or an absolute URL is an
// error.
func (w wireRequest) pageURLs() ([]string, error) {
	if w.originForm() {
		return []string{string(w.appendOriginForm(nil))}, nil
	}
	target := w.requestTarget()
	pathQuery, ok := splitAbsolute(target)
	if !ok {
		return nil, &RequestTargetError{Target: target}
	}
	onHost := w.scheme + "://" + w.host + pathQuery
	if onHost == target {
		return []string{onHost}, nil
	}
	return []string{onHost, target}, nil
}

// check refuses a Host header Go's client would drop (the server would
// then pick a site the check did not see), and a request-target holding a
// space, a control byte or '#', which servers read differently.
func (w wireRequest) check() error {
	for i := 0; i < len(w.host); i++ {
		if c := w.host[i]; c < utf8.RuneSelf && !hostHeaderByte[c] {
			return &robots.URLError{URL: w.scheme + "://" + w.host, Err: robots.ErrBadHost}
		}
	}
	if !plainTarget(w.target) || w.hasQuery && !plainTarget(w.query) {
		return &RequestTargetError{Target: w.requestTarget()}
	}
	return nil
}

// plainTarget passes bytes of 0x80 and above: even invalid UTF-8 never
// splits a target.
func plainTarget(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c == 0x7f || c == '#' {
			return false
		}
	}
	return true
}

// hostHeaderBytes are the ASCII bytes Go's client sends a Host header
// with (httpguts.ValidHostHeader); a non-ASCII name it sends as punycode.
const hostHeaderBytes = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!$%&()*+,-.:;=[]'_~"

var hostHeaderByte = func() (t [256]bool) {
	for i := 0; i < len(hostHeaderBytes); i++ {
		t[hostHeaderBytes[i]] = true
	}
	return t
}()

// isRobotsTxt ignores the query and the origin.
func (w wireRequest) isRobotsTxt() bool {
	target := w.target
	if !strings.HasPrefix(target, "/") {
		var ok bool
		if target, ok = splitAbsolute(target); !ok {
			return false
		}
	}
	path, _, _ := strings.Cut(target, "?")
	return path == "/robots.txt"
}

// splitAbsolute returns the path and query of an http or https
// absolute-form target, the path being "/" when empty.
func splitAbsolute(target string) (pathQuery string, ok bool) {
	scheme, rest, found := strings.Cut(target, "://")
	if !found {
		return "", false
	}
	switch strings.ToLower(scheme) {
	case "http", "https":
	default:
		return "", false
	}
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		return "/", true
	}
	if pathQuery = rest[end:]; pathQuery[0] == '?' {
		pathQuery = "/" + pathQuery
	}
	return pathQuery, true
}
