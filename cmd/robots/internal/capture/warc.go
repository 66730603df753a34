package capture

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/fetch"
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
	input string
	gz    bool
	f     surveyFile
	count *countingReader // counts the file's bytes read
	br    *bufio.Reader   // a .warc.gz's bytes
	zr    *gzip.Reader
	win   warcWindow    // the bytes the records are framed in
	recr  bytes.Reader  // one framed record's bytes
	rec   *bufio.Reader // reads recr
	un    gowarc.Unmarshaler
	done  bool

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

	out     []*Capture // read and not yet handed out, in order
	skipped int        // records skipped since the last capture queued

	index    map[string]warcEntry
	waiting  []*Capture // 3xx captures answered at the end of the input
	budget   int64      // what index and waiting may still take
	finished bool
}

func openWARCSource(name string, gz bool) (*warcSource, error) {
	f, err := openSurveyFile(name)
	if err != nil {
		return nil, err
	}
	s := &warcSource{
		input: name, gz: gz, f: f, count: &countingReader{r: f},
		un:     surveyUnmarshaler(),
		index:  map[string]warcEntry{},
		budget: MaxRedirectIndexBytes,
	}
	if gz {
		s.br = bufio.NewReaderSize(s.count, 256<<10)
	} else {
		s.win = warcWindow{r: s.count, member: -1, fresh: true}
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

// surveyPeekBytes is how much of a record quickRecord reads its header
// from: a header longer than this is left to the library.
const surveyPeekBytes = 4 << 10

// quickRecord reads a framed record without the library when it is
// plain, since the library parses, validates and digests every
// record, and nearly all of that is dropped: the request and metadata
// records, two of every three in Common Crawl's files, are skipped, and a
// response's status, Location and body are all a capture needs. Plain is:
// a WARC/1.x line and CRLF-ended fields of printable ASCII, named by
// plain tokens, without continuation lines, one
// WARC-Type and one Content-Length, within surveyPeekBytes; and for a
// response, a plain target (plainTarget), a block within the record
// bound, of an application/http Content-Type, whose HTTP header, CRLF-ended, net/http reads with a
// status of three digits, and a WARC-Date in RFC 3339 when there is one;
// a record type of the standard's but revisit, written in lower case; a
// digest, if any, of an algorithm the library knows. The block is read and
// checked as the library checks it: shorter than its Content-Length, it is
// an error row (framing makes that rare: only a header the library reads
// otherwise). A response that is not plain past its header is handed to
// the library with its bytes, so that both read every response alike
// (TestSurveyWARCQuickAgreesWithLibrary). ok says the record was read; err
// is its error row.
func (s *warcSource) quickRecord(take func() (int, bool), at int64) (ok bool, err error) {
	head, _ := s.rec.Peek(surveyPeekBytes)
	end := bytes.Index(head, []byte("\r\n\r\n"))
	if end < 0 || !bytes.HasPrefix(head, []byte("WARC/1.")) || !crlfLines(head[:end]) || !printableASCII(head[:end]) {
		return false, nil
	}
	var typ, target, date, ctype []byte
	length := int64(-1)
	_, lines, _ := bytes.Cut(head[:end+2], []byte("\r\n")) // past the version line
	for len(lines) > 0 {
		var line []byte
		line, lines, _ = bytes.Cut(lines, []byte("\r\n"))
		name, value, found := bytes.Cut(line, []byte(":"))
		if !found || line[0] == ' ' || line[0] == '\t' {
			return false, nil
		}
		if !plainToken(name) {
			return false, nil // a name that is no plain token: the library's to read
		}
		value = bytes.TrimSpace(value)
		var field *[]byte
		switch {
		case bytes.EqualFold(name, []byte("WARC-Type")):
			field = &typ
		case bytes.EqualFold(name, []byte("WARC-Target-URI")):
			field = &target
		case bytes.EqualFold(name, []byte("WARC-Date")):
			field = &date
		case bytes.EqualFold(name, []byte("Content-Type")):
			field = &ctype
		case bytes.EqualFold(name, []byte("WARC-Block-Digest")), bytes.EqualFold(name, []byte("WARC-Payload-Digest")):
			// The library refuses a record whose digest names an
			// algorithm it lacks: those few are its to read.
			if !knownDigest(value) {
				return false, nil
			}
			continue
		case bytes.EqualFold(name, []byte("Content-Length")):
			n, err := strconv.ParseInt(string(value), 10, 64)
			if length >= 0 || err != nil || n < 0 {
				return false, nil
			}
			length = n
			continue
		default:
			continue
		}
		if *field != nil {
			return false, nil // twice: the library says what it makes of it
		}
		if value == nil {
			value = []byte{} // set, though empty: a second one is still twice
		}
		*field = value
	}
	// The library reads a block as HTTP by its Content-Type, and refuses
	// one too short to be: a record it would refuse is its to read.
	httpBlock := len(ctype) >= len("application/http") && bytes.EqualFold(ctype[:len("application/http")], []byte("application/http"))
	response := bytes.EqualFold(typ, []byte("response"))
	if len(typ) == 0 || length < 0 || response && (length > MaxRecordBytes || !httpBlock) ||
		httpBlock && length < 4 || !knownRecordType(typ) {
		return false, nil
	}
	if !response {
		var first []byte // what the library reads an HTTP block's start from
		if httpBlock {
			header := append([]byte(nil), head[:end+4]...)
			s.rec.Discard(end + 4)
			first, _ = s.rec.Peek(4)
			first = append([]byte(nil), first...)
			defer func() {
				// A block too short to be HTTP: the library says why.
				if ok && err != nil && len(first) < 4 {
					err = s.libraryRecord(take, at, header, first, nil)
				}
			}()
		} else {
			s.rec.Discard(end + 4)
		}
		n, err := io.CopyN(io.Discard, s.rec, length)
		if err != nil {
			return true, blockError(err, length, n)
		}
		s.endOfRecord()
		s.skipped++
		return true, nil
	}

	// The fields are read before the block, which may refill the buffer
	// they lie in.
	header := append([]byte(nil), head[:end+4]...)
	targetValue, dateValue, dated := string(target), string(date), date != nil
	s.rec.Discard(end + 4)
	if int64(cap(s.block)) < length {
		s.block = make([]byte, length)
	}
	block := s.block[:length]
	n, err := io.ReadFull(s.rec, block)
	if err != nil {
		if err != io.EOF && err != io.ErrUnexpectedEOF {
			return true, blockError(err, length, int64(n))
		}
		// A block shorter than its Content-Length: the library says what
		// it makes of it.
		return true, s.libraryRecord(take, at, header, block[:n], nil)
	}
	tail := s.endOfRecord()

	fetchTime := ""
	if dated {
		t, err := time.Parse(time.RFC3339, dateValue)
		if err != nil {
			return true, s.libraryRecord(take, at, header, block, tail)
		}
		fetchTime = t.UTC().Format(time.RFC3339)
	}
	targetStr, u := targetURL(targetValue)
	hend := bytes.Index(block, []byte("\r\n\r\n"))
	if u == nil || !plainTarget(targetValue) || hend < 0 || !bytes.HasPrefix(block, []byte("HTTP")) || !crlfLines(block[:hend]) {
		return true, s.libraryRecord(take, at, header, block, tail)
	}
	s.head.Reset(block[:hend+4])
	s.headReader.Reset(&s.head)
	resp, err := http.ReadResponse(s.headReader, nil)
	if err != nil || resp.StatusCode < 100 || resp.StatusCode > 999 {
		return true, s.libraryRecord(take, at, header, block, tail)
	}
	raw, payload := block[:hend+4], block[hend+4:]
	s.response(targetStr, u, resp.StatusCode, resp.Header.Get("Location"), at, fetchTime, func(c *Capture) error {
		return readPayload(raw, &resp.Header, func() (io.Reader, error) { return bytes.NewReader(payload), nil }, c)
	}, take)
	return true, nil
}

// knownDigest reports whether a digest field names an algorithm the
// library computes, as it is written.
func knownDigest(value []byte) bool {
	alg, _, _ := bytes.Cut(value, []byte(":"))
	for _, a := range []string{"sha1", "sha256", "sha512", "md5"} {
		if string(alg) == a {
			return true
		}
	}
	return false
}

// knownRecordType reports whether a WARC-Type is one of the standard's
// whose block the library reads as HTTP or keeps as it is, as written:
// a revisit's block it parses apart, and an unknown type it may refuse.
func knownRecordType(typ []byte) bool {
	for _, t := range []string{"response", "request", "metadata", "resource", "warcinfo"} {
		if string(typ) == t {
			return true
		}
	}
	return false
}

// plainTarget reports whether a WARC-Target-URI is one the library keeps
// as written: http or https, a host of lower-case letters, digits, dots
// and dashes with an optional port, and a path and query of URL bytes
// alone. The library rewrites others as it validates them.
func plainTarget(target string) bool {
	rest, ok := strings.CutPrefix(target, "https://")
	if !ok {
		if rest, ok = strings.CutPrefix(target, "http://"); !ok {
			return false
		}
	}
	host, path, _ := strings.Cut(rest, "/")
	host, port, hasPort := strings.Cut(host, ":")
	if host == "" || hasPort && (port == "" || strings.Trim(port, "0123456789") != "") ||
		strings.Trim(host, "abcdefghijklmnopqrstuvwxyz0123456789.-") != "" {
		return false
	}
	const urlBytes = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?[]@!$&'()*+,;=%"
	return strings.Trim(path, urlBytes) == ""
}

// plainToken reports whether name is a field name of letters, digits,
// '-', '_' and '.' only, and not empty: one the library reads as written.
func plainToken(name []byte) bool {
	for _, c := range name {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return len(name) > 0
}

// printableASCII reports whether b holds only printable ASCII, tabs and
// line breaks: a header the library reads as written. Other bytes, which
// its field parser may refuse, are its to read.
func printableASCII(b []byte) bool {
	for _, c := range b {
		if (c < 0x20 || c > 0x7e) && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}

// crlfLines reports whether every line break in b is a CRLF: lines the
// library and net/http split alike.
func crlfLines(b []byte) bool {
	for i, c := range b {
		switch c {
		case '\n':
			if i == 0 || b[i-1] != '\r' {
				return false
			}
		case '\r':
			if i+1 >= len(b) || b[i+1] != '\n' {
				return false
			}
		}
	}
	return true
}

// blockError is the error row of a block that ended after n of its length
// bytes: at the record's end, its Content-Length lies, as framingError
// says; else the record could not be read.
func blockError(err error, length, n int64) error {
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return fmt.Errorf("Content-Length %d, block of %d bytes", length, n)
	}
	return err
}

// endOfRecord reads the CRLF CRLF that ends a record, as the library
// does: the four bytes when they are that, or the last bytes of the record
// when fewer than four are left. It returns the bytes read.
func (s *warcSource) endOfRecord() []byte {
	tail, _ := s.rec.Peek(4)
	if len(tail) < 4 || bytes.Equal(tail, []byte("\r\n\r\n")) {
		tail = append([]byte(nil), tail...)
		s.rec.Discard(len(tail))
		return tail
	}
	return nil
}

// libraryRecord reads a record quickRecord took in but did not read: its
// header, its block and the end of record endOfRecord read are given to
// the library as they were. It returns the error row when the library
// cannot read it.
func (s *warcSource) libraryRecord(take func() (int, bool), at int64, header, block, tail []byte) error {
	s.handedOver++
	r := bufio.NewReader(io.MultiReader(bytes.NewReader(header), bytes.NewReader(block), bytes.NewReader(tail)))
	rec, _, _, err := s.un.Unmarshal(r)
	if err != nil {
		if rec != nil {
			rec.Close()
		}
		return err
	}
	defer rec.Close()
	s.record(rec, at, take)
	return nil
}

// resync skips the file's bytes from just past start to the next gzip
// member's magic bytes, or to its end.
func (s *warcSource) resync(start int64) {
	if _, err := s.f.Seek(start+1, io.SeekStart); err != nil {
		s.done = true
		return
	}
	s.count.n = start + 1
	s.br.Reset(s.count)
	for {
		b, err := s.br.Peek(len(surveyGzipMagic))
		if bytes.Equal(b, surveyGzipMagic) {
			return
		}
		if err != nil {
			s.br.Discard(len(b))
			return // the end: done at the next step
		}
		if i := bytes.IndexByte(b[1:], surveyGzipMagic[0]); i >= 0 {
			s.br.Discard(1 + i)
		} else {
			s.br.Discard(len(b))
		}
	}
}

// record handles one parsed record at the given offset.
func (s *warcSource) record(rec gowarc.WarcRecord, at int64, take func() (int, bool)) {
	if err := framingError(rec); err != nil {
		s.queueError(take, at, err)
		return
	}
	if rec.Type() != gowarc.Response {
		s.skipped++
		return
	}
	target, u := warcTarget(rec)
	if u == nil {
		s.skipped++
		return
	}
	resp, ok := rec.Block().(gowarc.HttpResponseBlock)
	if !ok || resp.HttpStatusCode() < 100 || resp.HttpStatusCode() > 999 {
		if u.Path != "/robots.txt" {
			s.skipped++
			return
		}
		s.queueError(take, at, fmt.Errorf("%s: the payload is not an HTTP response", target))
		return
	}
	s.response(target, u, resp.HttpStatusCode(), resp.HttpHeader().Get("Location"), at, warcDate(rec),
		func(c *Capture) error { return payloadOf(resp, c) }, take)
}

// response handles a response record for target, of a known status: it is
// indexed for redirects and, when it is a robots.txt, becomes a capture
// whose body payload reads.
func (s *warcSource) response(target string, u *url.URL, status int, locationHeader string, at int64, fetchTime string, payload func(*Capture) error, take func() (int, bool)) {
	var location string
	if status >= 300 && status <= 399 {
		location = resolveLocation(u, locationHeader)
	}
	s.indexResponse(target, warcEntry{offset: at, status: status, location: location})
	if u.Path != "/robots.txt" {
		s.skipped++
		return
	}
	c := &Capture{Input: s.input, Site: u.Host, URL: target, Host: u.Host, Status: status, Offset: at,
		FetchTime: fetchTime, Skipped: s.skipped}
	s.skipped = 0
	if status >= 300 && status <= 399 {
		c.RedirectTarget = location
		if location == "" {
			c.RedirectError = RedirectNoLocation
		} else if cost := int64(len(target)+len(location)+len(c.FetchTime)) + RedirectEntryBytes; cost <= s.budget {
			s.budget -= cost
			s.waiting = append(s.waiting, c)
			return
		} else {
			c.RedirectError = RedirectIndexFull
		}
	}
	var own bool
	c.Index, own = take()
	if own {
		if err := payload(c); err != nil {
			c.Err = err
		}
	}
	s.out = append(s.out, c)
}

// indexResponse records a response for the redirects of this input,
// while the bound allows.
func (s *warcSource) indexResponse(target string, e warcEntry) {
	if _, ok := s.index[target]; ok {
		return // the first capture of a URL stands for it
	}
	cost := int64(len(target)+len(e.location)) + RedirectEntryBytes
	if cost > s.budget {
		return
	}
	s.budget -= cost
	s.index[target] = e
}

// finish answers the 3xx captures of the input, in the order they were
// read, following each through the index; and counts the records skipped
// after the last capture on the last one, or on an error row of its own
// when the input had none. An input that gave no row and held no record
// (an empty file, or gzip members of nothing) is an error row.
func (s *warcSource) finish(take func() (int, bool)) {
	for _, c := range s.waiting {
		var own bool
		c.Index, own = take()
		s.follow(c, own)
		s.out = append(s.out, c)
	}
	s.waiting, s.index = nil, nil
	if s.skipped == 0 {
		if len(s.out) == 0 {
			// Nothing at all was read: no record, no junk, no failure. The
			// rows held back mean the input gave some, as one is always
			// held back until the next is read.
			index, _ := take()
			s.out = append(s.out, &Capture{Index: index, Input: s.input, Err: ErrNoRecord})
		}
		return
	}
	if len(s.out) > 0 {
		s.out[len(s.out)-1].Skipped += s.skipped
	} else {
		index, _ := take()
		s.out = append(s.out, &Capture{Index: index, Input: s.input, Skipped: s.skipped,
			Err: fmt.Errorf("no robots.txt response among %d records", s.skipped)})
	}
	s.skipped = 0
}

// follow resolves the redirect of c through the index: at most
// surveyMaxRedirectHops redirects, the capture's own first. The target
// found is read again from its offset, when c is this shard's.
func (s *warcSource) follow(c *Capture, own bool) {
	next := c.RedirectTarget
	for hops := 1; ; hops++ {
		e, ok := s.index[next]
		if !ok {
			c.RedirectError = RedirectAbsent
			return
		}
		if e.status < 300 || e.status > 399 {
			c.RedirectTarget, c.RedirectStatus, c.RedirectHops = next, e.status, hops
			if own {
				if err := s.readTarget(e.offset, c); err != nil {
					c.Err = fmt.Errorf("redirect target %s: %w", next, err)
				}
			}
			return
		}
		if hops == MaxRedirectHops || e.location == "" {
			c.RedirectTarget = next
			c.RedirectError = RedirectHops
			if e.location == "" {
				c.RedirectError = RedirectNoLocation
			}
			return
		}
		next = e.location
	}
}

// readTarget reads the response record at offset again, for the body and
// status a redirect leads to.
func (s *warcSource) readTarget(offset int64, c *Capture) error {
	f, err := openSurveyFile(s.input)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return err
	}
	var r io.Reader = bufio.NewReader(f)
	if s.gz {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return err
		}
		zr.Multistream(false)
		r = zr
	}
	rec, _, _, err := surveyUnmarshaler().Unmarshal(bufio.NewReader(io.LimitReader(r, MaxRecordBytes+1)))
	if err != nil {
		return err
	}
	defer rec.Close()
	resp, ok := rec.Block().(gowarc.HttpResponseBlock)
	if !ok {
		return errors.New("not an HTTP response")
	}
	c.RedirectStatus = resp.HttpStatusCode()
	return payloadOf(resp, c)
}

// queueError queues an error row at the file's offset at.
func (s *warcSource) queueError(take func() (int, bool), at int64, err error) {
	index, _ := take()
	s.out = append(s.out, &Capture{Index: index, Input: s.input, Err: err, Offset: at, Skipped: s.skipped})
	s.skipped = 0
}

func (s *warcSource) Close() error {
	s.stopMembers()
	return s.f.Close()
}

// framingError is the finding that says a record's bytes are not what its
// header claims: a block shorter than its Content-Length. Other findings
// (a digest that does not match, a field the standard does not know) do
// not keep the record from being read.
func framingError(rec gowarc.WarcRecord) error {
	want, err := rec.WarcHeader().GetInt64(gowarc.ContentLength)
	if err != nil {
		return fmt.Errorf("bad Content-Length: %w", err)
	}
	if got := rec.Block().Size(); got != want {
		return fmt.Errorf("Content-Length %d, block of %d bytes", want, got)
	}
	return nil
}

// warcTarget returns a record's target URI and its URL, or nil when it is
// not an http(s) URL with a host. WARC 1.0 writes it in angle brackets.
func warcTarget(rec gowarc.WarcRecord) (string, *url.URL) {
	return targetURL(rec.WarcHeader().Get(gowarc.WarcTargetURI))
}

// targetURL is warcTarget of a WARC-Target-URI's value.
func targetURL(value string) (string, *url.URL) {
	raw := strings.TrimSuffix(strings.TrimPrefix(value, "<"), ">")
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw, nil
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return raw, nil
	}
	u.Host = strings.ToLower(u.Host)
	u.Fragment = ""
	return u.String(), u
}

// resolveLocation returns a Location header's URL, resolved against the
// URL of the response, in the form warcTarget gives, or "".
func resolveLocation(base *url.URL, location string) string {
	if location == "" {
		return ""
	}
	ref, err := url.Parse(strings.TrimSpace(location))
	if err != nil {
		return ""
	}
	u := base.ResolveReference(ref)
	u.Scheme, u.Host, u.Fragment = strings.ToLower(u.Scheme), strings.ToLower(u.Host), ""
	if u.Host == "" || u.Scheme != "http" && u.Scheme != "https" {
		return ""
	}
	return u.String()
}

// warcDate is a record's WARC-Date in RFC 3339, UTC, or "" when it has
// none the library reads.
func warcDate(rec gowarc.WarcRecord) string {
	t, err := rec.Date()
	if err != nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// payloadOf reads a response's body into c: its first cli.MaxInputBytes+1
// bytes, and its full size. The block is in memory already, at most
// surveyMaxRecordBytes. A body stored as it came on the wire, chunked or
// gzip-encoded, is decoded, as a crawler reads it; one that its writer
// decoded already but whose headers still say so (the decoding fails) is
// read as stored.
func payloadOf(resp gowarc.HttpResponseBlock, c *Capture) error {
	return readPayload(resp.ProtocolHeaderBytes(), resp.HttpHeader(), resp.PayloadBytes, c)
}

// readPayload is payloadOf of a response's raw header, parsed header and
// payload, which open gives as often as it is called.
func readPayload(raw []byte, h *http.Header, open func() (io.Reader, error), c *Capture) error {
	r, err := open()
	if err != nil {
		return err
	}
	if dec := decodeWireBody(raw, h, r); dec != nil {
		if c.Body, c.Size, err = readCounted(dec, MaxDecodedBytes); err == nil {
			return nil
		}
		// Read again as stored.
		if r, err = open(); err != nil {
			return err
		}
	}
	c.Body, c.Size, err = readCounted(r, MaxRecordBytes)
	return err
}

// MaxDecodedBytes bounds the decoded size counted of a gzip-encoded
// body: its first 500 KiB are what Google reads, and past this the size
// is not counted further (bytes says this much).
const MaxDecodedBytes = 4 * MaxRecordBytes

// decodeWireBody returns a reader of r decoded by the response's
// Transfer-Encoding (chunked) and Content-Encoding (gzip), or nil when
// the body is neither. Transfer-Encoding is read from the raw header
// lines: net/http takes it out of the parsed header.
func decodeWireBody(raw []byte, h *http.Header, r io.Reader) io.Reader {
	decoded := false
	for _, line := range bytes.Split(raw, []byte("\n")) {
		k, v, ok := bytes.Cut(line, []byte(":"))
		if ok && strings.EqualFold(string(bytes.TrimSpace(k)), "Transfer-Encoding") &&
			bytes.Contains(bytes.ToLower(v), []byte("chunked")) {
			r, decoded = httputil.NewChunkedReader(r), true
			break
		}
	}
	if h == nil {
		h = &http.Header{}
	}
	switch strings.ToLower(strings.TrimSpace(h.Get("Content-Encoding"))) {
	case "gzip", "x-gzip":
		r, decoded = &lazyGzip{r: r}, true
	}
	if !decoded {
		return nil
	}
	return r
}

// lazyGzip decompresses r, reading the gzip header at the first Read.
type lazyGzip struct {
	r  io.Reader
	zr *gzip.Reader
}

func (g *lazyGzip) Read(p []byte) (int, error) {
	if g.zr == nil {
		zr, err := gzip.NewReader(g.r)
		if err != nil {
			return 0, err
		}
		g.zr = zr
	}
	return g.zr.Read(p)
}

// readCounted reads the first cli.MaxInputBytes+1 bytes of r and counts the
// rest, up to limit bytes in all.
func readCounted(r io.Reader, limit int64) ([]byte, int64, error) {
	if br, ok := r.(*bytes.Reader); ok {
		// A body in memory: one copy of the length kept, not a growing one.
		n := int64(br.Len())
		body := make([]byte, min(n, cli.MaxInputBytes+1))
		br.Read(body)
		return body, min(n, limit), nil
	}
	body, err := readBody(r)
	if err != nil {
		return nil, 0, err
	}
	rest, err := io.CopyN(io.Discard, r, limit-int64(len(body)))
	if err == io.EOF {
		err = nil
	}
	return body, int64(len(body)) + rest, err
}
