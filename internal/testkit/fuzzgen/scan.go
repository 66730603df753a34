package fuzzgen

import "bytes"

// Token is one directive line as a parser reads it.
type Token struct {
	Line  int
	Field Field // never Blank
	Key   string
	Value string
}

// refMaxLine is the reference parser's line buffer, 8 × 2083 bytes less the
// terminator: the bytes of a line past it are dropped.
const refMaxLine = 2083*8 - 1

// ReferenceScan reads body the way Google's reference parser reads it
// (google/robotstxt, robots.cc: ParseRobotsTxt, GetKeyAndValueFrom and the
// Key* tests), byte by byte, and returns the directive lines with the
// number of lines. With rfc set, it applies the strict RFC 9309 reading
// instead: a colon is required and a key must equal a field name.
//
// It is the oracle of the line and key reading: it shares no code with the
// compile package and is written the way the reference is, as a loop over
// bytes with a fixed line buffer, not as a search for breaks. The size
// limit is the caller's: body is read whole.
//
//   - The bytes of a UTF-8 byte order mark, or a prefix of one, are skipped
//     at the very start.
//   - LF, CR and CRLF end a line; an LF right after a CR that ended a line
//     ends nothing more.
//   - A line keeps at most refMaxLine bytes; it ends at its first NUL (the
//     buffer is a C string).
//   - From the first '#' on, a line is a comment. The rest is trimmed of
//     C white space (space, \t, \n, \v, \f, \r).
//   - The key ends at the first ':'. Failing a colon, in Google's reading,
//     a line of exactly two words separated by spaces or tabs is "key
//     value". An empty key is no directive.
func ReferenceScan(body []byte, rfc bool) (toks []Token, lines int) {
	bom := [...]byte{0xEF, 0xBB, 0xBF}
	bomPos := 0
	buf := make([]byte, 0, 256)
	lastCR := false
	for _, ch := range body {
		if bomPos < len(bom) {
			if ch == bom[bomPos] {
				bomPos++
				continue
			}
			bomPos = len(bom)
		}
		if ch != '\n' && ch != '\r' {
			if len(buf) < refMaxLine {
				buf = append(buf, ch)
			}
			continue
		}
		if !(len(buf) == 0 && lastCR && ch == '\n') {
			lines++
			if t, ok := refLine(lines, buf, rfc); ok {
				toks = append(toks, t)
			}
		}
		buf = buf[:0]
		lastCR = ch == '\r'
	}
	lines++
	if t, ok := refLine(lines, buf, rfc); ok {
		toks = append(toks, t)
	}
	return toks, lines
}

func refLine(num int, line []byte, rfc bool) (Token, bool) {
	if i := bytes.IndexByte(line, 0); i >= 0 {
		line = line[:i]
	}
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	line = cTrim(line)
	var key, value []byte
	if sep := bytes.IndexByte(line, ':'); sep >= 0 {
		key, value = line[:sep], line[sep+1:]
	} else {
		if rfc {
			return Token{}, false
		}
		sep := bytes.IndexAny(line, " \t")
		if sep < 0 {
			return Token{}, false
		}
		rest := bytes.TrimLeft(line[sep:], " \t")
		if bytes.ContainsAny(rest, " \t") {
			return Token{}, false // three words or more
		}
		key, value = line[:sep], rest
	}
	key, value = cTrim(key), cTrim(value)
	if len(key) == 0 {
		return Token{}, false
	}
	field := googleField(string(key))
	if rfc {
		field = rfcField(string(key))
	}
	return Token{Line: num, Field: field, Key: string(key), Value: string(value)}, true
}

// cTrim trims what C's isspace calls white space.
func cTrim(s []byte) []byte {
	return bytes.Trim(s, " \t\n\v\f\r")
}

// googlePrefixes are the key prefixes Google's reference accepts, in the
// order it tests them (KeyIsUserAgent, KeyIsAllow, KeyIsDisallow,
// KeyIsSitemap), misspellings included.
var googlePrefixes = []struct {
	prefix string
	field  Field
}{
	{"user-agent", UserAgent}, {"useragent", UserAgent}, {"user agent", UserAgent},
	{"allow", Allow},
	{"disallow", Disallow}, {"dissallow", Disallow}, {"dissalow", Disallow},
	{"disalow", Disallow}, {"diasllow", Disallow}, {"disallaw", Disallow},
	{"sitemap", Sitemap}, {"site-map", Sitemap},
}

// googleField classifies a key as Google does: by ASCII case-insensitive
// prefix, misspellings included.
func googleField(key string) Field {
	for _, p := range googlePrefixes {
		if len(key) >= len(p.prefix) && asciiEqualFold(key[:len(p.prefix)], p.prefix) {
			return p.field
		}
	}
	return Unknown
}

// rfcField classifies a key as RFC 9309 does: it must be a field name,
// ignoring ASCII case (RFC 5234 strings are case-insensitive).
func rfcField(key string) Field {
	for _, f := range []Field{UserAgent, Allow, Disallow, Sitemap} {
		if asciiEqualFold(key, f.String()) {
			return f
		}
	}
	return Unknown
}

// asciiEqualFold compares ignoring ASCII case only: the Kelvin sign is not
// a 'k' here, as it is not in Google's comparison.
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if asciiLower(a[i]) != asciiLower(b[i]) {
			return false
		}
	}
	return true
}

func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
