package lint

import (
	"strings"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/compile"
)

// line is one physical line, as Google's report of it locates it, with
// the bytes the parser drops kept for the checks that look at them.
type line struct {
	num int
	// raw is the line as stored, without its terminator; on the first
	// line, after a byte order mark or a prefix of one.
	raw string
	// read is Google's report of the line, with its key and value.
	read *robots.LineReport
	// nul is set when the body holds a NUL byte, which may cut the text.
	nul bool
}

// line returns the line read reports.
func (l *linter) line(read *robots.LineReport) line {
	return line{num: read.Line, raw: l.body[read.Start:read.End], read: read, nul: l.nul}
}

// text is what the parser reads: raw cut at compile.MaxLineBytes and at
// the first NUL byte.
func (ln line) text() string {
	t := ln.raw[:min(len(ln.raw), compile.MaxLineBytes)]
	if ln.nul {
		if i := strings.IndexByte(t, 0); i >= 0 {
			t = t[:i]
		}
	}
	return t
}

// utf8BOM is the UTF-8 byte order mark.
const utf8BOM = "\xEF\xBB\xBF"

// fields are the positions of a directive's parts within a line's text,
// 0-based; value is where the value starts (its end when it is empty).
type fields struct{ key, value int }

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
