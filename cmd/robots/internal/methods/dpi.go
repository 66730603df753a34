package methods

import (
	"bytes"
	"slices"
	"strings"
)

// The Data Provenance Initiative's reading, parse_robots.py at 257a063
// (parse_robots_txt, interpret_agent, interpret_robots).

// dpiRules are the Allow and Disallow values one user-agent value
// collects, over every group naming it, in file order.
type dpiRules struct {
	allow, disallow []string
}

// dpiFile is a body as parse_robots_txt reads it: the rules of each
// user-agent value as written, case and all.
type dpiFile struct {
	agents map[string]*dpiRules
	// failed: parse_robots_txt raises on this body, and the analysis
	// leaves it out (parallel_parse_robots drops a body whose parse
	// raises). Its dictionary keeps the keys "ERRORS" (a list of the
	// lines it did not read) and "Sitemaps" (a list of sitemap values)
	// beside the agents', so a group naming "ERRORS", or a group naming
	// "Sitemaps" with a Sitemap line on either side, indexes a list as a
	// dictionary or the reverse.
	failed bool
}

// Prefixes parse_robots_txt compares lines with, case and all.
const (
	dpiAgent    = "User-agent:"
	dpiAllow    = "Allow:"
	dpiDisallow = "Disallow:"
	dpiDelay    = "Crawl-delay:"
)

// Keys of parse_robots_txt's dictionary that are not agents.
const (
	dpiErrorsKey   = "ERRORS"
	dpiSitemapsKey = "Sitemaps"
)

// parseDPI reads body as parse_robots_txt does. A line (Python's
// splitlines, stripped of white space) starting with "User-agent:" makes
// its value the only current agent; "Allow:" and "Disallow:" lines go to
// the current agent, if any; an empty line or one starting with '#' ends
// the current agent; any other line (other spellings of the keys
// included, "user-agent:" or "User-Agent:") is set aside and changes
// nothing. Consecutive User-agent lines therefore leave only the last one
// with the rules that follow, and a value is compared as written:
// "GPTBot" is not "gptbot".
func parseDPI(body []byte) *dpiFile {
	f := &dpiFile{agents: make(map[string]*dpiRules)}
	var (
		cur      *dpiRules // the current agent's rules
		curList  bool      // the current agent's key holds a list, not rules
		current  bool      // some agent is current
		sitemaps = 0       // what the "Sitemaps" key holds: 0 nothing, 1 a list, 2 rules
	)
	pySplitLines(body, func(line []byte) {
		if f.failed {
			return
		}
		line = pyStrip(line)
		switch {
		case bytes.HasPrefix(line, []byte(dpiAgent)):
			name := string(pyStrip(line[len(dpiAgent):]))
			current, curList, cur = true, false, nil
			switch {
			case name == dpiErrorsKey, name == dpiSitemapsKey && sitemaps == 1:
				curList = true
			default:
				if cur = f.agents[name]; cur == nil {
					cur = &dpiRules{}
					f.agents[name] = cur
				}
				if name == dpiSitemapsKey {
					sitemaps = 2
				}
			}
		case current && (bytes.HasPrefix(line, []byte(dpiAllow)) || bytes.HasPrefix(line, []byte(dpiDisallow)) ||
			bytes.HasPrefix(line, []byte(dpiDelay))):
			if curList {
				f.failed = true
				return
			}
			// The value is all after the first colon, stripped.
			_, v, _ := bytes.Cut(line, []byte(":"))
			value := string(pyStrip(v))
			switch {
			case bytes.HasPrefix(line, []byte(dpiAllow)):
				cur.allow = append(cur.allow, value)
			case bytes.HasPrefix(line, []byte(dpiDisallow)):
				cur.disallow = append(cur.disallow, value)
			}
		case containsFoldPrefix(line, "sitemap:"):
			if sitemaps == 2 {
				f.failed = true
				return
			}
			sitemaps = 1
		case len(line) == 0 || line[0] == '#':
			current = false
		}
	})
	return f
}

// containsFoldPrefix reports whether s starts with prefix, an ASCII string
// in lower case, ignoring the case of ASCII letters in s.
func containsFoldPrefix(s []byte, prefix string) bool {
	return len(s) >= len(prefix) && containsFold(s[:len(prefix)], prefix)
}

// classify is interpret_robots for one agent: the rules of the user-agent
// value equal to agent, case and all, or else those of the value "*", or
// else none, judged by interpret_agent. A body parse_robots_txt fails on
// is Uncounted.
func (f *dpiFile) classify(agent string) Class {
	if f.failed || agent == dpiErrorsKey || agent == dpiSitemapsKey {
		return Uncounted
	}
	r := f.agents[agent]
	if r == nil {
		r = f.agents["*"]
	}
	if r == nil {
		return None
	}
	return dpiJudge(r.allow, r.disallow)
}

// dpiJudge is interpret_agent: values holding '?' are set aside; then no
// Disallow, a single empty Disallow, or Allow values equal to the
// Disallow values (in order) is None; a Disallow "/" with no Allow is
// All; anything else is Some, whatever the paths.
func dpiJudge(allow, disallow []string) Class {
	allow, disallow = dpiNoQuery(allow), dpiNoQuery(disallow)
	if len(disallow) == 0 || len(disallow) == 1 && disallow[0] == "" || slices.Equal(allow, disallow) {
		return None
	}
	if len(allow) == 0 {
		for _, v := range disallow {
			if string(pyStrip([]byte(v))) == "/" {
				return All
			}
		}
	}
	return Some
}

// dpiNoQuery returns the values that hold no '?'.
func dpiNoQuery(values []string) []string {
	var out []string
	for _, v := range values {
		if !strings.Contains(v, "?") {
			out = append(out, v)
		}
	}
	return out
}
