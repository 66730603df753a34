// Package robots parses robots.txt files and answers whether a crawler may
// fetch a URL, reaching the verdict Google's crawler reaches.
//
// Parse reads any byte string as a robots.txt; it never fails. Agent picks
// the groups that apply to a crawler once, and the returned *Agent answers
// for any number of URLs, from any number of goroutines:
//
//	r := robots.Parse(body)
//	bot := r.Agent("Googlebot-Image", "Googlebot") // most specific first
//	if bot.Allowed("https://example.com/photos/1.jpg") { ... }
//
// The default mode reproduces Google's open-source reference parser,
// leniencies included; WithMode(RFC) reads the file as strict RFC 9309.
// docs/semantics.md lists every rule with its source.
//
// A crawler that fetched robots.txt itself hands the response to
// FromResponse, or the status and body to FromStatus: a 2xx body is parsed,
// a 4xx allows everything, and a 5xx, a 429 or a network failure disallows
// everything (StatusPolicy).
//
// This package is the stable API; packages compile, automaton and runtime
// are the layers it is built on, and may change. Package fetch fetches and
// caches robots.txt files over HTTP.
package robots

import (
	"net/url"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/internal/alloc"
	"github.com/fastrobots/robots/runtime"
)

// Mode selects how a robots.txt is read.
type Mode uint8

const (
	// Google, the default, reaches the verdict of Google's reference parser
	// on every input.
	Google = Mode(compile.Google)
	// RFC reads robots.txt as RFC 9309 defines it, with none of Google's
	// leniencies, and normalises percent-encoding before comparing.
	RFC = Mode(compile.RFC)
)

// String returns "google" or "rfc".
func (m Mode) String() string { return compile.Mode(m).String() }

// MaxBytes is the default number of bytes of a robots.txt that are read:
// 500 KiB, Google's documented limit. WithMaxBytes changes it.
const MaxBytes = compile.DefaultMaxBytes

// MaxLineBytes is the number of bytes of one line that are read; the rest of
// a longer line is ignored, as Google ignores it.
const MaxLineBytes = compile.MaxLineBytes

// Option configures Parse. For every limit, zero asks for the default and
// a negative value for no limit.
type Option func(*config)

type config struct {
	parse  compile.Options
	budget int
	report bool // WithReport
}

// WithMode selects Google (the default) or strict RFC 9309 reading.
func WithMode(m Mode) Option { return func(c *config) { c.parse.Mode = compile.Mode(m) } }

// WithMaxBytes sets how many bytes of the body are read: n > 0 reads at most
// n bytes, n == 0 restores the default MaxBytes, n < 0 reads all of it.
func WithMaxBytes(n int) Option { return func(c *config) { c.parse.MaxBytes = n } }

// DefaultAutomatonBudget is the default of WithAutomatonBudget: 2 MiB.
const DefaultAutomatonBudget = automaton.DefaultBudget

// WithAutomatonBudget sets the memory budget, in bytes, of the automaton
// built for each crawler's rules: n > 0 is the budget, n == 0 restores
// DefaultAutomatonBudget, and n < 0 sets no limit beyond the hard maximum,
// automaton.MaxBudget, which also caps a larger n. Past the budget, checks
// are decided by a slower scanner, still linear in the URL (docs/limits.md).
func WithAutomatonBudget(n int) Option { return func(c *config) { c.budget = n } }

func budget32(b int) int32 {
	if b < 0 {
		return -1
	}
	return int32(min(b, automaton.MaxBudget))
}

// Robots is a parsed robots.txt. It is safe for concurrent use.
//
// A nil *Robots answers as an empty file does (Parse(nil)): no groups, no
// sitemaps or other directives, every URL allowed, and MemoryBytes 0.
// fetch.Result.Robots is nil when the status decided (4xx, 429, 5xx): a
// crawler may read its sitemaps without a test for nil, and asks
// fetch.Result.Agent, which honours the status, for verdicts.
type Robots struct {
	file   *compile.File
	report *Report                 // WithReport's, else nil
	views  atomic.Pointer[[]Group] // the groups, once asked for (groups)

	bodyBytes int
	budget    int32
	policy    uint8
	reason    uint8
	// Agents of the same groups share a rule set: first, once firstReady is
	// set, else sets[selectionKey]. Most files need first alone, no map.
	firstReady atomic.Bool
	// meter, read after every check, stands beside first's hot fields.
	meter automaton.Meter
	first compile.RuleSet
	mu    sync.Mutex // held while adding a selection
	sets  map[string]*compile.RuleSet
}

// Parse reads a robots.txt. Every byte string is a robots.txt: lines that
// do not parse are ignored, and an empty or unreadable body allows all.
// The result's Policy is Conditional: its rules decide.
func Parse(data []byte, opts ...Option) *Robots {
	c := configure(opts)
	r := &Robots{budget: budget32(c.budget), policy: uint8(Conditional), reason: uint8(ReasonOK)}
	c.parse.Meter = &r.meter
	r.parse(data, c)
	r.bodyBytes = len(data)
	if limit := c.parse.BodyLimit(); limit >= 0 && len(data) > limit {
		r.bodyBytes = limit
	}
	r.meter.Add(alloc.Size(robotsBytes))
	return r
}

func configure(opts []Option) config {
	if len(opts) == 0 {
		return config{} // an option escapes what it is handed: most parses pass none
	}
	c := new(config)
	for _, opt := range opts {
		opt(c)
	}
	return *c
}

var robotsBytes = alloc.SizeOf[Robots]()

// emptyRobots is what a nil *Robots answers as.
var emptyRobots = Parse(nil)

func (r *Robots) orEmpty() *Robots {
	if r == nil {
		return emptyRobots
	}
	return r
}

// MemoryBytes returns the memory the parsed file holds, in bytes: its
// records and each resolved agent's rules, with their automata as built so
// far. It grows as checks build states, up to each automaton's budget,
// never shrinks, and is cheap enough to call after every check.
func (r *Robots) MemoryBytes() int64 {
	if r == nil {
		return 0
	}
	return r.meter.Bytes()
}

// Policy returns how the file governs its origin: Conditional for a parsed
// file, its rules deciding; FullAllow or FullDisallow, every URL allowed or
// none, when FromStatus or FromResponse found no rules to read.
func (r *Robots) Policy() Policy { return Policy(r.orEmpty().policy) }

// Reason returns why the Policy applies: the row of StatusPolicy's table;
// ReasonOK for a file given to Parse.
func (r *Robots) Reason() Reason { return Reason(r.orEmpty().reason) }

// BodyBytes returns how many bytes of the body were parsed: at most the
// size limit (Truncated reports whether there were more), and 0 when the
// policy is not Conditional.
func (r *Robots) BodyBytes() int { return r.orEmpty().bodyBytes }

// Mode returns the mode the file was parsed in.
func (r *Robots) Mode() Mode { return Mode(r.orEmpty().file.Mode) }

// Groups returns the file's groups in file order. The slice and what it
// holds are shared and must not be modified.
func (r *Robots) Groups() []Group { return r.orEmpty().groups() }

// Sitemaps returns the values of the file's sitemap lines, in file order.
func (r *Robots) Sitemaps() []string {
	sitemaps := r.orEmpty().file.Sitemaps()
	out := make([]string, len(sitemaps))
	for i, d := range sitemaps {
		out[i] = d.Value
	}
	return out
}

// Others returns the directives that are neither group lines nor sitemaps
// (crawl-delay, host, ...), in file order. They change no verdict. The
// slice is the caller's.
func (r *Robots) Others() []Directive { return converted(r.orEmpty().file.Others(), directiveOf) }

// Preamble returns the directives of Others that stand before the first
// group (all of them when there is none): lines such as a Content-Signal
// that every group's crawlers read (Agent.Usage). The slice is the caller's.
func (r *Robots) Preamble() []Directive { return converted(r.orEmpty().file.Preamble(), directiveOf) }

// Lines returns the number of lines read, counting the last one.
func (r *Robots) Lines() int { return r.orEmpty().file.Lines }

// Truncated reports whether the body was longer than the size limit and
// its tail was ignored.
func (r *Robots) Truncated() bool { return r.orEmpty().file.Truncated }

// Allowed is Agent(agent).Allowed(rawURL); a crawler that checks many URLs
// should keep the *Agent instead.
func (r *Robots) Allowed(agent, rawURL string) bool {
	return r.Agent(agent).Allowed(rawURL)
}

// Agent resolves the groups that apply to a crawler. agents is an ordered
// fallback list, most specific first: the first agent that some group names
// decides, with all groups naming it merged; when none is named, all '*'
// groups apply (AnyAgent merges those of every agent named). Agents are
// compared with group tokens ignoring ASCII case and are never cut, so pass
// the product token ("Googlebot"), not the full User-Agent header
// (ProductToken finds it).
func (r *Robots) Agent(agents ...string) *Agent {
	r = r.orEmpty()
	return r.agent(r.file.Resolve(agents...))
}

// ProductToken returns the product token a User-Agent value starts with,
// the part a group's user-agent line is compared with: its leading run of
// ASCII letters, '-' and '_'. "Googlebot/2.1 (+http://www.google.com/bot.html)"
// gives "Googlebot".
func ProductToken(userAgent string) string { return compile.ExtractAgent(userAgent) }

// AnyAgent resolves the groups that apply to a crawler answering to all of
// agents at once, as Google's reference parser does when handed several:
// the groups naming any of them are merged; when none is named, the '*'
// groups apply.
func (r *Robots) AnyAgent(agents ...string) *Agent {
	r = r.orEmpty()
	return r.agent(r.file.ResolveAny(agents...))
}

func (r *Robots) agent(sel compile.Selection) *Agent {
	rules := r.ruleSet(sel)
	return &Agent{name: sel.Agent, specific: sel.Specific, robots: r, rules: rules, policy: r.policy, reason: r.reason}
}

// ruleSet returns the rules of sel, compiled once for all of the same groups.
func (r *Robots) ruleSet(sel compile.Selection) *compile.RuleSet {
	if r.firstReady.Load() && slices.Equal(r.first.Groups(), sel.Groups) {
		return &r.first
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	// Compiling builds no automaton yet: it is cheap enough to do locked.
	opts := automaton.Options{Budget: int(r.budget), Meter: &r.meter}
	if !r.firstReady.Load() {
		r.file.CompileTo(&r.first, sel, opts)
		r.firstReady.Store(true)
		return &r.first
	}
	if slices.Equal(r.first.Groups(), sel.Groups) {
		return &r.first
	}
	var buf [64]byte
	key := selectionKey(buf[:0], sel.Groups)
	if rs := r.sets[string(key)]; rs != nil {
		return rs
	}
	compiled := r.file.Compile(sel, opts)
	if r.sets == nil {
		r.sets = map[string]*compile.RuleSet{}
	}
	r.sets[string(key)] = compiled
	n := len(r.sets)
	r.meter.Add(alloc.Size(len(key)) + alloc.MapBytes(n, mapSlotBytes) - alloc.MapBytes(n-1, mapSlotBytes))
	return compiled
}

// mapSlotBytes is the size of an entry of sets: a string and a pointer.
const mapSlotBytes = 16 + 8

// selectionKey appends to dst the map key of a list of groups.
func selectionKey(dst []byte, groups []int32) []byte {
	for _, g := range groups {
		dst = append(dst, byte(g), byte(g>>8), byte(g>>16), byte(g>>24))
	}
	return dst
}

// Agent answers for one crawler against one robots.txt. It is immutable and
// safe for concurrent use.
//
// It honours its Robots' Policy: under FullAllow every URL is allowed and
// under FullDisallow none is, and Decide then returns no rule.
type Agent struct {
	// name and specific are the Selection's; its Groups are the rule set's.
	name   string
	robots *Robots // whose groups a Decision names (Agent.rule)
	rules  *compile.RuleSet
	// policy and reason hold a Policy and a Reason. Unless Conditional, the
	// file is empty and its rules allow every URL: checks test FullDisallow.
	policy   uint8
	reason   uint8
	specific bool
	usage    atomic.Pointer[agentUsage] // read on first Usage call (usage.go)
}

// Every Reason and Policy fits in a uint8 (compilation fails otherwise).
var (
	_ [255 - ReasonUnreachable]struct{}
	_ [255 - Conditional]struct{}
)

// Policy returns the policy of the Robots the agent was resolved on.
func (a *Agent) Policy() Policy { return Policy(a.policy) }

// MemoryBytes returns the MemoryBytes of the agent's Robots.
func (a *Agent) MemoryBytes() int64 { return a.rules.Metered() }

// Name returns the agent whose groups apply, or "" for the '*' groups, or none.
func (a *Agent) Name() string { return a.name }

// selected returns the indexes of the groups that apply, into groups().
func (a *Agent) selected() []int32 { return a.rules.Groups() }

func (a *Agent) groups() []Group { return a.robots.groups() }

func (a *Agent) file() *compile.File { return a.rules.File() }

// Groups returns the indexes, into Robots.Groups, of the groups that apply.
func (a *Agent) Groups() []int { return intSlice(a.selected()) }

// Allowed reports whether the crawler may fetch rawURL. Any string is
// accepted: one that is not a URL is read as Google reads it (see
// runtime.Path). In Google mode it allocates nothing once the states the
// URL needs are built.
func (a *Agent) Allowed(rawURL string) bool {
	if a.Policy() == FullDisallow {
		return false
	}
	i := runtime.PathStart(rawURL)
	if i < 0 { // no path, or a '#' first: the path "/"
		i = len(rawURL)
	}
	return allowedRest(a.rules, rawURL[i:])
}

// AllowedRest is Allowed for a URL already split where its path starts
// (PathStart): rest is the URL from there on, from its '/', '?' or ';',
// with or without its fragment; "" is the path "/". A crawler that keys
// its robots.txt files by origin splits each URL once and hands over the
// rest, which is not read again for a scheme or a host.
func (a *Agent) AllowedRest(rest string) bool {
	return a.Policy() != FullDisallow && allowedRest(a.rules, rest)
}

// AllowedMany sets out[i] to Allowed(urls[i]) for every i: the URLs may be
// of any origins, and any string is accepted, as by Allowed. out must be at
// least as long as urls, or AllowedMany panics before answering any;
// out[len(urls):] is left as it is. Like Allowed, it allocates nothing in
// Google mode once the states the URLs need are built.
func (a *Agent) AllowedMany(urls []string, out []bool) {
	if len(out) < len(urls) {
		panic("robots: AllowedMany: out is shorter than urls")
	}
	out = out[:len(urls)]
	if a.Policy() == FullDisallow {
		clear(out)
		return
	}
	// Rooted paths are checked automaton.Lanes at a time, walked interleaved.
	var paths [automaton.Lanes]string
	var at [automaton.Lanes]int
	k := 0
	for i, u := range urls {
		j := runtime.RootedStart(u)
		if j < 0 {
			out[i] = a.Allowed(u)
			continue
		}
		paths[k], at[k] = u[j:], i
		if k++; k == len(paths) {
			v := a.rules.AllowedLanes(&paths)
			for l, i := range at {
				out[i] = v[l]
			}
			k = 0
		}
	}
	for l := range k {
		out[at[l]] = a.rules.AllowedBeforeFragment(paths[l])
	}
}

// AllowedPath reports whether the crawler may fetch the URL whose path,
// parameters and query are pathAndQuery ("/a/b?c=d"). An empty string is
// read as "/".
func (a *Agent) AllowedPath(pathAndQuery string) bool {
	if pathAndQuery == "" {
		pathAndQuery = "/"
	}
	// One expression, small enough for a crawler's call to be inlined.
	return a.policy != uint8(FullDisallow) && a.rules.Allowed(pathAndQuery, "", "")
}

// AllowedURL reports whether the crawler may fetch u, matching its escaped
// path and raw query.
func (a *Agent) AllowedURL(u *url.URL) bool {
	if a.Policy() == FullDisallow {
		return false
	}
	var buf [runtime.URLPathBytes]byte
	return a.rules.Allowed(runtime.URLParts(u, buf[:0]))
}

// Decision is a verdict and what decided it.
type Decision struct {
	Allowed bool
	// Rule is the rule that decided, or nil when no rule matched (or only an
	// empty one did: see Empty) and the URL is allowed by default, or when
	// the policy is not Conditional.
	Rule *Rule
	// Implicit is true when the URL was allowed without consulting the
	// rules: in RFC mode, /robots.txt itself (RFC 9309 section 2.2.2).
	Implicit bool
	// Empty is, when no rule decided, the empty rule ("Allow:" or
	// "Disallow:") Google's reference parser names instead, which matches
	// every path and decides nothing: the groups' first empty Allow, else
	// their first empty Disallow. It is nil whenever Rule is not.
	Empty *Rule
}

// Line returns the line Google's reference parser names for the verdict
// (RobotsMatcher::matching_line): the line of Rule, else of Empty, else 0.
func (d Decision) Line() int {
	switch {
	case d.Rule != nil:
		return d.Rule.Line
	case d.Empty != nil:
		return d.Empty.Line
	}
	return 0
}

// Decide returns the verdict for rawURL and the rule that decided it.
func (a *Agent) Decide(rawURL string) Decision {
	slash, rest := runtime.PathParts(rawURL)
	return a.decide(slash, rest, "")
}

// DecideURL returns the verdict for u and the rule that decided it.
func (a *Agent) DecideURL(u *url.URL) Decision {
	var buf [runtime.URLPathBytes]byte
	return a.decide(runtime.URLParts(u, buf[:0]))
}

// DecidePath returns the verdict for a path with parameters and query. An
// empty string is read as "/".
func (a *Agent) DecidePath(pathAndQuery string) Decision {
	if pathAndQuery == "" {
		pathAndQuery = "/"
	}
	return a.decide(pathAndQuery, "", "")
}

// decide is Decide for the path x+y+z. Unless the policy is Conditional,
// nothing decides, not even RFC mode's rule for /robots.txt.
func (a *Agent) decide(x, y, z string) Decision {
	if a.Policy() != Conditional {
		return Decision{Allowed: a.Policy() == FullAllow}
	}
	v := a.rules.Decide(x, y, z)
	d := Decision{Allowed: v.Allowed(), Implicit: v.Implicit}
	if v.Matched {
		d.Rule = a.rule(v.ID)
	} else if id, ok := a.rules.Undecided(); ok && !v.Implicit {
		d.Empty = a.rule(id)
	}
	return d
}

// Stats describes the automaton built so far for an agent's rules, which
// every Agent resolved to the same groups shares: what a crawler needs to
// size WithAutomatonBudget. Until the rules compile (Agent.Compile, or after
// compile.HotAfter checks) only Budget is set.
type Stats struct {
	// States is the number of states built, as checks reached them.
	States int
	// Bytes is the memory the automaton holds, counted in Robots.MemoryBytes:
	// its states, and the scanner built once a check passes the budget.
	Bytes int
	// Budget is the memory budget of the states, in bytes.
	Budget int
	// Full is true once a state was refused for the budget: checks that need
	// it reach the same verdict more slowly. A crawler may raise the budget.
	Full bool
}

// Compile builds the automaton of the agent's rules now, and returns a.
// Otherwise the first compile.HotAfter checks test the rules one by one,
// and the automaton is built after them; a crawler about to check many
// URLs may compile at once.
func (a *Agent) Compile() *Agent {
	a.rules.Set()
	return a
}

// Stats returns the size of the automaton built so far for a's rules.
func (a *Agent) Stats() Stats {
	s := a.rules.Stats()
	return Stats{States: s.States, Bytes: s.Bytes, Budget: s.Budget, Full: s.Full}
}

func intSlice(s []int32) []int {
	out := make([]int, len(s))
	for i, v := range s {
		out[i] = int(v)
	}
	return out
}
