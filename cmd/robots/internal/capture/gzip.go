package capture

import (
	"io"
	"slices"

	"github.com/klauspost/compress/gzip"
)

// A .warc.gz is read some gzip members ahead: a goroutine of the source's
// own decompresses the next members while the records of those before
// are parsed, so that reading a file takes about what decompressing it
// takes, not that and the parsing one after the other
// (BenchmarkSurveyWARCSource). The goroutine owns the file, its buffer
// and the gzip reader, and finds each member's end and the next one's
// start (resync); the records' reader sees each member as the bytes it
// decompressed to and how its stream ended, which is what it saw when it
// decompressed the member itself.

// inflatedMember is one gzip member of the file, decompressed.
type inflatedMember struct {
	start int64 // its offset in the file
	// data is its first surveyMaxRecordBytes+1 bytes decompressed: all
	// its records are framed in (warcSource.member).
	data []byte
	// total is how many bytes it decompressed to, counted up to
	// surveyMaxMemberBytes+1, past which it is not read.
	total int64
	// err is how its stream ended after total bytes: io.EOF when the
	// member is whole and sound, nil when it was given up past
	// surveyMaxMemberBytes, else the gzip or read error.
	err error
	// headerErr is set when the bytes at start are no gzip member.
	headerErr error
	// end is set when the file ends at start, with the read error that
	// ends it (io.EOF at its end).
	end    bool
	endErr error
}

// whole reports whether data holds every byte the member decompressed to.
func (g *inflatedMember) whole() bool { return int64(len(g.data)) == g.total }

// The members are handed over in batches, of inflateBatchMembers members
// or inflateBatchBytes of their bytes, whichever comes first: handing
// each member over alone, a few hundred bytes for most, cost the two
// goroutines more in waking each other than the reading saved.
const (
	inflateBatchMembers = 64
	inflateBatchBytes   = 256 << 10
)

// inflateKeepBytes bounds the buffers a source keeps for reuse: a batch's
// buffer larger than this, grown for a rare long record, is left to the
// collector rather than held for the rest of the file. It is large
// enough that a batch which ends on a large robots.txt, of a few hundred
// KiB, does not outgrow it, or each such batch would start a new buffer.
const inflateKeepBytes = 16 * inflateBatchBytes

// freeBuffers is how many batch buffers given back wait for the goroutine
// to take one. The goroutine takes one as it starts a batch, and the
// records' reader gives one back as it takes the next batch, so one would
// do if the goroutine always ran at once; but while it waits for a core,
// the reader, which only frames the records of a batch, may finish the
// next batch too and give its buffer back before the first is taken.
// With room for one, that buffer was dropped and a new one allocated (a
// third of the batches of the corpus WARC file); with two, none is after
// the first two.
const freeBuffers = 2

// inflateBatch is members decompressed in a row, their bytes in buf.
type inflateBatch struct {
	members []*inflatedMember
	buf     []byte
}

// gzipMembers is the goroutine that decompresses a source's members.
type gzipMembers struct {
	next  chan *inflateBatch // in file order
	free  chan []byte        // buffers given back for reuse, freeBuffers of them at most
	quit  chan struct{}      // closed when the source is closed
	done  chan struct{}      // closed when the goroutine has returned
	batch *inflateBatch      // the batch being read
}

// startMembers starts decompressing the file's members.
func (s *warcSource) startMembers() {
	m := &gzipMembers{next: make(chan *inflateBatch), free: make(chan []byte, freeBuffers), quit: make(chan struct{}), done: make(chan struct{})}
	s.members = m
	go func() {
		defer close(m.done)
		for {
			b := &inflateBatch{}
			select {
			case b.buf = <-m.free:
			default:
				b.buf = make([]byte, 0, 2*inflateBatchBytes) // room for the batch and its last member, mostly
			}
			end := false
			for len(b.members) < inflateBatchMembers && len(b.buf) < inflateBatchBytes && !end {
				var g *inflatedMember
				g, b.buf = s.readMember(b.buf)
				b.members = append(b.members, g)
				end = g.end
			}
			select {
			case m.next <- b:
			case <-m.quit:
				return
			}
			if end {
				return
			}
		}
	}()
}

// nextMember returns the next member of the file, giving the buffer of
// the batch before back for reuse once its members are read.
func (s *warcSource) nextMember() *inflatedMember {
	if s.members == nil {
		s.startMembers()
	}
	m := s.members
	if m.batch == nil || len(m.batch.members) == 0 {
		if m.batch != nil && cap(m.batch.buf) <= inflateKeepBytes {
			select {
			case m.free <- m.batch.buf[:0]:
			default:
			}
		}
		m.batch = <-m.next
	}
	g := m.batch.members[0]
	m.batch.members = m.batch.members[1:]
	return g
}

// stopMembers stops the goroutine, if any, and waits for it: the file is
// not closed under it.
func (s *warcSource) stopMembers() {
	if s.members == nil {
		return
	}
	close(s.members.quit)
	<-s.members.done
}

// readMember decompresses the member at the file's position, appending
// its bytes to buf, and leaves the position at the next member's start:
// past its end, or, when it is no member, cut short, corrupt or too long,
// at the next gzip magic bytes past its start (resync).
func (s *warcSource) readMember(buf []byte) (*inflatedMember, []byte) {
	g := &inflatedMember{start: s.pos()}
	if s.tape != nil {
		s.tape.mark(g.start)
	}
	if _, err := s.br.Peek(1); err != nil {
		g.end, g.endErr = true, err
		return g, buf
	}
	var err error
	if s.zr == nil {
		s.zr, err = gzip.NewReader(s.br)
	} else {
		err = s.zr.Reset(s.br)
	}
	if err != nil {
		g.headerErr = err
		s.resync(g.start)
		return g, buf
	}
	s.zr.Multistream(false)
	from := len(buf)
	buf, g.err = readUpTo(buf, s.zr, MaxRecordBytes+1)
	g.data = buf[from:len(buf):len(buf)]
	g.total = int64(len(g.data))
	if g.err == nil { // the first bytes are kept; the rest is counted
		var rest int64
		rest, g.err = io.CopyN(io.Discard, s.zr, MaxMemberBytes+1-g.total)
		g.total += rest
	}
	if g.err != io.EOF {
		s.resync(g.start)
	}
	return g, buf
}

// readUpTo appends to buf the bytes of r, up to limit of them: err is
// nil when it has appended limit, else the error that ended r.
func readUpTo(buf []byte, r io.Reader, limit int) ([]byte, error) {
	end := len(buf) + limit
	for len(buf) < end {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(end-len(buf), max(len(buf), 32<<10)))
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), end)])
		buf = buf[:len(buf)+n]
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}
