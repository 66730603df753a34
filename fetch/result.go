package fetch

import (
	"encoding/binary"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/alloc"
	"github.com/fastrobots/robots/internal/bytestr"
	"github.com/fastrobots/robots/usage"
)

// Policy is how a robots.txt fetch governs the URLs of its origin:
// FullAllow, FullDisallow or Conditional. It is robots.Policy.
type Policy = robots.Policy

const (
	// FullAllow: every URL may be fetched, as when there is no robots.txt.
	FullAllow = robots.FullAllow
	// FullDisallow: no URL may be fetched.
	FullDisallow = robots.FullDisallow
	// Conditional: the rules of the fetched robots.txt decide.
	Conditional = robots.Conditional
)

// Reason is why a policy applies. It is robots.Reason.
type Reason = robots.Reason

const (
	// ReasonOK: a 2xx response; its body was parsed (Conditional).
	ReasonOK = robots.ReasonOK
	// ReasonUnavailable: a 4xx response other than 429 (FullAllow).
	ReasonUnavailable = robots.ReasonUnavailable
	// ReasonRedirects: more redirects than Fetcher.MaxRedirects, a loop, or
	// a redirect that cannot be followed; treated as a 404 (FullAllow).
	ReasonRedirects = robots.ReasonRedirects
	// ReasonServerError: a 5xx response (FullDisallow).
	ReasonServerError = robots.ReasonServerError
	// ReasonTooManyRequests: a 429 response (FullDisallow).
	ReasonTooManyRequests = robots.ReasonTooManyRequests
	// ReasonNetwork: no usable response: DNS, connection or TLS failure,
	// timeout, reset, truncated or invalid response (FullDisallow).
	ReasonNetwork = robots.ReasonNetwork
	// ReasonUnreachable: set by Cache: the origin has failed for longer than
	// CacheOptions.Unreachable and no copy was ever fetched (FullAllow).
	ReasonUnreachable = robots.ReasonUnreachable
)

// Result is the outcome of fetching a robots.txt: the policy that applies
// to its origin, why, and until when. A Result is immutable once returned
// and safe for concurrent use.
type Result struct {
	// URL is the robots.txt URL asked for; FinalURL the last one requested,
	// after Redirects redirects.
	URL       string
	FinalURL  string
	Redirects int
	// Status is the HTTP status of the last response, 0 when there was none.
	Status int
	Policy Policy
	Reason Reason
	// Err is the failure behind ReasonNetwork and ReasonRedirects.
	Err error
	// Robots is the parsed file when Policy is Conditional, nil otherwise.
	Robots *robots.Robots
	// Bytes is how many bytes of the decompressed body were parsed;
	// Truncated is true when the body was longer.
	Bytes     int
	Truncated bool
	// FetchedAt is when the response came; Expires is when the answer
	// should be fetched again (the retry time, for a failure).
	FetchedAt time.Time
	Expires   time.Time
	// RetryAfter is the server's Retry-After with a 5xx or 429, 0 when it
	// sent none.
	RetryAfter time.Duration
	// ContentUsage is the 2xx response's Content-Usage field
	// (usage.ParseHeader); every category is Unknown otherwise.
	ContentUsage usage.Preference

	// The fields below are set by Cache while an origin fails.

	// Stale is true when this is the last good copy, served because the
	// latest fetch failed; Expires is then the next retry. An Offline
	// cache sets it on an answer Put seeded past its Expires.
	Stale bool
	// FailingSince is when the origin's current run of failed fetches
	// began; zero when the latest fetch got a definite answer.
	FailingSince time.Time
	// LastFailure is the latest failed fetch, when FailingSince is set.
	LastFailure *Result

	agents *agentCache
}

// Lifetime returns how long the answer holds: Expires - FetchedAt.
func (r *Result) Lifetime() time.Duration { return r.Expires.Sub(r.FetchedAt) }

// maxCachedAgents bounds the resolutions a Result keeps, since callers
// choose the agent lists.
const maxCachedAgents = 64

// agentsKey returns a key unique to each fallback list: one agent is its
// own key unless it starts with a NUL (ownKey); any other list is a NUL
// followed by each agent length-prefixed, so that no two lists share a
// key. The empty list's key differs from that of the agent "".
func agentsKey(agents []string) string {
	switch {
	case listKey(agents):
		return string(appendListKey(nil, agents))
	case len(agents) == 0:
		return "\x00"
	}
	return agents[0]
}

func ownKey(agent string) bool { return agent == "" || agent[0] != 0 }

func listKey(agents []string) bool {
	return len(agents) > 1 || len(agents) == 1 && !ownKey(agents[0])
}

func appendListKey(buf []byte, agents []string) []byte {
	buf = append(buf, 0)
	for _, a := range agents {
		buf = binary.AppendUvarint(buf, uint64(len(a)))
		buf = append(buf, a...)
	}
	return buf
}

// agentsKeyIn is agentsKey for a lookup only: the key shares buf, so it
// must not outlive buf or be kept.
func agentsKeyIn(buf []byte, agents []string) string {
	if !listKey(agents) {
		return agentsKey(agents)
	}
	buf = appendListKey(buf, agents)
	return bytestr.String(buf)
}

// resolutionBytes excludes the compiled rules, which the parsed file
// reports, and the map slot, which agentCache counts.
func resolutionBytes(key string, a *Agent) int64 {
	n := alloc.Size(agentBytes) + alloc.Size(robotsAgentBytes)
	if a.pacing != &noPacing {
		n += alloc.Size(pacingBytes)
	}
	if len(key) > 1 && key[0] == 0 { // a joined list's key; "\x00" alone is a constant
		n += alloc.Size(len(key))
	}
	return int64(n)
}

var (
	agentBytes       = alloc.SizeOf[Agent]()
	robotsAgentBytes = alloc.SizeOf[robots.Agent]()
	pacingBytes      = alloc.SizeOf[pacing]()
	agentCacheBytes  = alloc.SizeOf[agentCache]()
)

// agentMapSlot is a string key and a pointer.
const agentMapSlot = 16 + 8

var resultBytes = int64(alloc.SizeOf[Result]())

// agentCache keeps the *Agent of each agent list asked of one Result. A
// lookup takes no lock and writes nothing: a published map is never
// changed, and a store publishes a copy, which is cheap because
// resolutions are few and rare.
type agentCache struct {
	// first serves the common crawler that asks under one name without a
	// map. firstKey is written once, before first is published, and read
	// only after first is loaded.
	first    atomic.Pointer[Agent]
	firstKey string
	// m keeps the resolutions after the first.
	m        atomic.Pointer[map[string]*Agent]
	mu       sync.Mutex   // serialises stores
	n        atomic.Int32 // resolutions kept, the first included
	chargedN atomic.Int32 // n when last charged
	bytes    atomic.Int64 // resolutionBytes of all, with the slots and map that keep them
	charged  atomic.Int64 // robotsBytes when last charged
}

func (c *agentCache) load(key string) (*Agent, bool) {
	if f := c.first.Load(); f != nil && c.firstKey == key {
		return f, true
	}
	m := c.m.Load()
	if m == nil {
		return nil, false
	}
	a, ok := (*m)[key]
	return a, ok
}

// loadFor keeps the key buffer in loadJoined so that the one-agent path
// does not pay for clearing it.
func (c *agentCache) loadFor(agents []string) (*Agent, bool) {
	if !listKey(agents) {
		return c.load(agentsKey(agents))
	}
	return c.loadJoined(agents)
}

//go:noinline
func (c *agentCache) loadJoined(agents []string) (*Agent, bool) {
	var buf [256]byte
	return c.load(agentsKeyIn(buf[:0], agents))
}

// store returns the Agent kept for key, which is a unless another was kept
// first, and whether a is newly kept. When full, it keeps nothing.
func (c *agentCache) store(key string, a *Agent) (*Agent, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.load(key); ok {
		return prev, false
	}
	if c.n.Load() >= maxCachedAgents {
		return a, false
	}
	c.n.Add(1)
	cost := resolutionBytes(key, a)
	if c.first.Load() == nil {
		c.firstKey = key
		c.first.Store(a)
		c.bytes.Add(cost)
		return a, true
	}
	var old map[string]*Agent
	if p := c.m.Load(); p != nil {
		old = *p
	}
	m := make(map[string]*Agent, len(old)+1)
	for k, v := range old {
		m[k] = v
	}
	m[key] = a
	c.m.Store(&m)
	c.bytes.Add(cost + int64(alloc.MapBytes(len(m), agentMapSlot)-alloc.MapBytes(len(old), agentMapSlot)))
	return a, true
}

// allowAll and disallowAll answer for every crawler under FullAllow and
// FullDisallow, so that package robots alone says what a policy allows.
var (
	allowAll    = newAgent(robots.FromStatus(http.StatusNotFound, nil).Agent())
	disallowAll = newAgent(robots.FromStatus(http.StatusServiceUnavailable, nil).Agent())
)

// Agent resolves the groups that apply to a crawler, as robots.Robots.Agent
// does, under the result's policy: under FullAllow every URL is allowed,
// under FullDisallow none is. The resolution is kept for the next call.
func (r *Result) Agent(agents ...string) *Agent {
	a, _ := r.agent(agents)
	return a
}

// agent also reports whether the result kept a new resolution.
func (r *Result) agent(agents []string) (*Agent, bool) {
	switch {
	case r.Policy == FullAllow:
		return allowAll, false
	case r.Policy != Conditional:
		return disallowAll, false
	case r.Robots == nil:
		return allowAll, false // a Conditional Result built by hand: no rule disallows
	}
	if r.agents != nil {
		if a, ok := r.agents.loadFor(agents); ok {
			return a, false
		}
	}
	a := newAgent(r.Robots.Agent(agents...))
	if r.agents != nil {
		return r.agents.store(agentsKey(agents), a)
	}
	return a, false
}

// robotsBytes records what it returns as charged.
func (r *Result) robotsBytes() int64 {
	n := r.Robots.MemoryBytes()
	if r.agents != nil {
		r.agents.chargedN.Store(r.agents.n.Load())
		n += int64(alloc.Size(agentCacheBytes)) + r.agents.bytes.Load()
		r.agents.charged.Store(n)
	}
	return n
}

// rechargeAfter waits for the file to grow by an eighth, so that an entry
// is recharged a few times as its automata grow, not at every check.
func (r *Result) rechargeAfter() bool {
	if r.agents == nil || r.Robots == nil {
		return false
	}
	if r.agents.n.Load() != r.agents.chargedN.Load() {
		return true
	}
	charged := r.agents.charged.Load()
	now := r.Robots.MemoryBytes() + int64(alloc.Size(agentCacheBytes)) + r.agents.bytes.Load()
	return now-charged > max(charged/8, 512)
}

// Agent answers for one crawler under one fetched robots.txt, whatever its
// policy. It is immutable and safe for concurrent use.
type Agent struct {
	agent    *robots.Agent
	pacing   *pacing // never nil: noPacing when the groups ask for none
	hasUsage bool    // any Content-Usage or Content-Signal line applies
}

// pacing is kept apart from Agent because most groups have none: their
// agents share noPacing, and an Agent, kept for each site, stays small.
type pacing struct {
	crawlDelay     time.Duration
	requestRate    robots.RequestRate
	hasCrawlDelay  bool
	hasRequestRate bool
}

var noPacing pacing

func newAgent(a *robots.Agent) *Agent {
	p := pacing{}
	p.crawlDelay, p.hasCrawlDelay = a.CrawlDelay()
	p.requestRate, p.hasRequestRate = a.RequestRate()
	fa := &Agent{agent: a, pacing: &noPacing, hasUsage: a.HasUsage()}
	if p != noPacing {
		fa.pacing = &p
	}
	return fa
}

// CrawlDelay returns the Crawl-delay of the agent's groups; ok is false
// when they have none, as always under FullAllow and FullDisallow.
func (a *Agent) CrawlDelay() (d time.Duration, ok bool) {
	return a.pacing.crawlDelay, a.pacing.hasCrawlDelay
}

// RequestRate returns the Request-rate of the agent's groups; ok is false
// when they have none.
func (a *Agent) RequestRate() (r robots.RequestRate, ok bool) {
	return a.pacing.requestRate, a.pacing.hasRequestRate
}

// Delay returns the longer of the Crawl-delay and the Request-rate's
// interval (Per / Requests), ignoring its visiting window; 0 when the
// agent's groups ask for neither.
func (a *Agent) Delay() time.Duration { return delayOf(a.pacing.crawlDelay, a.pacing.requestRate) }

func delayOf(crawlDelay time.Duration, rate robots.RequestRate) time.Duration {
	d := crawlDelay
	if rate.Requests > 0 {
		d = max(d, rate.Per/time.Duration(rate.Requests))
	}
	return d
}

// Policy returns the policy the answers follow.
func (a *Agent) Policy() Policy { return a.agent.Policy() }

// Robots returns the compiled agent when the policy is Conditional, nil
// otherwise.
func (a *Agent) Robots() *robots.Agent {
	if a.agent.Policy() != Conditional {
		return nil
	}
	return a.agent
}

// Allowed reports whether the crawler may fetch rawURL. Only its path and
// query count: the caller checks that rawURL belongs to the origin.
func (a *Agent) Allowed(rawURL string) bool { return a.agent.Allowed(rawURL) }

// AllowedPath reports whether the crawler may fetch the URL whose path,
// parameters and query are pathAndQuery.
func (a *Agent) AllowedPath(pathAndQuery string) bool { return a.agent.AllowedPath(pathAndQuery) }

// AllowedURL reports whether the crawler may fetch u.
func (a *Agent) AllowedURL(u *url.URL) bool { return a.agent.AllowedURL(u) }

// Decide returns the verdict for rawURL and, under Conditional, the rule
// that decided it.
func (a *Agent) Decide(rawURL string) robots.Decision { return a.agent.Decide(rawURL) }

// Usage returns robots.Agent.Usage; Verdict.Usage also adds the
// response's Content-Usage field.
func (a *Agent) Usage(rawURL string) usage.Usage { return a.agent.Usage(rawURL) }

func (a *Agent) usage(rawURL string, allowed bool) usage.Usage {
	if !a.hasUsage {
		return usage.Usage{Allowed: allowed}
	}
	return a.agent.UsageGiven(rawURL, allowed)
}
