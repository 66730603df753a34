package compile

import (
	"math/bits"

	"github.com/fastrobots/robots/internal/word"
)

// The quick path reads, in one pass over its bytes, the line shape of
// nearly every real robots.txt: a canonical key at the start of the line
// (after white space at most), its colon right after it, and a value that
// a line break ends. Any other line is left to the general path
// (builder.scan) untouched, so the quick path decides only how fast a line
// is read, never how (TestQuickLineAgreesWithGeneral, fuzzgen.CheckParse).

const (
	valueStop   = 1 // ends the line's text: LF, CR, '#' (a comment) or NUL
	valueEscape = 2 // may need escaping: '%' or a byte outside ASCII
)

var valueClass = func() (t [256]uint8) {
	for _, c := range []byte{'\n', '\r', '#', 0} {
		t[c] = valueStop
	}
	t['%'] = valueEscape
	for c := 0x80; c < len(t); c++ {
		t[c] = valueEscape
	}
	return t
}()

// marked reports whether a word of a value may hold a byte of a
// valueClass: whether a byte is below '&' or outside ASCII. That holds every
// such byte ('#' and '%' are below '&', and so is every stop) in two
// tests, and a few others (' ', '!', '"', '$'), which valueMasks tells
// apart. The test is the exact "some byte is below n" of a word, (x -
// n·0x01…) &^ x & 0x80…, which borrows across bytes only past one that is.
func marked(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	return ((w-'&'*ones)&^w|w)&highs != 0
}

// valueMasks returns the marks of a word's stops (valueStop) and escapes
// (valueEscape): in each, the high bit of the first byte of the class is
// set, and of no byte before it; bytes past it may be marked wrongly, as
// marked's borrow may run past a byte that is. So the lowest stop mark is
// the first stop, and an escape mark below it is an escape.
func valueMasks(w uint64) (stops, escapes uint64) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	lf, cr, hash, pct := w^'\n'*ones, w^'\r'*ones, w^'#'*ones, w^'%'*ones
	stops = ((w-ones)&^w | (lf-ones)&^lf | (cr-ones)&^cr | (hash-ones)&^hash) & highs
	escapes = ((pct-ones)&^pct | w) & highs
	return stops, escapes
}

// quickKey returns the kind and length of the field name that starts
// body[ks:] when its colon follows at once before limit; n is 0 otherwise,
// leaving keys read by prefix ("disallowed") to the general path.
func quickKey(body string, ks, limit int) (kind Kind, n int) {
	if ks+quickKeyRoom > len(body) {
		return Unknown, 0 // too near the end to read the longest key at once
	}
	w := &keyByLetter[body[ks]%letterSlots]
	n = int(w.n) - 1
	if !w.prefixOf(body[ks:]) || ks+n >= limit {
		return Unknown, 0
	}
	return w.kind, n
}

// quickLines reads the lines from sc.pos on while each has the quick
// path's shape, or is blank or a comment, moving sc past them, and stops
// at the end of the body or before the first line it does not read, which
// it leaves to the general path unchanged. It reads a run of lines in
// one call, since most lines of a file take this path one after another.
func (b *builder) quickLines(sc *scanner) {
	body := b.file.body
	for !sc.done() {
		start := sc.pos
		limit := min(len(body), start+MaxLineBytes)
		ks := start
		// Most lines start with their key: one test sees that, where the
		// loop and the switch below test each byte four ways or more.
		if ks == len(body) || body[ks] <= ' ' || body[ks] == '#' {
			for ks < limit && isBlank(body[ks]) {
				ks++
			}
			switch {
			case ks == len(body) || body[ks] == '\n' || body[ks] == '\r':
				num := sc.endLine(ks) // a blank line
				if b.report != nil {
					b.report.blank(num, start, ks)
				}
				continue
			case body[ks] == '#':
				// A comment line holds nothing, whatever its length or bytes.
				end := sc.breakAt(ks)
				num := sc.endLine(end)
				if b.report != nil {
					b.report.comment(num, start, end, ks < limit)
				}
				continue
			}
		}
		kind, n := quickKey(body, ks, limit)
		if n == 0 {
			return
		}
		vs := ks + n + 1
		if vs < limit && body[vs] == ' ' {
			vs++ // the space most values start with would mark their first word
		}
		i, escape := scanValue(body, vs, limit)
		if i < len(body) && (i == limit || body[i] == '#' || body[i] == 0) {
			return
		}
		vs, ve := trimBounds(body, vs, i)
		num := sc.endLine(i)
		if b.report != nil {
			b.report.field(num, start, i, kind, bounds{ks, ks + n, vs, ve})
		}
		// No default: quickKey gives the kinds of fields, never Unknown, and
		// a new one must be named here (TestEveryKindIsRecorded).
		switch kind {
		case UserAgent:
			b.userAgent(num, vs, ve)
		case Allow, Disallow:
			b.rule(num, kind == Allow, vs, ve, escape)
		case Sitemap:
			b.other(num, true, ks, ks+n, vs, ve)
		}
	}
}

// isBlank is isSpace without the line breaks.
func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\v' || c == '\f'
}

// scanValue returns where the value from body[i:] stops, at its first
// valueStop byte or at limit, and whether a valueEscape byte comes before
// that. It is a function of its own so that its loop has the registers
// to itself: inside quickLines, with the line's other values live, the
// compiler spilled its words and masks to the stack.
func scanValue(body string, i, limit int) (int, bool) {
	var seen uint8
	for i+8 <= limit {
		// Eight bytes a turn, one test: most values hold no byte to stop
		// at or escape. In a word that holds one, the masks place the
		// first stop and tell whether an escape comes before it.
		w := word.At(body, i)
		if !marked(w) {
			i += 8
			continue
		}
		stops, escapes := valueMasks(w)
		if stops == 0 {
			if escapes != 0 {
				seen |= valueEscape
			}
			i += 8
			continue
		}
		first := bits.TrailingZeros64(stops) &^ 7 // the stop's bit 0
		if escapes&(1<<first-1) != 0 {
			seen |= valueEscape
		}
		return i + first/8, seen != 0
	}
	// Fewer than eight bytes are left before limit.
	for ; i < limit; i++ {
		c := valueClass[body[i]]
		if c == valueStop {
			break
		}
		seen |= c
	}
	return i, seen != 0
}
