package fetch

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDelayPastTheLargestIsTheLongest: a site that asks for a delay too
// long for a Duration gets the longest delay, capped by the pacer like any
// other long one; before, 9223372036.854775807 seconds wrapped to a
// negative delay that overrode an earlier Crawl-delay: 5, and larger
// values were ignored, so asking for more gave less.
func TestDelayPastTheLargestIsTheLongest(t *testing.T) {
	c := NewChecker(NewCache(fetcher(t, nil), CacheOptions{}))
	for _, lines := range []string{
		"Crawl-delay: 5\nCrawl-delay: 9223372036.854775807\n",
		"Crawl-delay: 5\nCrawl-delay: 9223372037\n",
		"Crawl-delay: 99999999999999999999999999\n",
		"Request-rate: 1/9223372037s\n",
		"Request-rate: 1/2562048h\n",
	} {
		s := serve(t, text(200, "User-agent: *\nDisallow: /private\n"+lines))
		v, err := c.Decide(t.Context(), "ExampleBot", s.URL+"/a")
		require.NoError(t, err)
		assert.Equal(t, time.Duration(math.MaxInt64), v.Delay(), lines)

		clock := &stepClock{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
		times := goTimes(t, newPacer(DefaultMaxDelay, clock), clock, 2, v.Delay())
		assert.Equal(t, DefaultMaxDelay, times[1].Sub(times[0]), lines)
	}
}
