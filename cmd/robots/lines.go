package main

import (
	"bufio"
	"errors"
	"io"
)

// errLineTooLong reports a line longer than a lineReader's limit; the line
// is skipped and reading can go on.
var errLineTooLong = errors.New("line too long")

// lineReader reads newline-terminated lines of any length up to a limit.
type lineReader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

// newLineReader returns a lineReader over r accepting lines up to max bytes.
func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 1<<20), max: max}
}

// next returns the next line without its newline, valid until the next
// call. It returns io.EOF after the last line, and errLineTooLong, having
// skipped the line, for one longer than the limit.
func (l *lineReader) next() ([]byte, error) {
	l.buf = l.buf[:0]
	tooLong := false
	for {
		frag, err := l.r.ReadSlice('\n')
		if !tooLong && len(l.buf)+len(frag) <= l.max+1 {
			l.buf = append(l.buf, frag...)
		} else {
			tooLong, l.buf = true, l.buf[:0]
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil && !errors.Is(err, io.EOF):
			return nil, err
		case err != nil && len(l.buf) == 0 && !tooLong:
			return nil, io.EOF
		case tooLong:
			return nil, errLineTooLong
		}
		return trimNewline(l.buf), nil
	}
}

// trimNewline removes a trailing "\n" or "\r\n".
func trimNewline(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}
