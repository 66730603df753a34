package lint

import (
	"strings"

	"github.com/fastrobots/robots/compile"
)

// line is one physical line, split as compile.Lines splits it, with the
// bytes the parser drops kept for the checks that look at them.
type line struct {
	num int
	// raw is the line as stored, without its terminator; on the first
	// line, after a byte order mark or a prefix of one.
	raw string
	// text is what the parser reads: raw cut at compile.MaxLineBytes and
	// at the first NUL byte.
	text string
}

// splitLines calls fn for every line of body in order, as compile.Lines
// splits it, keeping the raw line beside the parser's text.
func splitLines(body string, fn func(line)) {
	compile.Lines(body, func(l compile.Line) {
		fn(line{num: l.Num, raw: l.Raw, text: l.Text})
	})
}

// utf8BOM is the UTF-8 byte order mark.
const utf8BOM = "\xEF\xBB\xBF"

// fields are the positions of a directive's parts within a line's text,
// 0-based; value is where the value starts (its end when it is empty).
type fields struct {
	key, value int
	colon      bool // the key and value are separated by a colon
}

// locate finds where compile.SplitKeyValue took a directive's key and
// value from.
func locate(text string) fields {
	if i := strings.IndexByte(text, '#'); i >= 0 {
		text = text[:i]
	}
	key := skipSpace(text, 0)
	sep := strings.IndexByte(text, ':')
	f := fields{key: key, colon: sep >= 0}
	if sep < 0 {
		sep = strings.IndexAny(text[key:], " \t") + key
	}
	f.value = skipSpace(text, sep+1)
	return f
}

// skipSpace returns the index of the first byte of s at or after i that is
// not white space, or len(s).
func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// isSpace is compile's white space: space, tab, LF, VT, FF and CR.
func isSpace(c byte) bool { return c == ' ' || ('\t' <= c && c <= '\r') }

// blank reports whether s holds only white space.
func blank(s string) bool { return skipSpace(s, 0) == len(s) }

// stripComment returns s up to its first '#'.
func stripComment(s string) string {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		return s[:i]
	}
	return s
}
