package robots

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/runtime"
)

// Explanation is a verdict and everything that led to it: which groups were
// chosen and why, every rule that matched, and why the winner won. It is
// meant for people, not for checking many URLs.
type Explanation struct {
	Decision // the verdict, as Decide returns it

	// Path is what the rules were matched against: the URL's path,
	// parameters and query, normalised in RFC mode.
	Path      string
	Selection Selection
	// Matches are the rules whose pattern matches Path, in file order.
	// Empty rules decide nothing and are left out.
	Matches []Match
	// Winner is the index in Matches of the match that decided, or -1.
	Winner int
	// TieBreak says in plain words why the winner won, or why nothing did,
	// naming the empty rule of Decision.Empty when there is one.
	TieBreak string
	// Policy is the Robots' policy: unless it is Conditional, no rule is
	// read, and TieBreak and Selection.Why say which status led there.
	Policy Policy
}

// Match is a rule that matched, with the pattern and priority it matched.
type Match struct {
	Rule *Rule
	// Pattern is the pattern that matched: the rule's escaped value, or,
	// when Implicit, the directory of an index page.
	Pattern string
	// Priority is the length in bytes of Pattern: the longest match wins,
	// and Allow wins a tie.
	Priority int
	// Implicit is true for Google's rule that "Allow: /d/index.html" also
	// allows "/d/" (the pattern "/d/$").
	Implicit bool
}

// Selection is which groups apply to a crawler, and why.
type Selection struct {
	Reason SelectionReason
	// Agents are the agents asked for, most specific first; nil when the
	// explanation came from an Agent, which does not keep them.
	Agents []string
	// Agent is the agent whose groups apply; "" for the '*' groups, or none.
	Agent string
	// Groups are indexes into Robots.Groups of the groups that apply.
	Groups []int
	// Lines are the user-agent lines that chose those groups: the lines
	// naming Agent, or the '*' lines.
	Lines []int
	// Why says it in plain words.
	Why string
}

// SelectionReason is how the groups of a crawler were chosen.
type SelectionReason uint8

const (
	// SelectedAgent: a group names the first agent asked for (the product
	// token, ignoring case).
	SelectedAgent SelectionReason = iota
	// SelectedFallback: no group names the first agent; one names a later
	// agent of the fallback list.
	SelectedFallback
	// SelectedGlobal: no group names an agent asked for; the '*' groups apply.
	SelectedGlobal
	// SelectedNone: no group names any agent asked for and there is no '*'
	// group; every URL is allowed.
	SelectedNone
)

// String returns "agent", "fallback", "global" or "none".
func (r SelectionReason) String() string {
	switch r {
	case SelectedAgent:
		return "agent"
	case SelectedFallback:
		return "fallback"
	case SelectedGlobal:
		return "global"
	}
	return "none"
}

// Explain returns the verdict for rawURL for the crawler answering to
// agents (an ordered fallback list, as in Agent) with the reasons for it.
func (r *Robots) Explain(agents []string, rawURL string) Explanation {
	a := r.Agent(agents...)
	e := a.Explain(rawURL)
	e.Selection = a.selection(agents, true)
	if a.Policy() != Conditional {
		e.Selection.Why = e.TieBreak
	}
	return e
}

// Explain returns the verdict for rawURL, as Decide does, with the reasons
// for it. An Agent does not keep the fallback list it was resolved from,
// so its Selection never says SelectedFallback; Robots.Explain does.
func (a *Agent) Explain(rawURL string) Explanation {
	path := a.file().Dialect().Subject(runtime.Path(rawURL))
	e := Explanation{Decision: a.Decide(rawURL), Path: path, Selection: a.Selection(), Winner: -1, Policy: a.Policy()}
	if a.Policy() != Conditional {
		e.TieBreak = e.Selection.Why
		return e
	}
	e.Matches = a.matches(path)
	if e.Implicit {
		e.TieBreak = "/robots.txt is always allowed under RFC 9309 (section 2.2.2); the rules are not consulted"
		return e
	}
	e.Winner = bestMatch(e.Matches)
	e.TieBreak = tieBreak(e.Matches, e.Winner)
	if e.Empty != nil {
		e.TieBreak = emptyWhy(e.Empty)
	}
	return e
}

func emptyWhy(r *Rule) string {
	return fmt.Sprintf("no rule decided: line %d (%s:) is empty, which matches every path and decides nothing; allowed by default",
		r.Line, kindName(r.Allow))
}

func (a *Agent) matches(path string) []Match {
	var out []Match
	for _, gi := range a.selected() {
		rules := a.groups()[gi].Rules
		for ri := range rules {
			for i, p := range a.file().RulePatterns(compile.Rule(rules[ri])) {
				if p.Expr == "" || !automaton.Match(p.Expr, path) {
					continue
				}
				out = append(out, Match{Rule: &rules[ri], Pattern: p.Expr, Priority: int(p.Priority), Implicit: i > 0})
			}
		}
	}
	return out
}

// bestMatch returns the index of the winning match, or -1: the highest
// priority, Allow over Disallow on a tie, then the first in file order.
func bestMatch(ms []Match) int {
	best := -1
	for i, m := range ms {
		if best < 0 || beats(m, ms[best]) {
			best = i
		}
	}
	return best
}

// beats ranks as the automaton does, so that Explain agrees with Decide.
func beats(m, n Match) bool { return m.rank().Beats(n.rank()) }

func (m Match) rank() automaton.Pattern {
	return automaton.Pattern{Priority: int32(m.Priority), Allow: m.Rule.Allow}
}

// tieBreak describes why ms[winner] won: over the best match of the other
// kind when there is one, since only that could have turned the verdict.
func tieBreak(ms []Match, winner int) string {
	if winner < 0 {
		return "no rule matched: allowed by default"
	}
	w := ms[winner]
	rival := -1
	for i, m := range ms {
		if m.Rule.Allow != w.Rule.Allow && (rival < 0 || beats(m, ms[rival])) {
			rival = i
		}
	}
	if rival < 0 {
		if len(ms) == 1 {
			return "the only rule that matched"
		}
		return fmt.Sprintf("every rule that matched is %s; the longest (%s) decides, the first in the file among equals",
			kindName(w.Rule.Allow), plural(w.Priority, "byte"))
	}
	r := ms[rival]
	if w.Priority > r.Priority {
		return fmt.Sprintf("the longest match wins: %s against %s for line %d (%s)",
			plural(w.Priority, "byte"), plural(r.Priority, "byte"), r.Rule.Line, kindName(r.Rule.Allow))
	}
	return fmt.Sprintf("Allow wins a tie: both patterns are %s (line %d disallows)", plural(w.Priority, "byte"), r.Rule.Line)
}

func kindName(allow bool) string {
	if allow {
		return "Allow"
	}
	return "Disallow"
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// Selection returns which groups apply to the crawler, and why: Explain's
// Selection, without a URL's rules read. Under a policy that reads no
// rules, Why says so.
func (a *Agent) Selection() Selection {
	s := a.selection(nil, false)
	if a.Policy() != Conditional {
		s.Why = a.policyWhy()
	}
	return s
}

// selection describes the agent's groups; asked is the fallback list it
// was resolved from when known is true.
func (a *Agent) selection(asked []string, known bool) Selection {
	s := Selection{Agents: asked, Agent: a.name, Groups: intSlice(a.selected())}
	lines := a.selectingLines()
	for _, l := range lines {
		s.Lines = append(s.Lines, l.Line)
	}
	switch {
	case a.specific && len(asked) > 0 && asked[0] != a.name:
		s.Reason = SelectedFallback
	case a.specific:
		s.Reason = SelectedAgent
	case len(a.selected()) > 0:
		s.Reason = SelectedGlobal
	default:
		s.Reason = SelectedNone
	}
	s.Why = why(s, lines, known)
	return s
}

func (a *Agent) policyWhy() string {
	verdict := "every URL is allowed"
	if a.Policy() == FullDisallow {
		verdict = "no URL is allowed"
	}
	return fmt.Sprintf("%s: %s; no rules were read, %s", a.Policy(), Reason(a.reason), verdict)
}

// selectingLines returns the user-agent lines that chose a's groups.
func (a *Agent) selectingLines() []*AgentLine {
	var lines []*AgentLine
	key := compile.FoldAgent(a.name)
	for _, gi := range a.selected() {
		agents := a.groups()[gi].Agents
		for i, l := range agents {
			if a.specific && !l.Global && compile.FoldAgent(l.Token) == key || !a.specific && l.Global {
				lines = append(lines, &agents[i])
			}
		}
	}
	return lines
}

// why puts s in plain words; lines are the user-agent lines of s.Lines.
func why(s Selection, lines []*AgentLine, known bool) string {
	unnamed := "no group names the crawler"
	switch {
	case len(s.Agents) > 0:
		unnamed = "no group names " + quoteList(s.Agents)
	case known:
		unnamed = "no agent was given"
	}
	switch s.Reason {
	case SelectedAgent:
		return fmt.Sprintf("%q is named by %s", s.Agent, describeLines(lines))
	case SelectedFallback:
		i := indexOf(s.Agents, s.Agent)
		return fmt.Sprintf("no group names %s; the fallback %q is named by %s",
			quoteList(s.Agents[:i]), s.Agent, describeLines(lines))
	case SelectedGlobal:
		if len(s.Groups) == 1 {
			return fmt.Sprintf("%s; the '*' group applies (%s)", unnamed, describeLines(lines))
		}
		return fmt.Sprintf("%s; the '*' groups apply (%s)", unnamed, describeLines(lines))
	}
	return unnamed + ", and there is no '*' group: every URL is allowed"
}

// describeLines lists user-agent lines, with the token a line was cut to
// when it differs from what is written.
func describeLines(lines []*AgentLine) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("line ")
		b.WriteString(strconv.Itoa(l.Line))
		if !l.Global && l.Value != l.Token {
			b.WriteString(" (")
			b.WriteString(strconv.Quote(l.Value))
			b.WriteString(", read as ")
			b.WriteString(strconv.Quote(l.Token))
			b.WriteString(")")
		}
	}
	if len(lines) > 1 {
		b.WriteString(", their groups merged")
	}
	return b.String()
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return len(s)
}
