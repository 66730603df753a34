package robots

import "github.com/fastrobots/robots/compile"

// The data types below are package compile's, where the parser fills them;
// robots names them so that a program reads robots alone. They are as
// stable as robots' own API (compile's doc says so of these names), and
// each doc below gives their fields, which go doc shows under compile.

// Group is a run of user-agent lines and the rules that follow them, as
// Robots.Groups returns it. Its fields: Agents []AgentLine (at least one,
// in file order), Rules []Rule (its allow and disallow lines, in file
// order), Extras []Directive (the lines not interpreted here, such as
// crawl-delay, between its first user-agent line and the next group). A
// Group and its slices are shared and must not be modified.
type Group = compile.Group

// AgentLine is one user-agent line of a group. Its fields: Line int (from
// 1), Value string (as written, trimmed of white space), Token string (the
// product token an agent is compared with, ProductToken's reading; "" when
// Global), Global bool (the line names every crawler: '*').
type AgentLine = compile.AgentLine

// Rule is one allow or disallow line of a group. Its fields: Line int
// (from 1), Allow bool (an allow line; false for a disallow), Value string
// (as written, trimmed), Pattern string (what is matched against a path:
// Value with the bytes Google escapes escaped; an empty Pattern decides no
// URL).
type Rule = compile.Rule

// Directive is a line outside the group structure: a sitemap, or a
// directive this package does not interpret (crawl-delay, host, ...). Its
// fields: Line int (from 1), Key string (the key as written), Value string
// (as written, trimmed).
type Directive = compile.Directive

// RequestRate is a Request-rate line's value: at most Requests every Per.
// Its fields: Requests int (above zero), Per time.Duration (above zero,
// saturated at the largest Duration), Window VisitTime (the time of day it
// applies in, when the value names one; zero otherwise).
type RequestRate = compile.RequestRate

// VisitTime is a daily window, in UTC, in which a crawler is asked to
// visit. Its fields: Start, End time.Duration (times of day since
// midnight; End before Start is a window that spans midnight). Its method
// Contains reports whether a time falls in it.
type VisitTime = compile.VisitTime

// Host is a Host line: the mirror Yandex is asked to treat as the main
// one. Its fields: Line int, Scheme string ("http", "https", or "" when
// the value named none), Host string (the host name, with ":port" when
// one was given).
type Host = compile.Host

// CleanParam is a Clean-param line: query parameters that do not change
// the page, for the URLs whose path starts with Path. Its fields: Line
// int, Params []string (the parameter names, in the order written), Path
// string (the path prefix, '*' a wildcard; "" for every path).
type CleanParam = compile.CleanParam
