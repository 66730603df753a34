package cli

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
)

// LineReader reads newline-terminated lines of any length, keeping at most
// a limit of bytes of each: memory stays bounded whatever the input.
type LineReader struct {
	r    *bufio.Reader
	max  int
	buf  []byte
	n    int       // lines read so far
	tail *lineTail // the rest of the last line when it was too long
}

// NewLineReader returns a LineReader over r accepting lines up to max bytes.
func NewLineReader(r io.Reader, max int) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, 1<<20), max: max}
}

// Next returns the Next line without its line ending ("\n", "\r\n", or a
// final "\r"), valid until the Next call. It returns io.EOF after the last
// line. For a line longer than the limit it returns api.ErrLineTooLong with the
// first bytes of the line (up to the limit); rest reads the others, and
// the Next call skips those rest did not read.
func (l *LineReader) Next() ([]byte, error) {
	if l.tail != nil {
		_, _ = io.Copy(io.Discard, l.tail) // an error shows again below
		l.tail = nil
	}
	l.buf = l.buf[:0]
	empty := true
	for {
		frag, err := l.r.ReadSlice('\n')
		empty = empty && len(frag) == 0
		// Two bytes over the limit are kept as long as they may be the
		// "\r\n" that ends a line of exactly max bytes.
		room := l.max + 2 - len(l.buf)
		over := len(frag) > room
		l.buf = append(l.buf, frag[:min(room, len(frag))]...)
		switch {
		case over:
			return l.cut(frag[room:], err)
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil && !errors.Is(err, io.EOF):
			return nil, err
		case err != nil && empty:
			return nil, io.EOF
		}
		l.n++
		line := trimNewline(l.buf)
		if len(line) > l.max {
			l.tail = &lineTail{held: line[l.max:]}
			return line[:l.max], api.ErrLineTooLong
		}
		return line, nil
	}
}

// cut returns the first max bytes of a line that runs past max+2 bytes,
// keeping the bytes read past them, more, as the start of its tail; err is
// the error of the read that returned more.
func (l *LineReader) cut(more []byte, err error) ([]byte, error) {
	if err != nil && !errors.Is(err, bufio.ErrBufferFull) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	l.n++
	held := append(bytes.Clone(l.buf[l.max:]), more...)
	ended := err == nil || errors.Is(err, io.EOF)
	if ended {
		held = trimNewline(held)
	}
	l.tail = &lineTail{held: held, r: l.r, more: !ended}
	return l.buf[:l.max], api.ErrLineTooLong
}

// Rest returns a reader of the bytes of the last line past those next
// returned, up to its line ending, which it does not yield (a "\r" before
// "\n" may be yielded). It is empty unless next returned api.ErrLineTooLong,
// and valid until the next call of next.
func (l *LineReader) Rest() io.Reader {
	if l.tail == nil {
		return bytes.NewReader(nil)
	}
	return l.tail
}

// lineTail reads the rest of a line too long to keep: the bytes already
// read, then, while the line goes on, the reader up to its next "\n",
// which it consumes without yielding.
type lineTail struct {
	held []byte
	r    *bufio.Reader
	more bool // the line goes on in r
}

// Read implements io.Reader.
func (t *lineTail) Read(p []byte) (int, error) {
	if len(t.held) > 0 {
		n := copy(p, t.held)
		t.held = t.held[n:]
		return n, nil
	}
	if !t.more {
		return 0, io.EOF
	}
	if _, err := t.r.Peek(1); err != nil {
		t.more = false
		if errors.Is(err, io.EOF) {
			return 0, io.EOF
		}
		return 0, err
	}
	b, _ := t.r.Peek(t.r.Buffered())
	end := bytes.IndexByte(b, '\n')
	if end >= 0 {
		b = b[:end]
	}
	n := copy(p, b)
	_, _ = t.r.Discard(n)
	if end >= 0 && n == len(b) {
		_, _ = t.r.Discard(1)
		t.more = false
	}
	return n, nil
}

// Line returns the number of the Line next returned last, from 1.
func (l *LineReader) Line() int { return l.n }

// Idle reports whether reading the next line may wait for input: nothing
// is buffered. Writers flush then, so that a stream fed line by line is
// answered line by line.
func (l *LineReader) Idle() bool { return l.tail == nil && l.r.Buffered() == 0 }

// trimNewline removes a trailing "\n" or "\r\n", or a final "\r".
func trimNewline(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}
