package capture

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

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
	f, plain := quickFields(head[:end+2])
	if !plain {
		return false, nil
	}
	// The library reads a block as HTTP by its Content-Type, and refuses
	// one too short to be: a record it would refuse is its to read.
	httpBlock := len(f.ctype) >= len("application/http") && bytes.EqualFold(f.ctype[:len("application/http")], []byte("application/http"))
	response := bytes.EqualFold(f.typ, []byte("response"))
	if len(f.typ) == 0 || f.length < 0 || response && (f.length > MaxRecordBytes || !httpBlock) ||
		httpBlock && f.length < 4 || !knownRecordType(f.typ) {
		return false, nil
	}
	if !response {
		return true, s.quickSkip(take, at, head[:end+4], httpBlock, f.length)
	}
	return true, s.quickResponse(take, at, head[:end+4], f)
}

// quickHeader is what quickRecord reads of a record's fields.
type quickHeader struct {
	typ, target, date, ctype []byte // nil when absent; set, if empty, when given
	length                   int64  // -1 when absent
}

// quickFields reads the fields of a plain header, the lines after its
// version line up to its blank line; plain is false when a field is not
// plain: a continuation line, a name that is no plain token, a digest of
// an algorithm the library lacks (it refuses those records), a
// Content-Length that is no length, or a field quickRecord reads given
// twice (the library says what it makes of those).
func quickFields(header []byte) (f quickHeader, plain bool) {
	f.length = -1
	_, lines, _ := bytes.Cut(header, []byte("\r\n")) // past the version line
	for len(lines) > 0 {
		var line []byte
		line, lines, _ = bytes.Cut(lines, []byte("\r\n"))
		name, value, found := bytes.Cut(line, []byte(":"))
		if !found || line[0] == ' ' || line[0] == '\t' || !plainToken(name) {
			return f, false
		}
		value = bytes.TrimSpace(value)
		var field *[]byte
		switch {
		case bytes.EqualFold(name, []byte("WARC-Type")):
			field = &f.typ
		case bytes.EqualFold(name, []byte("WARC-Target-URI")):
			field = &f.target
		case bytes.EqualFold(name, []byte("WARC-Date")):
			field = &f.date
		case bytes.EqualFold(name, []byte("Content-Type")):
			field = &f.ctype
		case bytes.EqualFold(name, []byte("WARC-Block-Digest")), bytes.EqualFold(name, []byte("WARC-Payload-Digest")):
			if !knownDigest(value) {
				return f, false
			}
			continue
		case bytes.EqualFold(name, []byte("Content-Length")):
			n, err := strconv.ParseInt(string(value), 10, 64)
			if f.length >= 0 || err != nil || n < 0 {
				return f, false
			}
			f.length = n
			continue
		default:
			continue
		}
		if *field != nil {
			return f, false
		}
		if value == nil {
			value = []byte{} // set, though empty: a second one is still twice
		}
		*field = value
	}
	return f, true
}

// quickSkip reads past a record that is no response, its header the
// first bytes of s.rec: the block is read to its Content-Length and
// dropped, and the record counted as skipped. A block too short to be
// HTTP, of a record that says it is, is the library's to explain.
func (s *warcSource) quickSkip(take func() (int, bool), at int64, header []byte, httpBlock bool, length int64) error {
	var first []byte // what the library reads an HTTP block's start from
	if httpBlock {
		header = append([]byte(nil), header...)
		s.rec.Discard(len(header))
		first, _ = s.rec.Peek(4)
		first = append([]byte(nil), first...)
	} else {
		s.rec.Discard(len(header))
	}
	n, err := io.CopyN(io.Discard, s.rec, length)
	switch {
	case err != nil && httpBlock && len(first) < 4:
		return s.libraryRecord(take, at, header, first, nil)
	case err != nil:
		return blockError(err, length, n)
	}
	s.endOfRecord()
	s.skipped++
	return nil
}

// quickResponse reads a response record whose fields quickRecord read,
// its header the first bytes of s.rec: a record that is not plain past
// its header is handed to the library with its bytes.
func (s *warcSource) quickResponse(take func() (int, bool), at int64, head []byte, f quickHeader) error {
	// The fields are read before the block, which may refill the buffer
	// they lie in.
	header := append([]byte(nil), head...)
	targetValue, dateValue, dated := string(f.target), string(f.date), f.date != nil
	s.rec.Discard(len(head))
	if int64(cap(s.block)) < f.length {
		s.block = make([]byte, f.length)
	}
	block := s.block[:f.length]
	n, err := io.ReadFull(s.rec, block)
	if err != nil {
		if err != io.EOF && err != io.ErrUnexpectedEOF {
			return blockError(err, f.length, int64(n))
		}
		// A block shorter than its Content-Length: the library says what
		// it makes of it.
		return s.libraryRecord(take, at, header, block[:n], nil)
	}
	tail := s.endOfRecord()

	fetchTime := ""
	if dated {
		t, err := time.Parse(time.RFC3339, dateValue)
		if err != nil {
			return s.libraryRecord(take, at, header, block, tail)
		}
		fetchTime = t.UTC().Format(time.RFC3339)
	}
	targetStr, u := targetURL(targetValue)
	hend := bytes.Index(block, []byte("\r\n\r\n"))
	if u == nil || !plainTarget(targetValue) || hend < 0 || !bytes.HasPrefix(block, []byte("HTTP")) || !crlfLines(block[:hend]) {
		return s.libraryRecord(take, at, header, block, tail)
	}
	s.head.Reset(block[:hend+4])
	s.headReader.Reset(&s.head)
	resp, err := http.ReadResponse(s.headReader, nil)
	if err != nil || resp.StatusCode < 100 || resp.StatusCode > 999 {
		return s.libraryRecord(take, at, header, block, tail)
	}
	raw, payload := block[:hend+4], block[hend+4:]
	s.response(targetStr, u, resp.StatusCode, resp.Header.Get("Location"), at, fetchTime, func(c *Capture) error {
		return readPayload(raw, &resp.Header, func() (io.Reader, error) { return bytes.NewReader(payload), nil }, c)
	}, take)
	return nil
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
