package api

import "github.com/fastrobots/robots"

// directivesJSON is what the answer of /api/explain says besides the
// rules: the Crawl-delay and Request-rate of the groups that apply (the
// last valid value, as robots.Agent reads them), every other line of
// those groups that is not a rule, with its line, and the file's
// sitemaps. Google reads none of them but the sitemaps; Bing, Yandex and
// others read the rest. The tester shows them beside the verdicts.
type directivesJSON struct {
	// CrawlDelay is in seconds, fractions allowed; absent when no group
	// that applies has a valid one.
	CrawlDelay  *float64         `json:"crawl_delay,omitempty"`
	RequestRate *requestRateJSON `json:"request_rate,omitempty"`
	Extras      []directiveJSON  `json:"extras"`
	Sitemaps    []string         `json:"sitemaps"`
}

// requestRateJSON is a Request-rate value: at most Requests requests
// every PerSeconds seconds.
type requestRateJSON struct {
	Requests   int     `json:"requests"`
	PerSeconds float64 `json:"per_seconds"`
}

// directiveJSON is one line of a group that is not a rule.
type directiveJSON struct {
	Line  int    `json:"line"`
	Key   string `json:"key"`
	Value string `json:"value"`
}

// newDirectivesJSON returns what agent's groups and the file r ask
// besides their rules.
func newDirectivesJSON(r *robots.Robots, agent *robots.Agent) directivesJSON {
	out := directivesJSON{Extras: []directiveJSON{}, Sitemaps: nonNil(r.Sitemaps())}
	if d, ok := agent.CrawlDelay(); ok {
		s := d.Seconds()
		out.CrawlDelay = &s
	}
	if rr, ok := agent.RequestRate(); ok {
		out.RequestRate = &requestRateJSON{Requests: rr.Requests, PerSeconds: rr.Per.Seconds()}
	}
	for _, d := range agent.Extras() {
		out.Extras = append(out.Extras, directiveJSON{Line: d.Line, Key: d.Key, Value: d.Value})
	}
	return out
}
