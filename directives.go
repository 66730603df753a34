package robots

import (
	"time"

	"github.com/fastrobots/robots/compile"
)

// Hosts returns the valid Host lines of the file, in file order. Yandex,
// which defined Host, reads the first.
func (r *Robots) Hosts() []Host {
	return converted(r.orEmpty().file.Hosts(), func(h compile.Host) Host { return Host(h) })
}

// CleanParams returns the valid Clean-param lines of the file, in file
// order, wherever they stand.
func (r *Robots) CleanParams() []CleanParam {
	return converted(r.orEmpty().file.CleanParams(), func(c compile.CleanParam) CleanParam { return CleanParam(c) })
}

// CrawlDelay returns the crawl delay of the groups that apply: the last
// valid Crawl-delay value among them, in file order. ok is false when none
// has one. Google ignores Crawl-delay; Bing, Yandex and others read it.
func (a *Agent) CrawlDelay() (d time.Duration, ok bool) {
	return lastOfGroups(a, compile.CrawlDelayOf[compile.Directive])
}

// RequestRate returns the request rate of the groups that apply: the last
// valid Request-rate value among them. ok is false when none has one.
func (a *Agent) RequestRate() (r RequestRate, ok bool) {
	return requestRateOf(lastOfGroups(a, compile.RequestRateOf[compile.Directive]))
}

// VisitTime returns the visiting window of the groups that apply: the last
// valid Visit-time value among them. ok is false when none has one.
func (a *Agent) VisitTime() (w VisitTime, ok bool) {
	w0, ok := lastOfGroups(a, compile.VisitTimeOf[compile.Directive])
	return VisitTime(w0), ok
}

// Extras returns the directives of the groups that apply that this package
// does not interpret (crawl-delay, request-rate, ...), in file order.
func (a *Agent) Extras() []Directive {
	var out []Directive
	for _, gi := range a.selected() {
		for _, d := range a.file().Extras(gi) {
			out = append(out, Directive(d))
		}
	}
	return out
}

// lastOfGroups returns get's value for the last selected group that has
// one. get sees the group's extras alone: building the group's rules
// would keep them for as long as the file.
func lastOfGroups[T any](a *Agent, get func([]compile.Directive) (T, bool)) (v T, ok bool) {
	for i := len(a.selected()) - 1; i >= 0; i-- {
		if v, ok := get(a.file().Extras(a.selected()[i])); ok {
			return v, true
		}
	}
	return v, false
}
