package compile

import (
	"strings"

	"github.com/fastrobots/robots/internal/hex"
)

// isEscape reports whether s[i:] starts with a %xx escape.
func isEscape(s string, i int) bool {
	return s[i] == '%' && i+2 < len(s) && hex.IsDigit(s[i+1]) && hex.IsDigit(s[i+2])
}

// EscapePattern canonicalises an allow or disallow value the way Google does
// before matching: every byte outside ASCII becomes %XX, and the hex digits
// of an existing %xx escape are upper-cased ("/Sanjosé" becomes
// "/Sanjos%C3%A9", "%aa" becomes "%AA"). Nothing is decoded. It returns
// value itself, without allocating, when nothing changes.
func EscapePattern(value string) string {
	if !needsEscape(value) {
		return value
	}
	var b strings.Builder
	b.Grow(len(value) + 16)
	for i := 0; i < len(value); i++ {
		c := value[i]
		switch {
		case isEscape(value, i):
			b.WriteByte('%')
			b.WriteByte(upper(value[i+1]))
			b.WriteByte(upper(value[i+2]))
			i += 2
		case c >= 0x80:
			writeEscaped(&b, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return true
		}
		if c == '%' && isEscape(s, i) {
			if isLowerHex(s[i+1]) || isLowerHex(s[i+2]) {
				return true
			}
			i += 2
		}
	}
	return false
}

func isLowerHex(c byte) bool { return 'a' <= c && c <= 'f' }

func upper(c byte) byte {
	if isLowerHex(c) {
		return c - ('a' - 'A')
	}
	return c
}

func writeEscaped(b *strings.Builder, c byte) {
	b.WriteByte('%')
	b.WriteByte(hex.Upper[c>>4])
	b.WriteByte(hex.Upper[c&15])
}

// isUnreserved reports whether c is an unreserved character of RFC 3986:
// letters, digits, '-', '.', '_' and '~'.
func isUnreserved(c byte) bool {
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// isQueryData reports whether c is a character RFC 3986 section 3.4 lets a
// query carry as data, where it delimits nothing; encoded or not, it means
// the same there.
func isQueryData(c byte) bool { return c == ':' || c == '/' || c == '?' || c == '@' }

// NormalizeRFCPath brings a URL's path and query to the one form in which RFC
// 9309 section 2.2.2 compares octets: bytes outside ASCII are %-encoded,
// %-escapes of unreserved characters are decoded, other escapes are
// upper-cased, and the characters a pattern uses as operators ('*' and '$')
// are encoded so that only an encoded pattern matches them (RFC 9309
// section 2.2.3). Within the query, ':', '/', '?' and '@' are encoded.
func NormalizeRFCPath(path string) string {
	return normalizeRFC(path, false)
}

// NormalizeRFCPattern brings an allow or disallow value to the form of
// NormalizeRFCPath, keeping '*' and a final '$' as operators.
func NormalizeRFCPattern(pattern string) string {
	return normalizeRFC(pattern, true)
}

func normalizeRFC(s string, pattern bool) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	inQuery := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isEscape(s, i):
			d := hex.Value(s[i+1])<<4 | hex.Value(s[i+2])
			if isUnreserved(d) {
				b.WriteByte(d)
			} else {
				writeEscaped(&b, d)
			}
			i += 2
		case c == '%':
			// A '%' that starts no escape is a literal percent sign; encoding
			// it keeps normalisation idempotent ("%2" and "%252" are equal).
			writeEscaped(&b, '%')
		case c >= 0x80:
			writeEscaped(&b, c)
		case pattern && (c == '*' || (c == '$' && i == len(s)-1)):
			b.WriteByte(c)
		case c == '*' || c == '$' || (inQuery && isQueryData(c)):
			writeEscaped(&b, c)
		default:
			inQuery = inQuery || c == '?'
			b.WriteByte(c)
		}
	}
	return b.String()
}
