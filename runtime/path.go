package runtime

import (
	"net/url"
	"strings"
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
	start, end := pathBounds(rawURL)
	if start == end {
		return "/"
	}
	p := rawURL[start:end]
	if p[0] != '/' {
		return "/" + p
	}
	return p
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
	if u.Opaque != "" {
		return Path(u.String())
	}
	p := u.EscapedPath()
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	if u.RawQuery != "" || u.ForceQuery {
		p += "?" + u.RawQuery
	}
	return p
}
