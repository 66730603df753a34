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

// RequestTargetError is a request refused because of its request-target,
// the one Go's client would write on the request line. It unwraps to
// ErrRequestTarget.
type RequestTargetError struct {
	Target string
}

func (e *RequestTargetError) Error() string {
	return fmt.Sprintf("%v: %q", ErrRequestTarget, e.Target)
}

// Unwrap returns ErrRequestTarget.
func (e *RequestTargetError) Unwrap() error { return ErrRequestTarget }

// wireRequest is what Go's client writes for a request (net/http's
// Request.write): the request-target of the request line and the Host
// header, which together name the resource the server serves. The
// fields a caller sets by hand (URL.Opaque, URL.RawPath, Host) can make
// them differ from what URL.String() shows, so the Transport checks these.
type wireRequest struct {
	// scheme is the URL's, lower-cased: the connection's protocol.
	scheme string
	// host is the Host header: req.Host, or req.URL.Host when that is empty.
	host string
	// target is the request-target up to its query: what
	// req.URL.RequestURI() writes before "?" and URL.RawQuery, which is
	// URL.Opaque when set (prefixed with the scheme when it starts with
	// "//"), else the escaped path. A CONNECT request without a path sends
	// the authority (Opaque, else the host) instead, and no query.
	target string
	// query is URL.RawQuery, sent after a "?" when hasQuery.
	query    string
	hasQuery bool
}

// wireRequestOf returns what Go's client sends for req, whose URL is set.
// It builds no string for a URL whose path needs no escaping: the query
// is kept apart from the target rather than joined to it.
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
		// As URL.RequestURI writes it.
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

// requestTarget returns the request-target as written on the request
// line: the target, then "?" and the query when there is one.
func (w wireRequest) requestTarget() string {
	if !w.hasQuery {
		return w.target
	}
	return w.target + "?" + w.query
}

// appendOriginForm appends to b the URL an origin-form request is read
// as, scheme://host, the target and the query: pageURLs' only URL for it.
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

// originForm reports whether the request-target is a path, which the
// server reads on the Host header's origin.
func (w *wireRequest) originForm() bool { return strings.HasPrefix(w.target, "/") }

// pageURLs returns the URLs the server may read the request as, each of
// which robots.txt must allow. An origin-form target (a path) gives one:
// the path on the Host header's origin. An absolute-form target
// ("http://host/path", which an Opaque of "//host/path" also gives)
// names its own origin, which servers take in place of the Host header
// (RFC 9112 section 3.2.2); when that is another origin, the path is
// also read on the Host header's, as a server that ignores the absolute
// form would. Any other target (an authority, "*", a relative form) is
// an error.
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

// check returns why the request cannot be decided as sent: its Host
// header holds a byte Go's client would not send it with (it then sends
// no Host header, and the server picks a site the check did not see); or
// its request-target holds a space, a control byte or '#', which split or
// cut the target where servers differ on how to read it.
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

// plainTarget reports whether s holds no space, control byte or '#'.
// Bytes of 0x80 and above pass: they are not runes to decode here, and
// the invalid ones (RuneError, U+FFFD) never split a target.
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

// hostHeaderByte marks the bytes of hostHeaderBytes: every request's host
// is read byte by byte, and a table answers without a search.
var hostHeaderByte = func() (t [256]bool) {
	for i := 0; i < len(hostHeaderBytes); i++ {
		t[hostHeaderBytes[i]] = true
	}
	return t
}()

// isRobotsTxt reports whether the request asks for /robots.txt itself
// (with any query), on whichever origin the server reads.
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

// splitAbsolute returns the path and query of an absolute-form target
// "scheme://authority/path?query" of an http or https scheme, the path
// being "/" when empty; ok is false for any other form.
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
