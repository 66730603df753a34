package fetch

import (
	"context"
	"strings"
	"time"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/engine"
	"github.com/fastrobots/robots/internal/rawurl"
	"github.com/fastrobots/robots/usage"
)

// Checker answers whether a crawler may fetch a URL, fetching and caching
// the robots.txt of its origin as needed. It is safe for concurrent use.
type Checker struct {
	cache *Cache
}

// NewChecker returns a checker over c (nil: a cache with a zero Fetcher
// and default options).
func NewChecker(c *Cache) *Checker {
	if c == nil {
		c = NewCache(nil, CacheOptions{})
	}
	return &Checker{cache: c}
}

// Cache returns the checker's cache.
func (c *Checker) Cache() *Cache { return c.cache }

// Verdict is the answer for one URL, with what a crawler needs to act on
// it: the rule that decided and its line, the policy, and how fast the
// crawler's groups ask it to go.
type Verdict struct {
	Allowed bool
	// Rule is the rule that decided under a Conditional policy, nil when no
	// rule decided (under FullAllow and FullDisallow, always).
	Rule *robots.Rule
	// Empty is, when no rule decided, the empty rule ("Allow:" or
	// "Disallow:") whose line Google's reference names: it matches every
	// path and decides nothing (robots.Decision.Empty); nil otherwise.
	Empty *robots.Rule
	// Line is the line Google's reference names for the verdict
	// (robots.Decision.Line): Rule's, else Empty's, else 0.
	Line int
	// Policy is Result.Policy: Conditional when the rules decided.
	Policy Policy
	// CrawlDelay is the Crawl-delay of the crawler's groups, 0 when they
	// set none; RequestRate their Request-rate, zero when they set none.
	// Google reads neither; Bing, Yandex and others do. Delay combines
	// them.
	CrawlDelay  time.Duration
	RequestRate robots.RequestRate
	// Usage is what the crawler's groups say about the use of the URL's
	// content (robots.Agent.Usage), combined with the robots.txt
	// response's Content-Usage field (Result.ContentUsage).
	Usage usage.Usage
	// Result is the robots.txt answer that applied.
	Result *Result
}

// Delay returns the least time between two requests to the origin that
// the crawler's groups ask for: the longer of CrawlDelay and the interval
// of RequestRate (Per / Requests); 0 when they ask for none.
func (v Verdict) Delay() time.Duration { return delayOf(v.CrawlDelay, v.RequestRate) }

// Every method takes the crawler first, then the URL, as package robots
// does: an agent (a product token such as "Googlebot"), read as
// robots.Robots.Agent(agent) reads it, or for the ...Agents forms an
// ordered fallback list, most specific first, as robots.Robots.Agent takes
// it; an empty list is a crawler that only the '*' groups govern. (The
// agent "" is an agent like any other: the '*' groups govern it unless a
// group names the empty agent, as Google's reference reads such a file.)

// Allowed reports whether the crawler agent may fetch pageURL. The error
// is non-nil, and the verdict false, when pageURL has no origin, is not
// http or https, or ctx ends first.
func (c *Checker) Allowed(ctx context.Context, agent, pageURL string) (bool, error) {
	if _, allowed, ok := c.allowedWarm(agent, pageURL); ok {
		return allowed, nil
	}
	p, err := readPage(pageURL)
	if err != nil {
		return false, err
	}
	agents := [1]string{agent} // on the stack: allowedPage keeps no list
	return c.allowedPage(ctx, agents[:], &p)
}

// AllowedAgents is Allowed for an ordered fallback list of agents.
func (c *Checker) AllowedAgents(ctx context.Context, agents []string, pageURL string) (bool, error) {
	p, err := readPage(pageURL)
	if err != nil {
		return false, err
	}
	return c.allowedPage(ctx, agents, &p)
}

// allowedPage is AllowedAgents for the page p, read once: resolved and
// checked in full.
func (c *Checker) allowedPage(ctx context.Context, agents []string, p *page) (bool, error) {
	res, a, err := c.resolve(ctx, agents, p.origin)
	if err != nil {
		return false, err
	}
	allowed := p.allowedBy(a)
	c.recharge(p.origin, res)
	return allowed, nil
}

// Decide returns the verdict for pageURL and what made it.
func (c *Checker) Decide(ctx context.Context, agent, pageURL string) (v Verdict, err error) {
	agents := [1]string{agent} // on the stack: no path keeps the list
	if c.decideWarm(agents[:], pageURL, &v) {
		return v, nil
	}
	p, err := readPage(pageURL)
	if err != nil {
		return Verdict{}, err
	}
	return c.decidePage(ctx, agents[:], &p)
}

// DecideAgents is Decide for an ordered fallback list of agents.
func (c *Checker) DecideAgents(ctx context.Context, agents []string, pageURL string) (Verdict, error) {
	p, err := readPage(pageURL)
	if err != nil {
		return Verdict{}, err
	}
	return c.decidePage(ctx, agents, &p)
}

// decidePage is DecideAgents for the page p, read once: resolved and
// decided in full.
func (c *Checker) decidePage(ctx context.Context, agents []string, p *page) (Verdict, error) {
	res, a, err := c.resolve(ctx, agents, p.origin)
	if err != nil {
		return Verdict{}, err
	}
	v := verdict(res, a, p)
	c.recharge(p.origin, res)
	return v, nil
}

// The warm route is the one a warm crawler takes most: a URL of an origin
// the cache holds fresh with the agent's resolution kept on its entry. The
// URL is split once, where its path starts (warmSplit), and the part
// before is looked up as it is written (Cache.warmView); the check then
// reads the rest in place with the rules the view keeps (view.allows),
// loading neither the answer, the agent nor the file. It takes no lock.
// Any other URL is answered in full (readPage).

// warmSplit splits pageURL where its path, parameters and query start
// (engine.PathStart), or where its fragment does when it has none: the
// origin the warm route looks up, and the rest after it. ok is false for
// a URL whose path starts with ';', which no origin the cache holds is
// followed by.
func warmSplit(pageURL string) (origin, rest string, ok bool) {
	i := engine.PathStart(pageURL)
	switch {
	case i < 0:
		if i = strings.IndexByte(pageURL, '#'); i < 0 {
			i = len(pageURL)
		}
	case pageURL[i] == ';':
		return "", "", false
	}
	return pageURL[:i], pageURL[i:], true
}

// allowedWarm is Allowed on the warm route. It counts the hit and returns
// the answer it checked under (the Transport paces and refuses by it); ok
// is false, and nothing is counted, for a URL the route does not take. It
// keeps nothing of pageURL past the call.
//
// It recharges the entry only when the check itself grew the file's
// automata (its meter, read through the kept rules, moved: the hit loads
// neither the result, the agent nor the file): a check that grew nothing
// leaves Result.rechargeAfter as the last check that grew something, or
// kept a resolution, left it, and that check asked.
func (c *Checker) allowedWarm(agent, pageURL string) (res *Result, allowed, ok bool) {
	origin, rest, ok := warmSplit(pageURL)
	if !ok {
		return nil, false, false
	}
	v := c.cache.warmView(origin, agent)
	if v == nil {
		return nil, false, false
	}
	c.cache.hit(v)
	before := v.rules.Metered()
	allowed = v.allows(rest)
	if v.rules.Metered() != before {
		c.recharge(origin, v.res)
	}
	return v.res, allowed, true
}

// decideWarm is Decide on the warm route, for the one agent of agents. It
// sets *v and counts the hit; it returns false, and sets and counts
// nothing, for a URL the route does not take. It recharges the entry as
// allowedWarm does, when the check grew the file.
func (c *Checker) decideWarm(agents []string, pageURL string, v *Verdict) bool {
	origin, rest, ok := warmSplit(pageURL)
	if !ok {
		return false
	}
	w := c.cache.warmView(origin, agents[0])
	if w == nil {
		return false
	}
	c.cache.hit(w)
	a, _ := w.res.agent(agents) // kept on the result with the view's: found at once
	before := w.rules.Metered()
	p := page{raw: pageURL, origin: origin, rest: rawurl.BeforeFragment(rest), plain: true}
	setVerdict(v, w.res, a, pageURL, p.decidedBy(a))
	if w.rules.Metered() != before {
		c.recharge(origin, w.res)
	}
	return true
}

// resolve returns the origin's answer, from the cache or fetched, and the
// agents' resolution on it, kept on the answer. A hit for one agent that
// is its own key (ownKey: every agent but one that starts with a NUL)
// finds the resolution the entry keeps, when it is that agent's, and
// otherwise keeps it there, for the next hit: the warm path compares the
// agent it is asked for with the kept one's key as they are written.
func (c *Checker) resolve(ctx context.Context, agents []string, origin string) (*Result, *Agent, error) {
	if len(agents) != 1 || !ownKey(agents[0]) {
		res, err := c.cache.get(ctx, origin)
		if err != nil {
			return nil, nil, err
		}
		a, _ := res.agent(agents)
		return res, a, nil
	}
	key := agents[0]
	v := c.cache.freshView(origin, true)
	if v == nil {
		res, err := c.cache.getMiss(ctx, origin)
		if err != nil {
			return nil, nil, err
		}
		a, _ := res.agent(agents)
		return res, a, nil
	}
	a, _ := v.res.agent(agents) // the result keeps it: found at once
	c.cache.keepAgent(v, key, a)
	return v.res, a, nil
}

// recharge charges the origin's entry again when checks have grown its
// file's automata since it was last charged (Result.rechargeAfter).
func (c *Checker) recharge(origin string, res *Result) {
	if res.rechargeAfter() {
		c.cache.charge(origin, res)
	}
}

// verdict returns a's verdict for the page p under res.
func verdict(res *Result, a *Agent, p *page) (v Verdict) {
	setVerdict(&v, res, a, p.raw, p.decidedBy(a))
	return v
}

// setVerdict sets *v to the verdict of a's decision d on pageURL under
// res, in place: a Verdict is 104 bytes, which a hit should not copy from
// frame to frame.
func setVerdict(v *Verdict, res *Result, a *Agent, pageURL string, d robots.Decision) {
	*v = Verdict{Allowed: d.Allowed, Rule: d.Rule, Empty: d.Empty, Line: d.Line(), Policy: res.Policy,
		Result: res, CrawlDelay: a.pacing.crawlDelay, RequestRate: a.pacing.requestRate,
		Usage: a.usage(pageURL, d.Allowed).WithHeader(res.ContentUsage)}
}
