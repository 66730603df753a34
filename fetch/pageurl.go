package fetch

import (
	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/rawurl"
)

// page is a URL to check, parsed once: the check reuses its origin and,
// for a plain URL (rawurl.Split), its path.
type page struct {
	raw    string
	origin string
	rest   string // rawurl.Split's rest; set when plain
	plain  bool
}

func readPage(pageURL string) (page, error) {
	if origin, rest, ok := rawurl.Split(pageURL); ok {
		return page{raw: pageURL, origin: origin, rest: rest, plain: true}, nil
	}
	origin, err := robots.Origin(pageURL)
	return page{raw: pageURL, origin: origin}, err
}

// allowedBy matches the path directly when it is known and rooted, as
// Agent.Allowed would find it, and the whole URL otherwise.
func (p *page) allowedBy(a *Agent) bool {
	if p.rooted() {
		return a.agent.AllowedPath(p.rest)
	}
	return a.agent.Allowed(p.raw)
}

func (p *page) decidedBy(a *Agent) robots.Decision {
	if p.rooted() {
		return a.agent.DecidePath(p.rest)
	}
	return a.agent.Decide(p.raw)
}

// rooted reports whether rest is the page's path; an empty rest is "/".
func (p *page) rooted() bool { return p.plain && (p.rest == "" || p.rest[0] == '/') }
