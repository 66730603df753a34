package survey

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/capture"
	"github.com/fastrobots/robots/cmd/robots/internal/methods"
	"github.com/fastrobots/robots/lint"
	"github.com/fastrobots/robots/managed"
	prefs "github.com/fastrobots/robots/usage"
)

// captureRow is a line of captures.jsonl: what a capture is and what
// Google reads in it. docs/survey.md describes each field.
type captureRow struct {
	Index        int    `json:"index"`
	Input        string `json:"input"`
	File         string `json:"file"`
	Site         string `json:"site"`
	Host         string `json:"host,omitempty"`
	URL          string `json:"url,omitempty"`
	Status       int    `json:"status"`
	Bytes        int64  `json:"bytes"`
	Truncated    bool   `json:"truncated"`
	HTML         bool   `json:"html"`
	Sitemaps     int    `json:"sitemaps"`
	Valid        int    `json:"valid"`
	Unused       int    `json:"unused"`
	LintErrors   int    `json:"lint_errors"`
	LintWarnings int    `json:"lint_warnings"`
	// Policy and Reason are what Google's status table makes of the
	// status (robots.StatusPolicy): for a followed redirect, of the
	// target's.
	Policy string `json:"policy"`
	Reason string `json:"reason"`
	// What a WARC record adds: where the record starts in its file, when
	// it was fetched, the records skipped before it, and a 3xx's redirects.
	Offset         int64  `json:"offset,omitempty"`
	FetchTime      string `json:"fetch_time,omitempty"`
	Skipped        int    `json:"skipped,omitempty"`
	RedirectTarget string `json:"redirect_target,omitempty"`
	RedirectStatus int    `json:"redirect_status,omitempty"`
	RedirectHops   int    `json:"redirect_hops,omitempty"`
	RedirectError  string `json:"redirect_error,omitempty"`
	// Managed names the CDN whose managed section the body holds
	// (managed.Cloudflare); empty when it holds none or was not read.
	Managed string `json:"managed,omitempty"`
}

// errorRow is the line of captures.jsonl for a capture that could not be
// read: what went wrong and where. It has no agent rows.
type errorRow struct {
	Index  int    `json:"index"`
	Input  string `json:"input"`
	File   string `json:"file,omitempty"`
	Site   string `json:"site,omitempty"`
	Error  string `json:"error"`
	Offset int64  `json:"offset,omitempty"`
	// Skipped counts, in a WARC input, the records skipped before this
	// one, as a capture row does.
	Skipped int `json:"skipped,omitempty"`
}

// agentRow is a line of agents.jsonl: what one capture says to one agent.
type agentRow struct {
	Index      int    `json:"index"`
	Input      string `json:"input"`
	URL        string `json:"url,omitempty"`
	Host       string `json:"host,omitempty"`
	Agent      string `json:"agent"`
	Group      string `json:"group"`
	GroupLine  int    `json:"group_line,omitempty"`
	GroupAgent string `json:"group_agent,omitempty"`
	Class      string `json:"class"`
	Allowed    string `json:"allowed_example,omitempty"`
	Disallowed string `json:"disallowed_example,omitempty"`
	// RootAllowed is the verdict for "/", what a survey that checks "/"
	// alone reads as the whole site's.
	RootAllowed bool              `json:"root_allowed"`
	Signal      map[string]string `json:"content_signal,omitempty"`
	Usage       map[string]string `json:"content_usage,omitempty"`
	UsagePaths  bool              `json:"usage_paths"`
	CrawlDelay  *float64          `json:"crawl_delay,omitempty"`
	// Source is where Class comes from: the rules (sourceNamed,
	// sourceStar, sourceNoGroup), the status policy (sourceStatus), or
	// nothing this run can see (sourceUnresolved).
	Source string `json:"source"`
	// ManagedGroup is true when every user-agent line that selects the
	// agent's groups lies in a managed section: the agent reads the CDN's
	// rules and none of the site's own.
	ManagedGroup bool `json:"managed_group"`
	// ClassSite is the class the site's own rules give, the managed
	// sections removed; set only for a capture that holds one.
	ClassSite string `json:"class_site,omitempty"`
	// The classes of the published methods --compare names
	// (methods.Classify), set only for captures whose rules were read.
	ClassDPI  string `json:"class_dpi,omitempty"`
	ClassCC   string `json:"class_cc,omitempty"`
	ClassIMC  string `json:"class_imc,omitempty"`
	ClassRoot string `json:"class_root,omitempty"`
}

// The group values of an agent row.
const (
	surveyGroupNamed = "named" // a group names the agent
	surveyGroupAny   = "*"     // the '*' groups apply
	surveyGroupNone  = "none"  // no group applies: every path is allowed
)

// The source values of an agent row: where its class comes from. The
// first three are made by rules the site (or its CDN) wrote; the last two
// by no rule.
const (
	sourceNamed      = "named"      // a group naming the agent decides
	sourceStar       = "star"       // the '*' groups decide
	sourceNoGroup    = "nogroup"    // the rules were read and no group applies: none
	sourceStatus     = "status"     // the status policy decided and no rule was read
	sourceUnresolved = "unresolved" // a redirect whose target this run cannot see
)

// surveyUnresolved is the class of every agent row of an unresolved
// redirect, and its capture's policy: neither Google's status table nor
// any rule has decided it.
const surveyUnresolved = "unresolved"

// redirectUnresolved reports whether a 3xx not followed, for the reason
// capture gives, is one this run cannot decide: its target was not found
// in the input (RedirectAbsent) or could not be looked for
// (RedirectIndexFull), so another input of the run may hold it. A
// redirect without a Location, or past the hops Google follows, is
// decided: Google reads it as a robots.txt it cannot fetch, allow-all.
func redirectUnresolved(reason string) bool {
	return reason == capture.RedirectAbsent || reason == capture.RedirectIndexFull
}

// signalUse is the key of Content-Signal's use level, which the rows
// write beside Cloudflare's three yes/no keys.
const signalUse = prefs.UseKey

// surveyResult is what a worker makes of one capture: its rows, encoded,
// and what the summary counts of them.
type surveyResult struct {
	capture []byte // the captures.jsonl line, when the run writes JSON Lines
	agents  []byte // the agents.jsonl lines, likewise
	row     *captureRow
	agentRs []agentRow
	err     *errorRow
}

// surveyCapture answers for c and agents; with jsonl, it encodes the rows
// as JSON Lines too, on the worker rather than on the writer. compare
// names the published methods whose classes the agent rows carry.
func surveyCapture(c *capture.Capture, agents []string, jsonl bool, compare ...methods.Method) *surveyResult {
	if c.Err != nil {
		e := &errorRow{Index: c.Index, Input: c.Input, File: c.File, Site: c.Site, Error: c.Err.Error(), Offset: c.Offset, Skipped: c.Skipped}
		res := &surveyResult{err: e}
		if jsonl {
			res.capture = jsonLine(e)
		}
		return res
	}
	host, target := c.Host, c.URL // a WARC record's
	if c.URL == "" {
		host, target = capture.HostOf(c.Site)
	}
	status := c.Status
	if c.RedirectHops > 0 {
		status = c.RedirectStatus // the policy is the target's
	}
	// The report is recorded in the parse, for lint to read the file once.
	r := robots.FromStatus(status, c.Body, robots.WithReport())
	row := &captureRow{
		Index: c.Index, Input: c.Input, File: c.File, Site: c.Site, Host: host, URL: target,
		Status: c.Status, Bytes: c.Size, Truncated: r.Truncated(), Sitemaps: len(r.Sitemaps()),
		Policy: policyName(r.Policy()), Reason: reasonName(r.Reason()),
		Offset: c.Offset, FetchTime: c.FetchTime, Skipped: c.Skipped,
		RedirectTarget: c.RedirectTarget, RedirectStatus: c.RedirectStatus, RedirectHops: c.RedirectHops,
		RedirectError: c.RedirectError,
	}
	unresolved := c.RedirectHops == 0 && redirectUnresolved(c.RedirectError)
	if unresolved {
		row.Policy = surveyUnresolved
	}
	seen := surveyAgentsSeen{preamble: r.Preamble(), classes: map[string]classified{}}
	// The body of a response Google does not parse (a 404 page, a 503
	// page) is no robots.txt: it is counted in bytes and not read.
	if r.Policy() == robots.Conditional {
		lintCounts(row, r, c.Body)
		if secs := managed.Find(c.Body); len(secs) > 0 {
			row.Managed = secs[0].CDN
			seen.sections = secs
			seen.site = robots.Parse(managed.Without(c.Body, secs))
			seen.siteClasses = map[string]robots.Class{}
		}
		if len(compare) > 0 {
			seen.compare, seen.methods = compare, methods.NewFile(c.Body, r)
		}
	}
	res := &surveyResult{row: row, agentRs: make([]agentRow, len(agents))}
	if jsonl {
		res.capture = jsonLine(row)
	}
	var buf []byte
	for i, name := range agents {
		a := &res.agentRs[i]
		if unresolved {
			*a = agentRow{Agent: name, Group: surveyGroupNone, Class: surveyUnresolved, Source: sourceUnresolved}
		} else {
			surveyAgentRow(a, r, name, &seen)
		}
		a.Index, a.Input, a.URL, a.Host = c.Index, c.Input, target, host
		if jsonl {
			buf = append(buf, jsonLine(a)...)
		}
	}
	res.agents = buf
	return res
}

// lintCounts sets the lint and report counts of row from r, a parse of
// body with its report.
func lintCounts(row *captureRow, r *robots.Robots, body []byte) {
	ds, rep := lint.ParsedCodes(r, body) // the findings and Google's report, from the one parse: counted, not worded
	row.Valid, row.Unused = rep.Valid, rep.Unused
	for _, d := range ds {
		switch d.Severity {
		case lint.Error:
			row.LintErrors++
		case lint.Warning:
			row.LintWarnings++
		}
		row.HTML = row.HTML || d.Code == lint.CodeHTML
	}
}

// policyName is a Policy as the rows write it: one word, for SQL.
func policyName(p robots.Policy) string {
	switch p {
	case robots.Conditional:
		return "parsed" // the rules decide
	case robots.FullAllow:
		return "allow_all"
	case robots.FullDisallow:
		return "disallow_all"
	}
	return "unknown"
}

// reasonName is a Reason as the rows write it: one word, for SQL.
func reasonName(r robots.Reason) string {
	switch r {
	case robots.ReasonOK:
		return "ok"
	case robots.ReasonUnavailable:
		return "unavailable"
	case robots.ReasonRedirects:
		return "redirects"
	case robots.ReasonServerError:
		return "server_error"
	case robots.ReasonTooManyRequests:
		return "too_many_requests"
	case robots.ReasonNetwork:
		return "network"
	}
	return "unknown"
}

// classified is what Agent.Classify returned.
type classified struct {
	class               robots.Class
	allowed, disallowed string
}

// groupsKey names a selection of groups. Agents resolved to the same
// groups share their rules, and so their class.
func groupsKey(groups []int) string {
	b := make([]byte, 0, 4*len(groups))
	for _, g := range groups {
		b = strconv.AppendInt(b, int64(g), 10)
		b = append(b, ',')
	}
	return string(b)
}

// surveyAgentsSeen is what the rows of a capture's agents share: most
// agents of a file fall to its '*' groups.
type surveyAgentsSeen struct {
	preamble []robots.Directive
	// classes holds the classes of the group selections met so far.
	classes map[string]classified
	// unnamed is the row of the agents no group names, once one is met:
	// every field but the agent's name depends on the groups alone, which
	// are the '*' groups, or none, for each of them. Its maps are shared
	// by the rows copied from it, which are not written to once made. An
	// agent no group of the file names is named by no group of the file
	// less its managed sections, nor by the methods, which compare names
	// no more loosely than Google.
	unnamed *agentRow
	// sections are the body's managed sections, and site the body parsed
	// without them, with the classes of its selections met so far; nil
	// when the body holds none.
	sections    []managed.Section
	site        *robots.Robots
	siteClasses map[string]robots.Class
	// compare are the methods the rows carry, and methods the body as
	// they read it; nil without --compare.
	compare []methods.Method
	methods *methods.File
}

// surveyAgentRow answers for one agent of r, in row: the fields that do
// not depend on where the capture came from.
func surveyAgentRow(row *agentRow, r *robots.Robots, name string, seen *surveyAgentsSeen) {
	var a *robots.Agent
	if name == surveyAgentAny {
		a = r.Agent()
	} else {
		a = r.Agent(name)
	}
	if a.Name() == "" && seen.unnamed != nil {
		*row = *seen.unnamed
		row.Agent = name
		return
	}
	*row = agentRow{Agent: name}
	sel := a.Selection()
	switch sel.Reason {
	case robots.SelectedAgent, robots.SelectedFallback:
		row.Group, row.Source = surveyGroupNamed, sourceNamed
	case robots.SelectedGlobal:
		row.Group, row.Source = surveyGroupAny, sourceStar
	default:
		row.Group, row.Source = surveyGroupNone, sourceNoGroup
	}
	if r.Policy() != robots.Conditional {
		row.Source = sourceStatus
	}
	if s := sel; len(s.Lines) > 0 && len(s.Groups) > 0 {
		row.GroupLine = s.Lines[0]
		for _, l := range r.Groups()[s.Groups[0]].Agents {
			if l.Line == row.GroupLine {
				row.GroupAgent = l.Value
			}
		}
	}
	key := groupsKey(a.Groups())
	cl, ok := seen.classes[key]
	if !ok {
		cl.class, cl.allowed, cl.disallowed = a.Classify()
		seen.classes[key] = cl
	}
	row.Class, row.Allowed, row.Disallowed = cl.class.String(), cl.allowed, cl.disallowed
	row.RootAllowed = cl.allowed == "/" // Classify reads "/" first: it is its verdict's witness

	if a.HasUsage() {
		u := a.UsagePath("/")
		for k := range prefs.Signals {
			if v := u.Signal(prefs.SignalKey(k)).Value; v != prefs.Unknown {
				row.setSignal(prefs.Signals[k].Key, v.String())
			}
		}
		for _, c := range prefs.Categories() {
			if v := u.Category(c).Value; v != prefs.Unknown {
				if row.Usage == nil {
					row.Usage = map[string]string{}
				}
				row.Usage[c.Label()] = v.String()
			}
		}
		if l := u.Use().Level; l != prefs.LevelNone {
			row.setSignal(signalUse, l.String())
		}
		for _, d := range a.Extras() {
			if strings.EqualFold(d.Key, "content-usage") {
				if p, _, ok := prefs.SplitContentUsage(d.Value); ok && p != "" && p != "/" {
					row.UsagePaths = true
				}
			}
		}
	}
	if d, ok := a.CrawlDelay(); ok {
		s := d.Seconds()
		row.CrawlDelay = &s
	}
	seen.beside(row, sel.Lines)
	if a.Name() == "" {
		seen.unnamed = row
	}
}

// beside sets what the row's agent reads beside the file as served: its
// class without the managed sections, whether its groups lie in them
// (lines are the user-agent lines that select them), and the methods'
// classes.
func (seen *surveyAgentsSeen) beside(row *agentRow, lines []int) {
	if seen.site != nil {
		row.ManagedGroup = inSections(lines, seen.sections)
		row.ClassSite = seen.siteClass(row.Agent).String()
	}
	for _, m := range seen.compare {
		row.setMethod(m, string(seen.methods.Classify(m, row.Agent)))
	}
}

// inSections reports whether every line of lines, and at least one, lies
// within one of sections.
func inSections(lines []int, sections []managed.Section) bool {
	for _, l := range lines {
		in := false
		for _, s := range sections {
			in = in || s.Contains(l)
		}
		if !in {
			return false
		}
	}
	return len(lines) > 0
}

// siteClass is the class of the agent in the body less its managed
// sections, classified once per selection of groups.
func (seen *surveyAgentsSeen) siteClass(name string) robots.Class {
	var a *robots.Agent
	if name == surveyAgentAny {
		a = seen.site.Agent()
	} else {
		a = seen.site.Agent(name)
	}
	key := groupsKey(a.Groups())
	c, ok := seen.siteClasses[key]
	if !ok {
		c, _, _ = a.Classify()
		seen.siteClasses[key] = c
	}
	return c
}

// setMethod records the class method m gives.
func (row *agentRow) setMethod(m methods.Method, class string) {
	switch m {
	case methods.DPI:
		row.ClassDPI = class
	case methods.CC:
		row.ClassCC = class
	case methods.IMC:
		row.ClassIMC = class
	case methods.Root:
		row.ClassRoot = class
	}
}

// method returns the class method m gave the row, "" when it was not
// compared.
func (row *agentRow) method(m methods.Method) string {
	switch m {
	case methods.DPI:
		return row.ClassDPI
	case methods.CC:
		return row.ClassCC
	case methods.IMC:
		return row.ClassIMC
	case methods.Root:
		return row.ClassRoot
	}
	return ""
}

// setSignal records a Content-Signal value.
func (row *agentRow) setSignal(key, value string) {
	if row.Signal == nil {
		row.Signal = map[string]string{}
	}
	row.Signal[key] = value
}

// jsonLine encodes v as one line of JSON. The rows hold strings, numbers
// (a finite crawl delay), booleans and string maps, none of which fails
// to encode: invalid UTF-8 in a site or a path is written as U+FFFD.
func jsonLine(v any) []byte {
	b, _ := json.Marshal(v)
	return append(b, '\n')
}
