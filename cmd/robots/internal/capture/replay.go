package capture

import "io"

// MaxReplayBytes bounds what a .warc.gz read as a stream keeps of its
// compressed bytes, from the start of the gzip member being read, to
// resynchronise after a member that cannot be read where a local file
// seeks back: a member whose records fit MaxRecordBytes, even stored
// without compression, and the read-ahead after it. A bad member that
// runs on past it loses the members that start in the bytes not kept,
// which its error row stands for.
const MaxReplayBytes = MaxRecordBytes + 1<<20

// replayReader hands on the bytes of r and keeps those from a mark on,
// at most max of them, so that a reader that cannot seek goes back to a
// byte past the mark. It counts offsets as a countingReader does: at is
// the offset of the next byte Read hands on.
type replayReader struct {
	r    io.Reader
	max  int
	buf  []byte // the bytes [base, base+len(buf)) kept
	base int64
	at   int64 // the next byte handed on: within buf while replaying, else live
	live int64 // the offset of the next byte of r
	// full is set when bytes of r past buf were handed on and not kept.
	full bool
}

func (t *replayReader) Read(p []byte) (int, error) {
	if end := t.base + int64(len(t.buf)); t.at < end {
		n := copy(p, t.buf[t.at-t.base:])
		t.at += int64(n)
		return n, nil
	}
	t.at = t.live // past a gap of bytes not kept, when full
	n, err := t.r.Read(p)
	t.keep(p[:n])
	t.live += int64(n)
	t.at = t.live
	return n, err
}

// keep keeps b, the bytes of r from t.live on, while the bound allows.
func (t *replayReader) keep(b []byte) {
	switch {
	case t.full:
	case len(t.buf)+len(b) > t.max:
		t.full = true
	default:
		t.buf = append(t.buf, b...)
	}
}

// mark drops the bytes kept before off, a byte handed on already: no
// replay goes back past it. After a gap, keeping starts again from the
// live offset.
func (t *replayReader) mark(off int64) {
	end := t.base + int64(len(t.buf))
	if off >= end {
		if t.full && off < t.live {
			// Bytes [end, live) were handed on and not kept: keep from
			// the live offset on.
			off = t.live
		}
		t.buf, t.base, t.full = t.buf[:0], off, false
		return
	}
	if off > t.base {
		// Reslice rather than copy: append moves the kept bytes when the
		// buffer's end is reached, fewer than the read-ahead.
		t.buf = t.buf[off-t.base:]
		t.base = off
	}
}

// rewind makes the next Read hand on the bytes from off again, or from
// the first byte kept after it.
func (t *replayReader) rewind(off int64) {
	end := t.base + int64(len(t.buf))
	switch {
	case off < t.base:
		off = t.base
	case off > end:
		off = t.live
	}
	t.at = off
}
