package lint

import (
	"strings"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/usage"
)

// usageBudget bounds the work of the check that a preference stands on a
// path its group disallows, in steps: a rule's pattern looked at, or
// coverBytes bytes compared. The work is the usage lines times the rules
// of the selections they are in; past the budget the remaining lines are
// not reported on, which only misses findings.
const usageBudget = 5_000_000

// usageLine is a Content-Usage or Content-Signal line of a group.
type usageLine struct {
	line    int
	col     int    // of the key, 1-based
	pattern string // the escaped path; "/" for a Content-Signal line
	usage   bool   // a Content-Usage line, else Content-Signal
	pref    usage.Preference
	signal  usage.Signal
}

// checkUsageGroups runs the checks of Content-Usage and Content-Signal
// lines that need the groups: conflicting statements for one path of a
// group, statements on paths the group disallows, and the second '*'
// group a prepended managed block leaves. It runs only when the scan saw
// such a line.
func (l *linter) checkUsageGroups() {
	if !l.sawUsage {
		return
	}
	groups := l.file.Groups()
	lines := make([][]usageLine, len(groups))
	for gi, g := range groups {
		lines[gi] = l.usageLinesOf(g)
		l.checkUsageConflicts(lines[gi])
	}
	l.checkUsageDisallowed(groups, lines)
	l.checkSplitStarGroup(groups, lines)
}

// usageLinesOf returns the usage lines of a group, read.
func (l *linter) usageLinesOf(g robots.Group) []usageLine {
	var out []usageLine
	for _, d := range g.Extras {
		u := usageLine{line: d.Line, col: l.keyColumn(d.Line), pattern: "/"}
		switch {
		case strings.EqualFold(d.Key, keyContentUsage):
			path, pref, _ := usage.ParseContentUsage(d.Value)
			u.usage, u.pattern, u.pref = true, usage.EscapePath(path), pref
		case strings.EqualFold(d.Key, keyContentSignal):
			u.signal = usage.ParseContentSignal(d.Value)
		default:
			continue
		}
		out = append(out, u)
	}
	return out
}

// checkUsageConflicts reports, in one group, a Content-Usage rule that
// states the opposite of an earlier rule with the same path, and a
// Content-Signal line that states the opposite of an earlier one.
func (l *linter) checkUsageConflicts(lines []usageLine) {
	type stated struct {
		line  int
		value usage.Value
	}
	byPath := map[string][]stated{} // per path, then per category or signal
	for _, u := range lines {
		key, values := "signal", u.signal.Values[:]
		if u.usage {
			key, values = "usage "+u.pattern, u.pref[:]
		}
		prev := byPath[key]
		if prev == nil {
			prev = make([]stated, len(values))
			byPath[key] = prev
		}
		for i, v := range values {
			p := &prev[i]
			if v != usage.Unknown && p.value != usage.Unknown && v != p.value {
				l.reportConflict(u, i, p.line)
				break
			}
			if v != usage.Unknown && p.value == usage.Unknown {
				*p = stated{u.line, v}
			}
		}
	}
}

// reportConflict reports that u states the opposite of line about its
// i-th category or signal.
func (l *linter) reportConflict(u usageLine, i, line int) {
	if u.usage {
		l.report(u.line, u.col, CodeUsageConflict,
			"Content-Usage for %q states the opposite of line %d about %s: the most restrictive, n, wins",
			u.pattern, line, usage.Category(i))
		return
	}
	l.report(u.line, u.col, CodeUsageConflict,
		"Content-Signal states the opposite of line %d about %s: no wins", line, usage.SignalKey(i))
}

// checkUsageDisallowed reports the usage lines whose path the group
// disallows in every selection it is part of: a preference applies only
// to what may be fetched, so the line means nothing.
func (l *linter) checkUsageDisallowed(groups []robots.Group, lines [][]usageLine) {
	in := map[int32][][]int32{} // the selections each group is part of
	for _, sel := range selections(l.file) {
		for _, g := range sel {
			in[g] = append(in[g], sel)
		}
	}
	budget := usageBudget
	for gi := range lines {
		for _, u := range lines[gi] {
			if disallowedIn(groups, in[int32(gi)], u.pattern, &budget) {
				l.report(u.line, u.col, CodeUsageDisallowed,
					"the group disallows every path %q matches, and a preference applies only to what may be fetched: this line means nothing",
					u.pattern)
			}
			if budget <= 0 {
				return
			}
		}
	}
}

// disallowedIn reports whether every selection of sels is proved to
// disallow every path pattern matches: a disallow covers the pattern and
// beats every allow of the selection. It is false when sels is empty or
// the budget runs out.
func disallowedIn(groups []robots.Group, sels [][]int32, pattern string, budget *int) bool {
	var pats []automaton.Pattern
	for _, sel := range sels {
		if !disallows(groups, sel, pattern, budget, &pats) || *budget <= 0 {
			return false
		}
	}
	return len(sels) > 0
}

// disallows reports whether one selection is proved to disallow every
// path pattern matches; pats is room for a rule's patterns.
func disallows(groups []robots.Group, sel []int32, pattern string, budget *int, pats *[]automaton.Pattern) bool {
	open := openEnd(pattern)
	var cover, topAllow *automaton.Pattern
	for _, g := range sel {
		for _, r := range groups[g].Rules {
			if r.Pattern == "" || (r.Pattern[0] != '/' && r.Pattern[0] != '*') {
				continue // no rule, or one that never matches
			}
			*pats = compile.Google.AppendRulePatterns((*pats)[:0], compile.Rule(r))
			for _, p := range *pats {
				*budget -= 1 + (len(p.Expr)+len(open))/coverBytes
				switch {
				case p.Allow && (topAllow == nil || p.Beats(*topAllow)):
					topAllow = &p
				case !p.Allow && (cover == nil || p.Beats(*cover)) && globCovers(openEnd(p.Expr), open):
					cover = &p
				}
			}
		}
	}
	return cover != nil && (topAllow == nil || cover.Beats(*topAllow))
}

// checkSplitStarGroup reports the '*' groups that follow one holding a
// Content-Signal line, the shape Cloudflare's managed robots.txt leaves
// when it is prepended to a site's own file. Google and RFC 9309 merge
// the groups; parsers that keep only the first '*' group lose the rules
// of the others.
func (l *linter) checkSplitStarGroup(groups []robots.Group, lines [][]usageLine) {
	signal := 0 // the Content-Signal line of the first '*' group that has one
	for gi, g := range groups {
		star := globalAgent(g)
		if star == 0 {
			continue
		}
		if signal != 0 {
			l.report(star, l.keyColumn(star), CodeSplitStarGroup,
				"a second User-agent: * group, after the one holding the Content-Signal of line %d (a managed block prepended to the file): Google and RFC 9309 merge the two, but parsers that read only the first * group miss this group's rules",
				signal)
			continue
		}
		for _, u := range lines[gi] {
			if !u.usage {
				signal = u.line
				break
			}
		}
	}
}

// globalAgent returns the line of a group's first '*' user-agent line, 0
// when it names none.
func globalAgent(g robots.Group) int {
	for _, a := range g.Agents {
		if a.Global {
			return a.Line
		}
	}
	return 0
}
