package bench

import "github.com/fastrobots/robots"

// fastrobotsLib is this repository's engine (github.com/fastrobots/robots,
// the parent folder through a replace directive).
//
//	Parse:   robots.Parse(body)
//	Compile: (*Robots).Agent(agent) — resolves the groups once
//	Check:   (*Agent).AllowedPath(path) — takes a path with query
//	OneShot: robots.Parse(body).Agent(agent).AllowedPath(path)
type fastrobotsLib struct{}

func (fastrobotsLib) Name() string { return "fastrobots" }
func (fastrobotsLib) Input() Input { return InputPath }

func (fastrobotsLib) Parse(body []byte) (Parsed, error) {
	return fastrobotsParsed{robots.Parse(body)}, nil
}

func (fastrobotsLib) OneShot(body []byte, agent, path string) bool {
	return robots.Parse(body).Agent(agent).AllowedPath(path)
}

type fastrobotsParsed struct{ r *robots.Robots }

func (p fastrobotsParsed) Compile(agent string) Checker {
	return fastrobotsChecker{p.r.Agent(agent)}
}

type fastrobotsChecker struct{ a *robots.Agent }

func (c fastrobotsChecker) Allowed(path string) bool { return c.a.AllowedPath(path) }

// CompileNow builds the agent's automaton at once ((*Agent).Compile), as
// its rules are built once they are hot.
func (c fastrobotsChecker) CompileNow() { c.a.Compile() }

// AutomatonSize reports (*Agent).Stats(): the states built and the bytes
// counted against the automaton's memory budget.
func (c fastrobotsChecker) AutomatonSize() (states, bytes int) {
	s := c.a.Stats()
	return s.States, s.Bytes
}
