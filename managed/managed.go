// Package managed finds the blocks a CDN writes into a site's robots.txt
// on the site's behalf, so that a reader can tell the site's own rules
// from its CDN's defaults.
//
// Cloudflare's managed robots.txt (a setting of its bot management,
// "Instruct AI bot traffic with robots.txt") prepends a block to the file
// the origin serves, or serves the block alone when the origin has none.
// Cloudflare's documentation (developers.cloudflare.com, bots, "robots.txt
// setting") shows the block between two comment lines,
//
//	# BEGIN Cloudflare Managed content
//	...
//	# END Cloudflare Managed Content
//
// with a '*' group holding a Content-Signal line and a group per AI
// crawler it disallows. Find recognises those markers, in any case and
// with any white space around their words, as comment lines; the
// Content-Signal policy comments Cloudflare writes above the block are
// not part of it. No other CDN publishes markers for the blocks it
// writes, so no other is recognised: a block without published markers
// cannot be told from the site's own lines.
//
// A section changes no verdict: robots.txt readers read its lines as any
// others, and Google merges its groups with the site's groups of the same
// agents. What a section tells is who wrote the lines: Without gives the
// file as the site wrote it.
package managed

import (
	"bytes"
	"strings"

	"github.com/fastrobots/robots/compile"
)

// CDN names.
const Cloudflare = "cloudflare"

// Section is one managed block of a robots.txt.
type Section struct {
	// CDN is who wrote it: Cloudflare.
	CDN string
	// FirstLine and LastLine are the lines of its BEGIN and END markers,
	// counted as robots.Parse counts lines (1-based; LF, CR and CRLF each
	// end one). An unclosed section's LastLine is the file's last line.
	FirstLine, LastLine int
	// Start and End locate it in the body, markers included: body[Start:End].
	Start, End int
	// Closed is false when no END marker follows the BEGIN marker: the
	// section then runs to the end of what is read.
	Closed bool
}

// Contains reports whether line lies within the section, markers included.
func (s Section) Contains(line int) bool { return s.FirstLine <= line && line <= s.LastLine }

// marker is a pair of comment lines around one CDN's block.
type marker struct {
	cdn, begin, end string // the comment's words, lower case, single-spaced
}

var markers = []marker{
	{Cloudflare, "begin cloudflare managed content", "end cloudflare managed content"},
}

// hint is a byte string every marker holds, lower case, for a quick test
// that skips the line scan in the files that hold none.
const hint = "managed"

// Find returns the managed sections of body, in order, read as far as
// robots.Parse reads a body (robots.MaxBytes). A BEGIN marker inside an
// open section is part of it; an END marker outside any is ignored.
func Find(body []byte) []Section {
	body = body[:min(len(body), compile.DefaultMaxBytes)]
	if !containsFold(body, hint) {
		return nil
	}
	var out []Section
	var open *Section
	last := 0
	compile.Lines(string(body), func(l compile.Line) {
		last = l.Num
		words, ok := commentWords(l.Text)
		switch {
		case !ok:
		case open == nil:
			for _, m := range markers {
				if words == m.begin {
					out = append(out, Section{CDN: m.cdn, FirstLine: l.Num, Start: l.Start})
					open = &out[len(out)-1]
					return
				}
			}
		case words == endOf(open.CDN):
			open.LastLine, open.End, open.Closed = l.Num, l.Start+len(l.Raw), true
			open = nil
		}
	})
	if open != nil {
		open.LastLine, open.End = last, len(body)
	}
	return out
}

func endOf(cdn string) string {
	for _, m := range markers {
		if m.cdn == cdn {
			return m.end
		}
	}
	return ""
}

// commentWords returns the words of a line that holds a comment only,
// lower case and joined by single spaces; ok is false for any other line.
func commentWords(text string) (string, bool) {
	t := strings.TrimLeft(text, " \t")
	if !strings.HasPrefix(t, "#") {
		return "", false
	}
	return strings.ToLower(strings.Join(strings.Fields(strings.TrimLeft(t, "#")), " ")), true
}

// containsFold reports whether b holds lower, an ASCII word in lower
// case, in any case. It finds the candidates for its first byte in either
// case with one search each, each search resumed past the last, so that b
// is read once.
func containsFold(b []byte, lower string) bool {
	first := [2]byte{lower[0], lower[0] - 'a' + 'A'}
	next := [2]int{-1, -1} // the next offset of each case of the first byte, len(b) for none
	for at := 0; ; at++ {
		for k := range next {
			if next[k] < at {
				if i := bytes.IndexByte(b[at:], first[k]); i >= 0 {
					next[k] = at + i
				} else {
					next[k] = len(b)
				}
			}
		}
		at = min(next[0], next[1])
		if len(b)-at < len(lower) {
			return false
		}
		if strings.EqualFold(string(b[at:at+len(lower)]), lower) {
			return true
		}
	}
}

// Without returns body with the lines of sections blanked: each line of a
// section is kept as an empty line, so that the rest of the file keeps its
// line numbers and its groups stay apart; a line whose CR and the LF after
// it would then be read as one CRLF keeps a space instead. It is the file
// as the site wrote it, before its CDN wrote in it. body is not modified.
func Without(body []byte, sections []Section) []byte {
	if len(sections) == 0 {
		return body
	}
	out := make([]byte, 0, len(body))
	at := 0
	for _, s := range sections {
		out = append(apart(out, body[at:s.Start]), body[at:s.Start]...)
		out = appendBreaks(out, body[s.Start:s.End])
		at = s.End
	}
	return append(apart(out, body[at:]), body[at:]...)
}

// appendBreaks appends the line breaks of b, in order: LF, CR and CRLF
// each kept as written.
func appendBreaks(out, b []byte) []byte {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\n':
			out = append(apart(out, b[i:]), '\n')
		case '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				out = append(out, '\r', '\n')
				i++
			} else {
				out = append(out, '\r')
			}
		}
	}
	return out
}

// apart returns out with a space appended when it ends in a CR and next
// begins with an LF: the text blanked between them kept them two line
// breaks, which side by side would be read as one.
func apart(out, next []byte) []byte {
	if len(out) > 0 && out[len(out)-1] == '\r' && len(next) > 0 && next[0] == '\n' {
		return append(out, ' ')
	}
	return out
}
