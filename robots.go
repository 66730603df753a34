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
package robots

import (
	"net/url"
	"sync"
	"sync/atomic"

	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/runtime"
)

// Mode selects how a robots.txt is read.
type Mode = compile.Mode

const (
	// Google reaches the verdict of Google's open-source reference parser on
	// every input. It is the default.
	Google = compile.Google
	// RFC reads robots.txt as RFC 9309 defines it, with none of Google's
	// leniencies, and normalises percent-encoding before comparing.
	RFC = compile.RFC
)

// MaxBytes is the default number of bytes of a robots.txt that are read:
// 500 KiB, Google's documented limit. WithMaxBytes changes it.
const MaxBytes = compile.DefaultMaxBytes

// MaxLineBytes is the number of bytes of one line that are read; the rest of
// a longer line is ignored, as Google ignores it.
const MaxLineBytes = compile.MaxLineBytes

// Group, Rule, AgentLine and Directive describe the parsed file. They are
// shared with the Robots value that returns them and must not be modified.
type (
	Group     = compile.Group
	Rule      = compile.Rule
	AgentLine = compile.AgentLine
	Directive = compile.Directive
)

// Option configures Parse.
type Option func(*compile.Options)

// WithMode selects Google (the default) or strict RFC 9309 reading.
func WithMode(m Mode) Option { return func(o *compile.Options) { o.Mode = m } }

// WithMaxBytes sets how many bytes of the body are read: n > 0 reads at most
// n bytes, n == 0 restores the default MaxBytes, n < 0 reads all of it.
func WithMaxBytes(n int) Option {
	return func(o *compile.Options) { o.MaxBytes = n }
}

// WithCacheBytes sets the memory budget of the automaton built for each
// crawler's rules (default automaton.DefaultCacheBytes, 2 MiB). States are
// built as checks reach them; past the budget, checks finish on a slower
// simulation that is still linear in the URL's length.
func WithCacheBytes(n int) Option { return func(o *compile.Options) { o.CacheBytes = n } }

// Robots is a parsed robots.txt. It is safe for concurrent use.
type Robots struct {
	file *compile.File

	// specific caches the compiled rules of the groups naming an agent,
	// keyed by the folded agent. global holds those of the '*' groups; it
	// is apart because "" is an agent too (it names "User-agent:" lines
	// with no token).
	specific sync.Map // string -> *compile.RuleSet
	global   atomic.Pointer[compile.RuleSet]
}

// Parse reads a robots.txt. Every byte string is a robots.txt: lines that
// do not parse are ignored, and an empty or unreadable body allows all.
func Parse(data []byte, opts ...Option) *Robots {
	var o compile.Options
	for _, opt := range opts {
		opt(&o)
	}
	return &Robots{file: compile.Parse(data, o)}
}

// Mode returns the mode the file was parsed in.
func (r *Robots) Mode() Mode { return r.file.Mode }

// Groups returns the file's groups in file order.
func (r *Robots) Groups() []Group { return r.file.Groups }

// Sitemaps returns the values of the file's sitemap lines, in file order.
func (r *Robots) Sitemaps() []string {
	out := make([]string, len(r.file.Sitemaps))
	for i, d := range r.file.Sitemaps {
		out[i] = d.Value
	}
	return out
}

// Others returns the directives that are neither group lines nor sitemaps
// (crawl-delay, host, ...), in file order. They change no verdict.
func (r *Robots) Others() []Directive { return r.file.Others }

// Lines returns the number of lines read, counting the last one.
func (r *Robots) Lines() int { return r.file.Lines }

// Truncated reports whether the body was longer than the size limit and
// its tail was ignored.
func (r *Robots) Truncated() bool { return r.file.Truncated }

// Allowed reports whether the crawler agent may fetch rawURL. It is
// Agent(agent).Allowed(rawURL); a crawler that checks many URLs should keep
// the *Agent instead.
func (r *Robots) Allowed(agent, rawURL string) bool {
	return r.Agent(agent).Allowed(rawURL)
}

// Agent resolves the groups that apply to a crawler. agents is an ordered
// fallback list, most specific first: the first agent that some group names
// decides, with all groups naming it merged; when none is named, all '*'
// groups apply. Agents are compared with group tokens ignoring ASCII case
// and are never cut, so pass the product token ("Googlebot"), not the full
// User-Agent header.
//
// Google's reference parser, given several agents at once, merges the groups
// of every agent named; AnyAgent does that.
func (r *Robots) Agent(agents ...string) *Agent {
	return r.agent(r.file.Resolve(agents...))
}

// AnyAgent resolves the groups that apply to a crawler answering to all of
// agents at once, as Google's reference parser does when handed several:
// the groups naming any of them are merged; when none is named, the '*'
// groups apply.
func (r *Robots) AnyAgent(agents ...string) *Agent {
	var sel compile.Selection
	seen := map[int32]bool{}
	for _, a := range agents {
		s := r.file.Resolve(a)
		if !s.Specific {
			continue
		}
		for _, g := range s.Groups {
			seen[g] = true
		}
		sel.Specific = true
		if sel.Agent == "" {
			sel.Agent = a
		}
	}
	if !sel.Specific {
		return r.agent(r.file.Resolve())
	}
	for g := range int32(len(r.file.Groups)) {
		if seen[g] {
			sel.Groups = append(sel.Groups, g)
		}
	}
	return &Agent{file: r.file, sel: sel, rules: r.file.Compile(sel)}
}

func (r *Robots) agent(sel compile.Selection) *Agent {
	return &Agent{file: r.file, sel: sel, rules: r.ruleSet(sel)}
}

// ruleSet returns the compiled rules of a selection, compiling them once.
func (r *Robots) ruleSet(sel compile.Selection) *compile.RuleSet {
	if !sel.Specific {
		if rs := r.global.Load(); rs != nil {
			return rs
		}
		r.global.CompareAndSwap(nil, r.file.Compile(sel))
		return r.global.Load()
	}
	key := compile.FoldAgent(sel.Agent)
	if rs, ok := r.specific.Load(key); ok {
		return rs.(*compile.RuleSet)
	}
	rs, _ := r.specific.LoadOrStore(key, r.file.Compile(sel))
	return rs.(*compile.RuleSet)
}

// Agent answers for one crawler against one robots.txt. It is immutable and
// safe for concurrent use.
type Agent struct {
	file  *compile.File
	sel   compile.Selection
	rules *compile.RuleSet
}

// Name returns the agent whose groups apply, or "" when the '*' groups (or
// no groups) apply.
func (a *Agent) Name() string { return a.sel.Agent }

// Stats returns the size of the automaton built so far for this agent's
// rules, shared by every Agent with the same groups.
func (a *Agent) Stats() automaton.Stats { return a.rules.Set.Stats() }

// Groups returns the indexes, into Robots.Groups, of the groups that apply.
func (a *Agent) Groups() []int { return intSlice(a.sel.Groups) }

// Allowed reports whether the crawler may fetch rawURL. Any string is
// accepted: one that is not a URL is read as Google reads it (see
// runtime.Path). In Google mode it allocates nothing once the states the
// URL needs are built.
func (a *Agent) Allowed(rawURL string) bool {
	slash, rest := runtime.PathParts(rawURL)
	return a.allowed(slash, rest)
}

// AllowedPath reports whether the crawler may fetch the URL whose path,
// parameters and query are pathAndQuery ("/a/b?c=d").
func (a *Agent) AllowedPath(pathAndQuery string) bool {
	if pathAndQuery == "" {
		pathAndQuery = "/"
	}
	return a.allowed(pathAndQuery, "")
}

// AllowedURL reports whether the crawler may fetch u, matching its escaped
// path and raw query.
func (a *Agent) AllowedURL(u *url.URL) bool {
	return a.DecideURL(u).Allowed
}

// Decision is a verdict and what decided it.
type Decision struct {
	Allowed bool
	// Rule is the rule that decided, or nil when no rule matched (or only an
	// empty one did) and the URL is allowed by default.
	Rule *Rule
	// Implicit is true when the URL was allowed without consulting the
	// rules: in RFC mode, /robots.txt itself (RFC 9309 section 2.2.2).
	Implicit bool
}

// Decide returns the verdict for rawURL and the rule that decided it.
func (a *Agent) Decide(rawURL string) Decision {
	slash, rest := runtime.PathParts(rawURL)
	return a.decide(slash, rest, "")
}

// DecideURL returns the verdict for u and the rule that decided it.
func (a *Agent) DecideURL(u *url.URL) Decision {
	if a.file.Mode == RFC {
		return a.decide(runtime.URLPath(u), "", "")
	}
	cur := a.rules.Set.Start()
	runtime.FeedURL(&cur, u)
	return a.result(&cur)
}

// DecidePath returns the verdict for a path with parameters and query. An
// empty string is read as "/".
func (a *Agent) DecidePath(pathAndQuery string) Decision {
	if pathAndQuery == "" {
		pathAndQuery = "/"
	}
	return a.decide(pathAndQuery, "", "")
}

// decide returns the verdict for the path p1+p2+p3, given in pieces so
// that callers need not join them.
func (a *Agent) decide(p1, p2, p3 string) Decision {
	if a.file.Mode == RFC {
		p1, p2, p3 = compile.NormalizeRFCPath(p1+p2+p3), "", ""
		if p1 == "/robots.txt" {
			return Decision{Allowed: true, Implicit: true}
		}
	}
	cur := a.rules.Set.Start()
	cur.Feed(p1)
	cur.Feed(p2)
	cur.Feed(p3)
	return a.result(&cur)
}

// allowed is decide(p1, p2, "").Allowed without looking up the deciding
// rule: the verdict alone, on the path every Allowed variant takes.
func (a *Agent) allowed(p1, p2 string) bool {
	if a.file.Mode == RFC {
		return a.decide(p1, p2, "").Allowed
	}
	return a.rules.Set.Allowed(p1, p2)
}

// result turns a finished check into a Decision.
func (a *Agent) result(cur *automaton.Cursor) Decision {
	p, ok := cur.Result()
	if !ok {
		return Decision{Allowed: true}
	}
	return Decision{Allowed: p.Allow, Rule: a.file.Rule(a.rules, p.ID)}
}

func intSlice(s []int32) []int {
	out := make([]int, len(s))
	for i, v := range s {
		out[i] = int(v)
	}
	return out
}
