package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fastrobots/robots"
)

// A query line longer than maxEvalLine holds a robots.txt longer than
// Parse reads (or is not a query). It is decoded as it is read, in bounded
// memory: the robotstxt_b64 and robotstxt strings are decoded a chunk at a
// time, keeping the first evalBodyBytes bytes of the body, enough for
// Parse to read all it reads and to see that there was more, and checking
// the rest without keeping it. The other members are kept as written, up
// to evalLineRoom bytes in all, and decoded at the end by encoding/json as
// one small object, so that they read exactly as on a short line.

// evalBodyBytes is how much of a long query's robots.txt is kept: the
// bytes Parse reads, and one more, so that the parse is the same as that
// of the whole body.
const evalBodyBytes = robots.MaxBytes + 1

// evalChunkBytes is the size of the pieces a long string is decoded in.
const evalChunkBytes = 32 << 10

// answerLong answers a query line too long to hold: prefix, its first
// bytes, then rest, the others.
func (ev *evaluator) answerLong(prefix []byte, rest io.Reader) evalAnswer {
	d := longQueryDecoder{r: bufio.NewReaderSize(io.MultiReader(bytes.NewReader(prefix), rest), evalChunkBytes)}
	err := d.object()
	_, _ = io.Copy(io.Discard, d.r) // the line is read to its end, answered or not
	if err != nil {
		return evalAnswer{ID: d.id, Error: "bad JSON: " + err.Error()}
	}
	var q evalQuery
	if err := json.Unmarshal(d.small(), &q); err != nil {
		return evalAnswer{ID: d.id, Error: "bad JSON: " + err.Error()}
	}
	body, err := d.body()
	return ev.complete(&q, body, err)
}

// longQueryDecoder reads one JSON object from r, streaming the body
// strings.
type longQueryDecoder struct {
	r       *bufio.Reader
	members []keptMember    // the members kept as written
	kept    int             // their bytes
	id      json.RawMessage // the id, once read
	b64     longBody        // robotstxt_b64
	text    longBody        // robotstxt
	chunk   []byte
}

// keptMember is a member of a long query kept as written, `"key":value`,
// with its key decoded.
type keptMember struct {
	name string
	raw  []byte
}

// longBody is a body string of a long query: the first evalBodyBytes bytes
// it decodes to, and why it does not decode.
type longBody struct {
	present bool // the last member of its name was a string
	bytes   []byte
	err     error
	b64     base64Stream
}

// object reads the query's object, and nothing but white space after it.
func (d *longQueryDecoder) object() error {
	if err := d.expect('{'); err != nil {
		return err
	}
	if c, err := d.peek(); err == nil && c == '}' {
		_, _ = d.r.ReadByte()
		return d.end()
	}
	for {
		if err := d.member(); err != nil {
			return err
		}
		c, err := d.nextByte()
		switch {
		case err != nil:
			return err
		case c == '}':
			return d.end()
		case c != ',':
			return fmt.Errorf("invalid character %q after object member", c)
		}
	}
}

// member reads one `"key": value` of the object.
func (d *longQueryDecoder) member() error {
	if err := d.expect('"'); err != nil {
		return err
	}
	key := []byte{'"'}
	if err := d.stringBody(func(raw []byte) error { key = append(key, raw...); return d.keep(len(raw)) }); err != nil {
		return err
	}
	key = append(key, '"')
	var name string
	if err := json.Unmarshal(key, &name); err != nil {
		return err
	}
	if err := d.expect(':'); err != nil {
		return err
	}
	c, err := d.peek()
	if err != nil {
		return err
	}
	if body := d.bodyNamed(name); body != nil && c == '"' {
		_, _ = d.r.ReadByte()
		d.dropMembers(name)
		return d.streamBody(body, body == &d.b64)
	}
	value, err := d.value()
	if err != nil {
		return err
	}
	if body := d.bodyNamed(name); body != nil {
		*body = longBody{} // null, or a value of the wrong type, which the small object reports
	}
	if strings.EqualFold(name, "id") {
		d.id = value
	}
	d.members = append(d.members, keptMember{name, append(append(key, ':'), value...)})
	return nil
}

// bodyNamed returns the body a member named name is, or nil; names match
// ignoring case, as encoding/json matches them.
func (d *longQueryDecoder) bodyNamed(name string) *longBody {
	switch {
	case strings.EqualFold(name, "robotstxt_b64"):
		return &d.b64
	case strings.EqualFold(name, "robotstxt"):
		return &d.text
	}
	return nil
}

// dropMembers forgets the kept members named name: a later member of the
// same name wins. The names are compared decoded, as read, since a line
// may hold thousands of members and of bodies.
func (d *longQueryDecoder) dropMembers(name string) {
	d.members = slices.DeleteFunc(d.members, func(m keptMember) bool { return strings.EqualFold(m.name, name) })
}

// streamBody reads a body string after its opening quote, decoding it
// chunk by chunk into body, from base64 when isB64.
func (d *longQueryDecoder) streamBody(body *longBody, isB64 bool) error {
	*body = longBody{present: true}
	return d.stringBody(func(raw []byte) error {
		if body.err != nil || !isB64 && len(body.bytes) >= evalBodyBytes {
			return nil // the syntax of the rest is still checked as it is read
		}
		var s string
		if err := json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s); err != nil {
			return err
		}
		if !isB64 {
			body.bytes = appendUpTo(body.bytes, s, evalBodyBytes)
			return nil
		}
		body.bytes, body.err = body.b64.decode(body.bytes, s)
		return nil
	})
}

// appendUpTo appends s to b, as long as b holds fewer than max bytes.
func appendUpTo(b []byte, s string, max int) []byte {
	return append(b, s[:min(len(s), max-len(b))]...)
}

// body returns the query's robots.txt as far as it is kept: robotstxt_b64
// decoded when present, else robotstxt.
func (d *longQueryDecoder) body() ([]byte, error) {
	switch {
	case d.b64.present:
		b, err := d.b64.b64.finish(d.b64.bytes)
		if d.b64.err != nil {
			err = d.b64.err
		}
		if err != nil {
			return nil, badRobotsB64(err)
		}
		return b, nil
	case d.text.present:
		return d.text.bytes, nil
	}
	return nil, errNoRobots
}

// small returns the kept members as one JSON object.
func (d *longQueryDecoder) small() []byte {
	out := []byte{'{'}
	for i, m := range d.members {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, m.raw...)
	}
	return append(out, '}')
}

// keep counts n more bytes kept, and fails past evalLineRoom.
func (d *longQueryDecoder) keep(n int) error {
	d.kept += n
	if d.kept > evalLineRoom {
		return fmt.Errorf("the members other than robotstxt_b64 and robotstxt hold more than %d bytes", evalLineRoom)
	}
	return nil
}

// value reads a value that is kept as written: a string, a number, a
// literal, or an object or array, whose syntax the small object checks.
func (d *longQueryDecoder) value() ([]byte, error) {
	var out []byte
	depth := 0
	for {
		b, err := d.r.Peek(1)
		if err != nil {
			return nil, errors.New("unexpected end of JSON input")
		}
		c := b[0]
		switch {
		case c == '"':
			_, _ = d.r.ReadByte()
			out = append(out, '"')
			if err := d.stringBody(func(raw []byte) error { out = append(out, raw...); return d.keep(len(raw)) }); err != nil {
				return nil, err
			}
			out = append(out, '"')
		case c == '{' || c == '[':
			depth++
			out = append(out, c)
			_, _ = d.r.ReadByte()
		case (c == '}' || c == ']' || c == ',') && depth == 0:
			return out, nil
		case c == '}' || c == ']':
			depth--
			out = append(out, c)
			_, _ = d.r.ReadByte()
		default:
			out = append(out, c)
			_, _ = d.r.ReadByte()
		}
		if err := d.keep(1); err != nil {
			return nil, err
		}
	}
}

// stringBody reads a string after its opening quote, up to and with its
// closing quote, and hands sink its content as written, escapes and all,
// in chunks of about evalChunkBytes that each decode alone: a chunk is cut
// only before a byte that starts a rune (not within an escape), before a
// continuation byte that follows utf8.UTFMax-1 others (no sequence holds
// it), or before a backslash, the escape of a high surrogate just before
// it then going to the next chunk, with the escape that may be its low
// surrogate: no escape, surrogate pair or UTF-8 sequence is split, and a
// string of escapes or of bytes past ASCII is cut as often as one of
// ASCII, so a chunk stays within evalChunkBytes and a few bytes. It reads
// what is buffered a slice at a time.
func (d *longQueryDecoder) stringBody(sink func(raw []byte) error) error {
	chunk := d.chunk[:0]
	escape := 0       // bytes of an escape to come; -1 just after a backslash
	code := rune(0)   // the \u escape being read
	highSurr := false // the last escape read was a high surrogate's
	conts := 0        // continuation bytes just read, in a row
	for {
		buf, _ := d.r.Peek(max(d.r.Buffered(), 1))
		if len(buf) == 0 {
			return errors.New("unexpected end of line in a string")
		}
		start := 0
		for i, c := range buf {
			plain := escape == 0 && c >= 0x20 && c != '"' && c != '\\'
			if (plain && (utf8.RuneStart(c) || conts >= utf8.UTFMax-1) || escape == 0 && c == '\\') && len(chunk)+i-start >= evalChunkBytes {
				chunk = append(chunk, buf[start:i]...)
				held := 0
				if c == '\\' && highSurr {
					held = len(`\uD800`) // the escape after may be its low surrogate
				}
				if err := sink(chunk[:len(chunk)-held]); err != nil {
					return err
				}
				chunk, start = append(chunk[:0], chunk[len(chunk)-held:]...), i
			}
			if plain {
				highSurr = false
				if utf8.RuneStart(c) {
					conts = 0
				} else {
					conts++
				}
				continue
			}
			conts = 0
			switch {
			case escape < 0 && c == 'u':
				escape, code = 4, 0
			case escape < 0 && strings.IndexByte(`"\/bfnrt`, c) >= 0:
				escape, highSurr = 0, false
			case escape < 0:
				return fmt.Errorf("invalid character %q in string escape code", c)
			case escape > 0 && !isHexDigit(c):
				return fmt.Errorf("invalid character %q in \\u hexadecimal character escape", c)
			case escape > 0:
				escape--
				code = code<<4 | hexValue(c)
				highSurr = escape == 0 && 0xd800 <= code && code < 0xdc00
			case c == '"':
				chunk = append(chunk, buf[start:i]...)
				_, _ = d.r.Discard(i + 1)
				d.chunk = chunk
				return sink(chunk)
			case c < 0x20:
				return fmt.Errorf("invalid character %q in string literal", c)
			default: // a backslash
				escape = -1
			}
		}
		chunk = append(chunk, buf[start:]...)
		_, _ = d.r.Discard(len(buf))
	}
}

// hexValue returns the value of c, a hexadecimal digit.
func hexValue(c byte) rune {
	switch {
	case c <= '9':
		return rune(c - '0')
	case c >= 'a':
		return rune(c-'a') + 10
	}
	return rune(c-'A') + 10
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// expect reads c after white space.
func (d *longQueryDecoder) expect(c byte) error {
	got, err := d.nextByte()
	if err == nil && got != c {
		err = fmt.Errorf("invalid character %q looking for %q", got, c)
	}
	return err
}

// nextByte reads the next byte after white space.
func (d *longQueryDecoder) nextByte() (byte, error) {
	if _, err := d.peek(); err != nil {
		return 0, err
	}
	return d.r.ReadByte()
}

// peek returns the next byte after white space, without reading it.
func (d *longQueryDecoder) peek() (byte, error) {
	for {
		b, err := d.r.Peek(1)
		if err != nil {
			return 0, errors.New("unexpected end of JSON input")
		}
		if !isJSONSpace(b[0]) {
			return b[0], nil
		}
		_, _ = d.r.ReadByte()
	}
}

// end checks that only white space follows the object.
func (d *longQueryDecoder) end() error {
	if c, err := d.peek(); err == nil {
		return fmt.Errorf("invalid character %q after top-level value", c)
	}
	return nil
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// base64Stream decodes standard, padded base64 handed to it in pieces, as
// base64.StdEncoding.DecodeString decodes it whole: '\r' and '\n' are
// skipped, and padding ends the data.
type base64Stream struct {
	quad   []byte // characters of an unfinished quantum
	read   int    // characters decoded before quad
	padded bool   // a quantum with padding was decoded
}

// decode decodes s onto dst, keeping dst within evalBodyBytes.
func (b *base64Stream) decode(dst []byte, s string) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\r' || c == '\n' {
			continue
		}
		if b.padded {
			return dst, base64.CorruptInputError(b.read)
		}
		b.quad = append(b.quad, c)
		if len(b.quad) < 4 {
			continue
		}
		var buf [3]byte
		n, err := base64.StdEncoding.Decode(buf[:], b.quad)
		if err != nil {
			return dst, b.corrupt(err)
		}
		b.padded = b.quad[3] == '='
		b.read += 4
		b.quad = b.quad[:0]
		if room := evalBodyBytes - len(dst); room > 0 {
			dst = append(dst, buf[:min(n, room)]...)
		}
	}
	return dst, nil
}

// corrupt returns err, an error of decoding quad, with its offset counted
// from the start of the string.
func (b *base64Stream) corrupt(err error) error {
	var ce base64.CorruptInputError
	if errors.As(err, &ce) {
		return base64.CorruptInputError(b.read + int(ce))
	}
	return err
}

// finish checks that no quantum is left unfinished.
func (b *base64Stream) finish(dst []byte) ([]byte, error) {
	if len(b.quad) > 0 {
		_, err := base64.StdEncoding.DecodeString(string(b.quad))
		return nil, b.corrupt(err)
	}
	return dst, nil
}
