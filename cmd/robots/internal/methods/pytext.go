package methods

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The published methods are Python programs reading a body as text. These
// helpers give Python's readings of the bytes a body holds, read as UTF-8:
// a byte that is not part of valid UTF-8 stands for itself (utf8.DecodeRune
// reads it as utf8.RuneError of width 1) and is never white space nor a
// line boundary, as U+FFFD, which Python decodes it to, is neither.

// pySpace reports whether Python's str.isspace holds for r: Go's
// unicode.IsSpace (Unicode's White_Space, in Latin-1 the Cc characters
// \t \n \v \f \r and U+0085) plus the separators U+001C to U+001F, whose
// bidirectional class (B or S) makes them space to Python.
func pySpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// pyStrip is Python's str.strip() with no argument: s without the
// characters str.isspace holds for at either end.
func pyStrip(s []byte) []byte {
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		if !pySpace(r) {
			break
		}
		s = s[n:]
	}
	for len(s) > 0 {
		r, n := utf8.DecodeLastRune(s)
		if !pySpace(r) {
			break
		}
		s = s[:len(s)-n]
	}
	return s
}

// pyLineBreak returns the width of the line boundary at the start of s in
// Python's str.splitlines (\n, \r, \r\n, \v, \f, \x1c, \x1d, \x1e, U+0085,
// U+2028, U+2029), or 0 when s starts with none.
func pyLineBreak(s []byte) int {
	if len(s) == 0 {
		return 0
	}
	switch s[0] {
	case '\r':
		if len(s) > 1 && s[1] == '\n' {
			return 2
		}
		return 1
	case '\n', '\v', '\f', 0x1c, 0x1d, 0x1e:
		return 1
	}
	if s[0] < utf8.RuneSelf {
		return 0
	}
	switch r, n := utf8.DecodeRune(s); r {
	case 0x85, 0x2028, 0x2029:
		return n
	}
	return 0
}

// pySplitLines calls f with each line of Python's str.splitlines(), in
// order, without its boundary; a final boundary starts no empty line.
func pySplitLines(s []byte, f func(line []byte)) {
	start := 0
	for i := 0; i < len(s); {
		if n := pyLineBreak(s[i:]); n > 0 {
			f(s[start:i])
			i += n
			start = i
			continue
		}
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, n := utf8.DecodeRune(s[i:])
		i += n
	}
	if start < len(s) {
		f(s[start:])
	}
}

// pyFields is Python's str.split() with no argument: the runs of
// characters str.isspace does not hold for, at most max of them (the rest
// are not needed by any caller).
func pyFields(s []byte, max int) [][]byte {
	var out [][]byte
	start := -1
	for i := 0; i < len(s) && len(out) < max; {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(s[i:])
		}
		space := pySpace(r)
		switch {
		case space && start >= 0:
			out = append(out, s[start:i])
			start = -1
		case !space && start < 0:
			start = i
		}
		i += n
	}
	if start >= 0 && len(out) < max {
		out = append(out, s[start:])
	}
	return out
}

// pyLower is Python's str.lower() as far as comparing names goes: Go's
// simple lower-case mapping, with U+0130 (İ) lowered to "i\u0307" as
// Python's full mapping does. Invalid UTF-8 becomes U+FFFD, as Python
// decodes it.
func pyLower(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == 0x130 {
			b.WriteString("i\u0307")
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// containsFold reports whether s contains sub, an ASCII string in lower
// case, ignoring the case of ASCII letters in s: Python's
// sub in s.lower(), for an ASCII sub no other character lowers into.
func containsFold(s []byte, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for ; j < len(sub); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != sub[j] {
				break
			}
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}
