package robots

import (
	"time"
)

// Hosts returns the valid Host lines of the file, in file order. Yandex,
// which defined Host, reads the first.
func (r *Robots) Hosts() []Host { return r.orEmpty().file.Hosts() }

// CleanParams returns the valid Clean-param lines of the file, in file
// order, wherever they stand.
func (r *Robots) CleanParams() []CleanParam {
	return r.orEmpty().file.CleanParams()
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
		out = append(out, a.file().Extras(gi)...)
	}
	return out
}

// lastOfGroups returns get's value for the last selected group that has
// one. get sees a Group of the extras alone: building the group's rules
// would keep them for as long as the file.
func lastOfGroups[T any](a *Agent, get func(*Group) (T, bool)) (v T, ok bool) {
	for i := len(a.selected()) - 1; i >= 0; i-- {
		if v, ok := get(&Group{Extras: a.file().Extras(a.selected()[i])}); ok {
			return v, true
		}
	}
	return v, false
}
