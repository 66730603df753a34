package compile

import "strings"

// MaxLineBytes is the number of bytes of a line that are read; the rest of
// a longer line is ignored. It is the reference parser's buffer, less its
// terminator, so that a rule is cut at the byte Google cuts it.
const MaxLineBytes = 2083*8 - 1

// DefaultMaxBytes is the default number of bytes of a robots.txt that are
// read; the rest is ignored. Google documents a limit of 500 kibibytes, and
// RFC 9309 section 2.5 requires crawlers to parse at least that much.
const DefaultMaxBytes = 500 * 1024

var utf8BOM = [3]byte{0xEF, 0xBB, 0xBF}

// Line is one physical line of a robots.txt, after the line-length limit,
// NUL cut and BOM skipping, but before comment removal.
type Line struct {
	Num   int    // 1-based line number, counting LF, CR and CRLF as one break each
	Start int    // where Raw starts in the body
	Text  string // the line's bytes without the terminator, as the parser reads them
	Raw   string // the whole line without the terminator, before the cut and the NUL
	Cut   bool   // the line was longer than MaxLineBytes and was cut
	NUL   bool   // the line held a NUL byte; Text stops before it
}

// skipBOM returns how many leading bytes of data belong to a UTF-8 byte
// order mark or, as Google skips it too, a prefix of one.
func skipBOM(data []byte) int {
	n := 0
	for n < len(utf8BOM) && n < len(data) && data[n] == utf8BOM[n] {
		n++
	}
	return n
}

// Lines calls fn for every line of body in order, including a final line
// without a terminator (which may be empty); LF, CR and CRLF each end one.
// It runs in time linear in len(body) and copies nothing.
func Lines(body string, fn func(Line)) {
	sc := newScanner(body)
	for {
		start, end, num := sc.next()
		l := Line{Num: num, Start: start, Raw: body[start:end]}
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

// scanner splits a body into lines. A finder per byte it looks for (LF,
// CR, NUL) remembers the next occurrence, so that a file of CR-only lines
// is not rescanned for an LF at every line.
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

func (s *scanner) next() (start, end, num int) {
	start = s.pos
	end = s.breakAt(start)
	return start, end, s.endLine(end)
}

func (s *scanner) breakAt(from int) int {
	return min(s.lf.next(s.body, from), s.cr.next(s.body, from))
}

// endLine ends the next line at end, its break or len(body).
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

func (s *scanner) done() bool { return s.end }

func (s *scanner) textEnd(start, end int) int {
	end = min(end, start+MaxLineBytes)
	return min(end, s.nul.next(s.body, start))
}

// finder remembers where the next occurrence of byte c is at or after the
// last position asked; next is small enough to be inlined.
type finder struct {
	c   byte
	pos int // len(body) when none; -1 before the first search
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
// (from the first '#'), trims white space, and splits at the first ':' or,
// when lenient, as Google does, between the words of a colonless line of
// exactly two. ok is false for a line that holds no directive.
func SplitKeyValue(text string, lenient bool) (key, value string, ok bool) {
	key, value, m := splitLine(text, lenient)
	return key, value, m.HasDirective
}

// LineMetadata is what splitting a line finds besides its key and value,
// as Google's parser records it for each line (robots.cc's
// RobotsParseHandler::LineMetadata, less the typo and the length, which
// the key and the line give).
type LineMetadata struct {
	// Empty: nothing but white space. Comment: nothing but white space
	// and a comment. HasComment: a '#' anywhere.
	Empty, Comment, HasComment bool
	// HasDirective: a key and a value were found (the key not empty).
	HasDirective bool
	// MissingColon: the key and value were two words without a colon
	// between them, which Google reads as a directive.
	MissingColon bool
}

// splitLine is SplitKeyValue, with what it found about the line.
func splitLine(text string, lenient bool) (key, value string, m LineMetadata) {
	b, m := splitBounds(text, lenient)
	if !m.HasDirective {
		return "", "", m
	}
	return text[b.ks:b.ke], text[b.vs:b.ve], m
}

// bounds locate a directive's key, text[ks:ke], and value, text[vs:ve],
// both trimmed of white space. An empty value stands where the line's
// text ends, before its comment, as the parser records it.
type bounds struct{ ks, ke, vs, ve int }

// shift returns b moved by off bytes, from a line's text to its body.
func (b bounds) shift(off int) bounds {
	return bounds{b.ks + off, b.ke + off, b.vs + off, b.ve + off}
}

// splitBounds is splitLine by positions: the one statement of how a line
// splits, which the report, SplitKeyValue and the parser's general path
// all read. The bounds are zero unless m.HasDirective.
func splitBounds(text string, lenient bool) (b bounds, m LineMetadata) {
	end := len(text)
	if i := indexByte(text, '#'); i >= 0 {
		end = i
		m.HasComment = true
	}
	ts, te := trimBounds(text, 0, end)
	if ts == te {
		m.Comment, m.Empty = m.HasComment, !m.HasComment
		return b, m
	}
	sep := indexByte(text[ts:te], ':')
	if sep < 0 {
		if !lenient {
			return b, m
		}
		// Two words, split at the first run of spaces and tabs.
		sep = indexSpaceTab(text[:te], ts)
		if sep < 0 || indexSpaceTab(text[:te], skipSpaceTab(text, sep)) >= 0 {
			return b, m
		}
		m.MissingColon = true
	} else {
		sep += ts
	}
	ks, ke := trimBounds(text, ts, sep)
	if ks == ke {
		return b, m // nothing before the colon
	}
	m.HasDirective = true
	vs, ve := trimBounds(text, sep+1, end)
	return bounds{ks, ke, vs, ve}, m
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

func truncate(data []byte, max int) ([]byte, bool) {
	if max > 0 && len(data) > max {
		return data[:max], true
	}
	return data, false
}
