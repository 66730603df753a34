package main

import (
	"bufio"
	"errors"
	"io"
)

// errLineTooLong reports a line longer than a lineReader's limit; the rest
// of the line is skipped and reading can go on.
var errLineTooLong = errors.New("line too long")

// lineReader reads newline-terminated lines of any length, keeping at most
// a limit of bytes of each: memory stays bounded whatever the input.
type lineReader struct {
	r   *bufio.Reader
	max int
	buf []byte
	n   int // lines read so far
}

// newLineReader returns a lineReader over r accepting lines up to max bytes.
func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 1<<20), max: max}
}

// next returns the next line without its line ending ("\n", "\r\n", or a
// final "\r"), valid until the next call. It returns io.EOF after the last
// line. For a line longer than the limit it returns errLineTooLong with the
// first bytes of the line (up to the limit) and skips the rest.
func (l *lineReader) next() ([]byte, error) {
	l.buf = l.buf[:0]
	tooLong, empty := false, true
	for {
		frag, err := l.r.ReadSlice('\n')
		empty = empty && len(frag) == 0
		if room := l.max - len(l.buf); len(frag) > room+2 || tooLong {
			// Two bytes over the limit are kept as long as they may be
			// the "\r\n" that ends a line of exactly max bytes.
			l.buf = append(l.buf, frag[:max(room, 0)]...)
			tooLong = true
		} else {
			l.buf = append(l.buf, frag...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil && !errors.Is(err, io.EOF):
			return nil, err
		case err != nil && empty:
			return nil, io.EOF
		}
		l.n++
		line := trimNewline(l.buf)
		if tooLong || len(line) > l.max {
			return line[:min(len(line), l.max)], errLineTooLong
		}
		return line, nil
	}
}

// line returns the number of the line next returned last, from 1.
func (l *lineReader) line() int { return l.n }

// idle reports whether reading the next line may wait for input: nothing
// is buffered. Writers flush then, so that a stream fed line by line is
// answered line by line.
func (l *lineReader) idle() bool { return l.r.Buffered() == 0 }

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
