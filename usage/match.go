package usage

import (
	"strings"

	"github.com/fastrobots/robots/internal/percent"
)

// EscapePath returns a Content-Usage path in the form Allow and Disallow
// patterns are matched in: bytes outside ASCII percent-encoded, the hex
// digits of "%xx" escapes in upper case. Lengths are counted in this form
// (draft-ietf-aipref-attach-05 section 4.1: the bytes of the encoded path).
func EscapePath(p string) string {
	if !needsEscape(p) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case percent.IsEscape(p, i):
			b.WriteByte('%')
			b.WriteString(strings.ToUpper(p[i+1 : i+3]))
			i += 2
		case c >= 0x80:
			b.WriteString(percent.Escape(c))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// needsEscape reports whether EscapePath may change p: whether it holds a
// byte outside ASCII or a '%'. Most paths hold neither and are returned
// as they are, without a copy.
func needsEscape(p string) bool {
	for i := 0; i < len(p); i++ {
		if p[i] >= 0x80 || p[i] == '%' {
			return true
		}
	}
	return false
}

// Match reports whether pattern matches path, both escaped alike: the
// pattern matches a prefix of the path, '*' matches any run of bytes and a
// final '$' requires the match to end with the path. This is the meaning
// Allow and Disallow patterns have in the engine; this plain matcher takes
// at most len(pattern)·len(path) steps.
func Match(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	p, s := 0, 0
	star, mark := -1, 0 // the last '*' seen and where its run would end
	for s < len(path) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, s
			p++
		case p < len(pattern) && pattern[p] == path[s]:
			p++
			s++
		case p == len(pattern) && !anchored:
			return true
		case star >= 0:
			mark++
			p, s = star+1, mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}
