package runtime

import "net/url"

// Input is what a check is about: a URL as a string, a parsed URL, or a
// path with parameters and query. It is a small value; making one copies
// nothing.
type Input struct {
	kind inputKind
	s    string
	u    *url.URL
}

type inputKind uint8

const (
	rawURLInput inputKind = iota
	parsedURLInput
	pathInput
)

// FromURL is a URL as a string. Any string is accepted and read as
// Google's reference parser reads it (see Path).
func FromURL(rawURL string) Input { return Input{kind: rawURLInput, s: rawURL} }

// FromParsedURL is a parsed URL: its escaped path and raw query are
// matched (see URLPath).
func FromParsedURL(u *url.URL) Input { return Input{kind: parsedURLInput, u: u} }

// FromPath is a path with parameters and query ("/a/b;p?c=d"), matched as
// it is; "" is read as "/".
func FromPath(pathAndQuery string) Input { return Input{kind: pathInput, s: pathAndQuery} }

// pieces returns the input's path, parameters and query as two strings to
// be read one after the other, or ok false for a parsed URL, whose path is
// escaped as it is fed.
func (in Input) pieces() (a, b string, ok bool) {
	switch in.kind {
	case rawURLInput:
		a, b = PathParts(in.s)
		return a, b, true
	case pathInput:
		if in.s == "" {
			return "/", "", true
		}
		return in.s, "", true
	}
	return "", "", false
}

// String returns the input's path, parameters and query as one string, as
// they are before any mode applies.
func (in Input) String() string {
	if a, b, ok := in.pieces(); ok {
		return a + b
	}
	return URLPath(in.u)
}
