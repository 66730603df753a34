package runtime

import (
	"net/url"
	"strings"

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

// pathBounds returns the bounds of the path, parameters and query within
// rawURL; start == end when there are none.
func pathBounds(rawURL string) (start, end int) {
	from := 0
	if strings.HasPrefix(rawURL, "//") {
		from = 2
	}
	authority := from
	if proto := strings.Index(rawURL[from:], "://"); proto >= 0 {
		early := strings.IndexAny(rawURL[from:], "/?;")
		if early < 0 || early >= proto {
			authority = from + proto + 3
		}
	}
	i := strings.IndexAny(rawURL[authority:], "/?;")
	if i < 0 {
		return 0, 0
	}
	start = authority + i
	end = len(rawURL)
	if hash := strings.IndexByte(rawURL[from:], '#'); hash >= 0 {
		if from+hash < start {
			return 0, 0
		}
		end = from + hash
	}
	return start, end
}

// URLPath returns the path, parameters and query of u in the form Path
// gives: its escaped path (or "/" when empty) and, when present, '?' and the
// raw query. The fragment is dropped. An opaque URL ("mailto:x") is read
// by Path from its string form.
func URLPath(u *url.URL) string {
	a, b, c := urlParts(u)
	return a + b + c
}

// urlParts returns URLPath(u) as three pieces to be read one after the
// other. It allocates nothing for a URL with a host, a path that starts
// with '/' (or none) and any query.
func urlParts(u *url.URL) (a, b, c string) {
	if u.Opaque != "" {
		return Path(u.String()), "", ""
	}
	p := escapedPath(u)
	switch {
	case p == "":
		p = "/"
	case p[0] != '/':
		p = "/" + p
	}
	if u.RawQuery != "" || u.ForceQuery {
		return p, "?", u.RawQuery
	}
	return p, "", ""
}

// escapedPath returns u.EscapedPath(). It avoids the allocation that
// method makes when u.RawPath is set, by checking RawPath in place.
func escapedPath(u *url.URL) string {
	if u.RawPath != "" && validEncodedPath(u.RawPath) && unescapesTo(u.RawPath, u.Path) {
		return u.RawPath
	}
	return u.EscapedPath()
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
