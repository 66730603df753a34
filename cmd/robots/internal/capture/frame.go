package capture

import (
	"bytes"
	"fmt"
	"io"
	"math"
)

// A record states its own length, and a reader that takes a lying
// Content-Length at its word either takes the records after it as its
// block or reads the rest of its block as records. The survey frames every
// record before it is parsed: its header must end, its Content-Length must
// be a length within surveyMaxRecordBytes, and its block must be followed
// by the end of record (CRLF CRLF), or, where a writer left that out or
// short, by line breaks and then the next record's first line or the end
// of the input. A record whose framing fails is one error row at its
// offset; nothing of it is parsed, and reading goes on at the next
// record's first line ("WARC/1.0" or "WARC/1.1" at a line start) past its
// own, as gowarc looks for the next record after junk. A .warc.gz frames
// the records within each gzip member alike, so a bad member or a bad
// record costs only itself.

// surveyRecordLookahead bounds the line breaks read past a block that is
// not followed by a whole end of record, before the next record's first
// line: a writer's missing or doubled line breaks, not a lie.
const surveyRecordLookahead = 64

// recordLineMax is the length of the longest first line of a record
// recordStartLine knows: "WARC/1.0\r\n".
const recordLineMax = len("WARC/1.0\r\n")

// surveyWindowBytes bounds the window a plain WARC file is framed in: a
// record of surveyMaxRecordBytes, the bytes past it that confirm its
// length, a read ahead, and room to slide the window along without
// moving a full record's bytes at every read.
const surveyWindowBytes = MaxRecordBytes + MaxRecordBytes/4

// warcReadBytes is how much a plain file's window reads at a time.
const warcReadBytes = 256 << 10

// recordStartLine reports whether b starts with a record's first line,
// "WARC/1.0" or "WARC/1.1" ended by CRLF or LF, and its length; short is
// set when b ends before that can be told.
func recordStartLine(b []byte) (n int, ok, short bool) {
	const prefix = "WARC/1."
	m := min(len(b), len(prefix))
	if string(b[:m]) != prefix[:m] {
		return 0, false, false
	}
	if len(b) <= len(prefix) {
		return 0, false, true
	}
	if v := b[len(prefix)]; v != '0' && v != '1' {
		return 0, false, false
	}
	rest := b[len(prefix)+1:]
	switch {
	case len(rest) == 0:
		return 0, false, true
	case rest[0] == '\n':
		return len(prefix) + 2, true, false
	case rest[0] != '\r':
		return 0, false, false
	case len(rest) == 1:
		return 0, false, true
	case rest[1] == '\n':
		return len(prefix) + 3, true, false
	}
	return 0, false, false
}

// nextRecordStart returns the index in b of the first record's first line
// that starts a line, past b[0] (which the caller has looked at), or -1.
// short is set when the line at the index returned is cut by b's end and
// more bytes may make it one.
func nextRecordStart(b []byte) (i int, short bool) {
	for from := 1; from < len(b); {
		j := bytes.Index(b[from:], []byte("WARC/1."))
		if j < 0 {
			// A first line cut short by b's end, to look at again when
			// more is read.
			for k := max(from, len(b)-len("WARC/1.")); k < len(b); k++ {
				if b[k-1] == '\n' {
					if _, _, short := recordStartLine(b[k:]); short {
						return k, true
					}
				}
			}
			return -1, false
		}
		c := from + j
		if b[c-1] == '\n' {
			if _, ok, short := recordStartLine(b[c:]); ok || short {
				return c, short
			}
		}
		from = c + 1
	}
	return -1, false
}

// recordFrame is what frameRecord makes of the bytes at a record's start.
type recordFrame struct {
	// need, when set, asks for the bytes from the record's start up to
	// need, or to the end, before anything is decided.
	need int
	// size is how many bytes the record's readers are given: its header,
	// its block and its end of record; next is where reading goes on, past
	// them and the line breaks after a short end of record.
	size, next int
	// err is why the record is not read: its header has no end, its
	// Content-Length is no length or goes past surveyMaxRecordBytes, or the
	// bytes after its block deny it.
	err error
	// cut is set when err was decided by the end of the bytes: the header
	// or the block ran past it, or the line after the block was cut short.
	cut bool
}

// frameRecord frames the record whose first line starts b (recordStartLine
// holds); end says no byte follows b. It returns need when b is too short
// to decide and end is not set.
func frameRecord(b []byte, end bool) recordFrame {
	header, length, fr := frameHeader(b, end)
	if fr.need != 0 || fr.err != nil {
		return fr
	}
	return frameBlock(b, end, header, length)
}

// frameHeader scans the header of the record b starts with, the lines up
// to the first empty one, and returns its size and its Content-Length; or,
// in fr, the bytes it needs to decide, or why the record is not read.
func frameHeader(b []byte, end bool) (header int, length int64, fr recordFrame) {
	first, _, _ := recordStartLine(b)
	p := first
	length = -1
	var lengthErr error
	lengthLine := false // the line before was the Content-Length's
	for {
		nl := bytes.IndexByte(b[p:], '\n')
		if nl < 0 {
			switch {
			case len(b) > MaxRecordBytes:
				return 0, 0, recordFrame{err: ErrRecordTooLong}
			case end:
				return 0, 0, recordFrame{err: fmt.Errorf("WARC header of %d bytes without its end", len(b)), cut: true}
			}
			// Twice the bytes at each ask: a long header is scanned a few
			// times over, not once per read.
			return 0, 0, recordFrame{need: min(max(2*len(b), len(b)+4096), MaxRecordBytes+1)}
		}
		line := b[p : p+nl+1]
		p += nl + 1
		if p > MaxRecordBytes {
			return 0, 0, recordFrame{err: ErrRecordTooLong}
		}
		if len(line) == 1 || len(line) == 2 && line[0] == '\r' {
			break
		}
		if _, ok, _ := recordStartLine(line); ok {
			return 0, 0, recordFrame{err: fmt.Errorf("WARC header cut by another record's first line, %d bytes into it", p-len(line))}
		}
		if lengthLine && (line[0] == ' ' || line[0] == '\t') {
			// Folded onto the Content-Length, as the library reads it.
			lengthErr = fmt.Errorf("Content-Length continued on a second line")
		}
		lengthLine = false
		if name, value, ok := bytes.Cut(line, []byte(":")); ok && length < 0 && lengthErr == nil &&
			line[0] != ' ' && line[0] != '\t' && bytes.EqualFold(bytes.Trim(name, " \t"), []byte("Content-Length")) {
			lengthLine = true
			value = bytes.Trim(value, " \t\r\n")
			if n, ok := parseLength(value); ok {
				length = n
			} else {
				lengthErr = fmt.Errorf("Content-Length %q is no length", value)
			}
		}
	}
	switch {
	case lengthErr != nil:
		return 0, 0, recordFrame{err: lengthErr}
	case length < 0:
		return 0, 0, recordFrame{err: fmt.Errorf("WARC header without a Content-Length")}
	case length > MaxRecordBytes-int64(p):
		return 0, 0, recordFrame{err: fmt.Errorf("Content-Length %d: %w", length, ErrRecordTooLong)}
	}
	return p, length, recordFrame{}
}

// frameBlock frames the block of length bytes after a header of header
// bytes, and the end of record after it: the block must be followed by
// the end of record, or by line breaks and then the next record or the
// end of the input.
func frameBlock(b []byte, end bool, header int, length int64) recordFrame {
	blockEnd := header + int(length)
	if len(b) < blockEnd+4 && !end {
		return recordFrame{need: blockEnd + 4}
	}
	if len(b) < blockEnd {
		return recordFrame{err: fmt.Errorf("Content-Length %d, block of %d bytes", length, len(b)-header), cut: true}
	}
	rest := b[blockEnd:]
	if bytes.HasPrefix(rest, []byte("\r\n\r\n")) {
		return recordFrame{size: blockEnd + 4, next: blockEnd + 4}
	}
	// No whole end of record: line breaks, then the next record or the end.
	lookahead := blockEnd + surveyRecordLookahead + recordLineMax
	if len(b) < lookahead && !end {
		return recordFrame{need: lookahead}
	}
	breaks := 0
	for breaks < min(len(rest), surveyRecordLookahead) && (rest[breaks] == '\r' || rest[breaks] == '\n') {
		breaks++
	}
	_, startsNext, short := recordStartLine(rest[breaks:])
	switch {
	case breaks == len(rest) && end, startsNext:
		return recordFrame{size: blockEnd + min(breaks, 4), next: blockEnd + breaks}
	case short && end:
		return recordFrame{err: fmt.Errorf("Content-Length %d: the block is not followed by the end of the record", length), cut: true}
	}
	return recordFrame{err: fmt.Errorf("Content-Length %d: the block is not followed by the end of the record", length)}
}

// parseLength reads a Content-Length of decimal digits alone. A length of
// more than 18 digits is past every bound and read as math.MaxInt64, so
// that it fits an int64 on every architecture.
func parseLength(v []byte) (int64, bool) {
	if len(v) == 0 {
		return 0, false
	}
	var n int64
	for i, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		if i == 18 {
			n = math.MaxInt64
		}
		if n < math.MaxInt64 {
			n = n*10 + int64(c-'0')
		}
	}
	return n, true
}

// warcWindow holds the bytes records are framed in: a gzip member's, all
// in memory, or a plain file's, read from r as framing asks for them, at
// most surveyWindowBytes. It slides along the file: the bytes before the
// position are dropped, but for the one before it, which tells whether the
// position starts a line.
type warcWindow struct {
	r   io.Reader // nil for a member: no more bytes come
	buf []byte
	i   int   // buf[i:] is not yet read; buf[i-1], when i > 0, the byte before
	off int64 // the file's offset of buf[i]
	// member is, for a gzip member, its offset in the file, which each of
	// its rows is given; -1 for a plain file.
	member int64
	// fresh is set when the position follows a record, or starts the
	// input or the member: a record may start there whatever the byte
	// before it.
	fresh bool
	// end is set when no byte follows buf: the file's or the member's end.
	// A member cut at surveyMaxRecordBytes+1 bytes has neither more bytes
	// nor its end.
	end bool
	// err is how the bytes ended when not soundly: a read error, or a
	// member's gzip error.
	err error
}

// bytes returns the bytes from the position on.
func (w *warcWindow) bytes() []byte { return w.buf[w.i:] }

// lineStart reports whether a record may start at the position: past a
// record or a line feed, or at the input's or the member's start.
func (w *warcWindow) lineStart() bool { return w.fresh || w.i == 0 || w.buf[w.i-1] == '\n' }

// advance moves the position n bytes on.
func (w *warcWindow) advance(n int) {
	w.i += n
	w.off += int64(n)
	w.fresh = false
}

// offset is the offset an error row met at the position is given.
func (w *warcWindow) offset() int64 {
	if w.member >= 0 {
		return w.member
	}
	return w.off
}

// fill reads until the window holds n bytes from the position on, or the
// file ends. n is at most what a record's framing asks for.
func (w *warcWindow) fill(n int) {
	for w.r != nil && !w.end && len(w.buf)-w.i < n {
		if cap(w.buf)-len(w.buf) < warcReadBytes/2 {
			// Slide the bytes from the one before the position to the
			// buffer's start, into a larger buffer if need be.
			from := max(w.i-1, 0)
			want := n + 1 + warcReadBytes
			buf := w.buf
			if cap(buf) < want {
				buf = make([]byte, 0, min(max(want, 2*cap(buf)), surveyWindowBytes))
			}
			w.buf = buf[:copy(buf[:cap(buf)], w.buf[from:])]
			w.i -= from
		}
		m, err := w.r.Read(w.buf[len(w.buf):cap(w.buf)])
		w.buf = w.buf[:len(w.buf)+m]
		if err != nil {
			w.end = true
			if err != io.EOF {
				w.err = err
			}
		}
	}
}
