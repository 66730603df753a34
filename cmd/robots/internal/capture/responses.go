package capture

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/nlnwa/gowarc/v3"
)

// resync skips the file's bytes from just past start to the next gzip
// member's magic bytes, or to its end: a local file seeks back to them, a
// stream reads them again from its tape.
func (s *warcSource) resync(start int64) {
	if s.tape != nil {
		s.tape.rewind(start + 1)
		s.br.Reset(s.tape)
	} else {
		if _, err := s.f.Seek(start+1, io.SeekStart); err != nil {
			s.done = true
			return
		}
		s.count.n = start + 1
		s.br.Reset(s.count)
	}
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
	indexed := s.indexResponse(target, warcEntry{offset: at, status: status, location: location})
	if u.Path != "/robots.txt" {
		if s.stream && indexed {
			s.streamed(target, u.Path, status, location, nil, payload)
		}
		s.skipped++
		return
	}
	c := &Capture{Input: s.input, File: s.file, Site: u.Host, URL: target, Host: u.Host, Status: status, Offset: at,
		FetchTime: fetchTime, Skipped: s.skipped}
	s.skipped = 0
	if status >= 300 && status <= 399 {
		c.RedirectTarget = location
		if location == "" {
			c.RedirectError = RedirectNoLocation
		} else if cost := int64(len(target)+len(location)+len(c.FetchTime)) + RedirectEntryBytes; cost <= s.budget {
			s.budget -= cost
			s.waiting = append(s.waiting, c)
			if s.stream {
				if indexed {
					s.streamed(target, u.Path, status, location, nil, payload)
				}
				s.wantChain(location)
			}
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
	if s.stream && indexed {
		held := c
		if !own {
			held = nil
		}
		s.streamed(target, u.Path, status, location, held, payload)
	}
	s.out = append(s.out, c)
}

// indexResponse records a response for the redirects of this input,
// while the bound allows, and reports whether it did.
func (s *warcSource) indexResponse(target string, e warcEntry) bool {
	if _, ok := s.index[target]; ok {
		return false // the first capture of a URL stands for it
	}
	cost := int64(len(target)+len(e.location)) + RedirectEntryBytes
	if cost > s.budget {
		return false
	}
	s.budget -= cost
	s.index[target] = e
	return true
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
			s.out = append(s.out, &Capture{Index: index, Input: s.input, File: s.file, Err: ErrNoRecord})
		}
		return
	}
	if len(s.out) > 0 {
		s.out[len(s.out)-1].Skipped += s.skipped
	} else {
		index, _ := take()
		s.out = append(s.out, &Capture{Index: index, Input: s.input, File: s.file, Skipped: s.skipped,
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
				s.readRedirectTarget(c, next, e.offset)
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

// readRedirectTarget gives c the body of the response at next, which its
// redirects lead to: the body held, for a stream, else its record read
// again from offset. A stream's target neither held nor read again, its
// server ignoring Range, leaves the redirect unresolved: redirect_error
// index_full, as when the index was full.
func (s *warcSource) readRedirectTarget(c *Capture, next string, offset int64) {
	if h := s.held[next]; h != nil {
		c.Body, c.Size = h.body, h.size
		if h.err != nil {
			c.Err = fmt.Errorf("redirect target %s: %w", next, h.err)
		}
		return
	}
	err := s.readTarget(offset, c)
	switch {
	case err == nil:
	case s.stream && surveyInputStateOf(s.path, false).ignoresRange():
		c.RedirectStatus, c.RedirectHops, c.RedirectError = 0, 0, RedirectIndexFull
		c.Body, c.Size = nil, 0
	default:
		c.Err = fmt.Errorf("redirect target %s: %w", next, err)
	}
}

// targetReaders are the readers readTarget reads a record again through,
// made at its first call and reset at each: a file's redirects are read
// one after another at its end, and a gzip reader allocated for each took
// more than the record's reading.
type targetReaders struct {
	file   *bufio.Reader // the file from the record's offset
	zr     *gzip.Reader  // its member, in a .warc.gz
	record *bufio.Reader // the record, up to MaxRecordBytes+1 bytes
}

// readTarget reads the response record at offset again, for the body and
// status a redirect leads to.
func (s *warcSource) readTarget(offset int64, c *Capture) error {
	f, err := openSurveyFile(s.path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return err
	}
	t := &s.target
	if t.file == nil {
		t.file, t.record = bufio.NewReader(f), bufio.NewReader(nil)
	} else {
		t.file.Reset(f)
	}
	var r io.Reader = t.file
	if s.gz {
		if t.zr == nil {
			if t.zr, err = gzip.NewReader(r); err != nil {
				return err
			}
		} else if err := t.zr.Reset(r); err != nil {
			return err
		}
		t.zr.Multistream(false)
		r = t.zr
	}
	t.record.Reset(io.LimitReader(r, MaxRecordBytes+1))
	rec, _, _, err := s.un.Unmarshal(t.record)
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
	s.out = append(s.out, &Capture{Index: index, Input: s.input, File: s.file, Err: err, Offset: at, Skipped: s.skipped})
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
