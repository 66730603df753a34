// Package hex holds the hexadecimal digit helpers that percent-encoding
// needs on both sides of a match: in patterns (compile) and in URLs
// (runtime).
package hex

// Upper is the upper-case hexadecimal alphabet, the form Google writes
// escapes in.
const Upper = "0123456789ABCDEF"

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
