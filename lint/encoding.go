package lint

import (
	"strings"
	"unicode/utf8"

	"github.com/fastrobots/robots/compile"
)

// checkSize reports content past the number of bytes Google reads.
func (l *linter) checkSize(data []byte) {
	if len(data) <= compile.DefaultMaxBytes || blank(string(data[compile.DefaultMaxBytes:])) {
		return
	}
	last := l.google.Lines[len(l.google.Lines)-1]
	l.report(last.Line, last.End-last.Start+1, CodeTruncated,
		"the file is %d bytes; Google reads the first %d (500 KiB) and ignores everything from here", len(data), compile.DefaultMaxBytes)
}

// checkWholeFile reports a file that is not a robots.txt at all: UTF-16, or
// an HTML page. It returns false when the lines are not worth checking one
// by one.
func (l *linter) checkWholeFile() bool {
	if nulHeavy(l.body) {
		l.report(1, 1, CodeUTF16, "the file is UTF-16: Google reads bytes, finds a NUL in every character and no directive; save it as UTF-8")
		return false
	}
	if utf16BOM(l.body) {
		l.report(1, 1, CodeUTF16,
			"the file starts with a UTF-16 byte order mark: Google reads bytes and does not skip it, so the first line holds no directive; save the file as UTF-8")
		l.skipFirst = true
		return true
	}
	for i := range l.google.Lines {
		read := &l.google.Lines[i]
		if read.Empty {
			continue
		}
		text := l.line(read).text()
		if i := skipSpace(text, 0); i < len(text) && text[i] == '<' {
			l.report(read.Line, i+1, CodeHTML, "the file is an HTML page, not a robots.txt: Google finds no rules in it and allows everything")
			return false
		}
		break
	}
	return true
}

// utf16BOM reports whether body starts with a UTF-16 byte order mark.
func utf16BOM(body string) bool {
	return strings.HasPrefix(body, "\xFF\xFE") || strings.HasPrefix(body, "\xFE\xFF")
}

// nulHeavy reports whether a quarter or more of the first KiB are NUL
// bytes, as in UTF-16 text, where every ASCII character carries one.
func nulHeavy(body string) bool {
	head := body[:min(len(body), 1024)]
	n := strings.Count(head, "\x00")
	return n >= 2 && 4*n >= len(head)
}

// byteChecks are the checks of a line's bytes that can find something,
// learnt from the whole body at once: most bodies hold no byte order mark
// past their start, no NUL byte and only UTF-8, and then their lines need
// no look but for the cut of a long one.
type byteChecks struct {
	bom, nul, utf8 bool
}

func (l *linter) byteChecks() byteChecks {
	// A mark, a NUL or bytes that are not UTF-8 in a line are in the body
	// after the leading mark Google skips; a line break, an ASCII byte,
	// never splits one, so that a body of valid UTF-8 has valid lines.
	rest := l.body[l.google.Lines[0].Start:]
	return byteChecks{bom: strings.Contains(rest, utf8BOM), nul: l.nul, utf8: !utf8.ValidString(rest)}
}

// check reports the bytes of a line that the parser drops or reads other
// than it seems: a cut at the line-length limit, a NUL byte, a byte order
// mark and invalid UTF-8.
func (bc byteChecks) check(l *linter, ln line) {
	if bc.bom {
		if i := strings.Index(ln.raw, utf8BOM); i >= 0 {
			l.report(ln.num, i+1, CodeStrayBOM,
				"a byte order mark (U+FEFF) inside the file: Google skips it only as the file's first bytes, so here it is part of the line")
		}
	}
	if bc.nul {
		if i := strings.IndexByte(ln.raw, 0); i >= 0 && i < compile.MaxLineBytes && hidesContent(ln.raw[i:]) {
			l.report(ln.num, i+1, CodeNUL, "a NUL byte: Google ignores the rest of the line")
		}
	}
	tooLong := ln.read.TooLong
	if tooLong && !strings.ContainsAny(ln.raw[:compile.MaxLineBytes], "#\x00") &&
		!blank(stripComment(ln.raw[compile.MaxLineBytes:])) {
		l.report(ln.num, compile.MaxLineBytes+1, CodeLineTooLong,
			"the line is %d bytes; Google reads the first %d and ignores the rest", len(ln.raw), compile.MaxLineBytes)
	}
	// The cut of a long line may split a character.
	if bc.utf8 || tooLong {
		if i := invalidUTF8(stripComment(ln.text())); i >= 0 {
			l.report(ln.num, i+1, CodeInvalidUTF8,
				"bytes that are not UTF-8: Google matches them as %%-escaped bytes, while URLs carry %%-escaped UTF-8")
		}
	}
}

// hidesContent reports whether s, from a NUL byte on, holds anything but
// NUL bytes and white space.
func hidesContent(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != 0 && !isSpace(s[i]) {
			return true
		}
	}
	return false
}

// invalidUTF8 returns the index of the first byte of s that is not part of
// valid UTF-8, or -1.
func invalidUTF8(s string) int {
	if utf8.ValidString(s) { // most lines: read eight ASCII bytes a step
		return -1
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

// hasPrefixFoldASCII reports whether s begins with prefix, a lower-case
// ASCII string, in any case of its letters. No other rune lowers to an
// ASCII letter of htmlTags (U+212A, the Kelvin sign, lowers to 'k').
func hasPrefixFoldASCII(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// htmlTags are the starts of lines that mark HTML in the middle of a file.
var htmlTags = []string{"<!doctype html", "<html", "</html", "<head", "<body", "</body", "<!--"}

// checkHTMLLine reports the first line of HTML markup in a file that does
// not start with it (a page appended to the rules, say). It returns true
// for such a line, which needs no other finding.
func (l *linter) checkHTMLLine(ln line) bool {
	var text string
	var i int
	switch read := ln.read; {
	case read.Empty || read.Comment:
		return false // white space, or a '#' first
	case read.HasDirective:
		// The key starts at the text's first byte that is not white space.
		text = ln.raw
		i, _ = read.KeyBounds()
		i -= read.Start
	default:
		text = ln.text()
		i = skipSpace(text, 0)
	}
	if i >= len(text) || text[i] != '<' {
		return false // every tag starts with '<'
	}
	text = ln.text()
	for _, tag := range htmlTags {
		if hasPrefixFoldASCII(text[i:], tag) {
			if !l.sawHTML {
				l.sawHTML = true
				l.report(ln.num, i+1, CodeHTML,
					"HTML markup: the file holds part of a web page, whose lines Google ignores or misreads")
			}
			return true
		}
	}
	return false
}
