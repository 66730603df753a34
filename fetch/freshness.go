package fetch

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Clock tells the time. Fetcher and Cache read it for every timestamp and
// expiry, so tests can move time on.
type Clock interface{ Now() time.Time }

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// SystemClock returns the real clock, the default of Fetcher.Clock.
func SystemClock() Clock { return systemClock{} }

// Defaults of Freshness.
const (
	DefaultLifetime    = 24 * time.Hour
	DefaultMinLifetime = time.Minute
	DefaultMaxLifetime = 24 * time.Hour
	DefaultRetry       = 10 * time.Minute
	DefaultRetry503    = time.Minute
	DefaultMaxRetry    = 2 * time.Hour
)

// Freshness says how long answers hold. Zero and negative fields take the
// defaults: none of these durations may go unbounded.
//
// A definite answer (2xx, 4xx, redirects that lead nowhere) holds for
// Lifetime unless the response's Cache-Control says otherwise:
//
//   - max-age=N (quoted or not) holds for N seconds, kept within
//     [MinLifetime, MaxLifetime].
//   - no-store and no-cache (without a field list) hold for MinLifetime:
//     a crawler needs the rules to crawl at all.
//   - A malformed max-age is ignored. When max-age appears more than
//     once, the first counts.
//   - s-maxage, Expires and Age are not read.
//
// A failure (5xx, 429, network) is retried after Retry, or Retry503 for a
// 503; each further consecutive failure doubles the wait, up to MaxRetry.
// A Retry-After header (seconds or an HTTP date) replaces that wait, kept
// within [Retry503, MaxRetry].
type Freshness struct {
	Lifetime    time.Duration // default 24 h (Google caches for up to 24 h)
	MinLifetime time.Duration // default 1 min
	MaxLifetime time.Duration // default 24 h
	Retry       time.Duration // default 10 min
	Retry503    time.Duration // default 1 min
	MaxRetry    time.Duration // default 2 h
}

func (f Freshness) withDefaults() Freshness {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&f.Lifetime, DefaultLifetime)
	def(&f.MinLifetime, DefaultMinLifetime)
	def(&f.MaxLifetime, DefaultMaxLifetime)
	def(&f.Retry, DefaultRetry)
	def(&f.Retry503, DefaultRetry503)
	def(&f.MaxRetry, DefaultMaxRetry)
	if f.MaxLifetime < f.MinLifetime {
		f.MaxLifetime = f.MinLifetime
	}
	if f.MaxRetry < f.Retry503 {
		f.MaxRetry = f.Retry503
	}
	return f
}

// LifetimeOf returns how long a definite answer whose response carried
// header h holds.
func (f Freshness) LifetimeOf(h http.Header) time.Duration {
	f = f.withDefaults()
	cc := parseCacheControl(h)
	switch {
	case cc.noStore || cc.noCache:
		return f.MinLifetime
	case cc.maxAge >= 0:
		return clamp(cc.maxAge, f.MinLifetime, f.MaxLifetime)
	}
	return clamp(f.Lifetime, f.MinLifetime, f.MaxLifetime)
}

// RetryAfter returns how long to wait before fetching again after the
// failures-th consecutive failure (1 for the first), whose status was
// status (0 for a network failure) and whose Retry-After header asked for
// retryAfter (0: none).
func (f Freshness) RetryAfter(status int, retryAfter time.Duration, failures int) time.Duration {
	f = f.withDefaults()
	if retryAfter > 0 {
		return clamp(retryAfter, f.Retry503, f.MaxRetry)
	}
	d := f.Retry
	if status == http.StatusServiceUnavailable {
		d = f.Retry503
	}
	for i := 1; i < failures && d < f.MaxRetry; i++ {
		d *= 2
	}
	return clamp(d, 0, f.MaxRetry)
}

func clamp(d, lo, hi time.Duration) time.Duration {
	return max(lo, min(d, hi))
}

type cacheControl struct {
	maxAge  time.Duration // -1 when absent or malformed
	noStore bool
	noCache bool
}

func parseCacheControl(h http.Header) cacheControl {
	cc := cacheControl{maxAge: -1}
	seenMaxAge := false
	for _, line := range h.Values("Cache-Control") {
		for _, d := range splitDirectives(line) {
			name, value, hasValue := strings.Cut(d, "=")
			name = strings.ToLower(strings.TrimSpace(name))
			value = strings.TrimSpace(value)
			switch name {
			case "no-store":
				cc.noStore = true
			case "no-cache":
				// no-cache="field" restricts only those header fields.
				if !hasValue {
					cc.noCache = true
				}
			case "max-age":
				if seenMaxAge {
					continue
				}
				seenMaxAge = true
				if d, ok := parseDeltaSeconds(unquote(value)); ok {
					cc.maxAge = d
				}
			}
		}
	}
	return cc
}

// splitDirectives splits a Cache-Control value at the commas outside
// quoted strings.
func splitDirectives(s string) []string {
	var out []string
	quoted, start := false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			quoted = !quoted
		case c == '\\' && quoted:
			i++
		case c == ',' && !quoted:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

// parseDeltaSeconds saturates a value too large for a Duration, as RFC
// 9111 section 1.2.2 asks.
func parseDeltaSeconds(s string) (time.Duration, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n > math.MaxInt64/uint64(time.Second) {
		return time.Duration(math.MaxInt64), true
	}
	return time.Duration(n) * time.Second, true
}

// parseRetryAfter reads an HTTP date relative to the response's Date, when
// present. It returns 0 when there is none or it is malformed or past.
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if d, ok := parseDeltaSeconds(v); ok {
		return d
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0
	}
	if date, err := http.ParseTime(h.Get("Date")); err == nil {
		now = date
	}
	return max(t.Sub(now), 0)
}
