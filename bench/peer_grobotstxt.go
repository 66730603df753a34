package bench

import "github.com/jimsmart/grobotstxt"

// grobotstxtLib is github.com/jimsmart/grobotstxt, a line-by-line port of
// Google's C++ reference parser. It keeps nothing parsed: every check parses
// the whole body again while matching, as the reference does.
//
//	Parse:   string(body), then grobotstxt.Parse(body, handler) with a
//	         handler that ignores every callback — the tokenising that each
//	         of its checks repeats. (A copy alone would measure memcpy, not
//	         parsing.)
//	Compile: nothing (the agent is kept)
//	Check:   grobotstxt.AgentAllowed(body, agent, url) — takes a full URL
//	         (it runs url.Parse on it), and parses the body again
//	OneShot: one AgentAllowed(body, agent, url) call
type grobotstxtLib struct{}

func (grobotstxtLib) Name() string { return "grobotstxt" }
func (grobotstxtLib) Input() Input { return InputURL }

func (grobotstxtLib) Parse(body []byte) (Parsed, error) {
	s := string(body)
	grobotstxt.Parse(s, nopHandler{})
	return grobotstxtParsed{s}, nil
}

func (grobotstxtLib) OneShot(body []byte, agent, url string) bool {
	return grobotstxt.AgentAllowed(string(body), agent, url)
}

type grobotstxtParsed struct{ body string }

func (p grobotstxtParsed) Compile(agent string) Checker {
	return grobotstxtChecker{p.body, agent}
}

type grobotstxtChecker struct{ body, agent string }

func (c grobotstxtChecker) Allowed(url string) bool {
	return grobotstxt.AgentAllowed(c.body, c.agent, url)
}

// nopHandler receives grobotstxt's parse callbacks and does nothing.
type nopHandler struct{}

func (nopHandler) HandleRobotsStart()                      {}
func (nopHandler) HandleRobotsEnd()                        {}
func (nopHandler) HandleUserAgent(int, string)             {}
func (nopHandler) HandleAllow(int, string)                 {}
func (nopHandler) HandleDisallow(int, string)              {}
func (nopHandler) HandleSitemap(int, string)               {}
func (nopHandler) HandleUnknownAction(int, string, string) {}
