package fetch

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var wireT0 = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

func goodCopy(body string) *sharedCopy {
	return &sharedCopy{
		url: "http://a.test/robots.txt", finalURL: "http://a.test/real.txt", redirects: 1, status: 200,
		policy: Conditional, reason: ReasonOK, fetchedAt: wireT0, expires: wireT0.Add(time.Hour),
		etag: `"v1"`, lastModified: "Tue, 01 Jan 2030 00:00:00 GMT", body: []byte(body),
	}
}

func failureCopy() *sharedCopy {
	return &sharedCopy{
		url: "http://a.test/robots.txt", finalURL: "http://a.test/robots.txt", status: 503,
		policy: FullDisallow, reason: ReasonServerError, fetchedAt: wireT0.Add(2 * time.Hour),
		expires: wireT0.Add(2*time.Hour + time.Minute), retryAfter: 90 * time.Second,
	}
}

// wireEntries are entries of every shape the cache writes.
func wireEntries() map[string]*sharedEntry {
	redirects := &sharedCopy{
		url: "http://a.test/robots.txt", finalURL: "http://a.test/x", redirects: 5, status: 301,
		policy: FullAllow, reason: ReasonRedirects, errKind: errKindTooManyRedirects,
		errMsg: "fetch: too many redirects: more than 5", fetchedAt: wireT0, expires: wireT0.Add(24 * time.Hour),
	}
	network := &sharedCopy{
		url: "http://a.test/robots.txt", finalURL: "http://a.test/robots.txt", policy: FullDisallow,
		reason: ReasonNetwork, errKind: errOther, errMsg: "dial tcp: connection refused",
		fetchedAt: wireT0, expires: wireT0.Add(10 * time.Minute),
	}
	truncated := goodCopy(strings.Repeat("x", MaxSharedBody))
	truncated.truncated = true
	return map[string]*sharedEntry{
		"good":              {origin: "http://a.test", good: goodCopy("User-agent: *\nDisallow: /p\n")},
		"empty body":        {origin: "http://a.test", good: goodCopy("")},
		"binary body":       {origin: "http://a.test", good: goodCopy("\x00\xff\r\n\x80Disallow: /")},
		"full body":         {origin: "http://a.test", good: truncated},
		"redirects":         {origin: "http://a.test", good: redirects},
		"failing with copy": {origin: "http://a.test", good: goodCopy("Disallow: /"), failure: failureCopy(), failingSince: wireT0.Add(time.Hour), failures: 3},
		"failing, no copy":  {origin: "http://a.test", failure: network, failingSince: wireT0, failures: 1},
	}
}

func TestWireRoundTrip(t *testing.T) {
	for name, s := range wireEntries() {
		b, err := s.encode()
		require.NoError(t, err, name)
		got, err := decodeShared(b, s.origin)
		require.NoError(t, err, name)
		assertSameEntry(t, s, got, name)
	}
}

func assertSameEntry(t *testing.T, want, got *sharedEntry, name string) {
	t.Helper()
	assert.Equal(t, want.origin, got.origin, name)
	assert.Equal(t, want.failures, got.failures, name)
	assert.True(t, want.failingSince.Equal(got.failingSince), name)
	for i, pair := range [][2]*sharedCopy{{want.good, got.good}, {want.failure, got.failure}} {
		w, g := pair[0], pair[1]
		if w == nil {
			assert.Nil(t, g, "%s: copy %d", name, i)
			continue
		}
		require.NotNil(t, g, "%s: copy %d", name, i)
		assert.True(t, w.fetchedAt.Equal(g.fetchedAt) && w.expires.Equal(g.expires), name)
		assert.Equal(t, string(w.body), string(g.body), name)
		w2, g2 := *w, *g
		w2.fetchedAt, w2.expires, w2.body = time.Time{}, time.Time{}, nil
		g2.fetchedAt, g2.expires, g2.body = time.Time{}, time.Time{}, nil
		assert.Equal(t, w2, g2, name)
	}
}

// Every change of a valid encoding is refused: each byte flipped, each
// length cut, bytes added, and a value of another origin or version.
func TestWireRefusesCorruptValues(t *testing.T) {
	s := wireEntries()["failing with copy"]
	b, err := s.encode()
	require.NoError(t, err)
	for i := range b {
		for _, bit := range []byte{0x01, 0x80} {
			c := bytes.Clone(b)
			c[i] ^= bit
			_, err := decodeShared(c, s.origin)
			assert.ErrorIs(t, err, errCorrupt, "bit %#x of byte %d flipped", bit, i)
		}
	}
	for n := range len(b) {
		_, err := decodeShared(b[:n], s.origin)
		assert.ErrorIs(t, err, errCorrupt, "cut to %d bytes", n)
	}
	_, err = decodeShared(append(bytes.Clone(b), 0), s.origin)
	assert.ErrorIs(t, err, errCorrupt, "a byte after the checksum")
	_, err = decodeShared(b, "http://b.test")
	assert.ErrorIs(t, err, errCorrupt, "another origin's entry")
	for _, v := range [][]byte{nil, {}, []byte("User-agent: *\nDisallow: /\n"), []byte(`{"policy":"allow"}`)} {
		_, err = decodeShared(v, s.origin)
		assert.ErrorIs(t, err, errCorrupt, "foreign value %q", v)
	}
}

// A value whose checksum holds but whose fields do not make sense is
// refused too: the checksum catches damage, these checks catch writers
// that do not follow the format.
func TestWireRefusesInconsistentEntries(t *testing.T) {
	mutate := map[string]func(s *sharedEntry){
		"nothing in it":             func(s *sharedEntry) { s.good = nil },
		"policy not the reason's":   func(s *sharedEntry) { s.good.policy = FullAllow },
		"unknown reason":            func(s *sharedEntry) { s.good.reason = 42 },
		"reason of no fetch":        func(s *sharedEntry) { s.good.reason, s.good.policy = ReasonUnreachable, FullAllow },
		"failure as good copy":      func(s *sharedEntry) { s.good = failureCopy() },
		"good copy as failure":      func(s *sharedEntry) { s.failure, s.failures, s.failingSince = goodCopy(""), 1, wireT0 },
		"failure count, no failure": func(s *sharedEntry) { s.failures = 2 },
		"failing since, no failure": func(s *sharedEntry) { s.failingSince = wireT0 },
		"failure, no count":         func(s *sharedEntry) { s.failure, s.failingSince = failureCopy(), wireT0 },
		"failure, no start":         func(s *sharedEntry) { s.failure, s.failures = failureCopy(), 1 },
		"body of a full allow":      func(s *sharedEntry) { s.good.policy, s.good.reason = FullAllow, ReasonUnavailable },
		"no fetch time":             func(s *sharedEntry) { s.good.fetchedAt = time.Time{} },
		"negative retry":            func(s *sharedEntry) { s.good.retryAfter = -time.Second },
		"unknown error kind":        func(s *sharedEntry) { s.good.errKind = errKindEnd },
	}
	for name, m := range mutate {
		s := &sharedEntry{origin: "http://a.test", good: goodCopy("Disallow: /")}
		m(s)
		b, err := s.encode()
		require.NoError(t, err, name)
		_, err = decodeShared(b, s.origin)
		assert.ErrorIs(t, err, errCorrupt, name)
	}
}

// resum returns b with its checksum made right again.
func resum(b []byte) []byte {
	body := b[:len(b)-4]
	return binary.BigEndian.AppendUint32(bytes.Clone(body), crc32.Checksum(body, castagnoli))
}

func TestWireVersionAndMagic(t *testing.T) {
	b, err := wireEntries()["good"].encode()
	require.NoError(t, err)
	assert.Equal(t, wireMagic, string(b[:4]))
	assert.Equal(t, byte(wireVersion), b[4])
	other := bytes.Clone(b)
	other[4] = wireVersion + 1
	_, err = decodeShared(resum(other), "http://a.test")
	assert.ErrorIs(t, err, errCorrupt, "another version, checksum right")
	other = bytes.Clone(b)
	copy(other, "XRBT")
	_, err = decodeShared(resum(other), "http://a.test")
	assert.ErrorIs(t, err, errCorrupt, "another magic, checksum right")
	assert.Equal(t, fmt.Sprintf("v%d/http://a.test", wireVersion), storeKey("http://a.test"), "keys carry the version")
}

// Each limit of the format: encode refuses what passes it, and decode
// refuses a value that claims more.
func TestWireLimits(t *testing.T) {
	over := strings.Repeat("u", maxWireString+1)
	tooLarge := map[string]*sharedEntry{
		"body over MaxSharedBody": {origin: "http://a.test", good: goodCopy(strings.Repeat("x", MaxSharedBody+1))},
		"URL over maxWireString":  {origin: "http://a.test", good: func() *sharedCopy { c := goodCopy(""); c.finalURL = over; return c }()},
		"origin":                  {origin: over, good: goodCopy("")},
		"redirects":               {origin: "http://a.test", good: func() *sharedCopy { c := goodCopy(""); c.redirects = maxWireRedirects + 1; return c }()},
		"failures":                {origin: "http://a.test", failure: failureCopy(), failingSince: wireT0, failures: maxWireFailures + 1},
	}
	for name, s := range tooLarge {
		_, err := s.encode()
		assert.ErrorIs(t, err, errTooLarge, name)
	}
	at := map[string]*sharedEntry{
		"body at MaxSharedBody":  {origin: "http://a.test", good: goodCopy(strings.Repeat("x", MaxSharedBody))},
		"URL at maxWireString":   {origin: "http://a.test", good: func() *sharedCopy { c := goodCopy(""); c.finalURL = over[1:]; return c }()},
		"redirects at the limit": {origin: "http://a.test", good: func() *sharedCopy { c := goodCopy(""); c.redirects = maxWireRedirects; return c }()},
	}
	for name, s := range at {
		b, err := s.encode()
		require.NoError(t, err, name)
		assert.LessOrEqual(t, len(b), MaxSharedValue, name)
		_, err = decodeShared(b, s.origin)
		assert.NoError(t, err, name)
	}
	huge := append([]byte(wireMagic), wireVersion)
	huge = append(huge, make([]byte, MaxSharedValue)...)
	_, err := decodeShared(resum(append(huge, 0, 0, 0, 0)), "http://a.test")
	assert.ErrorIs(t, err, errCorrupt, "a value over MaxSharedValue is not read")

	// A length that claims more than its limit, checksum right.
	b := append([]byte(wireMagic), wireVersion)
	b = binary.AppendUvarint(b, maxWireString+1)
	b = append(b, over...)
	_, err = decodeShared(resum(append(b, 0, 0, 0, 0)), over)
	assert.ErrorIs(t, err, errCorrupt, "an origin over maxWireString")
}

// A failure's message is shared up to maxErrMsg bytes, and errors.Is
// still finds the package's error it wrapped.
func TestWireErrors(t *testing.T) {
	long := fmt.Errorf("%w: %s", ErrRedirectLoop, strings.Repeat("y", 3*maxErrMsg))
	r := &Result{URL: "http://a.test/robots.txt", FinalURL: "http://a.test/robots.txt", Status: 302,
		Policy: FullAllow, Reason: ReasonRedirects, Err: long, FetchedAt: wireT0, Expires: wireT0.Add(time.Hour)}
	c := copyOf(r, validators{}, nil)
	assert.Len(t, c.errMsg, maxErrMsg)
	b, err := (&sharedEntry{origin: "http://a.test", good: c}).encode()
	require.NoError(t, err)
	s, err := decodeShared(b, "http://a.test")
	require.NoError(t, err)
	got := s.good.err()
	assert.True(t, errors.Is(got, ErrRedirectLoop))
	assert.Equal(t, long.Error()[:maxErrMsg], got.Error())
	for _, e := range []error{ErrTooManyRedirects, ErrRedirectLoop, ErrBadRedirect, ErrBadStatus} {
		c := &sharedCopy{errKind: kindOf(fmt.Errorf("x: %w", e)), errMsg: "x"}
		assert.ErrorIs(t, c.err(), e)
	}
	assert.Nil(t, (&sharedCopy{}).err())
	assert.Equal(t, errOther, kindOf(errors.New("reset")))
}

func FuzzDecodeShared(f *testing.F) {
	for _, s := range wireEntries() {
		b, err := s.encode()
		if err == nil && len(b) < 4096 {
			f.Add(b)
		}
	}
	f.Add([]byte(wireMagic + "\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := decodeShared(b, "http://a.test")
		if err != nil {
			return
		}
		again, err := s.encode()
		require.NoError(t, err, "what decodes encodes")
		s2, err := decodeShared(again, "http://a.test")
		require.NoError(t, err)
		assertSameEntry(t, s, s2, "re-encoded")
	})
}
