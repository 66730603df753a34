package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/fastrobots/robots"
)

// A query line longer than maxEvalLine holds a robots.txt longer than
// Parse reads (or is not a query). longQuery reads it as it comes, in
// bounded memory, and rewrites it as a small line that encoding/json
// decodes as it does a short one: the strings of the top-level members
// robotstxt and robotstxt_b64 are written "", their contents checked as
// they are read and kept apart in part; the rest is kept, each run of
// white space outside strings made one space, up to evalLineRoom bytes.

// evalBodyBytes is how much of a long query's robots.txt is kept: the
// bytes Parse reads, and one more, so that the parse is the same as that
// of the whole body.
const evalBodyBytes = robots.MaxBytes + 1

// evalTextUnits is how many units (bytes and escapes) of a robotstxt
// string are kept. Each decodes to a byte or more, and only the last
// utf8.UTFMax-1 kept may decode otherwise than in the whole string (a
// UTF-8 sequence or a surrogate pair cut): past the first evalBodyBytes.
const evalTextUnits = evalBodyBytes + utf8.UTFMax - 1

// longQuery is an io.Writer taking a long query line.
type longQuery struct {
	small     []byte    // the line, without its bodies' contents
	depth     int       // of the arrays and objects open
	name      int       // where the last string at depth 1 starts in small
	next      *longBody // the body the value after a colon is
	body      *longBody // the body the open string is, or nil
	inString  bool      // a string is open
	esc       int       // -1 after a backslash, else the hex digits to come
	code      rune      // of the \u escape being read
	text, b64 longBody  // robotstxt and robotstxt_b64, their last strings
}

// longBody is a body string as far as it is kept: robotstxt's first
// evalTextUnits units as written, or the first evalBodyBytes bytes
// robotstxt_b64 decodes to, and why it does not.
type longBody struct {
	kept   []byte
	n      int    // the units read, or the base64 characters decoded
	quad   []byte // base64 characters of a quantum begun
	padded bool   // a quantum with padding was decoded
	err    error
}

// errLongRoom is the error of a long line whose other members do not fit.
var errLongRoom = fmt.Errorf("the members other than robotstxt_b64 and robotstxt hold more than %d bytes", evalLineRoom)

// answerLong answers a query line too long to hold: prefix, its first
// bytes, then rest, the others.
func (ev *evaluator) answerLong(prefix []byte, rest io.Reader) evalAnswer {
	var q evalQuery
	d, err := readLongQuery(prefix, rest, &q) // which sets q.ID even when a field's type is wrong
	if err != nil {
		if q.ID == nil {
			q.ID = readID(d.small)
		}
		return evalAnswer{ID: q.ID, Error: "bad JSON: " + err.Error()}
	}
	body, err := d.bodyOf(&q)
	return ev.complete(&q, body, err)
}

// readLongQuery reads a query line too long to hold, prefix then rest: the
// robots.txt into the longQuery returned, as far as it is kept, and the
// other members into q, a struct of eval's members.
func readLongQuery(prefix []byte, rest io.Reader, q any) (*longQuery, error) {
	d := new(longQuery)
	_, err := io.Copy(d, io.MultiReader(bytes.NewReader(prefix), rest))
	if err == nil && d.inString {
		err = errors.New("unexpected end of line in a string")
	}
	var syntax *json.SyntaxError // what fills the room may follow a syntax error, which is the answer
	if errors.Is(err, errLongRoom) && errors.As(json.Unmarshal(d.small, new(struct{})), &syntax) && syntax.Offset < int64(len(d.small)) {
		err = syntax
	}
	if err == nil {
		err = json.Unmarshal(d.small, q)
	}
	return d, err
}

// bodyOf returns q's robots.txt as far as it is kept: robotstxt_b64
// decoded when present, else robotstxt.
func (d *longQuery) bodyOf(q *evalQuery) ([]byte, error) {
	switch {
	case q.RobotsB64 != nil:
		if d.b64.err == nil && len(d.b64.quad) > 0 {
			d.b64.flush() // which fails: the quantum is not finished
		}
		if d.b64.err != nil {
			return nil, badRobotsB64(d.b64.err)
		}
		return d.b64.kept, nil
	case q.Robots != nil:
		var s string
		err := json.Unmarshal(append(append([]byte{'"'}, d.text.kept...), '"'), &s) // whole units, checked
		return []byte(s[:min(len(s), evalBodyBytes)]), err
	}
	return nil, errNoRobots
}

// Write implements io.Writer.
func (d *longQuery) Write(p []byte) (int, error) {
	for i, c := range p {
		err := d.take(c)
		if err == nil && len(d.small) > evalLineRoom {
			err = errLongRoom
		}
		if err != nil {
			return i, err
		}
	}
	return len(p), nil
}

// outside takes c, read outside strings. It tracks no more syntax than
// it needs to find the bodies, leaving the rest to encoding/json.
func (d *longQuery) outside(c byte) {
	if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
		if len(d.small) > 0 && d.small[len(d.small)-1] == ' ' {
			return
		}
		c = ' '
	}
	next := d.next
	if c != ' ' {
		d.next = nil
	}
	switch {
	case c == '"':
		d.inString, d.body, d.esc = true, next, 0
		if next != nil {
			*next = longBody{} // a later member of the same name wins
		}
		if d.depth == 1 {
			d.name = len(d.small)
		}
	case c == '{' || c == '[':
		d.depth++
	case c == '}' || c == ']':
		d.depth--
	case c == ':' && d.depth == 1:
		var name string
		_ = json.Unmarshal(d.small[d.name:], &name) // "" unless a name is just before
		switch {                                    // matched ignoring case, as encoding/json matches
		case strings.EqualFold(name, "robotstxt_b64"):
			d.next = &d.b64
		case strings.EqualFold(name, "robotstxt"):
			d.next = &d.text
		}
	}
	d.small = append(d.small, c)
}

// take takes c, the next byte of the line: to outside when no string is
// open; else it checks the string as encoding/json does, in its words,
// and puts c in small or in the body the string is.
func (d *longQuery) take(c byte) error {
	b, end := d.body, -1 // end: the character a unit ends with
	switch {
	case !d.inString:
		d.outside(c)
		return nil
	case d.esc > 0:
		v := strings.IndexByte("0123456789abcdefABCDEF", c)
		if v < 0 {
			return fmt.Errorf("invalid character %q in \\u hexadecimal character escape", c)
		}
		if d.code, d.esc = d.code<<4|rune(v-6*(v/16)), d.esc-1; d.esc == 0 {
			end = int(min(d.code, 0xff)) // past ASCII, as 0xff, no base64
		}
	case d.esc < 0 && c == 'u':
		d.esc, d.code = 4, 0
	case d.esc < 0:
		i := strings.IndexByte(`"\/bfnrt`, c)
		if i < 0 {
			return fmt.Errorf("invalid character %q in string escape code", c)
		}
		d.esc, end = 0, int("\"\\/\b\f\n\r\t"[i])
	case c == '"':
		d.inString, d.body, b = false, nil, nil
	case c < 0x20:
		return fmt.Errorf("invalid character %q in string literal", c)
	case c == '\\':
		d.esc = -1
	default:
		end = int(c)
	}
	switch {
	case b == nil:
		d.small = append(d.small, c)
	case b == &d.b64 && end >= 0:
		b.decode(byte(end))
	case b == &d.text && b.n < evalTextUnits:
		b.kept = append(b.kept, c)
	}
	if b == &d.text && end >= 0 {
		b.n++
	}
	return nil
}

// decode takes c, the next character of a robotstxt_b64 string, and
// decodes as base64.StdEncoding.DecodeString decodes a whole string, but
// that it skips '\r' and '\n' without counting them.
func (b *longBody) decode(c byte) {
	if c != '\r' && c != '\n' && b.err == nil {
		if b.quad = append(b.quad, c); len(b.quad) == 4 {
			b.flush()
		}
	}
}

// flush decodes the quantum begun, which fails unless it is whole and
// follows none with padding.
func (b *longBody) flush() {
	var out [3]byte
	n, err := base64.StdEncoding.Decode(out[:], b.quad)
	if b.padded {
		err = base64.CorruptInputError(0)
	}
	if err != nil {
		b.err = base64.CorruptInputError(b.n + int(err.(base64.CorruptInputError)))
		return
	}
	b.padded, b.n, b.quad = b.quad[3] == '=', b.n+4, b.quad[:0]
	b.kept = append(b.kept, out[:min(n, evalBodyBytes-len(b.kept))]...)
}
