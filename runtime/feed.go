package runtime

import (
	"net/url"

	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/internal/percent"
)

// feedURL feeds cur what Subject(FromParsedURL(u), d) returns in a
// verbatim dialect d, without building it: the escaped path is produced
// piece by piece as it is fed, and a NUL ends it in the automaton when
// d.EndAtNUL (compile.File.Compile sets the option from the dialect).
func feedURL(cur *automaton.Cursor, u *url.URL) {
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
		// An escaped path holds no NUL, but a query built by hand may; the
		// automaton ends the input there (Options.EndAtNUL).
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
// that shouldEscapeInPath names becomes %XX; the unreserved bytes, the
// sub-delimiters '$', '&', '+', ',', ';', '=', and ':', '@', '/' are fed
// as they are.
func feedEscaped(cur *automaton.Cursor, path string) {
	start := 0
	for i := 0; i < len(path); i++ {
		if c := path[i]; shouldEscapeInPath(c) {
			cur.Feed(path[start:i])
			cur.Feed(percent.Escape(c))
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
