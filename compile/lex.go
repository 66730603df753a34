package compile

import "strings"

// MaxLineBytes is the number of bytes of a line that are read; the rest of a
// longer line is ignored. It is the reference parser's buffer (8 × 2083, the
// longest URL some browsers accept, less one byte for the terminator), kept
// so that a rule cut at the limit is cut at the same byte Google cuts it.
const MaxLineBytes = 2083*8 - 1

// DefaultMaxBytes is the default number of bytes of a robots.txt that are
// read; the rest is ignored. Google documents a limit of 500 kibibytes, and
// RFC 9309 section 2.5 requires crawlers to parse at least that much.
const DefaultMaxBytes = 500 * 1024

// utf8BOM is the byte order mark some editors write at the start of a file.
var utf8BOM = [3]byte{0xEF, 0xBB, 0xBF}

// Line is one physical line of a robots.txt, after the line-length limit,
// NUL cut and BOM skipping, but before comment removal.
type Line struct {
	Num  int    // 1-based line number, counting LF, CR and CRLF as one break each
	Text string // the line's bytes without the terminator, as the parser reads them
	Raw  string // the whole line without the terminator, before the cut and the NUL
	Cut  bool   // the line was longer than MaxLineBytes and was cut
	NUL  bool   // the line held a NUL byte; Text stops before it
}

// skipBOM returns how many leading bytes of data belong to a UTF-8 byte
// order mark or a prefix of one. Google skips such a prefix even when the
// mark is incomplete, so "\xEF\xBB" at the start is skipped too.
func skipBOM(data []byte) int {
	n := 0
	for n < len(utf8BOM) && n < len(data) && data[n] == utf8BOM[n] {
		n++
	}
	return n
}

// Lines calls fn for every line of body in order, including a final line
// without a terminator (which may be empty). LF, CR and CRLF each end one
// line. The text handed to fn is a substring of body; no bytes are copied.
// It runs in time linear in len(body) whatever mix of breaks it holds.
func Lines(body string, fn func(Line)) {
	sc := newScanner(body)
	for {
		start, end, num := sc.next()
		l := Line{Num: num, Raw: body[start:end]}
		textEnd := sc.textEnd(start, end)
		l.Text = body[start:textEnd]
		l.Cut = end-start > MaxLineBytes
		l.NUL = textEnd < min(end, start+MaxLineBytes)
		fn(l)
		if sc.done() {
			return
		}
	}
}

// scanner splits a body into lines. It finds each byte it looks for (LF,
// CR, NUL) with one finder that remembers the next occurrence, so the body
// is scanned a constant number of times whatever its lines hold: a file of
// CR-only lines does not rescan the rest of the body for an LF at every
// line.
type scanner struct {
	body        string
	pos         int // start of the next line
	num         int // number of the last line returned
	end         bool
	lf, cr, nul finder
}

func newScanner(body string) scanner {
	start := skipBOM([]byte(body[:min(len(body), len(utf8BOM))]))
	return scanner{body: body, pos: start, lf: newFinder('\n'), cr: newFinder('\r'), nul: newFinder(0)}
}

// next returns the bounds of the next line, without its terminator, and
// its number.
func (s *scanner) next() (start, end, num int) {
	start = s.pos
	end = s.breakAt(start)
	return start, end, s.endLine(end)
}

// breakAt returns the index of the first line break at or after from, or
// len(body).
func (s *scanner) breakAt(from int) int {
	return min(s.lf.next(s.body, from), s.cr.next(s.body, from))
}

// endLine ends the next line at end, the index of its break or len(body),
// as next would, and returns its number.
func (s *scanner) endLine(end int) int {
	s.num++
	if end == len(s.body) {
		s.end = true
		return s.num
	}
	s.pos = end + 1
	if s.body[end] == '\r' && s.pos < len(s.body) && s.body[s.pos] == '\n' {
		s.pos++
	}
	return s.num
}

// done reports whether the last line has been returned.
func (s *scanner) done() bool { return s.end }

// textEnd returns where the parser stops reading the line [start, end):
// at MaxLineBytes, or before a NUL byte.
func (s *scanner) textEnd(start, end int) int {
	end = min(end, start+MaxLineBytes)
	return min(end, s.nul.next(s.body, start))
}

// finder remembers where the next occurrence of byte c is at or after the
// last position asked. Its fast path is small enough to be inlined into
// the parser's loop.
type finder struct {
	c   byte
	pos int // index of the next occurrence at or after the last start, len(body) when none; -1 before the first search
}

func newFinder(c byte) finder { return finder{c: c, pos: -1} }

func (f *finder) next(body string, start int) int {
	if f.pos >= start {
		return f.pos
	}
	return f.search(body, start)
}

func (f *finder) search(body string, start int) int {
	f.pos = len(body)
	if i := strings.IndexByte(body[start:], f.c); i >= 0 {
		f.pos = start + i
	}
	return f.pos
}

func indexByte(s string, c byte) int { return strings.IndexByte(s, c) }

// isSpace reports whether c is ASCII white space as C's isspace sees it:
// space, tab, LF, VT, FF and CR.
func isSpace(c byte) bool {
	return c == ' ' || (c >= '\t' && c <= '\r')
}

// trimSpace removes leading and trailing ASCII white space.
func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// SplitKeyValue reduces a line to its key and value. It removes a comment
// (from the first '#'), trims white space, and splits at the first ':'.
// With lenient set, a line without a colon that holds exactly two words
// separated by spaces or tabs is split there, as Google does for writers
// who forget the colon. ok is false for a line that holds no directive:
// empty, comment only, no separator, or an empty key.
func SplitKeyValue(text string, lenient bool) (key, value string, ok bool) {
	if i := indexByte(text, '#'); i >= 0 {
		text = text[:i]
	}
	text = trimSpace(text)
	sep := indexByte(text, ':')
	if sep < 0 {
		if !lenient {
			return "", "", false
		}
		sep = indexSpaceTab(text, 0)
		if sep < 0 || indexSpaceTab(text, skipSpaceTab(text, sep)) >= 0 {
			return "", "", false
		}
	}
	key = trimSpace(text[:sep])
	if key == "" {
		return "", "", false
	}
	return key, trimSpace(text[sep+1:]), true
}

func indexSpaceTab(s string, from int) int {
	for i := from; i < len(s); i++ {
		if s[i] == ' ' || s[i] == '\t' {
			return i
		}
	}
	return -1
}

func skipSpaceTab(s string, from int) int {
	for from < len(s) && (s[from] == ' ' || s[from] == '\t') {
		from++
	}
	return from
}

// truncate returns data cut to at most max bytes; max <= 0 means no limit.
func truncate(data []byte, max int) ([]byte, bool) {
	if max > 0 && len(data) > max {
		return data[:max], true
	}
	return data, false
}
