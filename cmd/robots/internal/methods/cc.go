package methods

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// Common Crawl's reading: the rule sets src/cc-pyspark/robotstxt_statistics.py
// extracts (--extract_rulesets) and the classes classify_robotstxt_rules gives
// them in src/jupyter/metrics-top-k-sample.ipynb, at 874a7e7.

// ccRule is one allow or disallow line of a rule set.
type ccRule struct {
	allow bool
	value string
}

// ccGroup is the rules one set of current agents gets: how many, and the
// first. A rule set is classed by its size and, when it has one rule, by
// that rule (ccJudge), so the rules themselves need not be kept: a body of
// n user-agent lines followed by m rules gives each of its n agents m
// rules, n·m in all, which the job builds and this reading does not.
type ccGroup struct {
	n     int
	first ccRule
}

// ccAgent is the groups a user-agent value was current in, each once.
type ccAgent struct {
	groups []*ccGroup
}

// rules returns the size of the agent's rule set and its first rule.
func (a *ccAgent) rules() (n int, first ccRule) {
	for _, g := range a.groups {
		if g.n > 0 && n == 0 {
			first = g.first
		}
		n += g.n
	}
	return n, first
}

// ccFile is a body as the job reads it.
type ccFile struct {
	// skipped: the first line is HTML and the job reads nothing.
	skipped bool
	// agents holds each user-agent value as written (white space runs
	// made one space); named maps each value's pyLower to the first, in
	// byte order, of those with at least one rule.
	agents map[string]*ccAgent
	named  map[string]string
}

// ccBOM is stripped from the first line only.
var ccBOM = []byte("\xef\xbb\xbf")

// ccDirectives are the keys robotstxt_known_directive_pattern reads, in
// the order its alternation tries them.
var ccDirectives = []string{"user-agent", "disallow", "allow", "crawl-delay", "sitemap", "clean-param", "host", "noindex"}

// parseCC reads body as RobotstxtStatsJob.process_record does with
// --extract_rulesets. Lines end at '\n' only (a bare '\r' ends none). A
// first line starting "<html" or "<!DOCTYPE html" (any case, after a UTF-8
// BOM) makes the job skip the body. Comment and blank lines are skipped
// and end no group. A key line is a known key (any case), optional
// space, ':' and a value that ends at the first '\r' or '#'. A user-agent
// line adds its value to the current agents, but once any allow or
// disallow line has been read anywhere in the body, each user-agent line
// starts the current agents anew: the job's inblock flag is set and never
// cleared, so in every group after the first rule only the last
// user-agent line gets the rules. Allow and disallow lines go to every
// current agent. Time and memory are linear in the body.
func parseCC(body []byte) *ccFile {
	f := &ccFile{agents: make(map[string]*ccAgent)}
	var (
		cur     = &ccGroup{} // the current agents' rules
		inblock bool
		first   = true
	)
	for len(body) > 0 {
		line := body
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			line, body = body[:i+1], body[i+1:]
		} else {
			body = nil
		}
		if first {
			first = false
			line = bytes.TrimPrefix(line, ccBOM)
			if ccHTML(line) {
				return &ccFile{skipped: true}
			}
		}
		key, value, ok := ccDirective(line)
		if !ok {
			continue
		}
		switch key {
		case "user-agent":
			if inblock {
				cur = &ccGroup{}
			}
			a := f.agents[value]
			if a == nil {
				a = &ccAgent{}
				f.agents[value] = a
			}
			// Before the first rule the current agents are one set, and a
			// value added twice is in it once.
			if len(a.groups) == 0 || a.groups[len(a.groups)-1] != cur {
				a.groups = append(a.groups, cur)
			}
		case "allow", "disallow":
			inblock = true
			if cur.n == 0 {
				cur.first = ccRule{allow: key == "allow", value: value}
			}
			cur.n++
		}
	}
	var names []string
	for name, a := range f.agents {
		if n, _ := a.rules(); n > 0 {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	f.named = make(map[string]string, len(names))
	for _, name := range names {
		if _, ok := f.named[pyLower(name)]; !ok {
			f.named[pyLower(name)] = name
		}
	}
	return f
}

// ccSpace is the class \s of a bytes pattern in Python's re: ASCII space,
// \t, \n, \r, \f and \v.
func ccSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\f', '\v':
		return true
	}
	return false
}

// ccHTML is content_html_pattern, ^(?:<html|<!DOCTYPE html)\b in any case.
func ccHTML(line []byte) bool {
	for _, p := range []string{"<html", "<!doctype html"} {
		if containsFoldPrefix(line, p) {
			rest := line[len(p):]
			return len(rest) == 0 || !ccWord(rest[0])
		}
	}
	return false
}

// ccWord is an ASCII word character, what \b reads under re.ASCII.
func ccWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// ccDirective matches line as the job does: a comment line (^\s*#) and a
// blank line (^\s*$) are no directive; then
// ^\s*(user-agent|disallow|allow|crawl-delay|sitemap|clean-param|host|noindex)\s*:\s*([^\r#]*)
// in any case gives the key, lowered, and the value: group 2 stripped of
// ASCII white space, with each run of white space (Python's str \s)
// made one space.
func ccDirective(line []byte) (key, value string, ok bool) {
	i := 0
	for i < len(line) && ccSpace(line[i]) {
		i++
	}
	if i == len(line) || line[i] == '#' {
		return "", "", false
	}
	rest := line[i:]
	for _, k := range ccDirectives {
		if !containsFoldPrefix(rest, k) {
			continue
		}
		j := len(k)
		for j < len(rest) && ccSpace(rest[j]) {
			j++
		}
		if j == len(rest) || rest[j] != ':' {
			continue
		}
		// \s* after the colon takes '\r' and '\n' too, before the
		// value stops at one.
		v := rest[j+1:]
		for len(v) > 0 && ccSpace(v[0]) {
			v = v[1:]
		}
		if end := bytes.IndexAny(v, "\r#"); end >= 0 {
			v = v[:end]
		}
		return k, ccCollapse(bytes.TrimFunc(v, func(r rune) bool { return r < 0x80 && ccSpace(byte(r)) })), true
	}
	return "", "", false
}

// ccCollapse makes each run of white space in v (Python's str \s, what
// str.isspace holds for) one space, as white_space_pattern.sub(' ', value).
func ccCollapse(v []byte) string {
	out := make([]byte, 0, len(v))
	space := false
	for len(v) > 0 {
		r, n := utf8.DecodeRune(v)
		if pySpace(r) {
			if !space {
				out = append(out, ' ')
			}
			space = true
		} else {
			out = append(out, v[:n]...)
			space = false
		}
		v = v[n:]
	}
	return string(out)
}

// classify is the class the notebook counts the body in for agent: the
// rule set of the user-agent value equal to agent in any case, else that
// of "*". A body whose first line is HTML, or where neither the agent
// nor "*" has a rule, is Uncounted: the notebook counts it in no class of
// the agent's columns that include the "*" rules (the hosts without a "*"
// rule set are meant as allow-all, but the notebook's code adds them to
// the last agent it read instead, cell 18). Where several spellings of
// agent have rule sets that the notebook classes differently, it counts
// the body once in each class; classify gives the class of the first
// spelling in byte order, the order the job writes them.
func (f *ccFile) classify(agent string) Class {
	if f.skipped {
		return Uncounted
	}
	if name, ok := f.named[pyLower(agent)]; ok {
		return ccJudge(f.agents[name].rules())
	}
	if a := f.agents["*"]; a != nil {
		if n, first := a.rules(); n > 0 {
			return ccJudge(n, first)
		}
	}
	return Uncounted
}

// ccJudge is classify_robotstxt_rules, for a rule set of n rules whose
// first is r: a rule set of the one line
// "disallow: /" is disallow-all (All); of the one line "allow: /",
// "allow: *", "allow: /*", "allow:" or "disallow:" is allow-all (None);
// any other is allow-part (Some), whatever its paths.
func ccJudge(n int, r ccRule) Class {
	if n != 1 {
		return Some
	}
	switch {
	case !r.allow && r.value == "/":
		return All
	case !r.allow && r.value == "":
		return None
	case r.allow && (r.value == "/" || r.value == "*" || r.value == "/*" || r.value == ""):
		return None
	}
	return Some
}
