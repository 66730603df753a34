package capture

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fastrobots/robots/fetch"
	"github.com/klauspost/compress/gzip"
	"github.com/nlnwa/gowarc/v3"
)

// MaxRecordBytes bounds one WARC record as read from its input,
// uncompressed: its WARC header and its block. Each record is read through
// a reader that stops there, so a record's memory and time are spent only
// up to this bound, whatever its Content-Length or HTTP header claims. A
// robots.txt response holds at most Google's 500 KiB that count plus its
// headers; the rest of a longer body is still read and counted, up to this
// bound. A longer record is an error row.
const MaxRecordBytes = 16 << 20

// MaxMemberBytes bounds the bytes decompressed from one gzip member
// of a .warc.gz: past a record too long, the rest of its member is
// decompressed and dropped to find where the next member starts, and a
// member longer than this is given up instead (an error row), the next
// member looked for among the compressed bytes. It bounds the time a
// gzip bomb costs to decompressing this much.
const MaxMemberBytes = 4 * MaxRecordBytes

// MaxRedirectHops is how many redirects of a robots.txt response are
// followed, as package fetch follows them (Google's five; RFC 9309 asks for
// at least five): the capture's own 3xx counts as the first.
const MaxRedirectHops = fetch.DefaultMaxRedirects

// MaxRedirectIndexBytes bounds what one WARC input holds to follow
// redirects at its end: the index of its responses by URL (URL, Location,
// offset) and the 3xx captures waiting to be answered, counted as their
// strings' bytes plus surveyRedirectEntryBytes each. Past it, responses
// are no longer indexed and a 3xx capture is answered where it is read,
// with redirect_error "index_full". 32 MiB holds about 200,000 responses
// of 100-byte URLs.
const MaxRedirectIndexBytes = 32 << 20

// RedirectEntryBytes is what an index entry or a waiting capture is
// counted for beside its strings: the map's and the struct's own memory.
const RedirectEntryBytes = 96

// surveyGzipMagic starts every gzip member: the ID bytes and deflate's
// method. Junk is skipped up to the next occurrence.
var surveyGzipMagic = []byte{0x1f, 0x8b, 0x08}

// The redirect_error values of a 3xx capture that was not followed.
const (
	RedirectNoLocation = "no_location" // no Location header, or one that is no URL
	RedirectAbsent     = "absent"      // the target has no response in the input
	RedirectHops       = "hops"        // more than surveyMaxRedirectHops redirects
	RedirectIndexFull  = "index_full"  // surveyMaxRedirectIndexBytes was reached
)

// ErrRecordTooLong is the error of a record past surveyMaxRecordBytes.
var ErrRecordTooLong = fmt.Errorf("record longer than %d bytes", MaxRecordBytes)

// ErrNoRecord is the error row of a WARC input that holds no record and
// no bytes that could be one.
var ErrNoRecord = errors.New("no WARC record in the input")

// errMemberTooLong is the error of a gzip member whose records together
// pass surveyMaxRecordBytes.
var errMemberTooLong = fmt.Errorf("gzip member with more than %d bytes of records (a .warc.gz is read with one member per record)", MaxRecordBytes)

// isWARC reports whether an INPUT names a WARC file, and whether gzip
// members hold its records.
func isWARC(input string) (warc, gz bool) {
	lower := strings.ToLower(input)
	switch {
	case strings.HasSuffix(lower, ".warc.gz"):
		return true, true
	case strings.HasSuffix(lower, ".warc"):
		return true, false
	}
	return false, false
}

// warcEntry is what the redirect index keeps of a response: enough to
// follow a redirect through it, or to read its record again.
type warcEntry struct {
	offset   int64
	status   int
	location string // the resolved Location of a 3xx
}

// warcSource reads robots.txt responses from a WARC file, one record at a
// time. The source frames the records (survey_warc_frame.go): a gzip
// member at a time, or a plain file's records in a window that slides
// along it; it bounds each by surveyMaxRecordBytes, turns what cannot be
// read into error rows and resynchronises: at the next gzip member, or at
// the next record's first line. quickRecord or the library parses each
// record framed, and its HTTP block.
type warcSource struct {
	input string // the INPUT argument, which its captures name
	path  string // the file read: input, or a file of the directory input
	file  string // the file's path within the directory input, or ""
	gz    bool
	f     surveyFile
	count *countingReader // counts the file's bytes read
	br    *bufio.Reader   // a .warc.gz's bytes
	// stream is set for an input that is not sought in as it is read,
	// an http(s) input: a request for every seek would cost more than
	// the bytes it saves, and a server that ignores Range cannot answer
	// one. Its gzip members are resynchronised in the bytes tape kept
	// (replay.go), and its redirects followed to the bodies held as
	// they were read (held.go).
	stream bool
	tape   *replayReader // a stream's .warc.gz bytes, under br
	zr     *gzip.Reader
	win    warcWindow    // the bytes the records are framed in
	recr   bytes.Reader  // one framed record's bytes
	rec    *bufio.Reader // reads recr
	un     gowarc.Unmarshaler
	done   bool

	// resyncing is set past a record that could not be framed: the bytes
	// up to the next record belong to its error row. Else bytes that are
	// no record are counted in junk, from junkAt, for a row of their own.
	resyncing bool
	junk      int64
	junkAt    int64
	junkInto  int  // in a member, how far into it the junk starts
	junkCRLF  bool // the junk is line breaks alone: no row
	// records counts the records framed in the current member.
	records int
	// cut is set once a record is refused because the input ended before
	// its header, its block or the line after it did: what would follow
	// the input could have made it whole (the fuzz target's check).
	cut bool

	// libraryOnly reads every record through the library, not quickRecord:
	// the tests compare the two.
	libraryOnly bool
	// handedOver counts the records quickRecord gave to the library.
	handedOver int
	// block holds the block of the response quickRecord reads, reused from
	// record to record: nothing keeps it past the record (a capture's body
	// is copied out of it), and it grows to the longest block read, at most
	// surveyMaxRecordBytes.
	block []byte
	// head and headReader read a response's HTTP header in quickRecord,
	// reset for each.
	head       bytes.Reader
	headReader *bufio.Reader

	// members decompresses a .warc.gz's members ahead (survey_gzip.go).
	members *gzipMembers
	// target reads the records redirects lead to again (readTarget).
	target targetReaders

	out     []*Capture // read and not yet handed out, in order
	skipped int        // records skipped since the last capture queued

	index    map[string]warcEntry
	waiting  []*Capture // 3xx captures answered at the end of the input
	budget   int64      // what index and waiting may still take
	finished bool

	// A stream's bodies held for its redirects (held.go).
	held     map[string]*heldBody // by URL, for indexed responses
	heldFIFO []*heldBody          // held and not wanted, oldest first: the first given up
	heldLeft int64                // what held may still take of MaxHeldBodyBytes
	wanted   map[string]bool      // URLs a redirect read leads to, not yet read
}

// openWARCSource opens the WARC input name. gz says whether its records
// are gzip members when its first bytes do not say (see openWARCFile).
func openWARCSource(name string, gz bool) (*warcSource, error) {
	return openWARCFile(name, name, "", gz)
}

// openWARCFile opens the WARC file path of the INPUT input, file its
// path within input when input is a directory. Its first bytes say
// whether its records are gzip members or plain, whatever its name: gz,
// which its name says, decides only when they start neither.
func openWARCFile(input, path, file string, gz bool) (*warcSource, error) {
	f, err := openSurveyFile(path)
	if err != nil {
		return nil, err
	}
	s := &warcSource{
		input: input, path: path, file: file, f: f, count: &countingReader{r: f},
		stream: IsHTTP(path),
		un:     surveyUnmarshaler(),
		index:  map[string]warcEntry{},
		budget: MaxRedirectIndexBytes,
	}
	var under io.Reader = s.count
	if s.stream {
		s.tape = &replayReader{r: s.count, max: MaxReplayBytes}
		under = s.tape
		s.held, s.heldLeft = map[string]*heldBody{}, MaxHeldBodyBytes
		s.wanted = map[string]bool{}
	}
	br := bufio.NewReaderSize(under, 256<<10)
	head, _ := br.Peek(sniffMaxBytes) // fewer at the input's end
	switch sniff(bufio.NewReader(bytes.NewReader(head))) {
	case kindWARCGzip:
		gz = true
	case kindWARC:
		gz = false
	}
	s.gz = gz
	if gz {
		s.br = br
	} else {
		// The window starts with the bytes read to tell, and reads on
		// from the file, which needs no tape: a plain file is never sought
		// in but for a redirect's target.
		read, _ := br.Peek(br.Buffered())
		buf := make([]byte, len(read), len(read)+warcReadBytes)
		copy(buf, read)
		s.win = warcWindow{r: s.count, buf: buf, member: -1, fresh: true}
		s.tape = nil
	}
	s.rec = bufio.NewReaderSize(&s.recr, 64<<10)
	s.headReader = bufio.NewReader(&s.head)
	return s, nil
}

// surveyUnmarshaler is the library's record parser as the survey uses it:
// findings are reported rather than fatal, so that a record is read as far
// as it can be, and the block is held in memory (it is at most
// surveyMaxRecordBytes), never spilled to disk.
func surveyUnmarshaler() gowarc.Unmarshaler {
	return gowarc.NewUnmarshaler(
		gowarc.WithSyntaxErrorPolicy(gowarc.ErrWarn),
		gowarc.WithSpecViolationPolicy(gowarc.ErrWarn),
		gowarc.WithBlockErrorPolicy(gowarc.ErrWarn),
		gowarc.WithBufferMaxMemBytes(MaxRecordBytes+1))
}

// pos is the offset in a .warc.gz of the next byte a member is read from.
func (s *warcSource) pos() int64 {
	if s.tape != nil {
		return s.tape.at - int64(s.br.Buffered())
	}
	return s.count.n - int64(s.br.Buffered())
}

func (s *warcSource) Next(take func() (int, bool)) (*Capture, error) {
	// One capture is held back until the next is read, so that the records
	// skipped after the last one are counted on it.
	for len(s.out) < 2 && !s.done {
		if s.gz {
			s.member(take)
		} else if !s.step(take, &s.win) {
			s.windowEnd(take, &s.win)
			s.done = true
		}
	}
	if s.done && !s.finished {
		s.finished = true
		s.finish(take)
	}
	if len(s.out) == 0 {
		return nil, io.EOF
	}
	c := s.out[0]
	s.out = s.out[1:]
	return c, nil
}

// step reads what starts at the window's position: a record, or the bytes
// up to the next record's first line. It reports false when the window
// has nothing more to read: its end, or, in a member cut short, the point
// past which it cannot frame.
func (s *warcSource) step(take func() (int, bool), w *warcWindow) bool {
	w.fill(recordLineMax)
	b := w.bytes()
	if len(b) == 0 {
		return false
	}
	startShort := false
	if w.lineStart() {
		_, ok, short := recordStartLine(b)
		if ok {
			s.endJunk(take)
			return s.frame(take, w)
		}
		startShort = short
	}
	i, short := nextRecordStart(b)
	switch {
	case (i < 0 || short) && w.end:
		i = len(b) // no record follows: junk to the end
		s.cut = s.cut || short || startShort
	case (i < 0 || short) && w.r == nil:
		return false // a member cut short
	case i < 0:
		// Keep what may begin a first line, read again with more bytes.
		i = max(len(b)-recordLineMax, 1)
	}
	s.skip(w, b[:i])
	return true
}

// skip passes junk bytes, counted for the row that reports them unless
// they follow a record that could not be framed.
func (s *warcSource) skip(w *warcWindow, junk []byte) {
	if !s.resyncing {
		if s.junk == 0 {
			s.junkAt, s.junkInto, s.junkCRLF = w.offset(), w.i, true
		}
		s.junk += int64(len(junk))
		s.junkCRLF = s.junkCRLF && len(bytes.Trim(junk, "\r\n")) == 0
	}
	w.advance(len(junk))
}

// endJunk queues the row of the junk counted, if any: bytes that are
// no record and follow none that could not be framed. Line breaks alone
// between records are passed over, as other readers do.
func (s *warcSource) endJunk(take func() (int, bool)) {
	s.resyncing = false
	if s.junk == 0 {
		return
	}
	n := s.junk
	s.junk = 0
	if s.junkCRLF {
		return
	}
	err := fmt.Errorf("%d bytes that are no WARC record", n)
	if s.gz {
		err = fmt.Errorf("%d bytes that are no WARC record in the gzip member, %d bytes into it", n, s.junkInto)
	}
	s.queueError(take, s.junkAt, err)
}

// frame frames the record at the window's position and reads it, or
// queues its error row and goes past its first line. It reports false when
// the record runs past a member cut short.
func (s *warcSource) frame(take func() (int, bool), w *warcWindow) bool {
	f := frameRecord(w.bytes(), w.end)
	for f.need > 0 {
		if w.r == nil {
			return false // a member cut short
		}
		w.fill(f.need)
		f = frameRecord(w.bytes(), w.end)
	}
	at := w.offset()
	s.records++
	s.cut = s.cut || f.cut
	if f.err != nil {
		if f.cut && w.err != nil {
			// Cut by the stream's failure, which says why.
			f.err = w.err
			if s.gz {
				f.err = fmt.Errorf("gzip member: %w", w.err)
			}
			w.err = nil
		}
		s.queueError(take, at, f.err)
		first, _, _ := recordStartLine(w.bytes())
		w.advance(first)
		s.resyncing = true
		return true
	}
	s.readFramed(take, at, w.bytes()[:f.size])
	w.advance(f.next)
	w.fresh = true
	return true
}

// windowEnd ends a window read to its end: the junk left is reported, and
// a read error that no record's row gave.
func (s *warcSource) windowEnd(take func() (int, bool), w *warcWindow) {
	s.endJunk(take)
	if w.err != nil {
		err := w.err
		if s.gz {
			err = fmt.Errorf("gzip member: %w", err)
		}
		s.queueError(take, w.offset(), err)
		w.err = nil
	}
}

// readFramed parses a framed record, rec its bytes, at the offset at:
// through quickRecord when it is plain, else through the library.
func (s *warcSource) readFramed(take func() (int, bool), at int64, rec []byte) {
	s.recr.Reset(rec)
	s.rec.Reset(&s.recr)
	if !s.libraryOnly {
		if ok, err := s.quickRecord(take, at); ok {
			if err != nil {
				s.queueError(take, at, err)
			}
			return
		}
	}
	r, _, _, err := s.un.Unmarshal(s.rec)
	if err != nil {
		if r != nil {
			r.Close()
		}
		s.queueError(take, at, err)
		return
	}
	s.record(r, at, take)
	r.Close()
}

// member reads the next gzip member of a .warc.gz and the records it
// holds, one as Common Crawl writes them, framed as a plain file's are.
// Its records together are bounded by surveyMaxRecordBytes.
func (s *warcSource) member(take func() (int, bool)) {
	g := s.nextMember()
	start := g.start
	switch {
	case g.end:
		if g.endErr != io.EOF {
			s.queueError(take, start, g.endErr)
		}
		s.done = true
		return
	case g.headerErr != nil:
		s.queueError(take, start, fmt.Errorf("no gzip member: %w", g.headerErr))
		return
	}
	w := &s.win
	*w = warcWindow{buf: g.data, member: start, fresh: true, end: g.whole()}
	if w.end && g.err != io.EOF {
		w.err = g.err // cut or corrupt: the records it cuts say so
	}
	s.resyncing, s.records = false, 0
	for s.step(take, w) {
	}
	if !w.end {
		// The member holds more than surveyMaxRecordBytes: the record
		// that runs past them is its error row, and the rest of the
		// member is not read.
		err := ErrRecordTooLong
		switch {
		case g.err == nil:
			err = fmt.Errorf("gzip member longer than %d bytes", MaxMemberBytes)
		case s.records > 0:
			err = errMemberTooLong
		}
		s.junk = 0
		s.queueError(take, start, err)
		return
	}
	s.windowEnd(take, w)
}
