package bench

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"sync"

	"github.com/fastrobots/robots/fetch"
	"github.com/jimsmart/grobotstxt"
	slyrz "github.com/slyrz/robots"
	"github.com/temoto/robotstxt"
)

// A FrontierCrawler is a crawler's robots.txt check written with one
// library, the way a crawler writes it: it takes each URL of the frontier
// as the frontier holds it, an absolute URL, finds the robots.txt of its
// site, keeping every one it has met, and asks the library. It is safe
// for concurrent use, as a crawler's fetch workers share it.
//
// The peers' crawlers keep a map by host behind a sync.RWMutex, as colly
// does: a read lock to look a host up, and on a host's first sight its
// robots.txt, parsed, stored under the write lock. They get the body from
// a function standing for the fetch (Frontier.Body): no peer's fetch is
// timed, since BenchmarkFrontier has each crawler meet every origin before
// timing.
type FrontierCrawler interface {
	// Allowed reports whether FrontierAgent may fetch rawURL. The error is
	// non-nil, and the verdict false, when the crawler cannot tell: a URL
	// it cannot read, a robots.txt the library refuses.
	Allowed(rawURL string) (bool, error)
}

// RobotsSource returns the robots.txt of the site on host, the fetch of
// a peer's crawler; false when there is none.
type RobotsSource func(host string) ([]byte, bool)

// errNoRobots is the answer of a peer's crawler for a host whose robots.txt
// its RobotsSource does not have.
var errNoRobots = errors.New("bench: no robots.txt for the host")

// hostMap is a crawler's map by host: each host's robots.txt, parsed on
// first sight (parse), then looked up under a read lock.
type hostMap[T any] struct {
	source RobotsSource
	parse  func(body []byte) (T, error)

	mu    sync.RWMutex
	hosts map[string]parsed[T]
}

// parsed is what a hostMap holds for a host: the library's object, or the
// error its parse gave.
type parsed[T any] struct {
	v   T
	err error
}

func newHostMap[T any](source RobotsSource, parse func([]byte) (T, error)) *hostMap[T] {
	return &hostMap[T]{source: source, parse: parse, hosts: map[string]parsed[T]{}}
}

// get returns host's parsed robots.txt, parsing it on first sight.
func (m *hostMap[T]) get(host string) (T, error) {
	m.mu.RLock()
	p, ok := m.hosts[host]
	m.mu.RUnlock()
	if ok {
		return p.v, p.err
	}
	body, ok := m.source(host)
	if !ok {
		p.err = errNoRobots
	} else {
		p.v, p.err = m.parse(body)
	}
	m.mu.Lock()
	m.hosts[host] = p
	m.mu.Unlock()
	return p.v, p.err
}

// checkerCrawler is fastrobots' fetch.Checker: its Cache keeps a
// robots.txt per origin, fetched on first sight; each check is
// Checker.Allowed(ctx, agent, rawURL).
type checkerCrawler struct{ c *fetch.Checker }

// NewCheckerCrawler returns the crawler of fastrobots' fetch.Checker c.
func NewCheckerCrawler(c *fetch.Checker) FrontierCrawler { return checkerCrawler{c} }

func (c checkerCrawler) Allowed(rawURL string) (bool, error) {
	return c.c.Allowed(context.Background(), FrontierAgent, rawURL)
}

// transportCrawler is the check step of fastrobots' fetch.Transport: per
// URL, the request a crawler builds (http.NewRequestWithContext) and the
// transport's RoundTrip, whose base answers without sending anything, so
// that what is timed is the building of the request and the transport's
// check (its Checker's Decide and the refusal of a disallowed request).
type transportCrawler struct{ t *fetch.Transport }

// NewTransportCrawler returns the check step of a fetch.Transport deciding
// with c, for FrontierAgent, over a base that sends nothing.
func NewTransportCrawler(c *fetch.Checker) FrontierCrawler {
	return transportCrawler{fetch.NewTransport(unsent{}, fetch.TransportOptions{Agent: FrontierAgent, Checker: c})}
}

func (c transportCrawler) Allowed(rawURL string) (bool, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, rawURL, nil)
	if err != nil {
		return false, err
	}
	_, err = c.t.RoundTrip(req)
	if errors.Is(err, fetch.ErrDisallowed) {
		return false, nil
	}
	return err == nil, err
}

// unsent is the base of transportCrawler's Transport: it answers every
// request with one shared empty response, and sends nothing.
type unsent struct{}

var unsentResponse = &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody}

func (unsent) RoundTrip(*http.Request) (*http.Response, error) { return unsentResponse, nil }

// temotoCrawler is temoto/robotstxt used the colly way (colly's
// Collector.checkRobots): url.Parse, a map by u.Host of FromBytes's
// *RobotsData, FindGroup(agent) on every check (a nil group allows), and
// Group.Test of the escaped path, with "?" and the query re-encoded by
// u.Query().Encode() when there is one. A body FromBytes refuses is an
// error on every URL of its host, where colly would fetch it again.
type temotoCrawler struct {
	m *hostMap[*robotstxt.RobotsData]
}

// NewTemotoCrawler returns temoto's crawler, fetching with source.
func NewTemotoCrawler(source RobotsSource) FrontierCrawler {
	return temotoCrawler{newHostMap(source, robotstxt.FromBytes)}
}

func (c temotoCrawler) Allowed(rawURL string) (bool, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false, err
	}
	robot, err := c.m.get(u.Host)
	if err != nil {
		return false, err
	}
	g := robot.FindGroup(FrontierAgent)
	if g == nil {
		return true, nil
	}
	eu := u.EscapedPath()
	if u.RawQuery != "" {
		eu += "?" + u.Query().Encode()
	}
	return g.Test(eu), nil
}

// slyrzCrawler is slyrz/robots with a map by u.Host of
// robots.New(body, agent), the rules of the crawler's group; each check is
// Allow(u.RequestURI()), the escaped path and query ("/" for an empty
// path).
type slyrzCrawler struct{ m *hostMap[*slyrz.Robots] }

// NewSlyrzCrawler returns slyrz's crawler, fetching with source.
func NewSlyrzCrawler(source RobotsSource) FrontierCrawler {
	return slyrzCrawler{newHostMap(source, func(body []byte) (*slyrz.Robots, error) {
		return slyrz.New(bytes.NewReader(body), FrontierAgent), nil
	})}
}

func (c slyrzCrawler) Allowed(rawURL string) (bool, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false, err
	}
	r, err := c.m.get(u.Host)
	if err != nil {
		return false, err
	}
	return r.Allow(u.RequestURI()), nil
}

// grobotstxtCrawler is jimsmart/grobotstxt with a map by u.Host of the
// body, as a string; each check is AgentAllowed(body, agent, rawURL),
// which parses the URL and the body again, as Google's reference does.
type grobotstxtCrawler struct{ m *hostMap[string] }

// NewGrobotstxtCrawler returns grobotstxt's crawler, fetching with source.
func NewGrobotstxtCrawler(source RobotsSource) FrontierCrawler {
	return grobotstxtCrawler{newHostMap(source, func(body []byte) (string, error) {
		return string(body), nil
	})}
}

func (c grobotstxtCrawler) Allowed(rawURL string) (bool, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false, err
	}
	body, err := c.m.get(u.Host)
	if err != nil {
		return false, err
	}
	return grobotstxt.AgentAllowed(body, FrontierAgent, rawURL), nil
}

// FrontierTally counts what a pass over a frontier gave.
type FrontierTally struct {
	URLs       int // URLs asked about (one that panicked included)
	Disallowed int // answered "disallowed"
	Errors     int // answered with an error
	Panics     int // made the library panic (recovered)
}

// RunFrontier asks c about every stride-th URL of urls, from start,
// counting the answers in t. A panic in the library is recovered and
// counted, and the pass goes on with the next URL; recovery costs one
// deferred call per panic, not per URL.
func RunFrontier(c FrontierCrawler, urls []string, start, stride int, t *FrontierTally) {
	for i := start; i < len(urls); {
		i = frontierFrom(c, urls, i, stride, t)
	}
}

func frontierFrom(c FrontierCrawler, urls []string, i, stride int, t *FrontierTally) (next int) {
	defer func() {
		if recover() != nil {
			t.Panics++
			next = i + stride
		}
	}()
	for ; i < len(urls); i += stride {
		t.URLs++
		switch ok, err := c.Allowed(urls[i]); {
		case err != nil:
			t.Errors++
		case !ok:
			t.Disallowed++
		}
	}
	return i
}
