package robots

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/idna"

	"github.com/fastrobots/robots/internal/rawurl"
)

// Errors returned, wrapped in a *URLError, by Origin and URLFor.
var (
	// ErrNoScheme: the URL is relative ("/a", "example.com/a", "//example.com/a").
	ErrNoScheme = errors.New("URL has no scheme")
	// ErrNoHost: the URL names no host ("file:///a", "mailto:x", "https:///a").
	ErrNoHost = errors.New("URL has no host")
	// ErrBadHost: the host is not a valid host name (an IDN that does not
	// convert to punycode, or one holding spaces, control bytes or a
	// character no host may hold, as written or once its full-width forms
	// are mapped: "a／b.com" is "a/b.com").
	ErrBadHost = errors.New("URL has an invalid host")
	// ErrBadPort: the port is not a number from 0 to 65535.
	ErrBadPort = errors.New("URL has an invalid port")
)

// URLError is the error of Origin and URLFor: the URL they were given and
// what is wrong with it, one of the Err* values or a *url.Error from
// parsing. errors.Is(err, ErrNoHost) works through it.
type URLError struct {
	URL string
	Err error
}

func (e *URLError) Error() string { return "robots: " + strconv.Quote(e.URL) + ": " + e.Err.Error() }

func (e *URLError) Unwrap() error { return e.Err }

// defaultPorts are the ports that are the same origin as no port.
var defaultPorts = map[string]string{"http": "80", "https": "443", "ftp": "21"}

// hostProfile converts internationalised host names to punycode. It maps
// as lookups do (case folding, NFC, full-width dots), but accepts what host
// names in the wild hold and DNS accepts: underscores, and hyphens at the
// ends of labels.
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
//     www.xn--mller-kva.eu), as a robots.txt for an IDN is the one of its
//     punycode form;
//   - an IP address stays as written ([::1]:8080, 212.96.82.21);
//   - a name's trailing dot is dropped: "example.com." is the fully
//     qualified form of "example.com", the same host in DNS, so one
//     robots.txt governs both and a crawler keeps one entry for them;
//   - the scheme's default port (80 for http, 443 for https, 21 for ftp) is
//     the same origin as no port and is dropped; any other port is kept;
//   - user info, path, query and fragment are dropped.
//
// Only the scheme and authority are read: a path, query or fragment that
// url.Parse would refuse (a bad escape, a control byte) does not fail
// Origin, as it does not fail Agent.Allowed. A relative URL, or one
// without a host, is an error (*URLError wrapping ErrNoScheme, ErrNoHost,
// ErrBadHost or ErrBadPort, or the *url.Error of an authority url.Parse
// refuses).
func Origin(pageURL string) (string, error) {
	if o, ok := plainOrigin(pageURL); ok {
		return o, nil
	}
	return parsedOrigin(pageURL)
}

// parsedOrigin is Origin for any URL, which it parses.
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

// plainOrigin returns the origin of the URLs a crawler meets most, as a
// substring of pageURL, with no parsing and no copy: the plain URLs of
// rawurl.Split, an http or https URL written in lower case with a host of
// letters, digits, '-' and '.', and no user info or default port. Origin
// gives the same for them; ok is false for every other URL, which Origin
// parses.
func plainOrigin(pageURL string) (string, bool) {
	origin, _, ok := rawurl.Split(pageURL)
	return origin, ok
}

// originPart returns the part of pageURL that holds its scheme and
// authority, cut where url.Parse would end the authority: at the first
// '/' or '?' after "scheme://", or at the fragment. What follows, path,
// query and fragment, is not Origin's business: a bad escape or a control
// byte there does not make the origin any less clear. A URL whose scheme
// url.Parse would not take yields "", which has none; one with a scheme
// but no "//" yields its scheme and colon, which have no host.
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

// schemeEnd returns the index of the colon that ends s's scheme, as
// url.Parse reads a scheme (a letter, then letters, digits, '+', '-' or
// '.'), or -1 when s has none.
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
// Origin followed by "/robots.txt". A robots.txt applies only to the scheme,
// host and port it is served from: https://example.com/robots.txt governs
// https://example.com/a but neither http://example.com/a, nor
// https://www.example.com/a, nor https://example.com:8181/a. Given a
// robots.txt URL, URLFor returns it normalised; one in a subdirectory
// (https://example.com/folder/robots.txt) is no robots.txt, and URLFor
// returns the root one.
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
		// An IPv6 address, perhaps with a zone ("fe80::1%eth0"): url.Parse
		// has checked it. Its hex digits are lower-cased, the zone kept.
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

// forbiddenInHost reports whether c may not stand in a host name: a
// control byte, a space, or one of "#%/:<>?@[\\]^|", the WHATWG URL
// standard's forbidden domain code points. Written as such, most of them
// end the authority before a host is read; they come in through the
// lookup mapping, which turns full-width forms into their ASCII twins
// ("a／b.com" becomes "a/b.com", "a＠b.com" "a@b.com"): an origin with such
// a host would name another host, or none. (An IPv6 address, which holds
// colons, is read before.)
func forbiddenInHost(c byte) bool {
	switch c {
	case '#', '%', '/', ':', '<', '>', '?', '@', '[', '\\', ']', '^', '|':
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
