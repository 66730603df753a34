package fetch

import (
	"math"
	"time"
)

// A shared entry that decodes is well formed, not trustworthy: whatever
// can write the Store's keys can write one. Before adopting an entry, a
// node bounds it by what this cache could have written itself:
//
//   - A fetch time more than maxClockSkew in the future is refused.
//   - A good copy's expiry is cut to its fetch time plus
//     Freshness.MaxLifetime; a failure's to its fetch time plus
//     Freshness.MaxRetry.
//   - n failures span at most n-1 maxFailureGaps, since each failure's
//     entry outlives its retry only by StoreRetain; an older failing-since
//     is moved forward to that bound.
//
// So a forged entry can hold an origin no longer than an entry this cache
// wrote could, and cannot claim an outage the Store could not have seen.

// maxClockSkew is how far ahead of this node's clock another node's may
// run.
const maxClockSkew = time.Minute

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
// one history in the Store: the failure's entry lasts until its retry plus
// StoreRetain, the next fetch may take the lease time, and its node's
// clock may run maxClockSkew ahead.
func (c *Cache) maxFailureGap() time.Duration {
	return c.fc.freshness.withDefaults().MaxRetry + max(c.opts.StoreRetain, 0) + c.leaseTime() + maxClockSkew
}

// maxFailureSpan saturates rather than overflow on a forged count.
func (c *Cache) maxFailureSpan(failures int) time.Duration {
	gaps := int64(max(failures-1, 0))
	gap := int64(c.maxFailureGap())
	if gaps > 0 && gap > math.MaxInt64/gaps {
		return math.MaxInt64
	}
	return time.Duration(gaps * gap)
}
