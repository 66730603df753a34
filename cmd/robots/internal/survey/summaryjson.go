package survey

import (
	"github.com/fastrobots/robots/cmd/robots/internal/methods"
)

// summaryJSON is the summary as summarize --json prints it: every figure
// of the text summary, counts as integers. Maps are written with their
// keys sorted, and a count of zero is left out of them, so that the same
// rows give the same document.
type summaryJSON struct {
	Captures  int            `json:"captures"`
	Errors    int            `json:"errors"`
	Skipped   int            `json:"skipped"`
	HTML      int            `json:"html"`
	Truncated int            `json:"truncated"`
	Sizes     sizesJSON      `json:"sizes"`
	Statuses  map[string]int `json:"statuses"` // "2xx parsed": captures
	Managed   map[string]int `json:"managed"`  // CDN: captures holding its section
	Agents    []agentJSON    `json:"agents"`
}

type sizesJSON struct {
	Median string `json:"median"` // a number of bytes, or "over 512000"
	P90    string `json:"p90"`
	Max    int64  `json:"max"`
	Total  int64  `json:"total"`
}

// agentJSON is one agent's figures.
type agentJSON struct {
	Agent    string `json:"agent"`
	Operator string `json:"operator,omitempty"`
	// Classes counts the captures by class, every source together;
	// Sources by source, then class (the causes).
	Classes map[string]int            `json:"classes"`
	Sources map[string]map[string]int `json:"sources"`
	// Own counts the captures whose rules were read by the class the
	// site's own rules give (class_site, else class).
	Own map[string]int `json:"own"`
	// RootOnly counts the captures classed some that a survey checking
	// "/" alone reads as none or as all.
	RootOnly map[string]int                `json:"root_only"`
	Managed  managedJSON                   `json:"managed"`
	Methods  map[methods.Method]methodJSON `json:"methods,omitempty"`
	// Signal and Usage count the captures stating any Content-Signal key
	// or Content-Usage category at "/", Said the captures per
	// "signal:KEY=VALUE" and "usage:CATEGORY=VALUE".
	Signal     int            `json:"signal"`
	Usage      int            `json:"usage"`
	UsagePaths int            `json:"usage_paths"`
	Said       map[string]int `json:"said"`
}

// managedJSON is what an agent's rows say of managed sections.
type managedJSON struct {
	Captures int `json:"captures"` // rows of captures holding a section
	Group    int `json:"group"`    // of them, managed_group
	// Classes counts them by class, then class_site.
	Classes map[string]map[string]int `json:"classes"`
}

// methodJSON is how a method's classes of an agent differ from the exact
// ones: the sums, then the rows by exact class and the method's.
type methodJSON struct {
	methodDiff
	Classes map[string]map[string]int `json:"classes"`
}

// json returns the summary's document.
func (s *surveySummary) json() summaryJSON {
	d := summaryJSON{
		Captures: s.captures, Errors: s.errors, Skipped: s.skipped, HTML: s.html, Truncated: s.truncated,
		Sizes:    sizesJSON{Median: s.sizeText(0.5), P90: s.sizeText(0.9), Max: s.maxSize, Total: s.bytes},
		Statuses: nonZero(s.statuses), Managed: nonZero(s.managed),
		Agents: []agentJSON{},
	}
	for i, name := range s.agents {
		as := &s.perAgent[i]
		a := agentJSON{
			Agent: name, Operator: surveyOperator(name),
			Classes:  nonZero(as.class),
			Sources:  map[string]map[string]int{},
			Own:      nonZero(as.own),
			RootOnly: nonZero(map[string]int{"none": as.rootNone, "all": as.rootAll}),
			Managed:  managedJSON{Captures: as.managed.rows, Group: as.managed.group, Classes: nonZero2(as.managed.pairs)},
			Signal:   as.signal, Usage: as.usage, UsagePaths: as.usagePaths,
			Said: nonZero(as.values),
		}
		a.Sources = nonZero2(as.sources)
		for m, pairs := range as.methods {
			if a.Methods == nil {
				a.Methods = map[methods.Method]methodJSON{}
			}
			a.Methods[m] = methodJSON{methodDiff: diff(pairs), Classes: nonZero2(pairs)}
		}
		d.Agents = append(d.Agents, a)
	}
	return d
}

// nonZero copies m without its zero counts.
func nonZero(m map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

// nonZero2 copies m without its zero counts and empty rows.
func nonZero2(m map[string]map[string]int) map[string]map[string]int {
	out := map[string]map[string]int{}
	for k, row := range m {
		if r := nonZero(row); len(r) > 0 {
			out[k] = r
		}
	}
	return out
}
