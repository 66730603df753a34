package lint

import (
	"fmt"
	"slices"

	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/compile"
)

// precedenceBudget bounds the work of the precedence checks, in bytes
// compared, so that a file of many thousands of rules lints in bounded
// time. Past it the remaining rules are not reported on: the checks only
// ever miss findings, never invent them.
const precedenceBudget = 50_000_000

// maxAnalysedPattern is the longest pattern the precedence checks look at;
// longer ones are left out, which again only misses findings.
const maxAnalysedPattern = 1024

// ruleRef names a rule of a file: its group and its index in the group.
type ruleRef struct{ group, rule int32 }

// entry is one pattern of one rule of a selection.
type entry struct {
	ref ruleRef
	automaton.Pattern
	open   string // openEnd(Expr)
	prefix string // literalPrefix(open)
}

// checkPrecedence reports the rules that can never decide: an allow and a
// disallow of equal length matching the same paths, where the allow always
// wins, and rules that a rule of the other kind beats wherever they match.
// Rules compete within the merged groups of one crawler, so every distinct
// selection of groups is analysed; a rule is dead only if it is dead in
// every selection its group is part of.
func (l *linter) checkPrecedence() {
	f := compile.Parse([]byte(l.body), compile.Options{})
	p := precedence{file: f, budget: precedenceBudget, dead: map[ruleRef]deadBy{}, equal: map[ruleRef]deadBy{}}
	sels := selections(f)
	inSels := map[int32]int{}
	for _, sel := range sels {
		for _, g := range sel {
			inSels[g]++
		}
		p.analyse(sel)
	}
	for _, ref := range sortedRefs(p.equal) {
		by := p.equal[ref]
		if by.count < inSels[ref.group] {
			continue
		}
		d, a := p.rule(ref), p.rule(by.ref)
		l.report(d.Line, l.keyCol[d.Line], CodeEqualPriority,
			"Disallow %q and Allow %q (line %d) are as long and match the same paths: Allow wins the tie, so this line never disallows anything",
			d.Value, a.Value, a.Line)
	}
	for _, ref := range sortedRefs(p.dead) {
		by := p.dead[ref]
		if eq := p.equal[ref]; eq.count == inSels[ref.group] || by.count < inSels[ref.group] {
			continue
		}
		r, o := p.rule(ref), p.rule(by.ref)
		l.report(r.Line, l.keyCol[r.Line], CodeDeadRule, "this %s never decides: %s %q (line %d) matches every path it matches and %s",
			kindWord(r.Allow), kindWord(o.Allow), o.Value, o.Line, winsHow(len(r.Pattern), len(o.Pattern)))
	}
}

func kindWord(allow bool) string {
	if allow {
		return "Allow"
	}
	return "Disallow"
}

func winsHow(n, m int) string {
	if n == m {
		return "wins the tie, as an Allow"
	}
	return "is longer"
}

// selections returns the distinct lists of groups that apply to some
// crawler: the '*' groups, and the groups naming each agent.
func selections(f *compile.File) [][]int32 {
	var out [][]int32
	seen := map[string]bool{}
	add := func(gs []int32) {
		key := fmt.Sprint(gs)
		if len(gs) > 0 && !seen[key] {
			seen[key] = true
			out = append(out, gs)
		}
	}
	add(f.Resolve().Groups)
	for _, g := range f.Groups() {
		for _, a := range g.Agents {
			if !a.Global {
				add(f.Resolve(a.Token).Groups)
			}
		}
	}
	return out
}

// precedence is the state of the precedence checks over one file.
type precedence struct {
	file   *compile.File
	budget int
	// dead counts, per rule, the selections in which it never decides,
	// with a rule that beats it.
	dead map[ruleRef]deadBy
	// equal counts, per disallow, the selections in which an allow of
	// equal length matches the same paths, with such an allow.
	equal map[ruleRef]deadBy
}

// deadBy counts the selections in which a rule never decides, and names a
// rule that beats it.
type deadBy struct {
	count int
	ref   ruleRef
}

func (p *precedence) rule(ref ruleRef) compile.Rule {
	return p.file.Groups()[ref.group].Rules[ref.rule]
}

// analyse finds the dead rules and equal pairs of one selection.
func (p *precedence) analyse(sel []int32) {
	entries := p.entries(sel)
	if p.budget -= len(entries); p.budget <= 0 {
		return
	}
	// Candidates are indexed by kind and literal prefix, each distinct
	// pattern once: a copy of a pattern covers nothing the first does not.
	var byPrefix [2]map[string][]int
	byPrefix[0], byPrefix[1] = map[string][]int{}, map[string][]int{}
	seen := map[automaton.Pattern]bool{}
	for i, e := range entries {
		key := automaton.Pattern{Expr: e.Expr, Allow: e.Allow}
		if !seen[key] {
			seen[key] = true
			byPrefix[kindIndex(e.Allow)][e.prefix] = append(byPrefix[kindIndex(e.Allow)][e.prefix], i)
		}
	}
	// A rule's patterns are consecutive; the rule is dead when each is.
	for start := 0; start < len(entries); {
		end := start + 1
		for end < len(entries) && entries[end].ref == entries[start].ref {
			end++
		}
		p.analyseRule(entries, byPrefix, start, end)
		start = end
	}
}

// analyseRule records whether the rule of entries[start:end] is dead in
// the selection, and whether it is a disallow an equal allow cancels.
func (p *precedence) analyseRule(entries []entry, byPrefix [2]map[string][]int, start, end int) {
	var by ruleRef
	for i := start; i < end; i++ {
		j, ok := p.beaten(entries, byPrefix[kindIndex(!entries[i].Allow)], i)
		if !ok {
			return
		}
		if i == start {
			by = entries[j].ref
			p.checkEqual(entries[i], entries[j])
		}
	}
	ref := entries[start].ref
	d := p.dead[ref]
	p.dead[ref] = deadBy{d.count + 1, by}
}

// entries returns the patterns of the selection's rules that can match.
func (p *precedence) entries(sel []int32) []entry {
	var out []entry
	for _, gi := range sel {
		for ri, r := range p.file.Groups()[gi].Rules {
			if r.Pattern == "" || (r.Pattern[0] != '/' && r.Pattern[0] != '*') {
				continue // no rule, or one that never matches
			}
			pats := p.file.RulePatterns(r)
			if slices.ContainsFunc(pats, func(q automaton.Pattern) bool { return len(q.Expr) > maxAnalysedPattern }) {
				continue // a rule is analysed whole or not at all
			}
			for _, pat := range pats {
				open := openEnd(pat.Expr)
				out = append(out, entry{ref: ruleRef{gi, int32(ri)}, Pattern: pat, open: open, prefix: literalPrefix(open)})
			}
		}
	}
	return out
}

// kindIndex indexes per-kind tables: 1 for allow, 0 for disallow.
func kindIndex(allow bool) int {
	if allow {
		return 1
	}
	return 0
}

// beaten returns a pattern among the candidates (those of the other kind,
// by literal prefix) that matches every path entries[i] matches and wins
// over it, preferring the one that wins by the least.
func (p *precedence) beaten(entries []entry, byPrefix map[string][]int, i int) (int, bool) {
	e := entries[i]
	best := -1
	// Every candidate's literal prefix is a prefix of e's glob.
	for n := 0; n <= len(e.prefix) && p.budget > 0; n++ {
		p.budget -= n + 1
		for _, j := range byPrefix[e.open[:n]] {
			c := entries[j]
			p.budget--
			if !c.Pattern.Beats(e.Pattern) || (best >= 0 && !entries[best].Pattern.Beats(c.Pattern)) {
				continue
			}
			p.budget -= len(c.open) + len(e.open)
			if globCovers(c.open, e.open) {
				best = j
			}
		}
	}
	return best, best >= 0
}

// checkEqual records a disallow beaten by an allow of the same length that
// it covers in turn: the two match the same paths.
func (p *precedence) checkEqual(e, by entry) {
	if e.Allow || by.Priority != e.Priority || !globCovers(e.open, by.open) {
		return
	}
	d := p.equal[e.ref]
	p.equal[e.ref] = deadBy{d.count + 1, by.ref}
}

// sortedRefs returns the keys of m in file order.
func sortedRefs[V any](m map[ruleRef]V) []ruleRef {
	refs := make([]ruleRef, 0, len(m))
	for r := range m {
		refs = append(refs, r)
	}
	slices.SortFunc(refs, func(a, b ruleRef) int {
		if a.group != b.group {
			return int(a.group - b.group)
		}
		return int(a.rule - b.rule)
	})
	return refs
}
