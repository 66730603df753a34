package fuzzgen

import "strings"

// Independent definitions of what the engine computes beside its matching
// (whose definition is automaton.Matches and compile.Reference), for the
// checks of check.go. Each is written from the RFC or from the reference
// parser's behaviour, the straightforward way, with no regard for speed.

// PathOracle returns the path, parameters and query of a URL as Google's
// reference GetPathParamsQuery does: two leading slashes are skipped; a
// "://" before the first '/', '?' or ';' ends a scheme; the path starts at
// the first '/', '?' or ';' after that; a '#' ends it, and one before it
// leaves nothing; a result that does not start with '/' gets one.
func PathOracle(url string) string {
	searchStart := 0
	if len(url) >= 2 && url[0] == '/' && url[1] == '/' {
		searchStart = 2
	}
	find := func(s string, from int) int {
		if i := strings.Index(url[from:], s); i >= 0 {
			return from + i
		}
		return len(url) + 1 // npos, greater than any index
	}
	findAny := func(chars string, from int) int {
		if i := strings.IndexAny(url[from:], chars); i >= 0 {
			return from + i
		}
		return len(url) + 1
	}
	earlyPath := findAny("/?;", searchStart)
	protocolEnd := find("://", searchStart)
	if earlyPath < protocolEnd {
		protocolEnd = len(url) + 1
	}
	if protocolEnd > len(url) {
		protocolEnd = searchStart
	} else {
		protocolEnd += 3
	}
	pathStart := findAny("/?;", protocolEnd)
	if pathStart > len(url) {
		return "/"
	}
	hash := find("#", searchStart)
	if hash < pathStart {
		return "/"
	}
	pathEnd := min(hash, len(url))
	if url[pathStart] != '/' {
		return "/" + url[pathStart:pathEnd]
	}
	return url[pathStart:pathEnd]
}

// EscapeOracle escapes a rule value as Google's MaybeEscapePattern does:
// each %xx escape with its hex digits upper-cased, each byte outside ASCII
// as %XX, every other byte as it is.
func EscapeOracle(v string) string {
	const hex = "0123456789ABCDEF"
	isHex := func(c byte) bool { return strings.IndexByte("0123456789abcdefABCDEF", c) >= 0 }
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '%' && i+2 < len(v) && isHex(v[i+1]) && isHex(v[i+2]):
			b.WriteByte('%')
			b.WriteString(strings.ToUpper(v[i+1 : i+3]))
			i += 2
		case c >= 0x80:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// agentToken returns the product token a user-agent value names: its
// longest prefix of ASCII letters, '-' and '_'.
func agentToken(v string) string {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_') {
			return v[:i]
		}
	}
	return v
}

// globalAgent reports whether a user-agent value names every crawler: "*",
// or in Google's reading "*" and white space and anything.
func globalAgent(v string, rfc bool) bool {
	if rfc || len(v) < 2 {
		return v == "*"
	}
	return v[0] == '*' && strings.IndexByte(" \t\n\v\f\r", v[1]) >= 0
}
