package robots

import (
	"strings"

	"github.com/fastrobots/robots/runtime"
	"github.com/fastrobots/robots/usage"
)

// Content-Usage (IETF AIPREF) and Content-Signal (Cloudflare) lines state
// how a site wants its content used; they change no crawl verdict. Parse
// keeps them among the directives it does not interpret (Group.Extras,
// Robots.Others), and an Agent reads them once, on its first Usage call:
// the Content-Usage lines of its groups as rules, and the Content-Signal
// lines of its groups plus those standing before every group, which apply
// to every group. docs/usage.md gives the model.

// agentUsage is an agent's Content-Usage rules and Content-Signal lines,
// read from its groups.
type agentUsage struct {
	rules   []usage.Rule
	signals []usage.SignalLine
}

// noUsageLines is the usage lines of every agent that has none.
var noUsageLines agentUsage

// The directive keys read, compared ignoring ASCII case.
const (
	keyContentUsage  = "content-usage"
	keyContentSignal = "content-signal"
)

// Usage returns what the agent's groups say about the use of rawURL's
// content. A URL the agent may not fetch has no preference (usage.Decide).
//
// The URL's path is cut out once and checked as a path: AllowedPath of
// that path is Allowed of the URL, and cutting it twice was half the cost.
func (a *Agent) Usage(rawURL string) usage.Usage {
	path := runtime.FromURL(rawURL).String()
	return a.usageOf(path, a.AllowedPath(path))
}

// UsagePath is Usage for a path with parameters and query ("/a?b"); an
// empty string is read as "/".
func (a *Agent) UsagePath(pathAndQuery string) usage.Usage {
	in := runtime.FromPath(pathAndQuery)
	return a.usageOf(in.String(), a.AllowedPath(pathAndQuery))
}

// usageOf decides for a path and query not yet escaped.
func (a *Agent) usageOf(path string, allowed bool) usage.Usage {
	u := a.usageLines()
	return usage.Decide(u.rules, u.signals, usage.EscapePath(path), allowed)
}

// usageLines returns the agent's lines, reading them on first use. Two
// goroutines may both read them; either result is the same.
func (a *Agent) usageLines() *agentUsage {
	if u := a.usage.Load(); u != nil {
		return u
	}
	u := a.readUsage()
	a.usage.CompareAndSwap(nil, u)
	return a.usage.Load()
}

// readUsage collects the lines of the agent's groups, in file order after
// the top-level Content-Signal lines.
func (a *Agent) readUsage() *agentUsage {
	u := &agentUsage{}
	for _, d := range directivesOf(a.file().Preamble()) {
		u.add(d, false)
	}
	for _, gi := range a.selected() {
		for _, d := range directivesOf(a.file().Extras(gi)) {
			u.add(d, true)
		}
	}
	if len(u.rules)+len(u.signals) == 0 {
		return &noUsageLines // most agents: nothing to keep for as long as the agent
	}
	return u
}

// add records d when it is a Content-Signal line, or a Content-Usage line
// of a group. A Content-Usage value that does not parse still stands, every
// category Unknown, so that a shorter rule does not speak for its paths.
func (u *agentUsage) add(d Directive, inGroup bool) {
	switch {
	case strings.EqualFold(d.Key, keyContentSignal):
		u.signals = append(u.signals, usage.SignalLine{Line: d.Line, Signal: usage.ParseContentSignal(d.Value)})
	case inGroup && strings.EqualFold(d.Key, keyContentUsage):
		path, pref, _ := usage.ParseContentUsage(d.Value)
		u.rules = append(u.rules, usage.Rule{Line: d.Line, Pattern: usage.EscapePath(path), Pref: pref})
	}
}

// HasUsage reports whether any Content-Usage or Content-Signal line
// applies to the agent; without one, every URL's Usage states nothing
// beyond the crawl verdict.
func (a *Agent) HasUsage() bool {
	u := a.usageLines()
	return len(u.rules)+len(u.signals) > 0
}
