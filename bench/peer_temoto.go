package bench

import "github.com/temoto/robotstxt"

// temotoLib is github.com/temoto/robotstxt used as its README shows for a
// single check:
//
//	Parse:   robotstxt.FromBytes(body) — fails on some bodies (an invalid
//	         Crawl-delay, ...); the harness counts those as errors
//	Compile: nothing (the agent is kept)
//	Check:   (*RobotsData).TestAgent(path, agent) — takes a path; looks the
//	         group up again on every call
//	OneShot: FromBytes(body) then TestAgent(path, agent)
type temotoLib struct{}

func (temotoLib) Name() string { return "temoto" }
func (temotoLib) Input() Input { return InputPath }

func (temotoLib) Parse(body []byte) (Parsed, error) {
	r, err := robotstxt.FromBytes(body)
	if err != nil {
		return nil, err
	}
	return temotoParsed{r}, nil
}

func (temotoLib) OneShot(body []byte, agent, path string) bool {
	r, err := robotstxt.FromBytes(body)
	if err != nil {
		return true
	}
	return r.TestAgent(path, agent)
}

type temotoParsed struct{ r *robotstxt.RobotsData }

func (p temotoParsed) Compile(agent string) Checker { return temotoChecker{p.r, agent} }

type temotoChecker struct {
	r     *robotstxt.RobotsData
	agent string
}

func (c temotoChecker) Allowed(path string) bool { return c.r.TestAgent(path, c.agent) }

// temotoGroupLib is github.com/temoto/robotstxt used as its README recommends
// for many checks by one agent:
//
//	Parse:   robotstxt.FromBytes(body)
//	Compile: (*RobotsData).FindGroup(agent) — once
//	Check:   (*Group).Test(path) — takes a path
//	OneShot: FromBytes(body), FindGroup(agent), Test(path)
type temotoGroupLib struct{}

func (temotoGroupLib) Name() string { return "temoto-group" }
func (temotoGroupLib) Input() Input { return InputPath }

func (temotoGroupLib) Parse(body []byte) (Parsed, error) {
	r, err := robotstxt.FromBytes(body)
	if err != nil {
		return nil, err
	}
	return temotoGroupParsed{r}, nil
}

func (temotoGroupLib) OneShot(body []byte, agent, path string) bool {
	r, err := robotstxt.FromBytes(body)
	if err != nil {
		return true
	}
	return r.FindGroup(agent).Test(path)
}

type temotoGroupParsed struct{ r *robotstxt.RobotsData }

func (p temotoGroupParsed) Compile(agent string) Checker {
	return temotoGroupChecker{p.r.FindGroup(agent)}
}

type temotoGroupChecker struct{ g *robotstxt.Group }

func (c temotoGroupChecker) Allowed(path string) bool { return c.g.Test(path) }
