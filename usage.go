package robots

import (
	"strings"

	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/runtime"
	"github.com/fastrobots/robots/usage"
)

// Content-Usage (IETF AIPREF) and Content-Signal (Cloudflare) lines say how
// a site wants its content used, and change no crawl verdict. docs/usage.md
// gives the model.

// agentUsage is an agent's usage lines, prepared to decide.
type agentUsage = usage.Set

// noUsageLines is the usage lines of every agent that has none.
var noUsageLines = usage.NewSet(nil, nil)

// The directive keys read, compared ignoring ASCII case.
const (
	keyContentUsage  = "content-usage"
	keyContentSignal = "content-signal"
)

// Usage returns what the agent's groups say about the use of rawURL's
// content. A URL the agent may not fetch has no preference (usage.Decide).
// When no line applies to the agent, it is Allowed and an empty answer.
// Only an allowed URL of an agent that has lines costs more than Allowed.
func (a *Agent) Usage(rawURL string) usage.Usage {
	if a.Policy() == FullDisallow {
		return usage.Usage{}
	}
	if i := runtime.RootedStart(rawURL); i >= 0 {
		p := rawURL[i:]
		if !a.rules.AllowedBeforeFragment(p) {
			return usage.Usage{}
		}
		return a.usageLines().DecideBeforeFragment(p, true)
	}
	return a.UsageGiven(rawURL, a.Allowed(rawURL))
}

// UsageGiven is Usage for a URL the caller has checked already: allowed is
// the agent's verdict for rawURL (Allowed, or Decide's), and Usage(rawURL)
// is UsageGiven(rawURL, Allowed(rawURL)), except that nothing is checked again.
func (a *Agent) UsageGiven(rawURL string, allowed bool) usage.Usage {
	if !allowed {
		return usage.Usage{} // no preference: nothing to decide
	}
	set := a.usageLines()
	if set.Empty() {
		return usage.Usage{Allowed: true}
	}
	if i := runtime.RootedStart(rawURL); i >= 0 {
		return set.DecideBeforeFragment(rawURL[i:], true) // read in place
	}
	return set.DecideUnescaped(runtime.Path(rawURL), true)
}

// UsagePath is Usage for a path with parameters and query ("/a?b"); an
// empty string is read as "/".
func (a *Agent) UsagePath(pathAndQuery string) usage.Usage {
	set := a.usageLines()
	allowed := a.AllowedPath(pathAndQuery)
	if set.Empty() {
		return usage.Usage{Allowed: allowed}
	}
	if pathAndQuery == "" {
		pathAndQuery = "/"
	}
	return set.DecideUnescaped(pathAndQuery, allowed)
}

// usageLines returns the agent's lines, reading them on first use. Two
// goroutines may both look them up; either result is the same.
func (a *Agent) usageLines() *agentUsage {
	if u := a.usage.Load(); u != nil {
		return u
	}
	return a.loadUsage() // apart, so that the test above is inlined
}

// loadUsage keeps the lines beside the rule set, which every Agent of the
// same groups shares, so that they are read and metered once.
func (a *Agent) loadUsage() *agentUsage {
	u, _ := a.rules.Attached().(*agentUsage)
	if u == nil {
		u = a.readUsage()
		if u != noUsageLines { // shared by every agent without lines: nothing to charge
			u = a.rules.Attach(u, u.MemoryBytes()).(*agentUsage)
		}
	}
	a.usage.CompareAndSwap(nil, u)
	return a.usage.Load()
}

// readUsage collects the Content-Signal lines standing before every group,
// which apply to every group, then the lines of the agent's groups.
func (a *Agent) readUsage() *agentUsage {
	var l usageLines
	for _, d := range a.file().Preamble() {
		l.add(d, false)
	}
	for _, gi := range a.selected() {
		for _, d := range a.file().Extras(gi) {
			l.add(d, true)
		}
	}
	if len(l.rules)+len(l.signals) == 0 {
		return noUsageLines // most agents: nothing to keep for as long as the agent
	}
	return usage.NewSet(l.rules, l.signals)
}

type usageLines struct {
	rules   []usage.Rule
	signals []usage.SignalLine
}

// add records d when it is a Content-Signal line, or a Content-Usage line
// of a group. A Content-Usage value that does not parse still stands, every
// category Unknown, so that a shorter rule does not speak for its paths.
func (u *usageLines) add(d compile.Directive, inGroup bool) {
	switch {
	case strings.EqualFold(d.Key, keyContentSignal):
		u.signals = append(u.signals, usage.SignalLine{Line: d.Line, Signal: usage.ParseContentSignal(d.Value)})
	case inGroup && strings.EqualFold(d.Key, keyContentUsage):
		path, pref, _ := usage.ParseContentUsage(d.Value)
		u.rules = append(u.rules, usage.Rule{Line: d.Line, Pattern: usage.EscapePath(path), Pref: pref})
	}
}

// HasUsage reports whether any Content-Usage or Content-Signal line
// applies to the agent; if not, Usage adds nothing to the crawl verdict.
func (a *Agent) HasUsage() bool { return !a.usageLines().Empty() }
