package compile

import "github.com/fastrobots/robots/internal/alloc"

// views are the file as values of the exported types, built on first
// use; the groups, which cost as much as the records, only when asked for.
// A views value is never changed once published: building the groups
// publishes a copy with them.
type views struct {
	sitemaps []Directive
	others   []Directive
	groups   []Group
	grouped  bool
}

// Groups returns the file's groups in file order. The slice and what it
// holds are shared and must not be modified.
func (f *File) Groups() []Group { return f.loadViews(true).groups }

// Sitemaps returns the sitemap lines, in file order, wherever they stand.
func (f *File) Sitemaps() []Directive { return f.loadViews(false).sitemaps }

// Others returns the directives this package does not interpret, in file
// order.
func (f *File) Others() []Directive { return f.loadViews(false).others }

// Extras returns the unknown lines of group gi (Group.Extras) without
// building the groups: a copy the caller may keep, nil when it has none.
func (f *File) Extras(gi int32) []Directive {
	if v := f.views.Load(); v != nil && v.grouped {
		return v.groups[gi].Extras
	}
	lo, hi := f.groupRange(gi, groupRec.otherLo, len(f.others))
	return f.directives(f.others[lo:hi])
}

// Preamble returns the unknown lines before the first group (all when
// there is none) without building the groups: a copy the caller may keep.
func (f *File) Preamble() []Directive {
	n := len(f.others)
	if len(f.groups) > 0 {
		n = int(f.groups[0].other)
	}
	return f.directives(f.others[:n])
}

// NumGroups returns the number of groups, without building them.
func (f *File) NumGroups() int { return len(f.groups) }

// loadViews returns the views, with the groups when asked. Two goroutines
// may both build them; the one published by compare-and-swap is charged.
func (f *File) loadViews(groups bool) *views {
	for {
		cur := f.views.Load()
		if cur != nil && (cur.grouped || !groups) {
			return cur
		}
		next, charge := &views{}, alloc.Size(viewsBytes)
		if cur != nil {
			next.sitemaps, next.others = cur.sitemaps, cur.others
		} else {
			next.sitemaps, next.others = f.directives(f.sitemapRecs()), f.directives(f.others)
			charge += directivesBytes(next.sitemaps) + directivesBytes(next.others)
		}
		if groups {
			next.groups, next.grouped = f.build(next.others), true
			charge += GroupsBytes[Group, AgentLine, Rule](f)
		}
		if f.views.CompareAndSwap(cur, next) {
			f.meter.Add(charge)
			return next
		}
	}
}

// build turns the records into groups.
func (f *File) build(others []Directive) []Group {
	return GroupsAs(f, others, func(agents []AgentLine, rules []Rule, extras []Directive) Group {
		return Group{Agents: agents, Rules: rules, Extras: extras}
	})
}

// The field sets of AgentLine, Rule and Directive, as constraints: a type
// of the layer above that has them converts from compile's, and GroupsAs
// builds its views in it.
type (
	AgentLineFields interface {
		~struct {
			Line   int
			Value  string
			Token  string
			Global bool
		}
	}
	RuleFields interface {
		~struct {
			Line    int
			Allow   bool
			Value   string
			Pattern string
		}
	}
	DirectiveFields interface {
		~struct {
			Line  int
			Key   string
			Value string
		}
	}
)

// GroupsAs turns the records into groups of the caller's types, which
// group makes of a group's agents, rules and extras (others, sliced). The
// rules, agents and extras of all groups share one allocation each,
// capped so that appending to one group's cannot write over the next's.
// Groups is GroupsAs in compile's types, kept with the file.
func GroupsAs[G any, A AgentLineFields, R RuleFields, D DirectiveFields](f *File, others []D, group func([]A, []R, []D) G) []G {
	rules := make([]R, len(f.rules))
	line := uint32(0)
	for i, r := range f.rules {
		line = f.ruleLine(int32(i), r, line)
		rules[i] = R(f.ruleAt(int32(i), r, line))
	}
	agents := make([]A, len(f.agents))
	for i, a := range f.agents {
		agents[i] = A(f.agentAt(a))
	}
	groups := make([]G, len(f.groups))
	for i := range f.groups {
		gi := int32(i)
		lo, hi := f.groupRange(gi, groupRec.agentLo, len(agents))
		var rs []R
		var ds []D
		if lo, hi := f.groupRange(gi, groupRec.ruleLo, len(rules)); lo < hi {
			rs = capped(rules, lo, hi)
		}
		if lo, hi := f.groupRange(gi, groupRec.otherLo, len(f.others)); lo < hi {
			ds = capped(others, lo, hi)
		}
		groups[i] = group(capped(agents, lo, hi), rs, ds)
	}
	return groups
}

// groupRange returns the range of group gi's entries among all groups' n.
func (f *File) groupRange(gi int32, first func(groupRec) int32, n int) (lo, hi int32) {
	lo, hi = first(f.groups[gi]), int32(n)
	if int(gi)+1 < len(f.groups) {
		hi = first(f.groups[gi+1])
	}
	return lo, hi
}

func capped[T any](s []T, lo, hi int32) []T { return s[lo:hi:hi] }

func (f *File) directives(recs []dirRec) []Directive {
	if len(recs) == 0 {
		return nil
	}
	out := make([]Directive, len(recs))
	for i, d := range recs {
		out[i] = Directive{Line: int(d.line), Key: f.body[d.keyOff : d.keyOff+uint32(d.keyN)], Value: f.body[d.off : d.off+uint32(d.n)]}
	}
	return out
}

func (f *File) groupRules(gi int32) (lo, hi int32) {
	return f.groupRange(gi, groupRec.ruleLo, len(f.rules))
}

func (f *File) ruleLine(i int32, r ruleRec, before uint32) uint32 {
	if r.gap() == farGap {
		return f.rare.farLines[i]
	}
	return before + r.gap()
}

func (f *File) ruleAt(i int32, r ruleRec, line uint32) Rule {
	value := r.value(f.body)
	return Rule{Line: int(line), Allow: r.allow(), Value: value, Pattern: f.pattern(i, r)}
}

// pattern returns the pattern of rule i: its value, escaped if needed.
func (f *File) pattern(i int32, r ruleRec) string {
	if r.isEscaped() {
		return f.rare.escaped[i]
	}
	return r.value(f.body)
}

func (f *File) agentAt(a agentRec) AgentLine {
	value := f.body[a.off : a.off+a.n]
	return AgentLine{Line: int(a.line), Value: value, Token: value[:a.tok], Global: a.global}
}
