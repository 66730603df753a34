package api

import (
	"fmt"

	"github.com/fastrobots/robots"
	prefs "github.com/fastrobots/robots/usage"
)

// query is a check or explain request, read and checked: the crawler,
// the URLs, and the robots.txt, parsed from the text given or fetched
// from the origin given.
type query struct {
	agents []string
	urls   []string
	// robots is the parsed file: the text given, or the body fetched under
	// a conditional policy; nil when the fetch set a policy without rules.
	robots *robots.Robots
	// body is the robots.txt read: the text given, or the body fetched.
	body []byte
	// fetched is the fetch's answer when an origin was given, and origin
	// its origin, which every absolute URL must share.
	fetched *Fetched
	origin  string
}

// readQuery reads the body of a check or explain request, gets the
// robots.txt it names and admits the work of answering it (Call.Admit):
// the parse first, a text given being parsed under admission, then the
// checks, counted from the parsed file.
func readQuery(c Call, explain bool) (*query, *Error) {
	var req robotsRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	mode, err := ModeAndAgents(req.Mode, req.Agents)
	if err != nil {
		return nil, err
	}
	if err := checkURLCount(req.URLs); err != nil {
		return nil, err
	}
	body, isText, err := robotsText(req.RobotsTxt, req.RobotsTxtB64, req.Origin)
	if err != nil {
		return nil, err
	}
	q := &query{agents: req.Agents, urls: req.URLs}
	if isText {
		if err := c.Admit(ParseWork(len(body))); err != nil {
			return nil, err
		}
		q.robots, q.body = robots.Parse(body, ParseOptions(mode)...), body
	} else {
		if q.fetched, err = c.FetchOrigin(*req.Origin, req.Agents, mode); err != nil {
			return nil, err
		}
		q.origin, _ = robots.Origin(*req.Origin) // fetchOrigin found it
		q.robots, q.body = q.fetched.Result.Robots, q.fetched.Body
		// Fetched and parsed: the parse is counted with the rest.
		if err := c.Admit(ParseWork(len(q.body))); err != nil {
			return nil, err
		}
	}
	return q, c.Admit(CheckWork(q.work(), len(q.body), q.urls, explain))
}

// ParseOptions are the options every robots.txt of a request is parsed
// with: mode, and an automaton budget that no state fits, so that every
// check is bounded by robots.Work.
func ParseOptions(mode robots.Mode) []robots.Option {
	return []robots.Option{robots.WithMode(mode), robots.WithAutomatonBudget(robots.ScannerBudget)}
}

// work compiles the crawler's rules, so that no check is cold (their
// bound is loose on large files), and returns the bound on the work of
// the query's checks; none under a policy without rules.
func (q *query) work() robots.Work {
	if q.robots == nil {
		return robots.Work{}
	}
	return q.robots.Agent(q.agents...).Compile().Work()
}

// decider is what answers for the URLs of a query: a *robots.Agent, or a
// *fetch.Agent that honours the fetch's policy.
type decider interface {
	Decide(rawURL string) robots.Decision
	Usage(rawURL string) prefs.Usage
}

// decider returns what answers for the query's crawler.
func (q *query) decider() decider {
	if q.fetched != nil {
		return q.fetched.Result.Agent(q.agents...)
	}
	return q.robots.Agent(q.agents...)
}

// heads returns the members of the answer before its results: the
// fetch's answer when an origin was fetched.
func (q *query) heads() []namedValue {
	var heads []namedValue
	if q.fetched != nil {
		heads = append(heads, namedValue{"fetch", q.fetched.Info()})
	}
	var warnings []string
	for _, a := range q.agents {
		if w := AgentWarning(a); w != "" {
			warnings = append(warnings, w)
		}
	}
	if warnings != nil {
		heads = append(heads, namedValue{"warnings", warnings})
	}
	return heads
}

// checkURL returns why u gets no verdict, or nil: it holds a NUL byte (as
// for robots check), or it is a URL of another origin than the robots.txt
// fetched, which does not govern it.
func (q *query) checkURL(u string) *BadURLError {
	if err := CheckURL(u); err != nil {
		return &BadURLError{URL: u, Err: err}
	}
	if q.origin == "" || (len(u) > 0 && u[0] == '/') {
		return nil
	}
	if o, err := robots.Origin(u); err != nil || o != q.origin {
		return &BadURLError{URL: u, Err: fmt.Errorf("not on %s, whose robots.txt was fetched", q.origin)}
	}
	return nil
}
