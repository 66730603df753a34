package lint

import (
	"fmt"
	"strings"

	"github.com/fastrobots/robots/compile"
)

// groups follows the group structure as the parser builds it: a run of
// user-agent lines goes on until a rule, whatever stands between them.
type groups struct {
	sawAgent bool // a user-agent line has been seen: rules belong to a group
	inRun    bool // user-agent lines have been seen since the last rule
	// segment are the user-agent lines of the run since the last
	// interruption; interrupted is the line of the first blank, sitemap or
	// unknown line after them, 0 while there is none.
	segment     []compile.Token
	interrupted int
}

// agent records a user-agent line. When a blank or other line stands
// between it and the run's earlier user-agent lines, it returns those
// earlier lines: they have no rules of their own.
func (g *groups) agent(tok compile.Token) (orphans []compile.Token, at int) {
	g.sawAgent = true
	if !g.inRun {
		g.inRun, g.segment, g.interrupted = true, nil, 0
	}
	if g.interrupted != 0 {
		orphans, at = g.segment, g.interrupted
		g.segment, g.interrupted = nil, 0
	}
	g.segment = append(g.segment, tok)
	return orphans, at
}

// rule records an allow or disallow line and reports whether it belongs
// to a group.
func (g *groups) rule() bool {
	g.inRun = false
	return g.sawAgent
}

// other records a sitemap or unknown line.
func (g *groups) other(num int) { g.interrupt(num) }

// blankLine records a line with nothing on it.
func (g *groups) blankLine(num int) { g.interrupt(num) }

func (g *groups) interrupt(num int) {
	if g.inRun && g.interrupted == 0 {
		g.interrupted = num
	}
}

// checkAgent reports a user-agent value Google reads other than it seems,
// and the user-agent lines that turn out to have no rules of their own.
func (l *linter) checkAgent(num int, tok compile.Token, f fields, g *groups) {
	if orphans, at := g.agent(tok); orphans != nil && !sameAgents(orphans, tok) {
		l.report(orphans[0].Line, l.keyColumn(orphans[0].Line), CodeAgentWithoutRules,
			"%s no rules of %s: the group goes on past line %d and takes the rules after line %d (User-agent %q); only an Allow or Disallow line ends a group",
			agentList(orphans), pronoun(orphans), at, num, tok.Value)
	}
	v := tok.Value
	if compile.IsGlobalAgent(v, compile.Google) {
		return
	}
	token := compile.ExtractAgent(v)
	switch {
	case v == "":
		l.report(num, f.key+1, CodeEmptyAgent, "a User-agent line with no value names no crawler")
	case token == "":
		l.report(num, f.value+1, CodeEmptyAgent,
			"%q names no crawler: an agent is read up to its first byte that is not a letter, '-' or '_'", v)
	case token != v:
		l.report(num, f.value+len(token)+1, CodeAgentTokenCut,
			"Google reads %q as %q: an agent is read up to its first byte that is not a letter, '-' or '_'", v, token)
	}
}

// sameAgents reports whether every token names the agent tok names: then
// sharing tok's rules changes nothing, since groups naming the same agent
// merge anyway.
func sameAgents(toks []compile.Token, tok compile.Token) bool {
	key := agentKey(tok.Value)
	for _, t := range toks {
		if agentKey(t.Value) != key {
			return false
		}
	}
	return true
}

// agentKey is what a user-agent value names: "*" for every crawler, else
// its folded product token.
func agentKey(value string) string {
	if compile.IsGlobalAgent(value, compile.Google) {
		return "*"
	}
	return compile.FoldAgent(compile.ExtractAgent(value))
}

// agentList names the user-agent lines of a segment.
func agentList(toks []compile.Token) string {
	names := make([]string, len(toks))
	for i, t := range toks {
		names[i] = fmt.Sprintf("%q", t.Value)
	}
	if len(names) == 1 {
		return "User-agent " + names[0] + " has"
	}
	return "User-agents " + strings.Join(names, ", ") + " have"
}

func pronoun(toks []compile.Token) string {
	if len(toks) == 1 {
		return "its own"
	}
	return "their own"
}
