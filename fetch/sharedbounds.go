package fetch

import (
	"math"
	"time"
)

// A shared entry that decodes is well formed, not true: whatever can
// write the Store's keys can write one. Before a node adopts an entry it
// bounds what the entry may make it do (bound), by what this cache could
// have written itself:
//
//   - A fetch time (of either copy) more than maxClockSkew after this
//     node's now is a bad value: no fetch has come yet at that time.
//   - A good copy's expiry is at most its fetch time plus the longest
//     lifetime this cache gives a definite answer (Freshness.MaxLifetime,
//     24 h by default); a failure's, its fetch time plus the longest retry
//     (Freshness.MaxRetry, 2 h). A later expiry is cut back to it.
//   - A failure history is at most as long as its failures could have
//     carried it through the Store: each write of a failure's entry lasts
//     until its retry and StoreRetain after (maxFailureGap), so n failures
//     span at most n-1 such gaps. An older failing-since is moved forward
//     to that bound. (The wire format already refuses a failing-since
//     after the latest failure.)
//
// So a forged entry can hold an origin no longer than an entry this cache
// wrote could, and cannot claim an outage the Store could not have seen.

// maxClockSkew is how far ahead of this node's clock another node's may
// run: a fetch time later than now plus maxClockSkew is refused.
const maxClockSkew = time.Minute

// bound refuses an entry dated in the future (errCorrupt) and cuts its
// expiries and failure history to what this cache could have written.
func (c *Cache) bound(s *sharedEntry) error {
	fresh := c.fc.freshness.withDefaults()
	horizon := c.fc.now().Add(maxClockSkew)
	for _, cp := range []*sharedCopy{s.good, s.failure} {
		if cp != nil && cp.fetchedAt.After(horizon) {
			return errCorrupt
		}
	}
	if s.good != nil {
		s.good.expires = minTime(s.good.expires, s.good.fetchedAt.Add(fresh.MaxLifetime))
	}
	if s.failure != nil {
		s.failure.expires = minTime(s.failure.expires, s.failure.fetchedAt.Add(fresh.MaxRetry))
		earliest := s.failure.fetchedAt.Add(-c.maxFailureSpan(s.failures))
		if s.failingSince.Before(earliest) {
			s.failingSince = earliest
		}
	}
	return nil
}

// maxFailureGap is the longest time between two consecutive failures of
// one history in the Store: the entry a failure writes lasts until its
// retry (at most Freshness.MaxRetry) and StoreRetain after; the next
// fetch may take the lease time to come back, and its node's clock may
// run maxClockSkew ahead.
func (c *Cache) maxFailureGap() time.Duration {
	return c.fc.freshness.withDefaults().MaxRetry + max(c.opts.StoreRetain, 0) + c.leaseTime() + maxClockSkew
}

// maxFailureSpan is the longest history failures consecutive failures can
// have: failures-1 gaps, saturating.
func (c *Cache) maxFailureSpan(failures int) time.Duration {
	gaps := int64(max(failures-1, 0))
	gap := int64(c.maxFailureGap())
	if gaps > 0 && gap > math.MaxInt64/gaps {
		return math.MaxInt64
	}
	return time.Duration(gaps * gap)
}
