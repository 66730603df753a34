package robots

import (
	"time"

	"github.com/fastrobots/robots/compile"
)

// RequestRate, VisitTime, Host and CleanParam are the parsed values of
// directives that Google ignores and other crawlers read. They change no
// verdict. Group has CrawlDelay, RequestRate and VisitTime methods for one
// group; Group.Extras lists every directive of the group this package does
// not interpret, with its line. Like Group, each has the layout of its
// compile twin (types.go).

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

// VisitTime is a daily window, in UTC, in which a crawler is asked to
// visit. Start and End are times of day as durations since midnight; End
// before Start is a window that spans midnight.
type VisitTime struct {
	Start, End time.Duration
}

// Contains reports whether the time of day of t, in UTC, falls in the
// window, its start included and its end excluded.
func (w VisitTime) Contains(t time.Time) bool { return compile.VisitTime(w).Contains(t) }

// Host is a Host line: the mirror Yandex was asked to treat as the main
// one.
type Host struct {
	// Line is the line's number in the file, counting from 1.
	Line int
	// Scheme is "http" or "https"; "" when the value named none.
	Scheme string
	// Host is the host name, with ":port" when one was given.
	Host string
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

// requestRateOf returns compile's request rate as a RequestRate.
func requestRateOf(r compile.RequestRate) RequestRate {
	return RequestRate{Requests: r.Requests, Per: r.Per, Window: VisitTime(r.Window)}
}

// Hosts returns the valid Host lines of the file, in file order. Yandex,
// which defined Host, reads the first.
func (r *Robots) Hosts() []Host { return sameLayout[Host](r.file.Hosts()) }

// CleanParams returns the valid Clean-param lines of the file, in file
// order, wherever they stand.
func (r *Robots) CleanParams() []CleanParam {
	return sameLayout[CleanParam](r.file.CleanParams())
}

// CrawlDelay returns the crawl delay of the groups that apply: the last
// valid Crawl-delay value among them, in file order. ok is false when none
// has one. Google ignores Crawl-delay; Bing, Yandex and others read it.
func (a *Agent) CrawlDelay() (d time.Duration, ok bool) {
	return lastOfGroups(a, (*Group).CrawlDelay)
}

// RequestRate returns the request rate of the groups that apply: the last
// valid Request-rate value among them. ok is false when none has one.
func (a *Agent) RequestRate() (r RequestRate, ok bool) {
	return lastOfGroups(a, (*Group).RequestRate)
}

// VisitTime returns the visiting window of the groups that apply: the last
// valid Visit-time value among them. ok is false when none has one.
func (a *Agent) VisitTime() (w VisitTime, ok bool) {
	return lastOfGroups(a, (*Group).VisitTime)
}

// Extras returns the directives of the groups that apply that this package
// does not interpret (crawl-delay, request-rate, ...), in file order.
func (a *Agent) Extras() []Directive {
	var out []Directive
	for _, gi := range a.selected() {
		out = append(out, directivesOf(a.file().Extras(gi))...)
	}
	return out
}

// lastOfGroups returns get's value for the last selected group that has
// one: groups merge in file order, so a later value overrides an earlier.
// get is given a group of the extras alone, which it reads: a crawler
// reads its pacing once per site, and building every group's rules for it
// would keep them for as long as the file.
func lastOfGroups[T any](a *Agent, get func(*Group) (T, bool)) (v T, ok bool) {
	for i := len(a.selected()) - 1; i >= 0; i-- {
		if v, ok := get(&Group{Extras: directivesOf(a.file().Extras(a.selected()[i]))}); ok {
			return v, true
		}
	}
	return v, false
}
