package api

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots"
)

// A request's work is counted in 64 bits and saturates: no count wraps
// to a small one on a 32-bit build, however many URLs of whatever length.
func TestRequestWorkSaturates(t *testing.T) {
	assert.Equal(t, int64(math.MaxInt64), mul(math.MaxInt64/2, 3))
	assert.Equal(t, int64(math.MaxInt64), add(math.MaxInt64-1, 2))
	assert.Equal(t, int64(6), mul(2, 3))
	w := robots.Parse([]byte("User-agent: *\nDisallow: /*a*b\n"), ParseOptions(robots.Google)...).Agent().Work()
	long := string(make([]byte, 1<<20))
	urls := make([]string, MaxURLs)
	for i := range urls {
		urls[i] = long
	}
	one := CheckWork(w, 0, urls[:1], true)
	all := CheckWork(w, 0, urls, true)
	assert.Greater(t, all, int64(math.MaxUint32), "past what 32 bits hold")
	assert.GreaterOrEqual(t, all, one*int64(MaxURLs)/2)
	assert.Positive(t, LintWork(math.MaxInt))
	assert.Positive(t, AnswerWork(MaxRequestBytes))
	assert.Less(t, FetchAnswerWork(robots.MaxBytes), AnswerWork(robots.MaxBytes), "a fetch's answer is the body, not its bound")
}

// The weights are the calibrated ones (docs/serve.md: BenchmarkWorkBound,
// BenchmarkServeWorstAdmitted measure them).
func TestRequestWorkWeights(t *testing.T) {
	assert.Equal(t, 32, ParseByteWork)
	assert.Equal(t, 4_000, URLWork)
	assert.Equal(t, 64, URLByteWork)
	assert.Equal(t, 2, AnswerByteWork)
	assert.Equal(t, 1_400, LintByteWork)
	assert.Equal(t, 100_000_000, LintBudgetWork)
	assert.Less(t, add(LintWork(MaxRequestBytes), AnswerWork(MaxRequestBytes)), int64(1_000_000_000),
		"the largest lint is admitted")
	assert.Equal(t, 512, ReportByteWork)
	assert.Equal(t, int64(32*500<<10), ParseWork(500<<10))
}
