package fetch

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allow404 is a shared good copy: a 404, so everything is allowed.
func allow404(fetched, expires time.Time) *sharedCopy {
	return &sharedCopy{url: "http://site.test/robots.txt", status: 404, policy: FullAllow,
		reason: ReasonUnavailable, fetchedAt: fetched, expires: expires}
}

// failed500 is a shared failure: a 500, so everything is disallowed.
func failed500(fetched, expires time.Time) *sharedCopy {
	return &sharedCopy{url: "http://site.test/robots.txt", status: 500, policy: FullDisallow,
		reason: ReasonServerError, errKind: errKindBadStatus, errMsg: "500", fetchedAt: fetched, expires: expires}
}

// An adopted entry is bounded by what the cache could have written: no
// fetch time past now and maxClockSkew, no lifetime past MaxLifetime or
// MaxRetry, no failure history longer than its failures could carry.
func TestSharedBounds(t *testing.T) {
	clock := newFakeClock()
	now := clock.Now()
	c := NewCache(&Fetcher{Clock: clock}, CacheOptions{Store: NewMemoryStore()})
	gap := c.maxFailureGap()
	year := 365 * 24 * time.Hour
	for _, tc := range []struct {
		name                 string
		entry                sharedEntry
		refused              bool
		goodExpires          time.Time
		failExpires, failing time.Time
	}{
		{name: "a good copy within its lifetime",
			entry:       sharedEntry{good: allow404(now, now.Add(time.Hour))},
			goodExpires: now.Add(time.Hour)},
		{name: "a good copy for 100 years",
			entry:       sharedEntry{good: allow404(now, now.Add(100*year))},
			goodExpires: now.Add(DefaultMaxLifetime)},
		{name: "a good copy fetched within the skew allowance",
			entry:       sharedEntry{good: allow404(now.Add(maxClockSkew), now.Add(100*year))},
			goodExpires: now.Add(maxClockSkew + DefaultMaxLifetime)},
		{name: "a good copy fetched past the skew allowance",
			entry:   sharedEntry{good: allow404(now.Add(maxClockSkew+time.Nanosecond), now.Add(time.Hour))},
			refused: true},
		{name: "a failure fetched in 2100",
			entry: sharedEntry{failure: failed500(now.Add(70*year), now.Add(71*year)),
				failures: 1, failingSince: now.Add(-30 * year)},
			refused: true},
		{name: "one failure, failing for 30 years",
			entry: sharedEntry{failure: failed500(now, now.Add(100*year)),
				failures: 1, failingSince: now.Add(-30 * year)},
			failExpires: now.Add(DefaultMaxRetry), failing: now},
		{name: "three failures, failing for 30 years",
			entry: sharedEntry{failure: failed500(now, now.Add(time.Minute)),
				failures: 3, failingSince: now.Add(-30 * year)},
			failExpires: now.Add(time.Minute), failing: now.Add(-2 * gap)},
		{name: "three failures within two gaps",
			entry: sharedEntry{failure: failed500(now, now.Add(time.Minute)),
				failures: 3, failingSince: now.Add(-2*gap + time.Hour)},
			failExpires: now.Add(time.Minute), failing: now.Add(-2*gap + time.Hour)},
		{name: "failures past counting",
			entry: sharedEntry{failure: failed500(now, now.Add(time.Minute)),
				failures: maxWireFailures, failingSince: now.Add(-30 * year)},
			failExpires: now.Add(time.Minute), failing: now.Add(-30 * year)},
	} {
		s := tc.entry
		err := c.bound(&s)
		if tc.refused {
			assert.ErrorIs(t, err, errCorrupt, tc.name)
			continue
		}
		require.NoError(t, err, tc.name)
		if s.good != nil {
			assert.Equal(t, tc.goodExpires, s.good.expires, tc.name)
		}
		if s.failure != nil {
			assert.Equal(t, tc.failExpires, s.failure.expires, tc.name)
			assert.Equal(t, tc.failing, s.failingSince, tc.name)
		}
	}
}

// The wire format refuses a failure history that begins after its latest
// failure.
func TestWireRefusesFailingSinceAfterTheFailure(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		since time.Time
		ok    bool
	}{{now.Add(-time.Hour), true}, {now, true}, {now.Add(time.Nanosecond), false}} {
		b, err := (&sharedEntry{origin: "http://site.test", failure: failed500(now, now.Add(time.Minute)),
			failures: 1, failingSince: tc.since}).encode()
		require.NoError(t, err)
		_, err = decodeShared(b, "http://site.test")
		assert.Equal(t, tc.ok, err == nil, "failing since %v", tc.since.Sub(now))
	}
}

// plant stores a shared entry at the origin's key, as a forger would.
func plant(t *testing.T, store Store, s *sharedEntry) {
	t.Helper()
	b, err := s.encode()
	require.NoError(t, err)
	key := storeKey(s.origin)
	tok, err := store.Lease(t.Context(), key, time.Minute)
	require.NoError(t, err)
	require.NoError(t, store.Put(t.Context(), key, tok, b, 1000*time.Hour))
}

// Forged entries, well formed: a "404, allow all" expiring in 100 years
// serves no longer than MaxLifetime; a failure dated in the future is a
// bad value; an outage claimed since long ago by one failure is one
// failure long, not the 30-day rule's "allow all".
func TestSharedForgedEntriesAreBounded(t *testing.T) {
	const origin = "http://site.test"
	year := 365 * 24 * time.Hour
	t.Run("a good copy for 100 years", func(t *testing.T) {
		var cnt counter
		s := serve(t, cnt.wrap(text(200, "User-agent: *\nDisallow: /\n")))
		clock := newFakeClock()
		store := NewMemoryStore()
		plant(t, store, &sharedEntry{origin: origin, good: allow404(clock.Now(), clock.Now().Add(100*year))})
		c := node(t, s.Listener.Addr().String(), clock, store, CacheOptions{})
		res := getOK(t, c, origin+"/x")
		assert.Equal(t, FullAllow, res.Policy, "served while it could have been true")
		assert.Equal(t, clock.Now().Add(DefaultMaxLifetime).UnixNano(), res.Expires.UnixNano())
		clock.Advance(DefaultMaxLifetime)
		res = getOK(t, c, origin+"/x")
		assert.Equal(t, 1, cnt.get(""), "fetched once its lifetime is over")
		assert.False(t, res.Agent("bot").Allowed("/x"), "the real rules")
	})
	t.Run("a failure dated in the future", func(t *testing.T) {
		var cnt counter
		s := serve(t, cnt.wrap(text(200, "User-agent: *\nDisallow: /\n")))
		clock := newFakeClock()
		now := clock.Now()
		store := NewMemoryStore()
		plant(t, store, &sharedEntry{origin: origin, failures: 1, failingSince: now.Add(-30 * year),
			failure: failed500(now.Add(70*year), now.Add(70*year+time.Hour))})
		c := node(t, s.Listener.Addr().String(), clock, store, CacheOptions{})
		res := getOK(t, c, origin+"/x")
		assert.Equal(t, 1, cnt.get(""), "refused, and fetched")
		assert.False(t, res.Agent("bot").Allowed("/x"))
		st := c.Stats()
		assert.Equal(t, int64(1), st.StoreCorrupt)
		assert.Equal(t, int64(1), st.SharedWrites, "overwritten")
	})
	t.Run("one failure since long ago", func(t *testing.T) {
		var cnt counter
		s := serve(t, cnt.wrap(text(200, "User-agent: *\nDisallow: /\n")))
		clock := newFakeClock()
		now := clock.Now()
		store := NewMemoryStore()
		plant(t, store, &sharedEntry{origin: origin, failures: 1, failingSince: now.Add(-30 * year),
			failure: failed500(now, now.Add(time.Hour))})
		c := node(t, s.Listener.Addr().String(), clock, store, CacheOptions{})
		res := getOK(t, c, origin+"/x")
		assert.Equal(t, FullDisallow, res.Policy, "a failure of one fetch, not 30 years unreachable")
		assert.Equal(t, now.UnixNano(), res.FailingSince.UnixNano())
	})
}

// foreignStore reports a foreign value on every Get and takes over a
// foreign lease on every Lease, as a Store does that found junk there.
type foreignStore struct{ Store }

func (f foreignStore) Get(ctx context.Context, key string) ([]byte, error) {
	return nil, ErrForeignValue
}

func (f foreignStore) Lease(ctx context.Context, key string, ttl time.Duration) (string, error) {
	token, err := f.Store.Lease(ctx, key, ttl)
	if err != nil || token == "" {
		return token, err
	}
	return token, ErrForeignValue
}

// A foreign value the Store set aside is counted once per refresh, is no
// Store failure, and the refresh goes on: the node fetches and writes.
func TestSharedForeignValueIsCountedNotAFailure(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, "User-agent: *\nDisallow: /\n")))
	c := node(t, s.Listener.Addr().String(), newFakeClock(), foreignStore{NewMemoryStore()}, CacheOptions{})
	res := getOK(t, c, "http://site.test/x")
	assert.False(t, res.Agent("bot").Allowed("/x"))
	st := c.Stats()
	assert.Equal(t, 1, cnt.get(""))
	assert.Equal(t, int64(1), st.StoreCorrupt)
	assert.Zero(t, st.StoreErrors)
	assert.Equal(t, int64(1), st.SharedWrites)
}
