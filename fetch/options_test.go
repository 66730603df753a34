package fetch

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots"
)

// Every field of CacheOptions: zero takes the default, and a positive or
// negative value is kept for the code that reads it (negative: no limit,
// or none for StoreRetry and StoreRetain; their own tests show what that
// does).
func TestCacheOptionsDefaults(t *testing.T) {
	d := CacheOptions{}.withDefaults()
	assert.Equal(t, CacheOptions{
		MaxMemory: DefaultMaxMemory, MaxStale: DefaultMaxStale, Unreachable: DefaultUnreachable,
		FetchTimeout: DefaultTimeout, StoreTimeout: DefaultStoreTimeout,
		StoreRetry: DefaultStoreRetry, StoreRetain: DefaultStoreRetain,
	}, d)
	assert.Equal(t, int64(128<<20), int64(DefaultMaxMemory))
	assert.Equal(t, 24*time.Hour, DefaultMaxStale)
	assert.Equal(t, 30*24*time.Hour, DefaultUnreachable)
	assert.Equal(t, 100*time.Millisecond, DefaultStoreTimeout)
	assert.Equal(t, 5*time.Second, DefaultStoreRetry)
	for _, v := range []time.Duration{-1, 7 * time.Second} {
		o := CacheOptions{
			MaxMemory: int64(v), MaxStale: v, Unreachable: v, FetchTimeout: v,
			StoreTimeout: v, StoreRetry: v, StoreRetain: v,
		}
		assert.Equal(t, o, o.withDefaults(), "%v is kept", v)
	}
}

// Every limit of a Fetcher: zero takes the default, a positive value is
// the limit, a negative one no limit; config is where they are filled in.
func TestFetcherConfigDefaults(t *testing.T) {
	zero := (&Fetcher{}).config()
	assert.Equal(t, DefaultTimeout, zero.timeout)
	assert.Equal(t, robots.MaxBytes, zero.maxBytes)
	assert.Equal(t, DefaultMaxRedirects, zero.maxRedirects)
	assert.Equal(t, SystemClock(), zero.clock)
	assert.Equal(t, 30*time.Second, DefaultTimeout)
	assert.Equal(t, 5, DefaultMaxRedirects)

	set := (&Fetcher{Timeout: time.Second, MaxBytes: 100, MaxRedirects: 2}).config()
	assert.Equal(t, time.Second, set.timeout)
	assert.Equal(t, 100, set.maxBytes)
	assert.Equal(t, 2, set.maxRedirects)

	none := (&Fetcher{Timeout: -1, MaxBytes: -1, MaxRedirects: -1}).config()
	assert.Negative(t, none.timeout)
	assert.Negative(t, none.maxBytes)
	assert.Negative(t, none.maxRedirects)
}

// SystemClock is the real clock, and the default of Fetcher.Clock.
func TestSystemClock(t *testing.T) {
	before := time.Now()
	now := SystemClock().Now()
	assert.False(t, now.Before(before))
	assert.False(t, time.Now().Before(now))
	clock := newFakeClock()
	assert.Equal(t, Clock(clock), (&Fetcher{Clock: clock}).config().clock, "a test's clock is the fetcher's")
}

// Every field of Freshness: zero and negative take the default, a positive
// value is kept (within the bounds it sets; TestFreshnessBounds).
func TestFreshnessDefaults(t *testing.T) {
	want := Freshness{
		Lifetime: DefaultLifetime, MinLifetime: DefaultMinLifetime, MaxLifetime: DefaultMaxLifetime,
		Retry: DefaultRetry, Retry503: DefaultRetry503, MaxRetry: DefaultMaxRetry,
	}
	assert.Equal(t, want, Freshness{}.withDefaults())
	assert.Equal(t, want, Freshness{Lifetime: -1, MinLifetime: -1, MaxLifetime: -1, Retry: -1, Retry503: -1, MaxRetry: -1}.withDefaults())
	set := Freshness{Lifetime: 3 * time.Hour, MinLifetime: 2 * time.Minute, MaxLifetime: 4 * time.Hour,
		Retry: 20 * time.Minute, Retry503: 2 * time.Minute, MaxRetry: 3 * time.Hour}
	assert.Equal(t, set, set.withDefaults())
}
