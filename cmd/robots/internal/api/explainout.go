package api

import (
	"github.com/fastrobots/robots"
	prefs "github.com/fastrobots/robots/usage"
)

// ExplainJSONOut is the --json form of an explanation.
type ExplainJSONOut struct {
	URL       string            `json:"url"`
	URLB64    string            `json:"url_b64,omitempty"`
	Path      string            `json:"path"`
	PathB64   string            `json:"path_b64,omitempty"`
	Allowed   bool              `json:"allowed"`
	Implicit  bool              `json:"implicit,omitempty"`
	Line      int               `json:"line"`              // Decision.Line: the winner's, else empty's, else 0
	Warning   string            `json:"warning,omitempty"` // URLWarning
	Selection *selectionJSONOut `json:"selection,omitempty"`
	Matches   []matchJSONOut    `json:"matches"`
	// MoreMatches is how many matching rules were left out of Matches
	// (robots serve lists a bounded number; explain --json all).
	MoreMatches int           `json:"more_matches,omitempty"`
	Winner      *matchJSONOut `json:"winner"`
	Usage       *UsageJSON    `json:"usage,omitempty"` // usageout.go
	// Crawler is the row of the crawler table (crawlers.go) of the first
	// agent asked for, when it has one. The API gives it once, beside
	// the results.
	Crawler *CrawlerJSON `json:"crawler,omitempty"`
	// Empty is, when no rule decided, the empty rule the reference parser
	// names (Decision.Empty): it matched every path, with priority 0, and
	// decided nothing.
	Empty    *matchJSONOut `json:"empty,omitempty"`
	TieBreak string        `json:"tie_break"`
}

// selectionJSONOut is the --json form of a group selection.
type selectionJSONOut struct {
	Reason string   `json:"reason"`
	Agents []string `json:"agents"`
	Agent  string   `json:"agent"`
	Groups []int    `json:"groups"`
	Lines  []int    `json:"lines"`
	Why    string   `json:"why"`
}

// matchJSONOut is the --json form of a matching rule.
type matchJSONOut struct {
	Line       int    `json:"line"`
	Allow      bool   `json:"allow"`
	Value      string `json:"value"`
	ValueB64   string `json:"value_b64,omitempty"`
	Pattern    string `json:"pattern"`
	PatternB64 string `json:"pattern_b64,omitempty"`
	Priority   int    `json:"priority"`
	Implicit   bool   `json:"implicit,omitempty"`
}

// ExplainJSON converts an explanation, and the URL's usage use, to its
// --json form.
func ExplainJSON(u string, e robots.Explanation, use prefs.Usage) ExplainJSONOut {
	out := explainResultJSON(u, e, use)
	sel := selectionJSON(e.Selection)
	out.Selection = &sel
	if c, ok := CrawlerOf(e.Selection.Agents); ok {
		out.Crawler = &c
	}
	return out
}

// explainResultJSON converts an explanation to its --json form, without
// the selection, which is the same for every URL.
func explainResultJSON(u string, e robots.Explanation, use prefs.Usage) ExplainJSONOut {
	out := ExplainJSONOut{
		URL: u, URLB64: RawB64(u), Path: e.Path, PathB64: RawB64(e.Path), Allowed: e.Allowed, Implicit: e.Implicit, Line: e.Line(), TieBreak: e.TieBreak, Warning: URLWarning(u),
		Matches: make([]matchJSONOut, 0, len(e.Matches)), Usage: NewUsageJSON(use),
	}
	for _, m := range e.Matches {
		out.Matches = append(out.Matches, matchJSON(m))
	}
	if e.Winner >= 0 {
		out.Winner = &out.Matches[e.Winner]
	}
	if r := e.Empty; r != nil {
		out.Empty = &matchJSONOut{Line: r.Line, Allow: r.Allow, Value: r.Value, ValueB64: RawB64(r.Value), Pattern: r.Pattern}
	}
	return out
}

// selectionJSON converts a group selection to its --json form.
func selectionJSON(s robots.Selection) selectionJSONOut {
	return selectionJSONOut{Reason: s.Reason.String(), Agents: nonNil(s.Agents), Agent: s.Agent,
		Groups: nonNil(s.Groups), Lines: nonNil(s.Lines), Why: s.Why}
}

// matchJSON converts a matching rule to its --json form.
func matchJSON(m robots.Match) matchJSONOut {
	return matchJSONOut{
		Line: m.Rule.Line, Allow: m.Rule.Allow, Value: m.Rule.Value, ValueB64: RawB64(m.Rule.Value),
		Pattern: m.Pattern, PatternB64: RawB64(m.Pattern), Priority: m.Priority, Implicit: m.Implicit}
}

// nonNil returns s, or an empty slice for nil, so that JSON shows [] and
// not null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
