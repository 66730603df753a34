package fetch

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"time"

	"github.com/fastrobots/robots/usage"
)

// The wire format of a shared entry, the bytes a Store holds for one
// origin. Stores see them as opaque; only this file reads and writes them.
//
//	magic     4 bytes  "FRBT"
//	version   1 byte   wireVersion
//	origin    string
//	failures  uvarint  consecutive failed fetches (0: the latest fetch got a definite answer)
//	failing   varint   failing-since, Unix nanoseconds (0: not failing)
//	flags     1 byte   bit 0: a good copy follows; bit 1: the latest failure follows;
//	                   bit 2: the copies' Content-Usage fields follow them
//	good      copy     when flagged
//	failure   copy     when flagged
//	usage     string   per copy present, good first, when bit 2 is set:
//	                   Result.ContentUsage as usage.Preference.String
//	checksum  4 bytes  CRC-32C (Castagnoli) of everything before it, big-endian
//
// A copy is one fetch's outcome:
//
//	url, finalURL                       string, string
//	redirects, status                   uvarint, uvarint
//	policy, reason, errKind             1 byte each
//	errMsg                              string
//	truncated                           1 byte (0 or 1)
//	fetchedAt, expires                  varint Unix nanoseconds
//	retryAfter                          varint nanoseconds
//	etag, lastModified                  string, string
//	body                                string: the bytes parsed, empty unless Conditional
//
// A string is a uvarint length and that many bytes. Decoding checks the
// total size, the magic, the version, the checksum, every length against
// its limit, every enumerated value, and that nothing follows the
// checksum; anything else is a corrupt value, ignored and overwritten. A
// change of layout is a new wireVersion, which is part of the key too
// (storeKey), so nodes of two versions never misread each other.
//
// Bit 2 is set only when a copy has a Content-Usage field, so nodes that
// do not know it still read other entries; they treat flagged ones as
// corrupt, which costs a fetch, never a wrong answer.
const (
	wireMagic   = "FRBT"
	wireVersion = 1
)

// Limits of the wire format, which bound what an untrusted value can make
// a node allocate.
const (
	// MaxSharedBody is the largest body a shared entry carries: the default
	// body limit, robots.MaxBytes. A fetch that read more is not shared.
	MaxSharedBody = 500 << 10
	// maxWireString bounds every string of an entry but the body.
	maxWireString = 8 << 10
	// MaxSharedValue bounds a whole entry. A Store may refuse a longer
	// value without reading it (ErrForeignValue).
	MaxSharedValue = MaxSharedBody + 16*maxWireString
	// maxWireRedirects and maxWireFailures bound the counts a value may
	// claim.
	maxWireRedirects = 1 << 16
	maxWireFailures  = 1 << 30
	// maxErrMsg is how much of a failure's message is shared.
	maxErrMsg = 1 << 10
	// maxWireContentUsage leaves room for later drafts' vocabularies.
	maxWireContentUsage = 1 << 10
)

const (
	flagGood    = 1 << iota // a good copy follows
	flagFailure             // the latest failure follows
	flagUsage               // the copies' Content-Usage fields follow
	flagsKnown  = flagGood | flagFailure | flagUsage
)

var errCorrupt = errors.New("fetch: corrupt shared entry")

var errTooLarge = errors.New("fetch: entry too large to share")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// sharedEntry carries the good copy's body so that every node can serve
// what the node that fetched serves.
type sharedEntry struct {
	origin       string
	good         *sharedCopy // the last definite answer; nil when none
	failure      *sharedCopy // the latest fetch, when it failed
	failingSince time.Time
	failures     int
}

type sharedCopy struct {
	url, finalURL      string
	redirects, status  int
	policy             Policy
	reason             Reason
	errKind            errKind
	errMsg             string
	truncated          bool
	fetchedAt, expires time.Time
	retryAfter         time.Duration
	etag, lastModified string
	body               []byte
	// contentUsage is Result.ContentUsage.
	contentUsage usage.Preference
}

func (s *sharedEntry) latest() time.Time {
	if s.failure != nil {
		return s.failure.fetchedAt
	}
	if s.good != nil {
		return s.good.fetchedAt
	}
	return time.Time{}
}

// errKind names the errors of this package a Result.Err wraps, so that
// errors.Is still finds them in an entry another node fetched.
type errKind byte

const (
	errNone errKind = iota
	errOther
	errKindTooManyRedirects
	errKindRedirectLoop
	errKindBadRedirect
	errKindBadStatus
	errKindEnd
)

var kindErrors = [errKindEnd]error{
	errKindTooManyRedirects: ErrTooManyRedirects,
	errKindRedirectLoop:     ErrRedirectLoop,
	errKindBadRedirect:      ErrBadRedirect,
	errKindBadStatus:        ErrBadStatus,
}

func kindOf(err error) errKind {
	if err == nil {
		return errNone
	}
	for k, e := range kindErrors {
		if e != nil && errors.Is(err, e) {
			return errKind(k)
		}
	}
	return errOther
}

type sharedError struct {
	msg  string
	base error
}

func (e *sharedError) Error() string { return e.msg }
func (e *sharedError) Unwrap() error { return e.base }

func (c *sharedCopy) err() error {
	if c.errKind == errNone {
		return nil
	}
	return &sharedError{msg: c.errMsg, base: kindErrors[c.errKind]}
}

func (s *sharedEntry) encode() ([]byte, error) {
	if len(s.origin) > maxWireString || s.failures > maxWireFailures {
		return nil, errTooLarge
	}
	size := 64 + len(s.origin)
	for _, c := range []*sharedCopy{s.good, s.failure} {
		if c == nil {
			continue
		}
		if !c.fits() {
			return nil, errTooLarge
		}
		size += 128 + len(c.url) + len(c.finalURL) + len(c.errMsg) + len(c.etag) + len(c.lastModified) + len(c.body)
	}
	b := make([]byte, 0, size)
	b = append(b, wireMagic...)
	b = append(b, wireVersion)
	b = appendString(b, s.origin)
	b = binary.AppendUvarint(b, uint64(s.failures))
	b = binary.AppendVarint(b, unixNano(s.failingSince))
	copies := s.copies()
	b = append(b, s.flags())
	for _, c := range copies {
		b = c.append(b)
	}
	if s.flags()&flagUsage != 0 {
		for _, c := range copies {
			b = appendString(b, c.contentUsage.String())
		}
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

func (s *sharedEntry) copies() []*sharedCopy {
	var cs []*sharedCopy
	for _, c := range []*sharedCopy{s.good, s.failure} {
		if c != nil {
			cs = append(cs, c)
		}
	}
	return cs
}

func (s *sharedEntry) flags() byte {
	var flags byte
	if s.good != nil {
		flags |= flagGood
	}
	if s.failure != nil {
		flags |= flagFailure
	}
	for _, c := range s.copies() {
		if c.contentUsage != (usage.Preference{}) {
			flags |= flagUsage
		}
	}
	return flags
}

func (c *sharedCopy) fits() bool {
	for _, s := range []string{c.url, c.finalURL, c.errMsg, c.etag, c.lastModified} {
		if len(s) > maxWireString {
			return false
		}
	}
	return len(c.body) <= MaxSharedBody && len(c.contentUsage.String()) <= maxWireContentUsage &&
		c.redirects >= 0 && c.redirects <= maxWireRedirects &&
		c.status >= 0 && c.status <= 999
}

func (c *sharedCopy) append(b []byte) []byte {
	b = appendString(b, c.url)
	b = appendString(b, c.finalURL)
	b = binary.AppendUvarint(b, uint64(c.redirects))
	b = binary.AppendUvarint(b, uint64(c.status))
	b = append(b, byte(c.policy), byte(c.reason), byte(c.errKind))
	b = appendString(b, c.errMsg)
	var truncated byte
	if c.truncated {
		truncated = 1
	}
	b = append(b, truncated)
	b = binary.AppendVarint(b, unixNano(c.fetchedAt))
	b = binary.AppendVarint(b, unixNano(c.expires))
	b = binary.AppendVarint(b, int64(c.retryAfter))
	b = appendString(b, c.etag)
	b = appendString(b, c.lastModified)
	return appendString(b, string(c.body))
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// unixNano maps the zero time to 0.
func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromUnixNano(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

// decodeShared returns errCorrupt for any value that is not an entry of
// this version for origin.
func decodeShared(b []byte, origin string) (*sharedEntry, error) {
	if len(b) > MaxSharedValue || len(b) < len(wireMagic)+1+4 ||
		string(b[:len(wireMagic)]) != wireMagic || b[len(wireMagic)] != wireVersion {
		return nil, errCorrupt
	}
	body, sum := b[:len(b)-4], binary.BigEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, errCorrupt
	}
	r := wireReader{b: body[len(wireMagic)+1:]}
	s := &sharedEntry{origin: r.string(maxWireString)}
	s.failures = int(r.uvarint(maxWireFailures))
	s.failingSince = fromUnixNano(r.varint())
	flags := r.byte()
	if flags&^flagsKnown != 0 {
		r.bad = true
	}
	if flags&flagGood != 0 {
		s.good = r.copy()
	}
	if flags&flagFailure != 0 {
		s.failure = r.copy()
	}
	if flags&flagUsage != 0 {
		for _, c := range s.copies() {
			c.contentUsage = r.contentUsage()
		}
	}
	if r.bad || len(r.b) != 0 || s.origin != origin || !s.consistent() {
		return nil, errCorrupt
	}
	return s, nil
}

// consistent rejects combinations no cache writes, so that a decoded
// entry cannot put a node in a state it could not reach itself.
func (s *sharedEntry) consistent() bool {
	if s.good == nil && s.failure == nil {
		return false
	}
	if s.good != nil && (s.good.reason.Failed() || !s.good.valid()) {
		return false
	}
	if s.failure == nil {
		return s.failures == 0 && s.failingSince.IsZero()
	}
	return s.failure.reason.Failed() && s.failure.valid() && s.failures > 0 &&
		!s.failingSince.IsZero() && !s.failingSince.After(s.failure.fetchedAt) && len(s.failure.body) == 0
}

func (c *sharedCopy) valid() bool {
	p, ok := policyOf(c.reason)
	return ok && p == c.policy && (c.policy == Conditional || len(c.body) == 0) &&
		c.errKind < errKindEnd && !c.fetchedAt.IsZero() && c.retryAfter >= 0
}

// policyOf reports false for a reason no fetch gives.
func policyOf(r Reason) (p Policy, ok bool) {
	switch r {
	case ReasonOK:
		return Conditional, true
	case ReasonUnavailable, ReasonRedirects:
		return FullAllow, true
	case ReasonServerError, ReasonTooManyRequests, ReasonNetwork:
		return FullDisallow, true
	}
	return 0, false
}

// wireReader sets bad, and yields zero values, on a read past the end or
// past a limit, so decoding checks once at the end.
type wireReader struct {
	b   []byte
	bad bool
}

func (r *wireReader) byte() byte {
	if len(r.b) == 0 {
		r.bad = true
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *wireReader) uvarint(limit uint64) uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > limit {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *wireReader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *wireReader) bytes(limit int) []byte {
	n := r.uvarint(uint64(limit))
	if r.bad || n > uint64(len(r.b)) {
		r.bad = true
		return nil
	}
	s := r.b[:n:n]
	r.b = r.b[n:]
	return s
}

func (r *wireReader) string(limit int) string { return string(r.bytes(limit)) }

func (r *wireReader) contentUsage() usage.Preference {
	s := r.string(maxWireContentUsage)
	if s == "" {
		return usage.Preference{}
	}
	p, ok := usage.ParsePreference(s)
	if !ok {
		r.bad = true
	}
	return p
}

func (r *wireReader) copy() *sharedCopy {
	c := &sharedCopy{
		url:       r.string(maxWireString),
		finalURL:  r.string(maxWireString),
		redirects: int(r.uvarint(maxWireRedirects)),
		status:    int(r.uvarint(999)),
	}
	c.policy, c.reason, c.errKind = Policy(r.byte()), Reason(r.byte()), errKind(r.byte())
	c.errMsg = r.string(maxWireString)
	switch r.byte() {
	case 0:
	case 1:
		c.truncated = true
	default:
		r.bad = true
	}
	c.fetchedAt = fromUnixNano(r.varint())
	c.expires = fromUnixNano(r.varint())
	c.retryAfter = time.Duration(r.varint())
	c.etag = r.string(maxWireString)
	c.lastModified = r.string(maxWireString)
	c.body = r.bytes(MaxSharedBody)
	return c
}
