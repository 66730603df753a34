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
// FullAllow, FullDisallow or Conditional. It is robots.Policy, whose
// robots.StatusPolicy is the one table from HTTP status to policy that the
// Fetcher applies.
type Policy = robots.Policy

// The policies, as package robots names them.
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

// The reasons, as package robots names them.
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
	// CacheOptions.Unreachable (30 days) and no copy was ever fetched
	// (FullAllow).
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
	// Bytes is how many bytes of the (decompressed) body were read and
	// parsed; Truncated is true when the body was longer and the rest was
	// neither read nor parsed.
	Bytes     int
	Truncated bool
	// FetchedAt is when the response came; Expires is when the answer
	// should be fetched again: its freshness lifetime for a definite answer,
	// the retry time for a failure.
	FetchedAt time.Time
	Expires   time.Time
	// RetryAfter is the server's Retry-After with a 5xx or 429, 0 when it
	// sent none.
	RetryAfter time.Duration
	// ContentUsage is the response's Content-Usage field
	// (usage.ParseHeader), every category Unknown when it had none or when
	// the response was not a 2xx. Verdict.Usage combines it with the
	// file's lines.
	ContentUsage usage.Preference

	// The fields below are set by Cache on the answers it serves while an
	// origin fails.

	// Stale is true when this is the last good copy, served because the
	// latest fetch failed; Expires is then the next retry.
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

// maxCachedAgents bounds the agent lists whose resolution a Result keeps.
const maxCachedAgents = 64

// agentsKey returns the key of a fallback list, one for each list: one
// agent is its own key, unless it starts with a NUL (ownKey); any other
// list, none included, is a NUL and then, for each agent, its length (a
// uvarint) and its bytes (appendListKey), which no agent that is its own
// key starts with. Two lists share a key only when they are the same
// list: joined by NUL alone, ["a\x00b" "c"] and ["a" "b" "c"] had one, and
// the second list asked on an answer got the first one's resolution. The
// key of no agent ('*' alone) is not that of the agent "".
func agentsKey(agents []string) string {
	switch {
	case listKey(agents):
		return string(appendListKey(nil, agents))
	case len(agents) == 0:
		return "\x00"
	}
	return agents[0]
}

// ownKey reports whether the list of agent alone has agent for its key:
// any agent but one that starts with a NUL, as list keys do.
func ownKey(agent string) bool { return agent == "" || agent[0] != 0 }

// listKey reports whether the key of agents is written out
// (appendListKey): neither no agent's nor one agent's own.
func listKey(agents []string) bool {
	return len(agents) > 1 || len(agents) == 1 && !ownKey(agents[0])
}

// appendListKey appends to buf the key of a list that is not its own:
// a NUL, then each agent's length, a uvarint, and its bytes.
func appendListKey(buf []byte, agents []string) []byte {
	buf = append(buf, 0)
	for _, a := range agents {
		buf = binary.AppendUvarint(buf, uint64(len(a)))
		buf = append(buf, a...)
	}
	return buf
}

// agentsKeyIn returns agentsKey(agents) for a lookup only: a list's key
// is written in buf, which the string shares, so that finding a kept
// resolution copies nothing; a key longer than buf is allocated.
func agentsKeyIn(buf []byte, agents []string) string {
	if !listKey(agents) {
		return agentsKey(agents)
	}
	buf = appendListKey(buf, agents)
	return bytestr.String(buf) // buf is not written while the key is read
}

// resolutionBytes returns what a kept resolution of key costs besides the
// rules compiled for it, which the parsed file reports (as it does the
// agent's usage lines, kept beside those rules): the fetch.Agent and
// robots.Agent values, and the key when it joins a list (one agent's key is the caller's string).
// Where it is kept (the first slot, or its share of the map) is counted
// by the agentCache. TestCacheChargesOrdinaryEntries and
// TestCacheHoldsOriginsAtTheirCharge hold the whole charge to the heap.
func resolutionBytes(key string, a *Agent) int64 {
	n := alloc.Size(agentBytes) + alloc.Size(robotsAgentBytes)
	if a.pacing != &noPacing {
		n += alloc.Size(pacingBytes)
	}
	if len(key) > 1 && key[0] == 0 { // a joined list; no agent's key is a constant
		n += alloc.Size(len(key))
	}
	return int64(n)
}

// The sizes of what a resolution keeps.
var (
	agentBytes       = alloc.SizeOf[Agent]()
	robotsAgentBytes = alloc.SizeOf[robots.Agent]()
	pacingBytes      = alloc.SizeOf[pacing]()
	agentCacheBytes  = alloc.SizeOf[agentCache]()
)

// agentMapSlot is the size of an entry of a map of agents: a key and a
// pointer.
const agentMapSlot = 16 + 8

// resultBytes is the size of a Result.
var resultBytes = int64(alloc.SizeOf[Result]())

// agentCache keeps the *Agent of each agent list asked of one Result, and
// what the entry holding the result was last charged for its file. A
// lookup takes no lock and writes nothing: the map is never changed once
// published, a new resolution publishes a copy (at most maxCachedAgents
// entries, so a copy is short, and resolutions are rare).
type agentCache struct {
	// first is the first resolution kept, of firstKey, looked up before m:
	// a crawler asks under one name, found with one string comparison.
	// firstKey is written once, before first is published, and read only
	// after first is loaded.
	first    atomic.Pointer[Agent]
	firstKey string
	// m keeps the resolutions after the first, by the agents joined by
	// NUL; looking up copies nothing. A crawler asks under one name: most
	// results never make it.
	m        atomic.Pointer[map[string]*Agent]
	mu       sync.Mutex   // serialises stores
	n        atomic.Int32 // resolutions kept, the first included
	chargedN atomic.Int32 // n when last charged
	bytes    atomic.Int64 // what they cost (resolutionBytes), with the slot and map that keep them
	charged  atomic.Int64 // robotsBytes when last charged
}

// load returns the Agent kept for key.
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

// loadFor is load of agents' key (agentsKey). A list's key is joined in a
// buffer on the stack of loadJoined, so that the path of one agent, a hit's,
// does not clear it.
func (c *agentCache) loadFor(agents []string) (*Agent, bool) {
	if !listKey(agents) {
		return c.load(agentsKey(agents))
	}
	return c.loadJoined(agents)
}

// loadJoined is loadFor for a list of agents that is not its own key.
//
//go:noinline
func (c *agentCache) loadJoined(agents []string) (*Agent, bool) {
	var buf [256]byte
	return c.load(agentsKeyIn(buf[:0], agents))
}

// store keeps a for key unless another is kept already, or the cache is
// full, and returns the one kept (a, when it is new) and whether it is new.
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

// allowAll and disallowAll answer for every crawler under a result whose
// Policy is FullAllow or FullDisallow: the agents of an empty file that
// package robots built with that policy, which they honour.
var (
	allowAll    = newAgent(robots.FromStatus(http.StatusNotFound, nil).Agent())
	disallowAll = newAgent(robots.FromStatus(http.StatusServiceUnavailable, nil).Agent())
)

// Agent resolves the groups that apply to a crawler, as robots.Robots.Agent
// does (an ordered fallback list, most specific first; none: only the '*'
// groups), and returns an *Agent under the result's policy: under FullAllow
// every URL is allowed, under FullDisallow (or no policy) none is. The
// resolution is kept, so asking again with the same agents is cheap.
func (r *Result) Agent(agents ...string) *Agent {
	a, _ := r.agent(agents)
	return a
}

// agent is Agent; it also reports whether the result kept a new resolution.
func (r *Result) agent(agents []string) (*Agent, bool) {
	switch {
	case r.Policy == FullAllow:
		return allowAll, false
	case r.Policy != Conditional:
		return disallowAll, false
	case r.Robots == nil:
		return allowAll, false // a Conditional Result built by hand, with no file: no rule disallows
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

// robotsBytes returns the memory of the parsed file and the resolutions
// the result keeps, and records it as charged.
func (r *Result) robotsBytes() int64 {
	n := r.Robots.MemoryBytes()
	if r.agents != nil {
		r.agents.chargedN.Store(r.agents.n.Load())
		n += int64(alloc.Size(agentCacheBytes)) + r.agents.bytes.Load()
		r.agents.charged.Store(n)
	}
	return n
}

// rechargeAfter reports whether the result's entry is to be charged
// again: when a resolution was kept since it was last charged (an entry
// is charged when fetched, before any crawler resolves its groups on it),
// or when its file has grown since by an eighth, and at least 512 bytes,
// so that an entry is recharged a few times as its automata grow, not at
// every check.
func (r *Result) rechargeAfter() bool {
	if r.agents == nil || r.Robots == nil {
		return false
	}
	if r.agents.n.Load() != r.agents.chargedN.Load() {
		return true // a resolution kept since: the entry was charged before it
	}
	charged := r.agents.charged.Load()
	now := r.Robots.MemoryBytes() + int64(alloc.Size(agentCacheBytes)) + r.agents.bytes.Load()
	return now-charged > max(charged/8, 512)
}

// Agent answers for one crawler under one fetched robots.txt, whatever its
// policy. It is immutable and safe for concurrent use.
//
// It wraps a robots.Agent, which honours the policy: under FullAllow and
// FullDisallow that is the agent of an empty file built with the policy
// (robots.FromStatus), so package robots is the one place that says what
// a policy allows.
type Agent struct {
	agent    *robots.Agent
	pacing   *pacing // never nil: noPacing when the groups ask for none
	hasUsage bool    // any Content-Usage or Content-Signal line applies
}

// pacing is the pacing directives of an agent's groups, read once. Most
// groups have none: their agents share noPacing, and an Agent, which a
// cache keeps for each site, stays three words.
type pacing struct {
	crawlDelay     time.Duration
	requestRate    robots.RequestRate
	hasCrawlDelay  bool
	hasRequestRate bool
}

// noPacing is the pacing of every agent whose groups ask for none.
var noPacing pacing

// newAgent returns the Agent of a resolved robots.Agent.
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

// CrawlDelay returns the Crawl-delay of the agent's groups (see
// robots.Agent.CrawlDelay); ok is false when they have none, as always
// under FullAllow and FullDisallow.
func (a *Agent) CrawlDelay() (d time.Duration, ok bool) {
	return a.pacing.crawlDelay, a.pacing.hasCrawlDelay
}

// RequestRate returns the Request-rate of the agent's groups (see
// robots.Agent.RequestRate); ok is false when they have none.
func (a *Agent) RequestRate() (r robots.RequestRate, ok bool) {
	return a.pacing.requestRate, a.pacing.hasRequestRate
}

// Delay returns the least time between two requests to the origin that the
// agent's groups ask for: the longer of the Crawl-delay and the interval of
// the Request-rate (Per / Requests), whatever the Request-rate's visiting
// window; 0 when they ask for none.
func (a *Agent) Delay() time.Duration { return delayOf(a.pacing.crawlDelay, a.pacing.requestRate) }

// delayOf is the longer of a crawl delay and the interval of a rate.
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
// that decided it. Under FullAllow and FullDisallow no rule decides: Rule
// is nil.
func (a *Agent) Decide(rawURL string) robots.Decision { return a.agent.Decide(rawURL) }

// Usage returns what the agent's groups say about the use of rawURL's
// content (robots.Agent.Usage); Verdict.Usage adds the response's
// Content-Usage field.
func (a *Agent) Usage(rawURL string) usage.Usage { return a.agent.Usage(rawURL) }

// usage returns the groups' Usage for rawURL, whose verdict is allowed;
// with no line to read it is the verdict alone, at no cost to a check.
func (a *Agent) usage(rawURL string, allowed bool) usage.Usage {
	if !a.hasUsage {
		return usage.Usage{Allowed: allowed}
	}
	return a.agent.UsageGiven(rawURL, allowed)
}
