// Package robotstxt is a drop-in for github.com/temoto/robotstxt v1.1.2
// that reaches Google's verdicts. A crawler adopts it with one line in its
// go.mod, without touching its code:
//
//	replace github.com/temoto/robotstxt => github.com/fastrobots/robots/compat/temoto v0.0.0
//
// The exported API is temoto's: the same types, fields, functions and
// methods, with the same zero values. The answers are those of
// github.com/fastrobots/robots, which are Google's reference parser's:
// patterns anchored at the path's start, the longest match wins and allow
// wins a tie, the agent is matched by its product token and all groups
// naming it are merged, and no file is ever rejected. docs/temoto.md lists
// every verdict that differs from temoto's and why.
//
// A RobotsData remembers how the robots.txt fetch ended: after a 5xx or a
// failed fetch every call path disallows every URL, FindGroup(...).Test
// included; after a 4xx every URL is allowed.
package robotstxt

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/fastrobots/robots"
)

// RobotsData is a parsed robots.txt with the fetch's outcome. Its zero
// value allows every URL, as temoto's does.
type RobotsData struct {
	rules *robots.Robots
	// Host is the value of the file's last Host line, "" when it has none.
	Host string
	// Sitemaps are the values of the file's Sitemap lines, in file order.
	Sitemaps []string
}

// Group is the rules that apply to one crawler: every group of the file
// that names its product token, merged, or the '*' groups when none does.
// Its zero value allows every URL, as temoto's does.
type Group struct {
	agent *robots.Agent
	// Agent is the product token the groups name, "" when the '*' groups
	// (or none) apply.
	Agent string
	// CrawlDelay is the last valid Crawl-delay of the groups that apply,
	// in file order; 0 when they have none.
	CrawlDelay time.Duration
}

// ParseError is temoto's error for a file it rejects. Google's parser
// rejects no file, so no function of this package returns one; the type
// stays so that code naming it compiles.
type ParseError struct {
	Errs []error
}

// Error lists the errors, one per line, as temoto's does.
func (e ParseError) Error() string {
	var b strings.Builder
	b.WriteString("Parse error(s): \n")
	for _, err := range e.Errs {
		b.WriteString(err.Error() + "\n")
	}
	return b.String()
}

// WhitespaceChars are the characters temoto's scanner skips between
// tokens. The parser of this package follows Google's reference instead
// and does not read it; it stays so that code naming it compiles.
var WhitespaceChars = []rune{' ', '\t', '\v'}

// FromStatusAndBytes returns the rules an HTTP answer sets: a 2xx body is
// parsed, a 3xx (a redirect the client did not follow) and a 4xx allow
// every URL, a 5xx disallows every URL. Any other status is a failed
// fetch: the RobotsData disallows every URL and the error says why.
func FromStatusAndBytes(statusCode int, body []byte) (*RobotsData, error) {
	r := robots.FromStatus(statusCode, body)
	if r.Reason() == robots.ReasonNetwork {
		return dataOf(r), fmt.Errorf("robotstxt: unexpected status %d", statusCode)
	}
	return dataOf(r), nil
}

// FromStatusAndString is FromStatusAndBytes with a string body.
func FromStatusAndString(statusCode int, body string) (*RobotsData, error) {
	return FromStatusAndBytes(statusCode, []byte(body))
}

// FromResponse is FromStatusAndBytes for a net/http response. A nil
// response gives nil, nil, as temoto's does. The body is read to its end
// and not closed: the caller closes it. Only its first robots.MaxBytes,
// all the parser reads, are kept in memory; the rest is discarded. A body
// that fails while read is a failed fetch: the RobotsData disallows every
// URL and the error is the read's.
func FromResponse(res *http.Response) (*RobotsData, error) {
	if res == nil {
		return nil, nil
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, robots.MaxBytes))
	if err == nil {
		_, err = io.Copy(io.Discard, res.Body)
	}
	if err != nil {
		return dataOf(robots.FromStatus(http.StatusServiceUnavailable, nil)), err
	}
	return FromStatusAndBytes(res.StatusCode, body)
}

// FromBytes parses a robots.txt body as Google does. The error is always
// nil: no file is rejected, lines Google ignores are ignored.
func FromBytes(body []byte) (*RobotsData, error) {
	return dataOf(robots.Parse(body)), nil
}

// FromString is FromBytes with a string body.
func FromString(body string) (*RobotsData, error) {
	return FromBytes([]byte(body))
}

// dataOf wraps a parsed file with its Host and Sitemaps.
func dataOf(r *robots.Robots) *RobotsData {
	return &RobotsData{rules: r, Host: lastHost(r), Sitemaps: r.Sitemaps()}
}

// lastHost returns the value of r's last Host line, as temoto keeps it.
func lastHost(r *robots.Robots) string {
	host := ""
	for _, d := range r.Others() {
		if strings.EqualFold(d.Key, "host") {
			host = d.Value
		}
	}
	return host
}

// TestAgent reports whether agent may fetch path. agent may be a product
// token ("Googlebot") or a whole User-Agent header: only its product token
// is matched. path is a URL's path and query ("/a?b=c").
func (r *RobotsData) TestAgent(path, agent string) bool {
	return r.FindGroup(agent).Test(path)
}

// FindGroup returns the rules that apply to agent: every group naming its
// product token, merged, or else the '*' groups. agent may be a whole
// User-Agent header ("Googlebot/2.1 (+http://...)"); its product token is
// its leading run of letters, '-' and '_', as Google's crawler reads it.
// The Group keeps the fetch's outcome: after a 5xx its Test disallows
// every path.
func (r *RobotsData) FindGroup(agent string) *Group {
	if r == nil || r.rules == nil {
		return &Group{}
	}
	a := r.rules.Agent(robots.ProductToken(agent))
	return &Group{agent: a, Agent: a.Name(), CrawlDelay: crawlDelay(r.rules, a)}
}

// crawlDelay returns the last valid Crawl-delay of the groups a obeys.
func crawlDelay(r *robots.Robots, a *robots.Agent) time.Duration {
	groups := r.Groups()
	var delay time.Duration
	for _, i := range a.Groups() {
		if d, ok := groups[i].CrawlDelay(); ok {
			delay = d
		}
	}
	return delay
}

// Test reports whether the group's crawler may fetch path, a URL's path
// and query ("/a?b=c"); "" is read as "/".
func (g *Group) Test(path string) bool {
	if g == nil || g.agent == nil {
		return true
	}
	return g.agent.AllowedPath(path)
}
