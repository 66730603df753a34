package fetch

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/usage"
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
		"content usage":     {origin: "http://a.test", good: withUsage(goodCopy("Disallow: /p\n"), "train-ai=n, search=y")},
		"failing, both with content usage": {origin: "http://a.test", good: withUsage(goodCopy("Disallow: /"), "search=y"),
			failure: withUsage(failureCopy(), "train-ai=n"), failingSince: wireT0.Add(time.Hour), failures: 1},
		"failure with content usage only": {origin: "http://a.test", good: goodCopy("Disallow: /"),
			failure: withUsage(failureCopy(), "train-ai=y"), failingSince: wireT0.Add(time.Hour), failures: 1},
	}
}

// withUsage returns c with the Content-Usage field pref.
func withUsage(c *sharedCopy, pref string) *sharedCopy {
	p, ok := usage.ParsePreference(pref)
	if !ok {
		panic(pref)
	}
	c.contentUsage = p
	return c
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

// The first byte of FuzzDecodeShared's input says how to read the rest.
const (
	// fuzzSealed: the rest is the body between the magic and version and
	// the CRC-32C, which sealShared writes around it. Raw mutations die
	// at the checksum, so without this the decoder's body is never
	// reached.
	fuzzSealed = 0
	// fuzzRaw: the rest is the whole value, so that the guards themselves
	// (length, magic, version, checksum) are fuzzed too.
	fuzzRaw = 1
)

// FuzzDecodeShared decodes any value: what decodes is an entry for the
// origin that encodes again to the same entry. An input whose first byte
// is even is a body sealed before decoding, an odd one a value as is.
func FuzzDecodeShared(f *testing.F) {
	for _, s := range wireEntries() {
		b, err := s.encode()
		if err == nil && len(b) < 4096 {
			f.Add(append([]byte{fuzzSealed}, b[len(wireMagic)+1:len(b)-4]...))
			f.Add(append([]byte{fuzzRaw}, b...))
		}
	}
	f.Add([]byte("\x01" + wireMagic + "\x01"))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 {
			return
		}
		b := in[1:]
		if in[0]&1 == fuzzSealed {
			b = sealShared(b)
		}
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

// sealShared writes the guards of a shared value around body: the magic
// and version before it, the CRC-32C of both and body after.
func sealShared(body []byte) []byte {
	b := make([]byte, 0, len(wireMagic)+1+len(body)+4)
	b = append(b, wireMagic...)
	b = append(b, wireVersion)
	b = append(b, body...)
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// A sealed body is the value encode writes, so the fuzzer's mutations of
// a sealed seed reach the decoder's body; the same mutation of a raw
// value dies at the checksum.
func TestFuzzDecodeSharedSealsTheBody(t *testing.T) {
	for name, s := range wireEntries() {
		b, err := s.encode()
		require.NoError(t, err, name)
		body := b[len(wireMagic)+1 : len(b)-4]
		assert.Equal(t, b, sealShared(body), name)

		// A body whose origin is rewritten in place decodes sealed: the
		// decoder reads past the guards to the origin and beyond.
		renamed := bytes.Replace(bytes.Clone(body), []byte("a.test"), []byte("b.test"), 1)
		_, err = decodeShared(sealShared(renamed), "http://b.test")
		require.NoError(t, err, "%s: a sealed body decodes", name)
		raw := bytes.Clone(b)
		copy(raw[len(wireMagic)+1:], renamed)
		_, err = decodeShared(raw, "http://b.test")
		assert.ErrorIs(t, err, errCorrupt, "%s: the same change unsealed fails the checksum", name)
	}
}

// wireV1Golden is wireEntries()["failing with copy"] as encoded before
// the Content-Usage fields were carried.
const wireV1Golden = "" +
	"46524254010d687474703a2f2f612e74657374038080ede8acdef5c6340318687474703a2f2f612e746573742f726f62" +
	"6f74732e74787416687474703a2f2f612e746573742f7265616c2e74787401c80103010000008080a8dde68cf4c63480" +
	"80ede8acdef5c6340004227631221d5475652c203031204a616e20323033302030303a30303a303020474d540b446973" +
	"616c6c6f773a202f18687474703a2f2f612e746573742f726f626f74732e74787418687474703a2f2f612e746573742f" +
	"726f626f74732e74787400f70302040000008080b2f4f2aff7c63480e0ecf8b1b3f7c6348090d8c69e05000000e66444" +
	"3f"

// An entry written before the Content-Usage fields still decodes, and an
// entry without them is written byte for byte as it was.
func TestWireContentUsageCompatible(t *testing.T) {
	old, err := hex.DecodeString(wireV1Golden)
	require.NoError(t, err)
	want := wireEntries()["failing with copy"]
	got, err := decodeShared(old, want.origin)
	require.NoError(t, err, "an entry of the earlier layout")
	assertSameEntry(t, want, got, "earlier layout")
	b, err := want.encode()
	require.NoError(t, err)
	assert.Equal(t, old, b, "an entry without Content-Usage is written as before")

	with, err := wireEntries()["content usage"].encode()
	require.NoError(t, err)
	s, err := decodeShared(with, "http://a.test")
	require.NoError(t, err)
	assert.Equal(t, "train-ai=n, search=y", s.good.contentUsage.String())
}

// usageEntry returns the wire form of an entry with one good copy whose
// Content-Usage field is written as raw, checksum right, whatever raw is.
func usageEntry(t *testing.T, raw string) []byte {
	t.Helper()
	b, err := (&sharedEntry{origin: "http://a.test", good: goodCopy("Disallow: /p\n")}).encode()
	require.NoError(t, err)
	body := b[:len(b)-4]
	flags := len(wireMagic) + 1 + 1 + len("http://a.test") + 1 + 1 // magic, version, origin, failures, failing-since
	require.Equal(t, byte(flagGood), body[flags])
	body = bytes.Clone(body)
	body[flags] |= flagUsage
	body = appendString(body, raw)
	return resum(append(body, 0, 0, 0, 0))
}

// A hostile Content-Usage field is refused: one over maxWireContentUsage,
// one that claims more bytes than the value holds, and one that does not
// parse. One at the limit is read.
func TestWireContentUsageLimit(t *testing.T) {
	at := "train-ai=n" + strings.Repeat(", x=y", (maxWireContentUsage-len("train-ai=n"))/len(", x=y"))
	at += strings.Repeat("z", maxWireContentUsage-len(at)) // the last key grows to the limit
	require.Len(t, at, maxWireContentUsage)
	s, err := decodeShared(usageEntry(t, at), "http://a.test")
	require.NoError(t, err, "a field at the limit")
	assert.Equal(t, usage.No, s.good.contentUsage.Get(usage.TrainAI))

	for name, raw := range map[string]string{
		"over the limit":   at + "z",
		"hostile size":     strings.Repeat("x=y, ", 200_000) + "train-ai=n",
		"does not parse":   "train-ai=n;;",
		"not a dictionary": "\x00\xff",
	} {
		_, err := decodeShared(usageEntry(t, raw), "http://a.test")
		assert.ErrorIs(t, err, errCorrupt, name)
	}
	// A length that claims more than the value holds.
	b, err := (&sharedEntry{origin: "http://a.test", good: goodCopy("")}).encode()
	require.NoError(t, err)
	body := bytes.Clone(b[:len(b)-4])
	body[len(wireMagic)+1+1+len("http://a.test")+1+1] |= flagUsage
	body = binary.AppendUvarint(body, maxWireContentUsage)
	_, err = decodeShared(resum(append(append(body, "train-ai=n"...), 0, 0, 0, 0)), "http://a.test")
	assert.ErrorIs(t, err, errCorrupt, "a length past the value's end")
}

// A Result's Content-Usage field goes into its shared copy and comes back
// in the Result rebuilt from it.
func TestWireContentUsageResult(t *testing.T) {
	r := &Result{URL: "http://a.test/robots.txt", FinalURL: "http://a.test/robots.txt", Status: 404,
		Policy: FullAllow, Reason: ReasonUnavailable, FetchedAt: wireT0, Expires: wireT0.Add(time.Hour)}
	r.ContentUsage, _ = usage.ParsePreference("train-ai=n")
	b, err := (&sharedEntry{origin: "http://a.test", good: copyOf(r, validators{}, nil)}).encode()
	require.NoError(t, err)
	s, err := decodeShared(b, "http://a.test")
	require.NoError(t, err)
	got := (&Cache{}).rebuild(s.good, nil)
	assert.Equal(t, r.ContentUsage, got.ContentUsage)
}

// A node that takes another's shared entry sees the Content-Usage field of
// the response the other fetched, as the fetching node does.
func TestSharedContentUsageAcrossNodes(t *testing.T) {
	s := serve(t, text(200, rules, "Cache-Control", "max-age=600", "Content-Usage", "train-ai=n, search=y"))
	store := NewMemoryStore()
	clock := newFakeClock()
	a := node(t, s.Listener.Addr().String(), clock, store, CacheOptions{})
	b := node(t, s.Listener.Addr().String(), clock, store, CacheOptions{})
	ra := getOK(t, a, "http://site.test/x")
	rb := getOK(t, b, "http://site.test/y")
	require.Equal(t, int64(1), b.Stats().SharedHits, "b took a's entry")
	assert.Equal(t, "train-ai=n, search=y", ra.ContentUsage.String())
	assert.Equal(t, ra.ContentUsage, rb.ContentUsage)
}
