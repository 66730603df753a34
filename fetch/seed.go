package fetch

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/fastrobots/robots"
)

var errNoResponse = errors.New("fetch: no response")

// Put records in the cache what a fetch of the robots.txt of pageURL's
// origin got at fetchedAt: a response with status and body (read only for
// a 2xx), or, with status 0, a network failure. It is for jobs that stored
// robots.txt files earlier and check through the cache:
//
//   - the answer is classified as Fetcher classifies a response and a 2xx
//     body parsed with the fetcher's ParseOptions and MaxBytes;
//   - it holds from fetchedAt as a response without Cache-Control does
//     (Freshness.Lifetime), a failure until its retry; after that, Get
//     fetches the origin, unless the cache is Offline, which serves it
//     for good (Stale when it is already past its expiry);
//   - a failure starts or continues the origin's outage, under the
//     MaxStale and Unreachable rules;
//   - the entry is charged against MaxMemory and evicted as any other.
//
// An answer older than the origin's latest fetch (or Put) is ignored. Put
// writes nothing to a Store. It returns what the cache serves for the
// origin afterwards; the error is non-nil when pageURL has no origin or is
// not http or https.
func (c *Cache) Put(pageURL string, status int, body []byte, fetchedAt time.Time) (*Result, error) {
	origin, err := robots.Origin(pageURL)
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(origin, "http://") && !strings.HasPrefix(origin, "https://") {
		return nil, fmt.Errorf("%w: %q", ErrUnsupportedURL, pageURL)
	}
	res := c.fc.stored(origin+"/robots.txt", status, body, fetchedAt)
	if c.opts.Offline && !c.fc.now().Before(res.Expires) {
		res.Stale = true // served past the time a crawler would fetch again
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.load(origin); e != nil && e.served() != nil && fetchedAt.Before(e.latest()) {
		return e.served(), nil
	}
	e := c.entryFor(origin, res.URL)
	if !res.Reason.Failed() {
		e.valid, e.goodSum, e.hasGoodSum = validators{}, 0, false
	}
	served := c.record(e, res)
	c.resize(e)
	return served, nil
}

// stored returns the Result fetch would have made of the response.
func (f *fetchConfig) stored(robotsURL string, status int, body []byte, fetchedAt time.Time) *Result {
	res := &Result{URL: robotsURL, FinalURL: robotsURL, Status: status, FetchedAt: fetchedAt}
	policy, why := robots.StatusPolicy(status)
	res.Policy, res.Reason = policy, why
	switch {
	case policy == Conditional:
		res.Robots = robots.Parse(body, f.parse...)
		res.Bytes, res.Truncated = res.Robots.BodyBytes(), res.Robots.Truncated()
		res.agents = &agentCache{}
	case why == ReasonRedirects:
		res.Err = fmt.Errorf("%w: %d not followed", ErrBadRedirect, status)
	case why == ReasonNetwork && status == 0:
		res.Err = errNoResponse
	case why == ReasonNetwork:
		res.Err = fmt.Errorf("%w: %d", ErrBadStatus, status)
	}
	if why.Failed() {
		res.Expires = fetchedAt.Add(f.freshness.RetryAfter(statusOf(res), 0, 1))
	} else {
		res.Expires = fetchedAt.Add(f.freshness.LifetimeOf(http.Header{}))
	}
	return res
}
