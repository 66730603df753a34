package bench

import (
	"bytes"

	"github.com/benjaminestes/robots/v2"
)

// benjaminestesLib is github.com/benjaminestes/robots, used as its package
// documentation shows for repeated checks by one agent. The module is
// github.com/benjaminestes/robots/v2 at v2.0.5, its newest release: the
// repository's v2 tags at the root name the module without /v2, which the
// module proxy would have to serve as v2.x.y+incompatible and refuses, so
// the root module is only available at v1.0.0; the /v2 sub-folder module is
// served. Parsing runs a lexer goroutine that hands the parser one item at
// a time over a channel, and compiles every rule to a regexp.
//
//	Parse:   robots.From(200, bytes.NewReader(body))
//	Compile: (*Robots).Tester(agent) — resolves the agent once, returns a
//	         func(url) bool
//	Check:   the tester — takes a URL (it runs url.Parse on it) and tries
//	         the group's regexps, longest pattern first
//	OneShot: From(200, body), then (*Robots).Test(agent, url)
//
// Some inputs make it panic (an empty body; a rule that is not valid UTF-8,
// whose regexp fails to compile, which the library reports on standard
// output and then uses as a nil regexp); the harness recovers and counts
// those panics.
type benjaminestesLib struct{}

func (benjaminestesLib) Name() string { return "benjaminestes" }
func (benjaminestesLib) Input() Input { return InputURL }

func (benjaminestesLib) Parse(body []byte) (Parsed, error) {
	r, err := robots.From(200, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	return benjaminestesParsed{r}, nil
}

func (benjaminestesLib) OneShot(body []byte, agent, url string) bool {
	r, err := robots.From(200, bytes.NewReader(body))
	if err != nil {
		return true
	}
	return r.Test(agent, url)
}

type benjaminestesParsed struct{ r *robots.Robots }

func (p benjaminestesParsed) Compile(agent string) Checker {
	return benjaminestesChecker(p.r.Tester(agent))
}

type benjaminestesChecker func(url string) bool

func (c benjaminestesChecker) Allowed(url string) bool { return c(url) }
