package robots

import "github.com/fastrobots/robots/compile"

// Group is a run of user-agent lines and the rules that follow them, as
// Robots.Groups returns it.
type Group = compile.Group

// AgentLine is one user-agent line of a group.
type AgentLine = compile.AgentLine

// Rule is one allow or disallow line of a group.
type Rule = compile.Rule

// Directive is a line outside the group structure: a sitemap, or a
// directive this package does not interpret (crawl-delay, host, ...).
type Directive = compile.Directive

// RequestRate is a Request-rate line's value: at most Requests every Per.
type RequestRate = compile.RequestRate

// VisitTime is a daily window, in UTC, in which a crawler is asked to visit.
type VisitTime = compile.VisitTime

// Host is a Host line: the mirror Yandex is asked to treat as the main one.
type Host = compile.Host

// CleanParam is a Clean-param line: query parameters that do not change
// the page, for the URLs whose path starts with Path.
type CleanParam = compile.CleanParam
