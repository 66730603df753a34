package bench

import "github.com/samclarke/robotstxt"

// samclarkeLib is github.com/samclarke/robotstxt (2017, a port of the
// Node.js robots-parser package), used as its README shows. It parses the
// body into one rule list per user-agent token, each rule with '*' or a
// final '$' compiled to a regexp; it has no step that resolves an agent
// once, so every check looks the agent up again.
//
//	Parse:   robotstxt.Parse(string(body), Site+"/robots.txt") — the
//	         robots.txt's own URL is required
//	Compile: nothing (the agent is kept)
//	Check:   (*RobotsTxt).IsAllowed(agent, url) — takes a full URL on the
//	         robots.txt's scheme and host (any other host is an error), runs
//	         url.Parse and IDNA on it, and matches the decoded path only: the
//	         query is never looked at
//	OneShot: Parse then IsAllowed
type samclarkeLib struct{}

// samclarkeRobotsURL is where the adapter says every body comes from, so
// that the URLs the harness gives (InputSiteURL) are on its host.
const samclarkeRobotsURL = Site + "/robots.txt"

func (samclarkeLib) Name() string { return "samclarke" }
func (samclarkeLib) Input() Input { return InputSiteURL }

func (samclarkeLib) Parse(body []byte) (Parsed, error) {
	r, err := robotstxt.Parse(string(body), samclarkeRobotsURL)
	if err != nil {
		return nil, err
	}
	return samclarkeParsed{r}, nil
}

func (samclarkeLib) OneShot(body []byte, agent, url string) bool {
	r, err := robotstxt.Parse(string(body), samclarkeRobotsURL)
	if err != nil {
		return true
	}
	ok, _ := r.IsAllowed(agent, url)
	return ok
}

type samclarkeParsed struct{ r *robotstxt.RobotsTxt }

func (p samclarkeParsed) Compile(agent string) Checker { return samclarkeChecker{p.r, agent} }

type samclarkeChecker struct {
	r     *robotstxt.RobotsTxt
	agent string
}

// Allowed returns IsAllowed's verdict. IsAllowed reports an error (with
// the verdict false) only for a URL that does not parse or is on another
// host, which the harness never gives.
func (c samclarkeChecker) Allowed(url string) bool {
	ok, _ := c.r.IsAllowed(c.agent, url)
	return ok
}
