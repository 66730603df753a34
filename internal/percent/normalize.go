package percent

import "strings"

// NormalizeRFC brings s to the one form in which RFC 9309 section 2.2.2
// compares octets: bytes outside ASCII are %-encoded, %-escapes of
// unreserved characters are decoded, other escapes are upper-cased, a '%'
// that starts no escape is encoded, and the characters a pattern uses as
// operators ('*' and '$') are encoded so that only an encoded pattern
// matches them (RFC 9309 section 2.2.3). Within the query, ':', '/', '?'
// and '@' are encoded, since they mean the same there encoded or not.
//
// With pattern set, s is an allow or disallow value: its '*' and a final
// '$' stay operators. The result is idempotent: normalising it again
// changes nothing.
func NormalizeRFC(s string, pattern bool) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	inQuery := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case IsEscape(s, i):
			d := Value(s[i+1])<<4 | Value(s[i+2])
			if isUnreserved(d) {
				b.WriteByte(d)
			} else {
				b.WriteString(Escape(d))
			}
			i += 2
		case c == '%':
			// A '%' that starts no escape is a literal percent sign; encoding
			// it keeps normalisation idempotent ("%2" and "%252" are equal).
			b.WriteString(Escape('%'))
		case c >= 0x80:
			b.WriteString(Escape(c))
		case pattern && (c == '*' || (c == '$' && i == len(s)-1)):
			b.WriteByte(c)
		case c == '*' || c == '$' || (inQuery && isQueryData(c)):
			b.WriteString(Escape(c))
		default:
			inQuery = inQuery || c == '?'
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isUnreserved reports whether c is an unreserved character of RFC 3986:
// letters, digits, '-', '.', '_' and '~'.
func isUnreserved(c byte) bool {
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// isQueryData reports whether c is a character RFC 3986 section 3.4 lets a
// query carry as data, where it delimits nothing.
func isQueryData(c byte) bool { return c == ':' || c == '/' || c == '?' || c == '@' }
