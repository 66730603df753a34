package compile

import (
	"strings"

	"github.com/fastrobots/robots/internal/percent"
	"github.com/fastrobots/robots/internal/word"
)

// EscapePattern canonicalises an allow or disallow value as Google does
// before matching: every byte outside ASCII becomes %XX, and the hex digits
// of an existing %xx escape are upper-cased ("/Sanjosé" becomes
// "/Sanjos%C3%A9", "%aa" becomes "%AA"). Nothing is decoded. It returns
// value itself when nothing changes.
func EscapePattern(value string) string {
	if !needsEscape(value) {
		return value
	}
	var b strings.Builder
	b.Grow(len(value) + 16)
	for i := 0; i < len(value); i++ {
		c := value[i]
		switch {
		case percent.IsEscape(value, i):
			b.WriteByte('%')
			b.WriteByte(upper(value[i+1]))
			b.WriteByte(upper(value[i+2]))
			i += 2
		case c >= 0x80:
			b.WriteString(percent.Escape(c))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// needsEscape reports whether EscapePattern changes s: whether it holds a
// byte outside ASCII or a %xx escape with a lower-case digit.
func needsEscape(s string) bool {
	if plainASCII(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return true
		}
		if c == '%' && percent.IsEscape(s, i) {
			if isLowerHex(s[i+1]) || isLowerHex(s[i+2]) {
				return true
			}
			i += 2
		}
	}
	return false
}

func isLowerHex(c byte) bool { return 'a' <= c && c <= 'f' }

// plainASCII reports whether s holds only ASCII bytes and no '%', a word
// at a time: a byte is '%' when it is zero after an exclusive or with '%'.
func plainASCII(s string) bool {
	const ones, highs, pct = 0x0101010101010101, 0x8080808080808080, 0x2525252525252525
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := word.At(s, i)
		p := w ^ pct
		if w&highs != 0 || (p-ones)&^p&highs != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == '%' {
			return false
		}
	}
	return true
}

func upper(c byte) byte {
	if isLowerHex(c) {
		return c - ('a' - 'A')
	}
	return c
}

// NormalizeRFCPattern brings an allow or disallow value to the form in
// which RFC 9309 section 2.2.2 compares octets (percent.NormalizeRFC),
// keeping '*' and a final '$' as operators, as Dialect.Subject does paths.
func NormalizeRFCPattern(pattern string) string {
	return percent.NormalizeRFC(pattern, true)
}
