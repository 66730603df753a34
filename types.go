package robots

import (
	"time"
	"unsafe"

	"github.com/fastrobots/robots/compile"
)

// Group is a run of user-agent lines and the rules that follow them, as
// Robots.Groups returns it. Like everything a Robots returns, a Group and
// the slices it holds are shared and must not be modified.
type Group struct {
	// Agents are the group's user-agent lines, in file order; a group has
	// at least one.
	Agents []AgentLine
	// Rules are the group's allow and disallow lines, in file order.
	Rules []Rule
	// Extras are the directives this package does not interpret
	// (crawl-delay, request-rate, ...) that stand after the group's first
	// user-agent line and before the next group. They are also in
	// Robots.Others and change no verdict.
	Extras []Directive
}

// AgentLine is one user-agent line of a group.
type AgentLine struct {
	// Line is the line's number in the file, counting from 1.
	Line int
	// Value is the value as written, trimmed of white space.
	Value string
	// Token is the product token a crawler's agent is compared with: the
	// value's leading run of letters, '-' and '_' (compile.ExtractAgent);
	// "" when Global.
	Token string
	// Global is true when the line names every crawler ('*').
	Global bool
}

// Rule is one allow or disallow line of a group.
type Rule struct {
	// Line is the line's number in the file, counting from 1.
	Line int
	// Allow is true for an allow line, false for a disallow line.
	Allow bool
	// Value is the value as written, trimmed of white space.
	Value string
	// Pattern is what is matched against a URL's path: Value with bytes
	// outside ASCII percent-encoded and the hex digits of "%xx" in upper
	// case (compile.EscapePattern). An empty Pattern decides no URL.
	Pattern string
}

// Directive is a line outside the group structure: a sitemap, or a
// directive this package does not interpret (crawl-delay, host, ...).
type Directive struct {
	// Line is the line's number in the file, counting from 1.
	Line int
	// Key is the directive's name as written ("Sitemap", "crawl-delay").
	Key string
	// Value is the value as written, trimmed of white space.
	Value string
}

// CrawlDelay returns the group's crawl delay: the value of its last valid
// Crawl-delay line, in seconds with fractions allowed. ok is false when
// the group has none.
func (g *Group) CrawlDelay() (d time.Duration, ok bool) {
	return g.compiled().CrawlDelay()
}

// RequestRate returns the group's request rate: the value of its last
// valid Request-rate line. ok is false when the group has none.
func (g *Group) RequestRate() (r RequestRate, ok bool) {
	cr, ok := g.compiled().RequestRate()
	return requestRateOf(cr), ok
}

// VisitTime returns the group's visiting window: the value of its last
// valid Visit-time line. ok is false when the group has none.
func (g *Group) VisitTime() (w VisitTime, ok bool) {
	cw, ok := g.compiled().VisitTime()
	return VisitTime(cw), ok
}

// The types above are package compile's records of a parsed file, defined
// again here so that this package owns what it promises. Each has the
// layout of its compile twin, field for field (TestLayoutMatchesCompile
// fails the day they differ), so the values compile builds are handed out
// as they are: the conversions below reinterpret memory and copy nothing.

// compiled returns g as the compile.Group it is.
func (g *Group) compiled() *compile.Group { return (*compile.Group)(unsafe.Pointer(g)) }

// groupsOf returns compile's groups as Groups, in the same memory.
func groupsOf(gs []compile.Group) []Group { return sameLayout[Group](gs) }

// directivesOf returns compile's directives as Directives, in the same
// memory.
func directivesOf(ds []compile.Directive) []Directive { return sameLayout[Directive](ds) }

// ruleOf returns compile's rule as a Rule. The two types have one
// underlying type, so this is an ordinary conversion.
func ruleOf(r *compile.Rule) *Rule { return (*Rule)(r) }

// sameLayout reinterprets s as a slice of To of the same length, capacity
// capped at it. To must have the layout of From, field for field; every
// pair it is called with is listed in TestLayoutMatchesCompile.
func sameLayout[To, From any](s []From) []To {
	if s == nil {
		return nil
	}
	return unsafe.Slice((*To)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}
