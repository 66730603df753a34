package main

import (
	"fmt"
	"io"
	"strings"

	prefs "github.com/fastrobots/robots/usage"
)

// usageJSON is the "usage" member of a verdict in check --json, fetch
// --json, explain --json and /api/check: what the crawler's groups say
// about the use of the URL's content (robots.Agent.Usage). Categories and
// signals are keyed by their names; each decision is "yes", "no" or
// "unknown", with the line and source that decided, when one did. It is
// left out when nothing decided, as for every URL of a file without such
// lines and for a URL that may not be fetched.
type usageJSON struct {
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

// newUsageJSON returns the JSON form of u, nil when nothing decided.
func newUsageJSON(u prefs.Usage) *usageJSON {
	if !decided(u) {
		return nil
	}
	j := &usageJSON{Categories: map[string]usageDecisionJSON{}, Signals: map[string]usageDecisionJSON{}}
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

// writeUsage prints the decisions of u that a line or the header made, as
// explain's "usage:" lines; nothing when none did.
func writeUsage(w io.Writer, u prefs.Usage) error {
	var b strings.Builder
	label := "  usage:   "
	line := func(name string, d prefs.Decision) {
		if d.Source == prefs.SourceNone {
			return
		}
		fmt.Fprintf(&b, "%s%s=%s (%s", label, name, d.Value, d.Source)
		if d.Line != 0 {
			fmt.Fprintf(&b, ", line %d", d.Line)
		}
		b.WriteString(")\n")
		label = "           "
	}
	for _, c := range prefs.Categories() {
		line(c.Label(), u.Category(c))
	}
	for k := range prefs.Signals {
		line(prefs.SignalKey(k).String(), u.Signal(prefs.SignalKey(k)))
	}
	line("may-train", u.MayTrain())
	_, err := io.WriteString(w, b.String())
	return err
}

// decided reports whether any line or header decided something in u.
func decided(u prefs.Usage) bool {
	for _, d := range u.Categories {
		if d.Source != prefs.SourceNone {
			return true
		}
	}
	for _, d := range u.Signals {
		if d.Source != prefs.SourceNone {
			return true
		}
	}
	return false
}
