package runtime

import (
	"net/url"

	"github.com/fastrobots/robots/automaton"
)

// escapes holds "%00%01…%FF": the escape of byte c is escapes[3c:3c+3].
// Slicing it costs nothing, so paths are escaped on the fly.
var escapes = func() string {
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, 256*3)
	for c := range 256 {
		b = append(b, '%', hex[c>>4], hex[c&15])
	}
	return string(b)
}()

// FeedURL feeds cur what URLPath(u) returns, without building it: the
// escaped path is produced piece by piece as it is fed.
func FeedURL(cur *automaton.Cursor, u *url.URL) {
	switch {
	case u.Opaque != "":
		cur.Feed(Path(u.String()))
		return
	case u.RawPath != "" && validEncodedPath(u.RawPath) && unescapesTo(u.RawPath, u.Path):
		feedRooted(cur, u.RawPath)
	case u.Path == "*":
		cur.Feed("/*")
	default:
		if u.Path == "" || u.Path[0] != '/' {
			cur.Feed("/")
		}
		feedEscaped(cur, u.Path)
	}
	if u.RawQuery != "" || u.ForceQuery {
		cur.Feed("?")
		cur.Feed(u.RawQuery)
	}
}

// feedRooted feeds p with a '/' in front unless it has one.
func feedRooted(cur *automaton.Cursor, p string) {
	if p == "" || p[0] != '/' {
		cur.Feed("/")
	}
	cur.Feed(p)
}

// feedEscaped feeds path escaped as net/url escapes a path: every byte
// outside the unreserved set, the sub-delimiters '$', '&', '+', ',', ';',
// '=', and ':', '@', '/' becomes %XX.
func feedEscaped(cur *automaton.Cursor, path string) {
	start := 0
	for i := 0; i < len(path); i++ {
		if c := path[i]; shouldEscapeInPath(c) {
			cur.Feed(path[start:i])
			cur.Feed(escapes[int(c)*3 : int(c)*3+3])
			start = i + 1
		}
	}
	cur.Feed(path[start:])
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
