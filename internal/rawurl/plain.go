// Package rawurl reads the URLs a crawler meets most, http and https URLs
// with a plain host, in one pass that copies nothing: their origin (what
// robots.Origin gives) and the rest after the authority (what
// runtime.Path matches). Every other URL is left to the parsing of
// package robots.
package rawurl

import (
	"strconv"
	"strings"
)

// Split returns, for a plain URL, its origin and its rest up to the
// fragment, both substrings of rawURL; ok is false for any other URL.
//
// A plain URL is an http or https URL written in lower case, whose host
// holds only letters, digits, '-' and '.' (not at its end), with no user
// info, and no port or one that is written plainly and is not the
// scheme's default. Only the scheme and authority are read: the rest may
// hold anything. For it, origin is robots.Origin(rawURL), and rest is ""
// (no path), or starts with '/' or '?'; runtime.Path(rawURL) is rest when
// rest starts with '/', "/" when rest is "", and "/" followed by rest
// otherwise.
func Split(rawURL string) (origin, rest string, ok bool) {
	var authority int
	var defaultPort string
	switch {
	case strings.HasPrefix(rawURL, "https://"):
		authority, defaultPort = len("https://"), "443"
	case strings.HasPrefix(rawURL, "http://"):
		authority, defaultPort = len("http://"), "80"
	default:
		return "", "", false
	}
	i := authority
	for i < len(rawURL) && hostByte[rawURL[i]] {
		i++
	}
	if i == authority || rawURL[i-1] == '.' {
		return "", "", false
	}
	end := i
	if i < len(rawURL) && rawURL[i] == ':' {
		for end = i + 1; end < len(rawURL) && '0' <= rawURL[end] && rawURL[end] <= '9'; end++ {
		}
		if !plainPort(rawURL[i+1:end], defaultPort) {
			return "", "", false
		}
	}
	if end < len(rawURL) && !afterAuthority[rawURL[end]] {
		return "", "", false
	}
	return rawURL[:end], BeforeFragment(rawURL[end:]), true
}

// SplitOf is Split for a URL expected to be of origin, an origin that
// Split gave: it returns rawURL's rest and true when rawURL is that
// origin followed by the end of its authority, without reading the host
// again, and false otherwise (another origin, or the same written
// otherwise, which Split reads).
func SplitOf(rawURL, origin string) (rest string, ok bool) {
	if !strings.HasPrefix(rawURL, origin) {
		return "", false
	}
	rest = rawURL[len(origin):]
	if rest != "" && !afterAuthority[rest[0]] {
		return "", false
	}
	return BeforeFragment(rest), true
}

// hostByte marks the bytes of a plain host: lower-case letters, digits,
// '-' and '.'.
var hostByte = [256]bool{
	'-': true, '.': true,
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true,
	'a': true, 'b': true, 'c': true, 'd': true, 'e': true, 'f': true, 'g': true, 'h': true, 'i': true,
	'j': true, 'k': true, 'l': true, 'm': true, 'n': true, 'o': true, 'p': true, 'q': true, 'r': true,
	's': true, 't': true, 'u': true, 'v': true, 'w': true, 'x': true, 'y': true, 'z': true,
}

// afterAuthority marks the bytes that end an authority.
var afterAuthority = [256]bool{'/': true, '?': true, '#': true}

// BeforeFragment returns s up to its first '#'.
func BeforeFragment(s string) string {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		return s[:i]
	}
	return s
}

// plainPort reports whether p, all digits, is a port written as
// robots.Origin writes it (no leading zero, at most 65535) and not the
// scheme's default.
func plainPort(p, defaultPort string) bool {
	if p == "" || p[0] == '0' || len(p) > 5 || p == defaultPort {
		return false
	}
	n, err := strconv.Atoi(p)
	return err == nil && n <= 65535
}
