package fetch

import (
	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/rawurl"
)

// page is a URL to check, read once: its origin, the cache's key, and,
// for a plain URL (rawurl.Split), where its path is, so that the check
// does not read the URL again.
type page struct {
	raw    string
	origin string
	rest   string // rawurl.Split's rest; set when plain
	plain  bool
}

// readPage returns the page of pageURL; the error is robots.Origin's.
func readPage(pageURL string) (page, error) {
	if origin, rest, ok := rawurl.Split(pageURL); ok {
		return page{raw: pageURL, origin: origin, rest: rest, plain: true}, nil
	}
	origin, err := robots.Origin(pageURL)
	return page{raw: pageURL, origin: origin}, err
}

// allowedBy reports whether a allows the page: by its path when the path
// is known and rooted, as Agent.Allowed would find it, else by the URL.
func (p *page) allowedBy(a *Agent) bool {
	if p.rooted() {
		return a.agent.AllowedPath(p.rest)
	}
	return a.agent.Allowed(p.raw)
}

// decidedBy is allowedBy for a's decision.
func (p *page) decidedBy(a *Agent) robots.Decision {
	if p.rooted() {
		return a.agent.DecidePath(p.rest)
	}
	return a.agent.Decide(p.raw)
}

// rooted reports whether the page's path is known and is rest: plain, and
// rest empty (the path "/") or starting with '/'.
func (p *page) rooted() bool { return p.plain && (p.rest == "" || p.rest[0] == '/') }
