package usage

import (
	"strconv"
	"strings"
)

// testFile is a robots.txt read just enough to run the examples: groups,
// Allow and Disallow, Content-Usage and Content-Signal. It merges the
// groups of one agent and falls back on '*' as Google's parser does, and
// decides a crawl by the longest matching rule, Allow winning ties. The
// robots package reads files for real; this reader only lets the examples
// test Decide on whole files.
type testFile struct {
	groups  []*testGroup
	signals []SignalLine // the lines before every group
}

type testGroup struct {
	agents  []string
	allow   []testRule
	rules   []Rule
	signals []SignalLine
}

type testRule struct {
	pattern string
	allow   bool
}

func readTestFile(lines []string) *testFile {
	f := &testFile{}
	var g *testGroup
	inAgents := false
	for i, line := range lines {
		key, value, found := strings.Cut(line, ":")
		if !found || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(key))
		clean := strings.TrimSpace(strings.SplitN(value, "#", 2)[0])
		if key == "user-agent" {
			if !inAgents {
				g = &testGroup{}
				f.groups = append(f.groups, g)
			}
			g.agents = append(g.agents, strings.ToLower(clean))
			inAgents = true
			continue
		}
		inAgents = false
		switch {
		case key == "content-signal" && g == nil:
			f.signals = append(f.signals, SignalLine{Line: i + 1, Signal: ParseContentSignal(value)})
		case g == nil:
		case key == "content-signal":
			g.signals = append(g.signals, SignalLine{Line: i + 1, Signal: ParseContentSignal(value)})
		case key == "content-usage":
			path, pref, _ := ParseContentUsage(value)
			g.rules = append(g.rules, Rule{Line: i + 1, Pattern: EscapePath(path), Pref: pref})
		case (key == "allow" || key == "disallow") && clean != "":
			g.allow = append(g.allow, testRule{EscapePath(clean), key == "allow"})
		}
	}
	return f
}

// usage returns what the file says for agent and path, in the names of
// examplesFile.
func (f *testFile) usage(agent, path string) map[string]string {
	g := f.merged(strings.ToLower(agent))
	u := Decide(g.rules, append(f.signals[:len(f.signals):len(f.signals)], g.signals...), EscapePath(path), g.allowed(EscapePath(path)))
	m := map[string]string{"crawl": map[bool]string{true: "yes", false: "no"}[u.Allowed]}
	for c, d := range u.Categories {
		putDecision(m, Vocabulary[c].Label, d, d.Value.token())
	}
	for k, d := range u.Signals {
		putDecision(m, Signals[k].Key, d, d.Value.String())
	}
	if d := u.MayTrain(); d.Value != Unknown {
		m["maytrain"] = d.Value.String()
		m["maytrain.source"] = d.Source.String()
	}
	return m
}

// putDecision records a decision's value (when stated) and line (when
// any line decided), for the check's optional ".line" and ".source".
func putDecision(m map[string]string, name string, d Decision, value string) {
	if d.Value != Unknown {
		m[name] = value
	}
	if d.Line != 0 {
		m[name+".line"] = strconv.Itoa(d.Line)
	}
}

// merged returns the groups that name agent, or those of '*', as one.
func (f *testFile) merged(agent string) *testGroup {
	m := &testGroup{}
	for _, want := range []string{agent, "*"} {
		for _, g := range f.groups {
			for _, a := range g.agents {
				if a == want {
					m.allow = append(m.allow, g.allow...)
					m.rules = append(m.rules, g.rules...)
					m.signals = append(m.signals, g.signals...)
					break
				}
			}
		}
		if len(m.allow)+len(m.rules)+len(m.signals) > 0 {
			break
		}
	}
	return m
}

func (g *testGroup) allowed(path string) bool {
	best, allow := -1, true
	for _, r := range g.allow {
		if Match(r.pattern, path) && (len(r.pattern) > best || (len(r.pattern) == best && r.allow)) {
			best, allow = len(r.pattern), r.allow
		}
	}
	return allow
}
