package lint

import (
	"encoding/binary"
	"slices"
	"strings"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/internal/bytestr"
)

// precedenceBudget bounds the work of the precedence checks, in steps: a
// pattern filed as a candidate, a literal prefix visited, a candidate
// looked at, or coverBytes bytes compared. The work is linear in the file
// but for two shapes: rules that each have many candidates to beat them
// ('*' patterns sharing a literal prefix), and a big group that many
// selections share. The budget keeps any file Google reads within a
// fraction of a second (BenchmarkLintWorst). Past it the remaining rules
// are not reported on: the checks only ever miss findings, never invent
// them.
const precedenceBudget = 20_000_000

// maxAnalysedPattern is the longest pattern the precedence checks look at;
// longer ones are left out, which again only misses findings.
const maxAnalysedPattern = 1024

// entry is one pattern of one rule, as the precedence checks read it.
type entry struct {
	rule int32 // the rule's number in the file (see precedence.ruleBase)
	automaton.Pattern
	open string // openEnd(Expr)
	// prefix is the number, in the prefix tree, of the longest literal
	// prefix of a candidate that starts literalPrefix(open): for a
	// candidate, its own; -1 when there is none.
	prefix int32
	// pattern is the number of a candidate's pattern, with its kind, among
	// the file's candidates; -1 for a pattern that is none.
	pattern int32
}

// The candidates are the patterns that may beat a rule of the other kind
// and match every path it matches: only those the prefix tree files and
// a rule's search looks through. A pattern without a '*' covers only
// patterns that start with it, and those as long as it only if they are
// it: so it beats and covers only a pattern written as it is, of the
// other kind, which it beats only as an allow (equal length, allow wins).
// The candidates are then every pattern with a '*', and every allow
// written as some disallow of the file is; any other pattern is searched
// for candidates that beat it, but is never one.

// checkPrecedence reports the rules that can never decide: an allow and a
// disallow of equal length matching the same paths, where the allow always
// wins, and rules that a rule of the other kind beats wherever they match.
// Rules compete within the merged groups of one crawler, so every distinct
// selection of groups is analysed; a rule is dead only if it is dead in
// every selection its group is part of. It returns the work done, in the
// steps precedenceBudget counts.
func (l *linter) checkPrecedence(budget int) (work int) {
	p := l.analysePrecedence(budget, false)
	if p == nil {
		return 0
	}
	l.reportEqual(p)
	l.reportDead(p)
	return budget - p.budget
}

// analysePrecedence indexes the file's rules and analyses every selection
// of its groups; nil when there is nothing to find. every makes every
// pattern a candidate (see entry), which finds what the candidates alone
// find: the tests compare the two.
func (l *linter) analysePrecedence(budget int, every bool) *precedence {
	if !l.ruleKinds[0] || !l.ruleKinds[1] {
		return nil // no rule can beat or tie another: see bothKinds
	}
	groups := l.file.Groups()
	if !bothKinds(groups) {
		return nil // nothing to find: only a rule of the other kind beats a rule or ties with it
	}
	p := newPrecedence(groups, budget, every)
	sels := selections(l.file)
	for _, sel := range sels {
		for _, g := range sel {
			p.inSels[g]++
		}
	}
	for _, sel := range sels {
		p.analyse(sel)
	}
	return p
}

// matchable reports whether r is a rule that matches some path: not an
// empty one, and one that starts as a path does.
func matchable(r robots.Rule) bool {
	return r.Pattern != "" && (r.Pattern[0] == '/' || r.Pattern[0] == '*')
}

// bothKinds reports whether groups have an allow and a disallow that
// match some path.
func bothKinds(groups []robots.Group) bool {
	var seen [2]bool
	for _, g := range groups {
		for _, r := range g.Rules {
			if matchable(r) {
				seen[kindIndex(r.Allow)] = true
				if seen[0] && seen[1] {
					return true
				}
			}
		}
	}
	return false
}

// reportEqual reports the disallows an allow of equal length cancels in
// every selection of their group.
func (l *linter) reportEqual(p *precedence) {
	for n, eq := range p.equal {
		ref := p.rules[n]
		if eq.count == 0 || eq.count < p.inSels[ref.group] {
			continue
		}
		d, a := p.rule(int32(n)), p.rule(eq.by)
		l.report(d.Line, l.keyColumn(d.Line), CodeEqualPriority,
			"Disallow %q and Allow %q (line %d) are as long and match the same paths: Allow wins the tie, so this line never disallows anything",
			d.Value, a.Value, a.Line)
	}
}

// reportDead reports the other rules that never decide in any selection
// of their group.
func (l *linter) reportDead(p *precedence) {
	for n, dead := range p.dead {
		in := p.inSels[p.rules[n].group]
		if dead.count == 0 || dead.count < in || p.equal[n].count == in {
			continue
		}
		r, o := p.rule(int32(n)), p.rule(dead.by)
		l.report(r.Line, l.keyColumn(r.Line), CodeDeadRule, "this %s never decides: %s %q (line %d) matches every path it matches and %s",
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
// crawler: the '*' groups, and the groups naming each agent, in the order
// of their first user-agent line. Each agent is resolved once, and a list
// is compared by its bytes, so the work is linear in the user-agent lines.
func selections(r *robots.Robots) [][]int32 {
	var out [][]int32
	seen := map[string]bool{}
	add := func(groups []int) {
		gs := make([]int32, len(groups))
		for i, g := range groups {
			gs[i] = int32(g)
		}
		key := selectionKey(gs)
		if len(gs) > 0 && !seen[key] {
			seen[key] = true
			out = append(out, gs)
		}
	}
	add(r.GroupsFor())
	resolved := map[string]bool{}
	for _, g := range r.Groups() {
		for _, a := range g.Agents {
			if a.Global {
				continue
			}
			if key := compile.FoldAgent(a.Token); !resolved[key] {
				resolved[key] = true
				add(r.GroupsFor(a.Token))
			}
		}
	}
	return out
}

// selectionKey returns the bytes of a list of groups.
func selectionKey(gs []int32) string {
	b := make([]byte, 0, 4*len(gs))
	for _, g := range gs {
		b = binary.LittleEndian.AppendUint32(b, uint32(g))
	}
	return string(b)
}

// precedence is the state of the precedence checks over one file.
type precedence struct {
	groups []robots.Group
	// budget is the work left; see precedenceBudget.
	budget int
	// entries are the analysed patterns of every rule in file order, a
	// rule's consecutive; those of group g are
	// entries[groupLo[g]:groupLo[g+1]].
	entries []entry
	groupLo []int32
	// ruleBase numbers the rules of the file: rule r of group g is rule
	// ruleBase[g]+r.
	ruleBase []int32
	rules    []ruleRef // by number
	prefixes prefixTree
	// inSels counts, per group, the selections that hold it, and
	// analysed those analysed so far.
	inSels, analysed []int
	// dead counts, per rule, the selections in which it never decides,
	// with a rule that beats it.
	dead []deadBy
	// equal counts, per disallow, the selections in which an allow of
	// equal length matches the same paths, with such an allow.
	equal []deadBy

	// The state of the selection being analysed.
	candidates candidateLists
	seen       []int32 // per pattern, the stamp of the last selection indexing it
	chain      []int32
	patterns   []automaton.Pattern // the patterns of the rule being added
}

// ruleRef names a rule of a file: its group and its index in the group.
type ruleRef struct{ group, rule int32 }

// deadBy counts the selections in which a rule never decides, and names a
// rule that beats it, by number.
type deadBy struct {
	count int
	by    int32
}

// coverBytes is how many bytes globCovers compares in a step of the
// budget: it reads them with strings.Index and friends, far faster than
// the steps that follow a link.
const coverBytes = 16

func newPrecedence(groups []robots.Group, budget int, every bool) *precedence {
	p := &precedence{groups: groups, budget: budget, groupLo: make([]int32, len(groups)+1), ruleBase: make([]int32, len(groups)),
		inSels: make([]int, len(groups)), analysed: make([]int, len(groups))}
	rules, allows, size := 0, 0, 0
	for _, g := range groups {
		rules += len(g.Rules)
		for _, r := range g.Rules {
			size += len(r.Pattern) + 1
			allows += b2i(r.Allow)
		}
	}
	p.rules = make([]ruleRef, 0, rules)
	p.entries = make([]entry, 0, rules)
	x := exprIndex{allows: make(map[string]bool, allows), opens: make([]byte, 0, size)}
	for gi, g := range groups {
		p.groupLo[gi] = int32(len(p.entries))
		p.ruleBase[gi] = int32(len(p.rules))
		for ri := range g.Rules {
			p.rules = append(p.rules, ruleRef{int32(gi), int32(ri)})
			p.addEntries(int32(len(p.rules)-1), g.Rules[ri], &x)
		}
	}
	p.groupLo[len(groups)] = int32(len(p.entries))
	p.fileCandidates(&x, every)
	p.dead = make([]deadBy, len(p.rules))
	p.equal = make([]deadBy, len(p.rules))
	p.candidates.init(len(p.prefixes.prefix), len(p.entries))
	p.seen = make([]int32, x.patterns)
	return p
}

// exprIndex is what newPrecedence reads of a file's patterns.
type exprIndex struct {
	// allows are the expressions of the allows, each with whether a
	// disallow is written as it is.
	allows map[string]bool
	// ids number the candidates' expressions, per kind (kindIndex); -1
	// for none yet.
	ids      map[string][2]int32
	patterns int32   // the candidates' patterns numbered so far
	stars    int     // the patterns with a '*'
	kinds    [2]bool // whether there is a candidate of each kind (kindIndex)
	// opens holds the globs of the patterns that need a '*' added, one
	// after another: the bytes of a glob handed out are never written
	// again.
	opens []byte
}

// addEntries adds the patterns of rule number n that can match, with
// their globs, and notes the allows' expressions in x.
func (p *precedence) addEntries(n int32, r robots.Rule, x *exprIndex) {
	if !matchable(r) {
		return
	}
	p.patterns = compile.Google.AppendRulePatterns(p.patterns[:0], compile.Rule(r))
	pats := p.patterns
	if slices.ContainsFunc(pats, func(q automaton.Pattern) bool { return len(q.Expr) > maxAnalysedPattern }) {
		return // a rule is analysed whole or not at all
	}
	for _, pat := range pats {
		if pat.Allow {
			x.allows[pat.Expr] = false
		}
		x.stars += b2i(strings.IndexByte(pat.Expr, '*') >= 0)
		p.entries = append(p.entries, entry{rule: n, Pattern: pat, open: x.openEnd(pat.Expr), prefix: -1, pattern: -1})
	}
}

// fileCandidates numbers the candidates' patterns (with every, all the
// patterns), files their literal prefixes in the prefix tree, and gives
// every other pattern the longest of them that starts its own.
func (p *precedence) fileCandidates(x *exprIndex, every bool) {
	candidates := x.stars
	if every {
		candidates = len(p.entries)
	}
	if len(x.allows) > 0 {
		for i := range p.entries {
			e := &p.entries[i]
			if twin, ok := x.allows[e.Expr]; ok && !e.Allow && !twin {
				x.allows[e.Expr] = true
				candidates++
			}
		}
	}
	if candidates == 0 {
		return
	}
	x.ids = make(map[string][2]int32, candidates)
	p.prefixes.ids = make(map[string]int32, candidates)
	for i := range p.entries {
		e := &p.entries[i]
		if !every && strings.IndexByte(e.Expr, '*') < 0 && !(e.Allow && x.allows[e.Expr]) {
			continue
		}
		ids, ok := x.ids[e.Expr]
		if !ok {
			ids = [2]int32{-1, -1}
		}
		k := kindIndex(e.Allow)
		if ids[k] < 0 {
			ids[k] = x.patterns
			x.patterns++
			x.ids[e.Expr] = ids
		}
		x.kinds[k] = true
		e.pattern = ids[k]
		e.prefix = p.prefixes.id(literalPrefix(e.open))
	}
	p.prefixes.link()
	for i := range p.entries {
		// A pattern is searched for candidates of the other kind alone.
		if e := &p.entries[i]; e.pattern < 0 && x.kinds[kindIndex(!e.Allow)] {
			e.prefix = p.prefixes.longest(literalPrefix(e.open))
		}
	}
}

// openEnd returns openEnd(expr); a glob that needs a '*' added is written
// in x.opens, not allocated on its own.
func (x *exprIndex) openEnd(expr string) string {
	if g := automaton.ReadGlob(expr); g.Anchored {
		return g.Body
	}
	start := len(x.opens)
	x.opens = append(append(x.opens, expr...), '*')
	// The bytes are not written again: later globs are appended after them,
	// and an append that moves opens leaves them where they were.
	return bytestr.String(x.opens[start:])
}

func (p *precedence) rule(n int32) robots.Rule {
	ref := p.rules[n]
	return p.groups[ref.group].Rules[ref.rule]
}

// analyse finds the dead rules and equal pairs of one selection. Once the
// budget is spent it does nothing, and the rules of the selection's groups
// are not reported on: they are dead in fewer selections than their group
// is part of. Nor are rules found alive in an earlier selection analysed
// again, as nothing could get them reported.
func (p *precedence) analyse(sel []int32) {
	if p.budget <= 0 {
		return
	}
	for _, g := range sel {
		p.analysed[g]++
	}
	p.indexCandidates(sel)
	for _, g := range sel {
		// A rule's patterns are consecutive; the rule is dead when each is.
		hi := p.groupLo[g+1]
		for start := p.groupLo[g]; start < hi && p.budget > 0; {
			end := start + 1
			for end < hi && p.entries[end].rule == p.entries[start].rule {
				end++
			}
			// A rule alive in an earlier selection is never reported.
			if p.dead[p.entries[start].rule].count == p.analysed[g]-1 {
				p.analyseRule(start, end)
			}
			start = end
		}
	}
}

// indexCandidates files the patterns of a selection as candidates, each
// distinct pattern once: a copy of a pattern covers nothing the first does
// not.
func (p *precedence) indexCandidates(sel []int32) {
	p.candidates.reset()
	stamp := p.candidates.stamp
	for _, g := range sel {
		p.budget -= int(p.groupLo[g+1] - p.groupLo[g])
		for j := p.groupLo[g]; j < p.groupLo[g+1]; j++ {
			e := &p.entries[j]
			if e.pattern >= 0 && p.seen[e.pattern] != stamp {
				p.seen[e.pattern] = stamp
				p.candidates.add(j, kindIndex(e.Allow), e.prefix)
			}
		}
	}
}

// analyseRule records whether the rule of entries[start:end] is dead in
// the selection, and whether it is a disallow an equal allow cancels. A
// search the budget cut short records nothing, so that whatever is
// recorded is what an unlimited budget would record.
func (p *precedence) analyseRule(start, end int32) {
	first := int32(-1)
	for i := start; i < end; i++ {
		j, complete := p.beaten(i)
		if j < 0 || !complete {
			return
		}
		if i == start {
			first = j
		}
	}
	p.checkEqual(&p.entries[start], &p.entries[first])
	d := &p.dead[p.entries[start].rule]
	d.count, d.by = d.count+1, p.entries[first].rule
}

// kindIndex indexes per-kind tables: 1 for allow, 0 for disallow.
func kindIndex(allow bool) int {
	if allow {
		return 1
	}
	return 0
}

// beaten returns a candidate of the other kind that matches every path
// entries[i] matches and wins over it, preferring the one that wins by the
// least: the shortest, and among those the one with the longest literal
// prefix, then the last in file order; -1 for none. complete is false
// when the budget ran out before every candidate was looked at.
func (p *precedence) beaten(i int32) (best int32, complete bool) {
	e := &p.entries[i]
	k := kindIndex(!e.Allow)
	best = -1
	// Every candidate's literal prefix is on the chain of e's, shortest
	// first.
	p.chain = p.prefixes.chain(e.prefix, p.chain[:0])
	n := len(p.chain) - 1
	for ; n >= 0 && p.budget > 0; n-- {
		p.budget--
		for j := p.candidates.head(p.chain[n], k); j >= 0; j = p.candidates.next[j] {
			c := &p.entries[j]
			p.budget--
			if !c.Pattern.Beats(e.Pattern) || (best >= 0 && !p.entries[best].Pattern.Beats(c.Pattern)) {
				continue
			}
			p.budget -= (len(c.open) + len(e.open)) / coverBytes
			if globCovers(c.open, e.open) {
				best = j
			}
		}
	}
	return best, n < 0
}

// checkEqual records a disallow beaten by an allow of the same length that
// it covers in turn: the two match the same paths.
func (p *precedence) checkEqual(e, by *entry) {
	if e.Allow || by.Priority != e.Priority || !globCovers(e.open, by.open) {
		return
	}
	d := &p.equal[e.rule]
	d.count, d.by = d.count+1, by.rule
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
