package api

import (
	prefs "github.com/fastrobots/robots/usage"
)

// UsageJSON is the "usage" member of a verdict in check --json, fetch
// --json, explain --json and /api/check: what the crawler's groups say
// about the use of the URL's content (robots.Agent.Usage). Categories
// (vocab-08's), signals (Content-Signal's) and purposes (what a crawler
// that trains, feeds a model at answer time or builds a search index may
// do: usage.Usage.For) are keyed by their names; each decision is "yes",
// "no" or "unknown", with the line and source that decided, when one
// did. Use is Content-Signal's use level, with what it permits each
// purpose, left out when no line states one; may_train is
// purposes.train. It is left out when nothing decided,
// as for every URL of a file without such lines and for a URL that may
// not be fetched.
type UsageJSON struct {
	Categories map[string]usageDecisionJSON `json:"categories"`
	Signals    map[string]usageDecisionJSON `json:"signals"`
	Use        *usageLevelJSON              `json:"use,omitempty"`
	Purposes   map[string]usageDecisionJSON `json:"purposes"`
	MayTrain   usageDecisionJSON            `json:"may_train"`
}

// usageLevelJSON is one prefs.LevelDecision: "immediate", "reference" or
// "full", and the line that stated it; and, for each purpose, the least
// level it needs (prefs.Purposes) and whether the site's level permits it
// (prefs.Usage.MayUseAt): the second question of docs/usage.md's
// "Combining Content-Usage and Content-Signal".
type usageLevelJSON struct {
	Level    string                    `json:"level"`
	Line     int                       `json:"line,omitempty"`
	Source   string                    `json:"source,omitempty"`
	Purposes map[string]levelNeedsJSON `json:"purposes"`
}

// levelNeedsJSON is whether a purpose may use the content at the least
// level it needs.
type levelNeedsJSON struct {
	Needs string `json:"needs"`
	Value string `json:"value"`
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
	j := &UsageJSON{Categories: map[string]usageDecisionJSON{}, Signals: map[string]usageDecisionJSON{}, Purposes: map[string]usageDecisionJSON{}}
	for _, c := range prefs.Categories() {
		j.Categories[c.Label()] = usageDecisionOf(u.Category(c))
	}
	for k := range prefs.Signals {
		key := prefs.SignalKey(k)
		j.Signals[key.String()] = usageDecisionOf(u.Signal(key))
	}
	if l := u.Use(); l.Level != prefs.LevelNone {
		j.Use = &usageLevelJSON{Level: l.Level.String(), Line: l.Line, Purposes: map[string]levelNeedsJSON{}}
		if l.Source != prefs.SourceNone {
			j.Use.Source = l.Source.String()
		}
		for _, p := range prefs.AllPurposes() {
			needs := prefs.Purposes[p].Level
			j.Use.Purposes[p.String()] = levelNeedsJSON{Needs: needs.String(), Value: u.MayUseAt(needs).Value.String()}
		}
	}
	for _, p := range prefs.AllPurposes() {
		j.Purposes[p.String()] = usageDecisionOf(u.For(p))
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
