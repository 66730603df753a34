package robots

import (
	"time"

	"github.com/fastrobots/robots/compile"
)

// Group is a run of user-agent lines and the rules that follow them, as
// Robots.Groups returns it. A Group and its slices are shared and must not
// be modified.
type Group struct {
	// Agents are the group's user-agent lines, at least one, in file order.
	Agents []AgentLine
	// Rules are the group's allow and disallow lines, in file order.
	Rules []Rule
	// Extras are the lines not interpreted here (crawl-delay, ...) between
	// the group's first user-agent line and the next group. They are also
	// in Robots.Others and change no verdict.
	Extras []Directive
}

// AgentLine is one user-agent line of a group.
type AgentLine struct {
	// Line is the line's number in the file, counting from 1.
	Line int
	// Value is the value as written, trimmed of white space.
	Value string
	// Token is the product token a crawler's agent is compared with
	// (ProductToken's reading); "" when Global.
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
	// Pattern is what is matched against a URL's path: Value with the
	// bytes Google escapes escaped. An empty Pattern decides no URL.
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

// CrawlDelay returns the value of the group's last valid Crawl-delay line,
// as crawler-commons and Python's urllib.robotparser keep it. ok is false
// when the group has none.
func (g *Group) CrawlDelay() (d time.Duration, ok bool) { return compile.CrawlDelayOf(g.Extras) }

// RequestRate returns the value of the group's last valid Request-rate
// line. ok is false when the group has none.
func (g *Group) RequestRate() (r RequestRate, ok bool) {
	return requestRateOf(compile.RequestRateOf(g.Extras))
}

// VisitTime returns the group's visiting window: the value of its last
// valid Visit-time line. ok is false when the group has none.
func (g *Group) VisitTime() (w VisitTime, ok bool) {
	v, ok := compile.VisitTimeOf(g.Extras)
	return VisitTime(v), ok
}

// RequestRate is a Request-rate line's value: at most Requests requests
// every Per.
type RequestRate struct {
	// Requests is the number of requests allowed per period, above zero.
	Requests int
	// Per is the period, above zero, saturated at the largest Duration.
	Per time.Duration
	// Window is the time of day the rate applies in, when the value names
	// one after the rate ("1/10s 1800-0600"); zero otherwise.
	Window VisitTime
}

func requestRateOf(r compile.RequestRate, ok bool) (RequestRate, bool) {
	return RequestRate{Requests: r.Requests, Per: r.Per, Window: VisitTime(r.Window)}, ok
}

// VisitTime is a daily window, in UTC, in which a crawler is asked to
// visit. Start and End are times of day as durations since midnight; End
// before Start is a window that spans midnight.
type VisitTime struct {
	Start, End time.Duration
}

// Contains reports whether the time of day of t, in UTC, falls in the
// window, its start included and its end excluded.
func (w VisitTime) Contains(t time.Time) bool { return compile.VisitTime(w).Contains(t) }

// Host is a Host line: the mirror Yandex is asked to treat as the main one.
type Host struct {
	// Line is the line's number in the file, counting from 1.
	Line int
	// Scheme is "http" or "https"; "" when the value named none.
	Scheme string
	// Host is the host name, with ":port" when one was given.
	Host string
}

// CleanParam is a Clean-param line: query parameters that do not change
// the page, for the URLs whose path starts with Path.
type CleanParam struct {
	// Line is the line's number in the file, counting from 1.
	Line int
	// Params are the parameter names, in the order written.
	Params []string
	// Path is the path prefix the line applies to, '*' as a wildcard; ""
	// applies it to every path.
	Path string
}

// converted returns s, a slice of compile's values, as values of T, whose
// fields are the same: nil for an empty s.
func converted[T, F any](s []F, conv func(F) T) []T {
	if len(s) == 0 {
		return nil
	}
	out := make([]T, len(s))
	for i, v := range s {
		out[i] = conv(v)
	}
	return out
}

func directiveOf(d compile.Directive) Directive { return Directive(d) }
