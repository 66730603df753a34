package fetch

import (
	"net/http"
	"strings"

	"github.com/fastrobots/robots/internal/percent"
)

// withEscapesNormalised returns, when the request-target Go's client
// would write for req holds a percent-encoded unreserved character or an
// escape with lower-case hex digits, a shallow copy of req with its own
// URL whose target has them normalised (normalisePercentEncoding), and
// true. Otherwise, and for a CONNECT to an authority, it returns req and
// false. wire is wireRequestOf(req). Only the target changes: the path
// and query a server decodes from it, and the URL's Path, stay as they
// were. The authority of an absolute-form target is left as written.
func withEscapesNormalised(req *http.Request, wire *wireRequest) (*http.Request, bool) {
	if strings.IndexByte(wire.target, '%') < 0 && strings.IndexByte(wire.query, '%') < 0 {
		return req, false
	}
	u := req.URL
	if req.Method == http.MethodConnect && u.Path == "" {
		return req, false
	}
	opaque, rawPath, changed := u.Opaque, u.RawPath, false
	if u.Opaque != "" {
		start := authorityEnd(u.Opaque)
		if s, ok := normalisePercentEncoding(u.Opaque[start:]); ok {
			opaque, changed = u.Opaque[:start]+s, true
		}
	} else if s, ok := normalisePercentEncoding(wire.target); ok {
		// EscapedPath writes RawPath as long as it decodes to Path, which
		// decoding unreserved escapes and changing hex case preserve.
		rawPath, changed = s, true
	}
	rawQuery, ok := normalisePercentEncoding(u.RawQuery)
	if !changed && !ok {
		return req, false
	}
	nu := *u
	nu.Opaque, nu.RawPath, nu.RawQuery = opaque, rawPath, rawQuery
	r := req.WithContext(req.Context())
	r.URL = &nu
	return r, true
}

// authorityEnd returns where the path of an absolute-form Opaque
// ("//host/path", "http://host/path") starts, and 0 for any other.
func authorityEnd(opaque string) int {
	if strings.HasPrefix(opaque, "/") && !strings.HasPrefix(opaque, "//") {
		return 0
	}
	i := strings.Index(opaque, "//")
	if i < 0 {
		return 0
	}
	i += 2
	if j := strings.IndexAny(opaque[i:], "/?"); j >= 0 {
		return i + j
	}
	return len(opaque)
}

// normalisePercentEncoding returns s with every percent-encoded unreserved
// character decoded (RFC 3986 section 6.2.2.2: "%7E" is "~", "%70" is "p")
// and the hex digits of every other escape in upper case (section
// 6.2.2.1: "%2f" is "%2F"), and false when s is already so, without
// allocating. Each rewrite gives the same URI, so a server reads the
// result as it reads s. A '%' that starts no escape is kept.
func normalisePercentEncoding(s string) (string, bool) {
	i := firstToNormalise(s)
	if i < 0 {
		return s, false
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		if !percent.IsEscape(s, i) {
			b = append(b, s[i])
			continue
		}
		if d := escaped(s, i); unreserved[d] {
			b = append(b, d)
		} else {
			b = append(b, percent.Escape(d)...)
		}
		i += 2
	}
	return string(b), true
}

// firstToNormalise returns the index of the first escape
// normalisePercentEncoding rewrites, or -1.
func firstToNormalise(s string) int {
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '%')
		if j < 0 {
			return -1
		}
		i += j
		if !percent.IsEscape(s, i) {
			i++
			continue
		}
		if unreserved[escaped(s, i)] || s[i+1] >= 'a' || s[i+2] >= 'a' {
			return i
		}
		i += 3
	}
}

// escaped is the byte of the escape percent.IsEscape finds at s[i].
func escaped(s string, i int) byte { return percent.Value(s[i+1])<<4 | percent.Value(s[i+2]) }

// unreserved is RFC 3986 section 2.3's set: ALPHA, DIGIT, '-', '.', '_'
// and '~'.
var unreserved = func() (t [256]bool) {
	for c := range 256 {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c == '-' || c == '.' || c == '_' || c == '~'
	}
	return t
}()
