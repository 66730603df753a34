package runtime

import (
	"net/url"
	"strings"

	"github.com/fastrobots/robots/internal/bytestr"
	"github.com/fastrobots/robots/internal/percent"
)

// Path returns the path, parameters and query of rawURL, the part that
// robots.txt rules are matched against. It removes the scheme and authority
// (with or without "scheme:"), and the fragment. The result always starts
// with '/': a URL without a path yields "/", and one whose path part starts
// with '?' or ';' gets a '/' in front. The URL is not otherwise normalised,
// because rules are written against URLs as they are served.
//
// Its reading of ambiguous strings is Google's: "a/b" is host "a" and path
// "/b"; "//a/b/c" is host "a"; a "://" after the first '/', '?' or ';' is
// part of the path.
func Path(rawURL string) string {
	slash, rest := PathParts(rawURL)
	if slash == "" {
		return rest
	}
	return slash + rest
}

// PathParts returns Path(rawURL) as two pieces to be read one after the
// other, without allocating: slash is "/" when Path puts a '/' in front of
// rest, and "" otherwise.
func PathParts(rawURL string) (slash, rest string) {
	start, end := pathBounds(rawURL)
	if start == end {
		return "", "/"
	}
	p := rawURL[start:end]
	if p[0] != '/' {
		return "/", p
	}
	return "", p
}

func pathBounds(rawURL string) (start, end int) {
	start = PathStart(rawURL)
	if start < 0 {
		return 0, 0
	}
	if hash := strings.IndexByte(rawURL[start:], '#'); hash >= 0 {
		return start, start + hash
	}
	return start, len(rawURL)
}

// pathStart returns the index of the first '/', '?' or ';' of rawURL from
// i on, past the first "://" when proto is set and one comes first; -1
// when a '#' comes first or there is none.
func pathStart(rawURL string, i int, proto bool) int {
	for ; i < len(rawURL); i++ {
		if !pathStop[rawURL[i]] {
			continue
		}
		switch rawURL[i] {
		case '/', '?', ';':
			return i
		case '#':
			return -1
		}
		if proto && strings.HasPrefix(rawURL[i+1:], "//") {
			return pathStart(rawURL, i+3, false)
		}
	}
	return -1
}

var pathStop = [256]bool{'/': true, '?': true, ';': true, '#': true, ':': true}

// URLPath returns the path, parameters and query of u in the form Path
// gives: its escaped path (or "/") and, when present, '?' and the raw
// query. An opaque URL ("mailto:x") is read by Path from its string form.
func URLPath(u *url.URL) string {
	var buf [URLPathBytes]byte
	a, b, c := URLParts(u, buf[:0])
	return a + b + c
}

// URLPathBytes is the buffer a check gives URLParts on its stack: a URL
// whose escaped path is no longer is checked without allocating.
const URLPathBytes = 256

// URLParts returns URLPath(u) as three pieces to be read one after the
// other. A path that must be escaped or given a '/' in front is built in
// buf, which allocates only when it outgrows buf's capacity; the pieces
// may alias buf, which the caller must not write while it reads them.
func URLParts(u *url.URL, buf []byte) (a, b, c string) {
	if u.Opaque != "" {
		return Path(u.String()), "", ""
	}
	var p string
	switch {
	case u.RawPath != "" && validEncodedPath(u.RawPath) && unescapesTo(u.RawPath, u.Path):
		p = rooted(buf, u.RawPath)
	case u.Path == "*":
		p = "/*"
	default:
		p = escapedRooted(buf, u.Path)
	}
	if u.RawQuery != "" || u.ForceQuery {
		return p, "?", u.RawQuery
	}
	return p, "", ""
}

// rooted returns p with a '/' in front unless it has one, built in buf
// when it must be.
func rooted(buf []byte, p string) string {
	if p != "" && p[0] == '/' {
		return p
	}
	return bytestr.String(append(append(buf, '/'), p...)) // buf is not written again
}

// escapedRooted returns path escaped as net/url escapes a path, with a
// '/' in front unless it has one, built in buf when it must be.
func escapedRooted(buf []byte, path string) string {
	i := 0
	for i < len(path) && !shouldEscapeInPath(path[i]) {
		i++
	}
	if i == len(path) {
		return rooted(buf, path)
	}
	if path == "" || path[0] != '/' {
		buf = append(buf, '/')
	}
	buf = append(buf, path[:i]...)
	for ; i < len(path); i++ {
		if c := path[i]; shouldEscapeInPath(c) {
			buf = append(buf, percent.Escape(c)...)
		} else {
			buf = append(buf, c)
		}
	}
	return bytestr.String(buf) // buf is not written again
}

// validEncodedPath reports whether s uses only bytes a path may hold
// unescaped (RFC 3986 pchar and '/'), or '%': the test net/url applies
// before it trusts RawPath.
func validEncodedPath(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("-_.~!$&'()*+,;=:@[]%/", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// unescapesTo reports whether percent-decoding raw yields exactly path.
func unescapesTo(raw, path string) bool {
	j := 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '%' {
			if i+2 >= len(raw) || !percent.IsDigit(raw[i+1]) || !percent.IsDigit(raw[i+2]) {
				return false
			}
			c = percent.Value(raw[i+1])<<4 | percent.Value(raw[i+2])
			i += 2
		}
		if j >= len(path) || path[j] != c {
			return false
		}
		j++
	}
	return j == len(path)
}

// shouldEscapeInPath reports whether net/url escapes c in a path.
func shouldEscapeInPath(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return false
	}
	switch c {
	case '-', '_', '.', '~', '$', '&', '+', ',', '/', ':', ';', '=', '@':
		return false
	}
	return true
}
