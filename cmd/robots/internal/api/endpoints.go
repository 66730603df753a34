package api

import (
	"fmt"
	"net/http"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/fetch"
	"github.com/fastrobots/robots/lint"
	prefs "github.com/fastrobots/robots/usage"
)

// Check answers POST /api/check: {"fetch": ..., "results": [...]}, a
// verdict for each URL, in the order given; fetch when an origin was
// fetched.
func Check(c Call) (Answer, *Error) {
	q, err := readQuery(c, false)
	if err != nil {
		return nil, err
	}
	d := q.decider()
	return objectAnswer{heads: q.heads(), name: "results", count: len(q.urls), item: func(i int) (any, error) {
		u := q.urls[i]
		if bad := q.checkURL(u); bad != nil {
			return NewErrorJSON(bad), nil
		}
		return NewVerdictJSON(u, d.Decide(u), d.Usage(u)), nil
	}}, nil
}

// MaxMatchesShown bounds the matching rules an explanation of the API
// lists; more_matches counts the others. The winner is always given.
const MaxMatchesShown = 100

// Explain answers POST /api/explain: {"fetch": ..., "selection": ...,
// "crawler": ..., "directives": ..., "report": ..., "results": [...]}: the
// groups that apply, the crawler table's row of the first agent when it
// has one, what the groups ask besides rules, and Google's reading of
// every line (ReportJSON), once, and an explanation for each URL.
func Explain(c Call) (Answer, *Error) {
	q, err := readQuery(c, true)
	if err != nil {
		return nil, err
	}
	if q.robots == nil {
		return nil, noRules(q.fetched, "explain")
	}
	agent := q.robots.Agent(q.agents...)
	sel := selectionJSON(q.robots.Explain(q.agents, "/").Selection)
	heads := append(q.heads(), namedValue{"selection", sel}, namedValue{"crawler", crawlerHead(q.agents)},
		namedValue{"directives", newDirectivesJSON(q.robots, agent)}, namedValue{"report", ReportJSON(robots.ReportOf(q.body))})
	return objectAnswer{heads: heads, name: "results", count: len(q.urls), item: func(i int) (any, error) {
		u := q.urls[i]
		if bad := q.checkURL(u); bad != nil {
			return NewErrorJSON(bad), nil
		}
		return cappedExplainJSON(u, agent.Explain(u), agent.Usage(u), MaxMatchesShown), nil
	}}, nil
}

// crawlerHead is the crawler member of /api/explain: the row of the first
// agent, or nil (no member) when the table has none.
func crawlerHead(agents []string) any {
	if c, ok := CrawlerOf(agents); ok {
		return c
	}
	return nil
}

// cappedExplainJSON is explainResultJSON listing the first max matches
// only, and the winner wherever it stands.
func cappedExplainJSON(u string, e robots.Explanation, use prefs.Usage, max int) ExplainJSONOut {
	all, winner := e.Matches, e.Winner
	if len(all) > max {
		e.Matches = all[:max]
		if winner >= max {
			e.Winner = -1
		}
	}
	out := explainResultJSON(u, e, use)
	out.MoreMatches = len(all) - len(e.Matches)
	if out.Winner == nil && winner >= 0 {
		w := matchJSON(all[winner])
		out.Winner = &w
	}
	return out
}

// Lint answers POST /api/lint: the findings of the robots.txt.
func Lint(c Call) (Answer, *Error) {
	var req lintRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	body, isText, err := robotsText(req.RobotsTxt, req.RobotsTxtB64, req.Origin)
	if err != nil {
		return nil, err
	}
	var fetchInfo any
	if !isText {
		f, err := c.FetchOrigin(*req.Origin, nil, robots.Google)
		if err != nil {
			return nil, err
		}
		if f.Result.Policy != fetch.Conditional {
			return nil, noRules(f, "lint")
		}
		body, fetchInfo = f.Body, f.Info()
	}
	if err := c.Admit(LintWork(len(body))); err != nil {
		return nil, err
	}
	findings := lint.Lint(body)
	return objectAnswer{heads: []namedValue{{"fetch", fetchInfo}}, name: "findings", count: len(findings),
		item: func(i int) (any, error) { return findings[i], nil }}, nil
}

// noRules is the answer of explain and lint when the fetched robots.txt
// set a policy without rules: there is no file to explain or lint.
func noRules(f *Fetched, what string) *Error {
	r := f.Result
	return &Error{http.StatusUnprocessableEntity, fmt.Sprintf("%s: %s (%s): no rules to %s",
		r.URL, r.Policy, r.Reason, what)}
}
