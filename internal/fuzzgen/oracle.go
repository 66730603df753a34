package fuzzgen

import "strings"

// Independent definitions of what the engine computes, for the checks of
// check.go. Each is written from the RFC or from the reference parser's
// behaviour, the straightforward way, with no regard for speed.

// MatchOracle reports whether pattern matches a prefix of path (RFC 9309
// section 2.2.3): '*' matches any run of bytes, a '$' that ends the pattern
// matches the end of the path, every other byte matches itself. It walks
// the pattern keeping, for every path offset, whether the pattern read so
// far can end there: O(len(pattern) × len(path)) time.
func MatchOracle(pattern, path string) bool {
	var m matcher
	return m.match(pattern, path)
}

// matcher keeps its two rows between calls.
type matcher struct{ cur, next []bool }

func (m *matcher) match(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	n := len(path) + 1
	if cap(m.cur) < n {
		m.cur, m.next = make([]bool, n), make([]bool, n)
	}
	cur, next := m.cur[:n], m.next[:n]
	clear(cur)
	cur[0] = true // the empty pattern prefix ends at offset 0
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		live := false
		if c == '*' {
			for j := range n {
				live = live || cur[j]
				next[j] = live
			}
		} else {
			next[0] = false
			for j := 1; j < n; j++ {
				next[j] = cur[j-1] && path[j-1] == c
				live = live || next[j]
			}
		}
		if !live {
			return false
		}
		cur, next = next, cur
	}
	if anchored {
		return cur[n-1]
	}
	return true // some offset is reachable, and the pattern matches a prefix
}

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
