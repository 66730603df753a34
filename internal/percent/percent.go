// Package percent holds the percent-encoding that both sides of a match
// need: patterns (package compile) and URLs (package runtime). Keeping it
// in one place keeps the two sides in the same form: a pattern matches a
// URL only if both were escaped and normalised alike.
package percent

// Upper is the upper-case hexadecimal alphabet, the form Google writes
// escapes in.
const Upper = "0123456789ABCDEF"

// escapes holds "%00%01…%FF": the escape of byte c is escapes[3c:3c+3].
// Slicing it costs nothing, so callers can escape on the fly.
var escapes = func() string {
	b := make([]byte, 0, 256*3)
	for c := range 256 {
		b = append(b, '%', Upper[c>>4], Upper[c&15])
	}
	return string(b)
}()

// Escape returns "%XX", the escape of c with upper-case digits. It does
// not allocate.
func Escape(c byte) string { return escapes[int(c)*3 : int(c)*3+3] }

// IsDigit reports whether c is a hexadecimal digit of either case.
func IsDigit(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

// Value returns the value of the hexadecimal digit c, which must satisfy
// IsDigit.
func Value(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// IsEscape reports whether s[i:] starts with a %xx escape.
func IsEscape(s string, i int) bool {
	return s[i] == '%' && i+2 < len(s) && IsDigit(s[i+1]) && IsDigit(s[i+2])
}
