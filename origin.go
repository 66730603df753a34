package robots

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/idna"

	"github.com/fastrobots/robots/internal/rawurl"
	"github.com/fastrobots/robots/runtime"
)

// Errors returned, wrapped in a *URLError, by Origin and URLFor.
var (
	// ErrNoScheme: the URL is relative ("/a", "example.com/a", "//example.com/a").
	ErrNoScheme = errors.New("URL has no scheme")
	// ErrNoHost: the URL names no host ("file:///a", "mailto:x", "https:///a").
	ErrNoHost = errors.New("URL has no host")
	// ErrBadHost: the host is not a valid host name: an IDN that does not
	// convert to punycode, or a name holding a character no host may hold,
	// as written or once full-width forms are mapped ("a／b.com" is "a/b.com").
	ErrBadHost = errors.New("URL has an invalid host")
	// ErrBadPort: the port is not a number from 0 to 65535.
	ErrBadPort = errors.New("URL has an invalid port")
)

// URLError is the error of Origin and URLFor: the URL they were given and
// what is wrong with it, one of the Err* values or a *url.Error.
type URLError struct {
	URL string
	Err error
}

func (e *URLError) Error() string { return "robots: " + strconv.Quote(e.URL) + ": " + e.Err.Error() }

func (e *URLError) Unwrap() error { return e.Err }

// defaultPorts are the ports that are the same origin as no port.
var defaultPorts = map[string]string{"http": "80", "https": "443", "ftp": "21"}

// hostProfile maps host names as lookups do, but accepts what names in the
// wild hold and DNS accepts: underscores, and hyphens at the ends of labels.
var hostProfile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.Transitional(false),
	idna.StrictDomainName(false),
	idna.CheckHyphens(false),
)

// Origin returns the origin of pageURL, "scheme://host[:port]", the part
// that names the robots.txt governing it:
//
//   - scheme and host are lower-cased;
//   - a host name with non-ASCII letters becomes punycode (www.müller.eu is
//     www.xn--mller-kva.eu), whose robots.txt governs it;
//   - an IP address stays as written ([::1]:8080, 212.96.82.21);
//   - a name's trailing dot is dropped: "example.com." is the same host as
//     "example.com", governed by the same robots.txt;
//   - the scheme's default port (80 for http, 443 for https, 21 for ftp) is
//     the same origin as no port and is dropped; any other port is kept;
//   - user info, path, query and fragment are dropped.
//
// Only the scheme and authority are read: a path, query or fragment that
// url.Parse would refuse does not fail Origin, as it does not fail
// Agent.Allowed. Errors are *URLError values.
func Origin(pageURL string) (string, error) {
	if o, ok := plainOrigin(pageURL); ok {
		return o, nil
	}
	return parsedOrigin(pageURL)
}

func parsedOrigin(pageURL string) (string, error) {
	u, err := url.Parse(originPart(pageURL))
	if err != nil {
		return "", &URLError{URL: pageURL, Err: err}
	}
	if u.Scheme == "" {
		return "", &URLError{URL: pageURL, Err: ErrNoScheme}
	}
	scheme := strings.ToLower(u.Scheme)
	if strings.IndexByte(u.Hostname(), ':') >= 0 && !strings.HasPrefix(u.Host, "[") {
		// "a://::": url.Parse takes "::" for a host and ":" for its port,
		// but only an IPv6 address in brackets may hold a colon.
		return "", &URLError{URL: pageURL, Err: ErrBadHost}
	}
	host, err := originHost(u.Hostname())
	if err != nil {
		return "", &URLError{URL: pageURL, Err: err}
	}
	port := u.Port()
	if port != "" {
		n, err := strconv.ParseUint(port, 10, 16)
		if err != nil {
			return "", &URLError{URL: pageURL, Err: ErrBadPort}
		}
		port = strconv.FormatUint(n, 10)
		if port == defaultPorts[scheme] {
			port = ""
		}
	}
	var b strings.Builder
	b.Grow(len(scheme) + len(host) + len(port) + 6)
	b.WriteString(scheme)
	b.WriteString("://")
	b.WriteString(host)
	if port != "" {
		b.WriteByte(':')
		b.WriteString(port)
	}
	return b.String(), nil
}

// plainOrigin is Origin, without parsing or copying, for the URLs crawlers
// meet most (rawurl.Split's plain URLs); ok is false for every other URL.
func plainOrigin(pageURL string) (string, bool) {
	origin, _, ok := rawurl.Split(pageURL)
	return origin, ok
}

// originPart returns pageURL's scheme and authority, cut where url.Parse
// would end the authority, so that what follows cannot fail Origin.
func originPart(pageURL string) string {
	s, _, _ := strings.Cut(pageURL, "#")
	colon := schemeEnd(s)
	if colon < 0 {
		return ""
	}
	rest := s[colon+1:]
	if !strings.HasPrefix(rest, "//") {
		return s[:colon+1]
	}
	if end := strings.IndexAny(rest[2:], "/?"); end >= 0 {
		return s[:colon+3+end]
	}
	return s
}

// schemeEnd returns where s's scheme ends, as url.Parse reads it, or -1.
func schemeEnd(s string) int {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.':
			if i == 0 {
				return -1
			}
		case c == ':' && i > 0:
			return i
		default:
			return -1
		}
	}
	return -1
}

// URLFor returns the URL of the robots.txt that governs pageURL: its
// Origin followed by "/robots.txt". A robots.txt governs only the scheme,
// host and port it is served from: https://example.com/robots.txt governs
// https://example.com/a but neither http://example.com/a, nor
// https://www.example.com/a, nor https://example.com:8181/a. A robots.txt
// URL is returned normalised; one in a subdirectory is no robots.txt, and
// URLFor returns the root one.
func URLFor(pageURL string) (string, error) {
	origin, err := Origin(pageURL)
	if err != nil {
		return "", err
	}
	return origin + "/robots.txt", nil
}

// originHost returns host (without brackets) in its origin form.
func originHost(host string) (string, error) {
	if host == "" {
		return "", ErrNoHost
	}
	if strings.IndexByte(host, ':') >= 0 {
		// An IPv6 address, which url.Parse has checked; its zone is kept.
		addr, zone, hasZone := strings.Cut(host, "%")
		addr = strings.ToLower(addr)
		if hasZone {
			return "[" + addr + "%25" + zone + "]", nil
		}
		return "[" + addr + "]", nil
	}
	if !isASCII(host) {
		a, err := hostProfile.ToASCII(host)
		if err != nil {
			return "", ErrBadHost
		}
		host = a
	}
	for i := 0; i < len(host); i++ {
		if forbiddenInHost(host[i]) {
			return "", ErrBadHost
		}
	}
	if host == "" {
		return "", ErrNoHost
	}
	if trimmed, ok := strings.CutSuffix(host, "."); ok {
		if trimmed == "" || strings.HasSuffix(trimmed, ".") {
			return "", ErrBadHost
		}
		host = trimmed
	}
	return strings.ToLower(host), nil
}

// forbiddenInHost reports whether c is a control byte, a space, a WHATWG
// forbidden domain code point, or a byte url.Parse refuses in a host name
// ('`', '{', '}'), so that an origin always parses again. Most end the
// authority when written; they come in by mapping full-width and small
// forms ("a／b.com" becomes "a/b.com", "a﹜" becomes "a}").
func forbiddenInHost(c byte) bool {
	switch c {
	case '#', '%', '/', ':', '<', '>', '?', '@', '[', '\\', ']', '^', '|', '`', '{', '}':
		return true
	}
	return c <= ' ' || c == 0x7f
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// PathOf returns the part of rawURL that rules are matched against: its
// path, parameters and query, without scheme, authority or fragment, and
// "/" when it has none. Any string has one, read as Google's reference
// reads it: "example.com/a" is host "example.com" and path "/a", and
// "//example.com/a" likewise. Agent.Allowed and Decide check this path.
func PathOf(rawURL string) string { return runtime.Path(rawURL) }
