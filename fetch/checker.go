package fetch

import (
	"context"
	"strings"
	"time"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/rawurl"
	"github.com/fastrobots/robots/usage"
)

// Checker answers whether a crawler may fetch a URL, fetching and caching
// the robots.txt of its origin as needed. It is safe for concurrent use.
type Checker struct {
	cache *Cache
}

// NewChecker returns a checker over c; a nil c means a cache with a zero
// Fetcher and default options.
func NewChecker(c *Cache) *Checker {
	if c == nil {
		c = NewCache(nil, CacheOptions{})
	}
	return &Checker{cache: c}
}

// Cache returns the checker's cache.
func (c *Checker) Cache() *Cache { return c.cache }

// Verdict is the answer for one URL, with the rule that decided, the
// policy, and the pacing the crawler's groups ask for.
type Verdict struct {
	Allowed bool
	// Rule is the rule that decided under a Conditional policy; nil when
	// no rule decided (always under FullAllow and FullDisallow).
	Rule *robots.Rule
	// Empty is, when no rule decided, the empty rule ("Allow:" or
	// "Disallow:") whose line Google's reference names
	// (robots.Decision.Empty); nil otherwise.
	Empty *robots.Rule
	// Line is robots.Decision.Line: Rule's, else Empty's, else 0.
	Line int
	// Policy is Result.Policy.
	Policy Policy
	// CrawlDelay and RequestRate are those of the crawler's groups, zero
	// when unset. Google reads neither; Bing, Yandex and others do. Delay
	// combines them.
	CrawlDelay  time.Duration
	RequestRate robots.RequestRate
	// Usage combines the crawler's groups' robots.Agent.Usage with the
	// robots.txt response's Content-Usage field (Result.ContentUsage).
	Usage usage.Usage
	// Result is the robots.txt answer that applied.
	Result *Result
}

// Delay returns the least time between two requests to the origin that
// the crawler's groups ask for: the longer of CrawlDelay and
// RequestRate's interval (Per / Requests); 0 when they ask for none.
func (v Verdict) Delay() time.Duration { return delayOf(v.CrawlDelay, v.RequestRate) }

// Every method takes the crawler first, then the URL: an agent (a product
// token such as "Googlebot") as robots.Robots.Agent reads it, or for the
// ...Agents forms an ordered fallback list, most specific first; an empty
// list is governed only by the '*' groups.

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
	agents := [1]string{agent} // stays on the stack: allowedPage keeps no list
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
	agents := [1]string{agent} // stays on the stack: no path keeps the list
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

func (c *Checker) decidePage(ctx context.Context, agents []string, p *page) (Verdict, error) {
	res, a, err := c.resolve(ctx, agents, p.origin)
	if err != nil {
		return Verdict{}, err
	}
	v := verdict(res, a, p)
	c.recharge(p.origin, res)
	return v, nil
}

// The warm route serves a URL of an origin the cache holds fresh with the
// agent's resolution kept on its entry: it splits the URL once, looks the
// origin up as written, and checks the rest with the view's kept rules,
// without a lock. Any other URL is answered in full (readPage).

// warmSplit splits pageURL where its path starts (robots.PathStart), or
// at its fragment when it has none. ok is false when the path starts with
// ';', which can follow no origin the cache holds.
func warmSplit(pageURL string) (origin, rest string, ok bool) {
	i := robots.PathStart(pageURL)
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

// allowedWarm returns the answer it checked under, for the Transport's
// pacing; ok is false, and nothing is counted, when the warm route does
// not apply. It keeps nothing of pageURL past the call.
//
// It recharges the entry only when this check grew the file's automata:
// any earlier growth was recharged by the check that caused it.
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
	before := v.check.MemoryBytes()
	allowed = v.check.Allowed(rest)
	if v.check.MemoryBytes() != before {
		c.recharge(origin, v.res)
	}
	return v.res, allowed, true
}

// decideWarm is allowedWarm for Decide, with agents of length one. It
// fills *v in place rather than return a Verdict, which is large.
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
	a, _ := w.res.agent(agents)
	before := w.check.MemoryBytes()
	p := page{raw: pageURL, origin: origin, rest: rawurl.BeforeFragment(rest), plain: true}
	setVerdict(v, w.res, a, pageURL, p.decidedBy(a))
	if w.check.MemoryBytes() != before {
		c.recharge(origin, w.res)
	}
	return true
}

// resolve returns the origin's answer and the agents' resolution on it.
// For a single agent that is its own key (ownKey), it keeps the
// resolution on the entry so that the next hit can take the warm path.
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
	a, _ := v.res.agent(agents)
	c.cache.keepAgent(v, key, a)
	return v.res, a, nil
}

// recharge keeps MaxMemory accounting true as checks grow a file's
// automata.
func (c *Checker) recharge(origin string, res *Result) {
	if res.rechargeAfter() {
		c.cache.charge(origin, res)
	}
}

func verdict(res *Result, a *Agent, p *page) (v Verdict) {
	setVerdict(&v, res, a, p.raw, p.decidedBy(a))
	return v
}

// setVerdict fills *v in place so that a hit does not copy a Verdict
// between frames.
func setVerdict(v *Verdict, res *Result, a *Agent, pageURL string, d robots.Decision) {
	*v = Verdict{Allowed: d.Allowed, Rule: d.Rule, Empty: d.Empty, Line: d.Line(), Policy: res.Policy,
		Result: res, CrawlDelay: a.pacing.crawlDelay, RequestRate: a.pacing.requestRate,
		Usage: a.usage(pageURL, d.Allowed).WithHeader(res.ContentUsage)}
}
