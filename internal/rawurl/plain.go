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
	end, port := len(rawURL), -1
	for i := authority; i < len(rawURL); i++ {
		c := rawURL[i]
		if c == '/' || c == '?' || c == '#' {
			end = i
			break
		}
		switch {
		case c == ':' && port < 0:
			port = i
		case '0' <= c && c <= '9', port < 0 && ('a' <= c && c <= 'z' || c == '-' || c == '.'):
		default:
			return "", "", false
		}
	}
	host := end
	if port >= 0 {
		host = port
		if !plainPort(rawURL[port+1:end], defaultPort) {
			return "", "", false
		}
	}
	if host == authority || rawURL[host-1] == '.' {
		return "", "", false
	}
	return rawURL[:end], beforeFragment(rawURL[end:]), true
}

// beforeFragment returns s up to its first '#'.
func beforeFragment(s string) string {
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
