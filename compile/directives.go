package compile

import (
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The directives below are not part of RFC 9309 and change no verdict;
// Google ignores them. The parsers accept what other crawlers' documentation
// and the common open-source parsers accept, and report anything else as
// invalid rather than guess.
const (
	keyCrawlDelay  = "crawl-delay"
	keyRequestRate = "request-rate"
	keyVisitTime   = "visit-time"
	keyHost        = "host"
	keyCleanParam  = "clean-param"
)

// CrawlDelay returns the value of the group's last valid Crawl-delay line,
// as crawler-commons and Python's urllib.robotparser keep it. ok is false
// when the group has none.
func (g *Group) CrawlDelay() (d time.Duration, ok bool) { return CrawlDelayOf(g.Extras) }

// RequestRate returns the value of the group's last valid Request-rate
// line. ok is false when the group has none.
func (g *Group) RequestRate() (r RequestRate, ok bool) { return RequestRateOf(g.Extras) }

// VisitTime returns the group's visiting window: the value of its last
// valid Visit-time line. ok is false when the group has none.
func (g *Group) VisitTime() (w VisitTime, ok bool) { return VisitTimeOf(g.Extras) }

// CrawlDelayOf is Group.CrawlDelay of a group whose extras are ds, in the
// caller's type.
func CrawlDelayOf[D DirectiveFields](ds []D) (time.Duration, bool) {
	return lastValid(ds, keyCrawlDelay, ParseCrawlDelay)
}

// RequestRateOf is Group.RequestRate of a group whose extras are ds.
func RequestRateOf[D DirectiveFields](ds []D) (RequestRate, bool) {
	return lastValid(ds, keyRequestRate, ParseRequestRate)
}

// VisitTimeOf is Group.VisitTime of a group whose extras are ds.
func VisitTimeOf[D DirectiveFields](ds []D) (VisitTime, bool) {
	return lastValid(ds, keyVisitTime, ParseVisitTime)
}

func lastValid[D DirectiveFields, T any](ds []D, key string, parse func(string) (T, bool)) (v T, ok bool) {
	for i := len(ds) - 1; i >= 0; i-- {
		d := Directive(ds[i])
		if !strings.EqualFold(d.Key, key) {
			continue
		}
		if v, ok := parse(d.Value); ok {
			return v, true
		}
	}
	return v, false
}

// ParseCrawlDelay reads a Crawl-delay value: a non-negative decimal number
// of seconds, fractions allowed ("10", "0.5", ".5"), as Yandex and
// crawler-commons read it; signs, exponents and units are refused. It is
// rounded to the nanosecond, halves up, and saturates at the longest
// Duration, so a bigger value never asks for a shorter delay.
func ParseCrawlDelay(value string) (time.Duration, bool) {
	if !isDecimal(value) {
		return 0, false
	}
	whole, frac, _ := strings.Cut(value, ".")
	return decimalSeconds(whole, frac), true
}

const maxSeconds = math.MaxInt64 / int64(time.Second)

// maxSecondsDigits is the digit count of maxSeconds (TestMaxSecondsDigits).
const maxSecondsDigits = 10

// decimalSeconds returns the Duration of whole.frac seconds, saturated. It
// counts in integers: a float64 lacks the digits for a long delay's
// nanoseconds, and rounds the largest Duration up to 2^63, which wraps.
func decimalSeconds(whole, frac string) time.Duration {
	whole = strings.TrimLeft(whole, "0")
	if len(whole) > maxSecondsDigits {
		return math.MaxInt64
	}
	var sec int64
	for i := 0; i < len(whole); i++ {
		sec = sec*10 + int64(whole[i]-'0')
	}
	if sec > maxSeconds {
		return math.MaxInt64
	}
	var ns int64
	for i := range 9 {
		ns *= 10
		if i < len(frac) {
			ns += int64(frac[i] - '0')
		}
	}
	if len(frac) > 9 && frac[9] >= '5' {
		ns++
	}
	if sec*int64(time.Second) > math.MaxInt64-ns {
		return math.MaxInt64
	}
	return time.Duration(sec*int64(time.Second) + ns)
}

func isDecimal(s string) bool {
	digits, dots := 0, 0
	for i := 0; i < len(s); i++ {
		switch {
		case '0' <= s[i] && s[i] <= '9':
			digits++
		case s[i] == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}

// RequestRate is the value of a Request-rate line: at most Requests
// requests every Per.
type RequestRate struct {
	// Requests is the number of requests allowed per period, above zero.
	Requests int
	// Per is the period, above zero.
	Per time.Duration
	// Window is the time of day the rate applies in, when the value names
	// one after the rate ("1/10s 1800-0600"); zero otherwise.
	Window VisitTime
}

// ParseRequestRate reads a Request-rate value: "n/m", n requests every m
// seconds ("1/5"), m with an optional unit s, m or h ("1/10s", "100/1h"),
// both positive integers that saturate when too large. A Visit-time window
// may follow after white space ("1/10s 1800-0600").
func ParseRequestRate(value string) (RequestRate, bool) {
	rate, window, hasWindow := cutSpace(value)
	n, m, ok := strings.Cut(rate, "/")
	if !ok {
		return RequestRate{}, false
	}
	unit := time.Second
	if k := len(m); k > 0 {
		switch lowerASCII(m[k-1]) {
		case 's':
			m = m[:k-1]
		case 'm':
			unit, m = time.Minute, m[:k-1]
		case 'h':
			unit, m = time.Hour, m[:k-1]
		}
	}
	requests, ok1 := saturatedCount(n)
	per, ok2 := saturatedCount(m)
	if !ok1 || !ok2 {
		return RequestRate{}, false
	}
	r := RequestRate{Requests: int(min(requests, math.MaxInt)), Per: time.Duration(math.MaxInt64)}
	if per <= math.MaxInt64/int64(unit) {
		r.Per = time.Duration(per) * unit
	}
	if hasWindow {
		w, ok := ParseVisitTime(trimSpace(window))
		if !ok {
			return RequestRate{}, false
		}
		r.Window = w
	}
	return r, true
}

func cutSpace(s string) (before, after string, found bool) {
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i], s[i+1:], true
	}
	return s, "", false
}

// saturatedCount is positiveInt in 64 bits, saturated at math.MaxInt64:
// a period's seconds fit a Duration whatever the width of int.
func saturatedCount(s string) (int64, bool) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case err == nil:
		return n, n > 0
	case strings.Trim(s, "0") != "":
		return math.MaxInt64, true // digits only: too large
	}
	return 0, false
}

// positiveInt reads a decimal integer above zero made of digits only.
func positiveInt(s string) (int, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n > 0
}

// VisitTime is a daily window, in UTC, in which a crawler is asked to
// visit. Start and End are times of day as durations since midnight; End
// before Start is a window that spans midnight.
type VisitTime struct {
	Start, End time.Duration
}

// Contains reports whether the time of day of t, in UTC, falls in the
// window, its start included and its end excluded.
func (w VisitTime) Contains(t time.Time) bool {
	h, m, s := t.UTC().Clock()
	d := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second
	if w.Start <= w.End {
		return w.Start <= d && d < w.End
	}
	return d >= w.Start || d < w.End
}

// ParseVisitTime reads a Visit-time value: "HHMM-HHMM", two times of day
// in UTC ("0600-0845"), white space allowed around the '-' and a ':'
// between hours and minutes ("06:00-08:45").
func ParseVisitTime(value string) (VisitTime, bool) {
	from, to, ok := strings.Cut(value, "-")
	if !ok {
		return VisitTime{}, false
	}
	start, ok1 := parseClock(trimSpace(from))
	end, ok2 := parseClock(trimSpace(to))
	if !ok1 || !ok2 {
		return VisitTime{}, false
	}
	return VisitTime{Start: start, End: end}, true
}

func parseClock(s string) (time.Duration, bool) {
	if len(s) == 5 && s[2] == ':' {
		s = s[:2] + s[3:]
	}
	if len(s) != 4 {
		return 0, false
	}
	h, err1 := strconv.ParseUint(s[:2], 10, 8)
	m, err2 := strconv.ParseUint(s[2:], 10, 8)
	if err1 != nil || err2 != nil || h > 23 || m > 59 {
		return 0, false
	}
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute, true
}

// Host is a Host line: the mirror Yandex is asked to treat as the main one.
type Host struct {
	// Line is the line's number in the file, counting from 1.
	Line int
	// Scheme is "http" or "https"; "" when the value named none.
	Scheme string
	// Host is the host name, with ":port" when one was given.
	Host string
}

// ParseHost reads a Host value: a host name with an optional port, and an
// optional http:// or https:// in front ("example.com",
// "https://example.com:8443"). A path, query or user is refused.
func ParseHost(value string) (Host, bool) {
	raw := value
	if !strings.Contains(value, "://") {
		raw = "http://" + value
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" ||
		u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" ||
		strings.ContainsAny(u.Host, " \t") {
		return Host{}, false
	}
	if p := u.Port(); p != "" {
		if _, ok := positiveInt(p); !ok {
			return Host{}, false
		}
	}
	h := Host{Host: u.Host}
	if raw == value {
		h.Scheme = u.Scheme
	}
	return h, true
}

// Hosts returns the file's valid Host lines, in file order, wherever they
// stand: Yandex reads Host outside groups as well as in them.
func (f *File) Hosts() []Host {
	return fileLevel(f, keyHost, ParseHost, func(h *Host, line int) { h.Line = line })
}

// CleanParam is a Clean-param line: query parameters that do not change
// the page, for the URLs whose path starts with Path.
type CleanParam struct {
	// Line is the line's number in the file, counting from 1.
	Line int
	// Params are the parameter names, in the order written.
	Params []string
	// Path is the path prefix the line applies to, '*' as a wildcard; ""
	// applies it to every path.
	Path string
}

// ParseCleanParam reads a Clean-param value, "p0[&p1&...&pn] [path]":
// parameter names joined by '&', then optionally a path prefix starting
// with '/' or '*'.
func ParseCleanParam(value string) (CleanParam, bool) {
	if value == "" {
		return CleanParam{}, false
	}
	params, path, _ := cutSpace(value)
	path = trimSpace(path)
	if strings.ContainsAny(path, " \t") || (path != "" && path[0] != '/' && path[0] != '*') {
		return CleanParam{}, false
	}
	names := strings.Split(params, "&")
	for _, n := range names {
		if n == "" || strings.ContainsRune(n, '=') {
			return CleanParam{}, false
		}
	}
	return CleanParam{Params: names, Path: path}, true
}

// CleanParams returns the file's valid Clean-param lines, in file order,
// wherever they stand: Yandex reads them independently of groups.
func (f *File) CleanParams() []CleanParam {
	return fileLevel(f, keyCleanParam, ParseCleanParam, func(c *CleanParam, line int) { c.Line = line })
}

func fileLevel[T any](f *File, key string, parse func(string) (T, bool), setLine func(*T, int)) []T {
	var out []T
	for _, d := range f.Others() {
		if !strings.EqualFold(d.Key, key) {
			continue
		}
		if v, ok := parse(d.Value); ok {
			setLine(&v, d.Line)
			out = append(out, v)
		}
	}
	return out
}
