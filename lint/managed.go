package lint

import (
	"fmt"
	"strings"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/managed"
)

// managedBudget bounds the work of the check that a rule of the site's
// own is beaten by a rule a CDN wrote, in steps: a pair of patterns
// compared, or coverBytes bytes of them. The work is the site's rules
// times the CDN's rules of each selection holding both; past the budget
// the remaining rules are not reported on, which only misses findings.
const managedBudget = 5_000_000

// maxNamed is how many crawlers or rules a managed-override note names
// before it counts the rest.
const maxNamed = 12

// managedFile is what the managed checks know of a file: its sections,
// which groups a CDN wrote (their first user-agent line lies in a
// section), and the groups of each crawler.
type managedFile struct {
	sections []managed.Section
	groups   []robots.Group
	cdn      []bool // by group
}

// newManagedFile returns what the managed checks know of groups, given
// the file's sections.
func newManagedFile(secs []managed.Section, groups []robots.Group) *managedFile {
	m := &managedFile{sections: secs, groups: groups, cdn: make([]bool, len(groups))}
	for gi, g := range groups {
		m.cdn[gi] = m.inSection(g.Agents[0].Line)
	}
	return m
}

// inSection reports whether line lies within a managed section.
func (m *managedFile) inSection(line int) bool {
	for _, s := range m.sections {
		if s.Contains(line) {
			return true
		}
	}
	return false
}

// checkManaged notes the blocks a CDN wrote into the file (package
// managed) and the lines of the site's own that the CDN's lines take over
// for some crawlers. It changes nothing of how the file is read: Google
// reads the CDN's lines as the site's, and the notes say what follows.
func (l *linter) checkManaged() {
	if !l.managedHint {
		return
	}
	secs := managed.Find(l.data)
	if len(secs) == 0 {
		return
	}
	for _, s := range secs {
		l.noteSection(s)
	}
	m := newManagedFile(secs, l.file.Groups())
	l.noteStrayRules(m)
	named := l.noteSiteStar(m)
	l.noteMerged(m, named)
	l.noteBeaten(m)
}

// managedHint is a word every marker package managed recognises holds,
// lower case, and managedFirst its first letter in both cases: a file
// whose comments lack the word has no managed block.
const (
	managedHint  = "managed"
	managedFirst = "mM"
)

// containsFold reports whether s holds lower, a lower-case ASCII word
// whose first letter is managedFirst's, in any case, allocating nothing.
func containsFold(s, lower string) bool {
	for {
		i := strings.IndexAny(s, managedFirst)
		if i < 0 || len(s)-i < len(lower) {
			return false
		}
		if strings.EqualFold(s[i:i+len(lower)], lower) {
			return true
		}
		s = s[i+1:]
	}
}

// sectionColumn is the 1-based column of the '#' of a marker line.
func (l *linter) sectionColumn(line int) int {
	if line < 1 || line > len(l.google.Lines) {
		return 1
	}
	read := &l.google.Lines[line-1]
	return strings.IndexByte(l.body[read.Start:read.End], '#') + 1
}

// noteSection notes one section on its BEGIN marker: who wrote it, and
// where the site's own lines stand.
func (l *linter) noteSection(s managed.Section) {
	col := max(l.sectionColumn(s.FirstLine), 1)
	if !s.Closed {
		l.report(s.FirstLine, col, CodeManagedSection,
			"lines %d to %d are a managed block of %s with no END marker: every line to the end of the file reads as the CDN's, and none can be told from the site's own",
			s.FirstLine, s.LastLine, cdnName(s.CDN))
		return
	}
	next := 0
	for i := s.LastLine; i < len(l.google.Lines); i++ {
		if l.google.Lines[i].HasDirective {
			next = l.google.Lines[i].Line
			break
		}
	}
	if next == 0 {
		l.report(s.FirstLine, col, CodeManagedSection,
			"lines %d to %d are %s's managed robots.txt, written by the CDN, and no line of the site's own follows them",
			s.FirstLine, s.LastLine, cdnName(s.CDN))
		return
	}
	l.report(s.FirstLine, col, CodeManagedSection,
		"lines %d to %d are %s's managed robots.txt, which the CDN writes before the site's own rules: these follow from line %d, and Google reads the two as one file, merging the groups that name the same crawlers",
		s.FirstLine, s.LastLine, cdnName(s.CDN), next)
}

// cdnName is a CDN's name as the notes write it.
func cdnName(cdn string) string {
	if cdn == managed.Cloudflare {
		return "Cloudflare"
	}
	return cdn
}

// noteStrayRules notes the rules of the site's own that follow a section
// with no user-agent line between: they belong to the CDN's last group.
func (l *linter) noteStrayRules(m *managedFile) {
	for gi, g := range m.groups {
		if !m.cdn[gi] {
			continue
		}
		first, n := 0, 0
		for _, r := range g.Rules {
			if !m.inSection(r.Line) {
				if first == 0 {
					first = r.Line
				}
				n++
			}
		}
		if first == 0 {
			continue
		}
		what := "this line follows the managed block with no User-agent line of its own: it belongs"
		if n > 1 {
			what = fmt.Sprintf("this line and the %d rules after it follow the managed block with no User-agent line of their own: they belong", n-1)
		}
		l.report(first, l.keyColumn(first), CodeManagedOverride,
			"%s to the CDN's group of line %d (%s), not to a group of the site's", what, g.Agents[0].Line, agentValues(g))
	}
}

// agentValues lists the user-agent values of a group.
func agentValues(g robots.Group) string {
	vals := make([]string, len(g.Agents))
	for i, a := range g.Agents {
		vals[i] = "User-agent: " + a.Value
	}
	return named(vals)
}

// named joins names, the first maxNamed of them, counting the rest.
func named(names []string) string {
	switch {
	case len(names) > maxNamed:
		return fmt.Sprintf("%s and %d more", strings.Join(names[:maxNamed], ", "), len(names)-maxNamed)
	case len(names) > 1:
		return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	return strings.Join(names, "")
}

// cdnAgents returns the crawlers the CDN's groups name and no group of
// the site's does, as first written, in file order, and the folded
// tokens the CDN's groups name, each with the line of its first
// user-agent line in a section.
func (m *managedFile) cdnAgents() (only []string, cdnNamed map[string]int) {
	cdnNamed = map[string]int{}
	site := map[string]bool{}
	var order []string
	written := map[string]string{}
	for gi, g := range m.groups {
		for _, a := range g.Agents {
			if a.Global || a.Token == "" {
				continue
			}
			key := compile.FoldAgent(a.Token)
			if !m.cdn[gi] {
				site[key] = true
				continue
			}
			if _, ok := cdnNamed[key]; !ok {
				cdnNamed[key] = a.Line
				order = append(order, key)
				written[key] = a.Token
			}
		}
	}
	for _, key := range order {
		if !site[key] {
			only = append(only, written[key])
		}
	}
	return only, cdnNamed
}

// noteSiteStar notes, on the site's first '*' group, the crawlers that
// never read its rules because the CDN's groups name them: a crawler that
// some group names reads that group and not the '*' groups. It returns
// the tokens the CDN's groups name.
func (l *linter) noteSiteStar(m *managedFile) map[string]int {
	only, cdnNamed := m.cdnAgents()
	if len(only) == 0 {
		return cdnNamed
	}
	at, first, last, n := 0, 0, 0, 0
	for _, gi := range l.file.GroupsFor() {
		if m.cdn[gi] {
			continue
		}
		for _, r := range m.groups[gi].Rules {
			if matchable(r) && !m.inSection(r.Line) {
				if at == 0 {
					at = globalAgent(m.groups[gi])
				}
				first = cmpMin(first, r.Line)
				last = max(last, r.Line)
				n++
			}
		}
	}
	if at == 0 {
		return cdnNamed
	}
	rules := fmt.Sprintf("its rule (line %d) never applies", first)
	if n > 1 {
		rules = fmt.Sprintf("its %d rules (lines %d to %d) never apply", n, first, last)
	}
	l.report(at, l.keyColumn(at), CodeManagedOverride,
		"the managed block names %s, which no group of the site's names: each reads the CDN's group for it and not this User-agent: * group, so %s to them",
		named(only), rules)
	return cdnNamed
}

// cmpMin is min, where 0 stands for none yet.
func cmpMin(a, b int) int {
	if a == 0 {
		return b
	}
	return min(a, b)
}

// noteMerged notes each user-agent line of the site's naming a crawler a
// CDN's group names too: Google merges the groups, so the CDN's rules
// apply to that crawler with the site's.
func (l *linter) noteMerged(m *managedFile, cdnNamed map[string]int) {
	for gi, g := range m.groups {
		if m.cdn[gi] {
			continue
		}
		for _, a := range g.Agents {
			if a.Global || a.Token == "" {
				continue
			}
			line, ok := cdnNamed[compile.FoldAgent(a.Token)]
			if !ok {
				continue
			}
			l.report(a.Line, l.keyColumn(a.Line), CodeManagedOverride,
				"the managed block names %s too (line %d): Google merges its group with this one, so the CDN's rules for %s (%s) apply with this group's, and the longest match of either decides",
				a.Token, line, a.Token, m.cdnRules(l.file.GroupsFor(a.Token)))
		}
	}
}

// cdnRules lists the CDN's rules among the groups sel.
func (m *managedFile) cdnRules(sel []int) string {
	var rules []string
	for _, gi := range sel {
		for _, r := range m.groups[gi].Rules {
			if m.inSection(r.Line) {
				rules = append(rules, fmt.Sprintf("line %d %s", r.Line, ruleText(r)))
			}
		}
	}
	if len(rules) == 0 {
		return "none"
	}
	return named(rules)
}

// ruleText writes a rule as a line of the file.
func ruleText(r robots.Rule) string {
	if r.Value == "" {
		return kindWord(r.Allow) + ":"
	}
	return kindWord(r.Allow) + ": " + r.Value
}

// agentSelection is the groups that apply to some crawlers: those some
// group names (tokens, as first written), or every crawler no group
// names (star).
type agentSelection struct {
	groups []int
	tokens []string
	star   bool
}

// agentSelections returns the distinct selections of groups of a file,
// each with the crawlers it applies to.
func (l *linter) agentSelections() []agentSelection {
	var out []agentSelection
	index := map[string]int{}
	add := func(groups []int, token string) {
		gs := make([]int32, len(groups))
		for i, g := range groups {
			gs[i] = int32(g)
		}
		key := selectionKey(gs)
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, agentSelection{groups: groups})
		}
		if token == "" {
			out[i].star = true
		} else {
			out[i].tokens = append(out[i].tokens, token)
		}
	}
	if gs := l.file.GroupsFor(); len(gs) > 0 {
		add(gs, "")
	}
	resolved := map[string]bool{}
	for _, g := range l.file.Groups() {
		for _, a := range g.Agents {
			if a.Global || a.Token == "" {
				continue
			}
			if key := compile.FoldAgent(a.Token); !resolved[key] {
				resolved[key] = true
				add(l.file.GroupsFor(a.Token), a.Token)
			}
		}
	}
	return out
}

// beatenBy records, for a rule of the site's, the crawlers it never
// decides for and a rule of the CDN's that beats it.
type beatenBy struct {
	tokens []string
	star   bool
	by     robots.Rule
}

// noteBeaten notes the site's rules that, for some crawlers, a rule of
// the CDN's beats wherever they match: the CDN's rule matches every path
// the site's matches and wins (longer, or as long and an allow), so the
// site's never decides for them. It is the proof of the dead-rule check
// (one cover, globCovers), made within each selection that holds both.
func (l *linter) noteBeaten(m *managedFile) {
	order, beaten := l.beatenRules(m, managedBudget)
	rules := map[int]robots.Rule{}
	for _, line := range order {
		rules[line] = robots.Rule{}
	}
	for _, g := range m.groups {
		for _, r := range g.Rules {
			if _, ok := rules[r.Line]; ok {
				rules[r.Line] = r
			}
		}
	}
	for _, line := range order {
		b, r := beaten[line], rules[line]
		l.report(line, l.keyColumn(line), CodeManagedOverride,
			"for %s, the managed block's %q (line %d) matches every path this %s matches and %s: this line never decides for them",
			b.who(), ruleText(b.by), b.by.Line, kindWord(r.Allow), winsHow(len(r.Pattern), len(b.by.Pattern)))
	}
}

// beatenRules returns the lines of the site's rules a rule of the CDN's
// beats for some crawlers, in the order found, with those crawlers and
// the rule, within budget steps.
func (l *linter) beatenRules(m *managedFile, budget int) (order []int, beaten map[int]*beatenBy) {
	c := beatChecker{budget: budget}
	beaten = map[int]*beatenBy{} // by the site's rule's line
	for _, sel := range l.agentSelections() {
		cdn, site := m.split(sel.groups, &c.budget)
		if len(cdn) == 0 || len(site) == 0 {
			continue
		}
		c.prepare(cdn)
		for _, r := range site {
			by, ok := c.beatenIn(r)
			if c.budget <= 0 {
				break
			}
			if !ok {
				continue
			}
			b := beaten[r.Line]
			if b == nil {
				b = &beatenBy{by: by}
				beaten[r.Line] = b
				order = append(order, r.Line)
			}
			b.tokens = append(b.tokens, sel.tokens...)
			b.star = b.star || sel.star
		}
		if c.budget <= 0 {
			break
		}
	}
	return order, beaten
}

// who names the crawlers a rule is beaten for.
func (b *beatenBy) who() string {
	names := b.tokens
	if b.star {
		names = append([]string{"every crawler no group names"}, names...)
	}
	return named(names)
}

// split returns the matchable rules of a selection that lie within a
// section, and those outside, taking a step of budget for each rule.
func (m *managedFile) split(sel []int, budget *int) (cdn, site []robots.Rule) {
	for _, gi := range sel {
		rules := m.groups[gi].Rules
		*budget -= len(rules)
		for _, r := range rules {
			if !matchable(r) {
				continue
			}
			if m.inSection(r.Line) {
				cdn = append(cdn, r)
			} else {
				site = append(site, r)
			}
		}
	}
	return cdn, site
}

// beatChecker holds the budget of noteBeaten, the patterns of the CDN's
// rules, made once, those of a selection, and room for the patterns of a
// rule of the site's.
type beatChecker struct {
	budget int
	own    []openPattern
	pats   []automaton.Pattern
	cdn    map[int][]openPattern // by the rule's line
	sel    []cdnRule
}

// openPattern is a pattern and its whole-path glob (openEnd).
type openPattern struct {
	automaton.Pattern
	open string
}

// cdnRule is a rule of the CDN's, with its patterns; nil when one is
// longer than the checks look at.
type cdnRule struct {
	robots.Rule
	pats []openPattern
}

// openPatterns appends the patterns of r, with their globs, to dst; ok is
// false when one is longer than the checks look at.
func (c *beatChecker) openPatterns(dst []openPattern, r robots.Rule) ([]openPattern, bool) {
	c.pats = compile.Google.AppendRulePatterns(c.pats[:0], compile.Rule(r))
	for _, p := range c.pats {
		if len(p.Expr) > maxAnalysedPattern {
			return dst, false
		}
		dst = append(dst, openPattern{p, openEnd(p.Expr)})
	}
	return dst, true
}

// prepare sets the CDN's rules of the selection beatenIn reads, their
// patterns made once for the file.
func (c *beatChecker) prepare(rules []robots.Rule) {
	if c.cdn == nil {
		c.cdn = map[int][]openPattern{}
	}
	c.sel = c.sel[:0]
	for _, r := range rules {
		pats, ok := c.cdn[r.Line]
		if !ok {
			if pats, ok = c.openPatterns(nil, r); !ok {
				pats = nil
			}
			c.cdn[r.Line] = pats
		}
		c.sel = append(c.sel, cdnRule{r, pats})
	}
}

// beatenIn reports whether one of the CDN's rules prepared beats r
// wherever r matches: for each pattern of r (an index page's rule has
// two), a pattern of that rule of the other kind that covers it and wins.
// It returns the rule.
func (c *beatChecker) beatenIn(r robots.Rule) (robots.Rule, bool) {
	var ok bool
	if c.own, ok = c.openPatterns(c.own[:0], r); !ok {
		return robots.Rule{}, false
	}
	for i := range c.sel {
		o := &c.sel[i]
		if o.Allow == r.Allow {
			continue
		}
		if c.beatsAll(o.pats) {
			return o.Rule, true
		}
		if c.budget <= 0 {
			break
		}
	}
	return robots.Rule{}, false
}

// beatsAll reports whether each pattern of c.own is covered and beaten by
// one of theirs.
func (c *beatChecker) beatsAll(theirs []openPattern) bool {
	if len(theirs) == 0 {
		c.budget--
		return false
	}
	for _, p := range c.own {
		found := false
		for _, t := range theirs {
			c.budget -= 1 + (len(t.open)+len(p.open))/coverBytes
			if t.Beats(p.Pattern) && globCovers(t.open, p.open) {
				found = true
				break
			}
		}
		if !found || c.budget <= 0 {
			return false
		}
	}
	return true
}
