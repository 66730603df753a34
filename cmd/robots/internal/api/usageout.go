package api

import (
	prefs "github.com/fastrobots/robots/usage"
)

// UsageJSON is the "usage" member of a verdict in check --json, fetch
// --json, explain --json and /api/check: what the crawler's groups say
// about the use of the URL's content (robots.Agent.Usage). Categories and
// signals are keyed by their names; each decision is "yes", "no" or
// "unknown", with the line and source that decided, when one did. It is
// left out when nothing decided, as for every URL of a file without such
// lines and for a URL that may not be fetched.
type UsageJSON struct {
	Categories map[string]usageDecisionJSON `json:"categories"`
	Signals    map[string]usageDecisionJSON `json:"signals"`
	MayTrain   usageDecisionJSON            `json:"may_train"`
}

// usageDecisionJSON is one prefs.Decision.
type usageDecisionJSON struct {
	Value  string `json:"value"`
	Line   int    `json:"line,omitempty"`
	Source string `json:"source,omitempty"`
}

// NewUsageJSON returns the JSON form of u, nil when nothing decided.
func NewUsageJSON(u prefs.Usage) *UsageJSON {
	if !decided(u) {
		return nil
	}
	j := &UsageJSON{Categories: map[string]usageDecisionJSON{}, Signals: map[string]usageDecisionJSON{}}
	for _, c := range prefs.Categories() {
		j.Categories[c.Label()] = usageDecisionOf(u.Category(c))
	}
	for k := range prefs.Signals {
		key := prefs.SignalKey(k)
		j.Signals[key.String()] = usageDecisionOf(u.Signal(key))
	}
	j.MayTrain = usageDecisionOf(u.MayTrain())
	return j
}

// usageDecisionOf returns the JSON form of d.
func usageDecisionOf(d prefs.Decision) usageDecisionJSON {
	j := usageDecisionJSON{Value: d.Value.String(), Line: d.Line}
	if d.Source != prefs.SourceNone {
		j.Source = d.Source.String()
	}
	return j
}

// decided reports whether any line or header decided something in u.
func decided(u prefs.Usage) bool { return u.Decided() }
