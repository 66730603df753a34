package compile

import (
	"math"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/internal/alloc"
)

// RuleRef names a rule of a File: group index and rule index within it.
type RuleRef struct {
	Group, Rule int32
}

// RuleSet is the merged rules of a Selection, ready for matching.
//
// A rule set is tiered, as a JIT is, because a crawler checks one or a few
// URLs on most sites and thousands on a few. Cold checks test the rules
// with automaton.Match, indexed from the second check on (coldindex.go,
// coldgram.go); after HotAfter checks it compiles its automaton.Set, whose
// checks cost one table load per byte whatever the rules. A cold check is
// taken only while its work stays within coldWorkMax, so a hostile file or
// URL goes straight to the automaton. RFC mode compiles at once.
//
// A RuleSet is safe for concurrent use.
//
// A cache holds one per site: it is kept to 96 bytes, a size class whose
// objects start 32 bytes apart, and what every check reads comes first, in
// 32 bytes, so that a check loads one cache line of it
// (TestRuleSetCheckFieldsShareALine).
type RuleSet struct {
	set    atomic.Pointer[automaton.Set] // nil until compiled
	index  atomic.Pointer[coldIndex]
	checks atomic.Int32 // cold checks answered
	rules  int32        // rules in the selection
	bytes  int32        // bytes of their patterns, saturated at math.MaxInt32
	// The dialect's fields a check reads, so that it need not load the File.
	normalize, endAtNUL, verbatim bool

	file   *File
	groups []int32          // the selection's groups
	meter  *automaton.Meter // the automaton's options.Meter
	mu     sync.Mutex       // held while compiling or indexing
	budget int32            // the automaton's options.Budget, -1 for no limit but its own
	empty  int32            // the empty rule that applies when none matches (emptyRules), or -1

	attached atomic.Pointer[attachment] // Attach's value, nil until then
}

type attachment struct{ v any }

const attachmentBytes = 16

// Attach keeps v beside the rule set, once: the first value attached
// stays, and Attach returns it, charging the meter bytes once. It is for
// what a user derives once per selection of groups (the usage lines).
func (rs *RuleSet) Attach(v any, bytes int) any {
	box := &attachment{v: v}
	if !rs.attached.CompareAndSwap(nil, box) {
		return rs.attached.Load().v
	}
	if rs.meter != nil {
		rs.meter.Add(bytes + attachmentBytes)
	}
	return v
}

// Attached returns the value Attach kept, or nil.
func (rs *RuleSet) Attached() any {
	if a := rs.attached.Load(); a != nil {
		return a.v
	}
	return nil
}

func (rs *RuleSet) options() automaton.Options {
	return automaton.Options{Budget: int(rs.budget), Meter: rs.meter, EndAtNUL: rs.file.dialect.EndAtNUL}
}

// HotAfter is the number of cold checks a rule set answers before it
// compiles its automaton. A new path builds states, and a state costs
// several cold checks, while a warm check is not always cheaper than a
// cold one (a state reached by one path keeps its transitions in a list):
// on the real crawl's busiest sites the states pay for themselves only
// thousands of checks after compiling, or never (docs/benchmarks.md, "When
// the automaton pays"). Until then a cold check costs at most its
// difference from a warm one, and coldWorkMax bounds it.
const HotAfter = 4096

// coldWorkMax bounds the bytes one cold check compares (coldWork); past
// it, the automaton answers.
const coldWorkMax = 1 << 18

// Compile returns the rule set of the selected groups, whose automaton is
// built with opts when needed. EndAtNUL is the file's dialect's, whatever
// opts say, so that every tier reads a path alike.
func (f *File) Compile(sel Selection, opts automaton.Options) *RuleSet {
	rs := &RuleSet{}
	f.CompileTo(rs, sel, opts)
	rs.meter.Add(alloc.Size(ruleSetBytes))
	return rs
}

// CompileTo is Compile into rs, a zero RuleSet held within a value of the
// caller's; the meter is not charged for rs itself.
func (f *File) CompileTo(rs *RuleSet, sel Selection, opts automaton.Options) {
	rs.file, rs.groups = f, sel.Groups
	rs.budget, rs.meter = budget32(opts.Budget), opts.Meter
	rs.normalize, rs.endAtNUL, rs.verbatim = f.dialect.NormalizePercent, f.dialect.EndAtNUL, f.dialect.Verbatim()
	if opts.Meter == nil {
		rs.meter = f.meter
	}
	empties := noEmpty
	bytes := 0
	for _, gi := range sel.Groups {
		lo, hi := f.groupRules(gi)
		for i, r := range f.rules[lo:hi] {
			bytes += int(r.size())
			empties.see(r, rs.rules+int32(i))
		}
		rs.rules += hi - lo
	}
	rs.bytes = int32(min(bytes, math.MaxInt32))
	rs.empty = empties.first()
}

// budget32 returns an automaton budget as a RuleSet keeps it: clamped to
// automaton.MaxBudget, and -1 for any negative one.
func budget32(b int) int32 {
	if b < 0 {
		return -1
	}
	return int32(min(b, automaton.MaxBudget))
}

// Set returns the rule set's automaton, compiling it if it is not yet.
// Checks need not call it: Decide chooses the tier.
func (rs *RuleSet) Set() *automaton.Set { return rs.compile() }

// Groups returns the selection's groups, whose rules the set holds. The
// slice is shared and must not be modified.
func (rs *RuleSet) Groups() []int32 { return rs.groups }

// File returns the file the rules come from.
func (rs *RuleSet) File() *File { return rs.file }

// Dialect returns the dialect of the file the rules come from.
func (rs *RuleSet) Dialect() Dialect { return rs.file.dialect }

// Metered returns the bytes counted so far by the rule set's meter, its
// options' Meter or else its file's, which grows as checks build automaton
// states; 0 without a meter.
func (rs *RuleSet) Metered() int64 { return rs.meter.Bytes() }

// Compiled reports whether the automaton has been built.
func (rs *RuleSet) Compiled() bool { return rs.set.Load() != nil }

// Stats returns the automaton's size so far; while the rule set is cold,
// no state is built and only Budget is set.
func (rs *RuleSet) Stats() automaton.Stats {
	if s := rs.set.Load(); s != nil {
		return s.Stats()
	}
	return automaton.Stats{Budget: rs.options().Limit()}
}

// Ref returns the rule a pattern ID names.
func (rs *RuleSet) Ref(id int32) RuleRef {
	for _, gi := range rs.Groups() {
		lo, hi := rs.file.groupRules(gi)
		if id < hi-lo {
			return RuleRef{gi, id}
		}
		id -= hi - lo
	}
	panic("compile: pattern ID out of range")
}

// Rule returns the rule a pattern ID names.
func (rs *RuleSet) Rule(id int32) *Rule {
	ref := rs.Ref(id)
	return &rs.file.Groups()[ref.Group].Rules[ref.Rule]
}

func (rs *RuleSet) compile() *automaton.Set {
	if s := rs.set.Load(); s != nil {
		return s
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if s := rs.set.Load(); s != nil {
		return s
	}
	s := automaton.NewSet(rs.patterns(), rs.options())
	rs.set.Store(s)
	return s
}

// patterns returns the patterns of the rule set's rules, as NewSet takes them.
func (rs *RuleSet) patterns() []automaton.Pattern {
	patterns := make([]automaton.Pattern, 0, rs.rules)
	rs.eachRule(func(i, id int32) {
		patterns = rs.file.appendPatterns(patterns, i, id)
	})
	return patterns
}

type coldMatch struct {
	best automaton.Pattern
	any  bool
}

// try tests rule i, whose selection ID is id, on path.
func (m *coldMatch) try(f *File, i, id int32, path string, grams *pathGrams) {
	r := f.rules[i]
	expr := f.pattern(i, r)
	if expr == "" {
		return
	}
	p := automaton.Pattern{Expr: expr, Allow: r.allow(), Priority: int32(len(expr)), ID: id}
	if m.beats(p) && samePrefixByte(expr, path) && grams.match(expr, path) {
		m.best, m.any = p, true
		return
	}
	if !p.Allow {
		return
	}
	if dir, ok := indexDir(expr); ok {
		p.Priority = int32(len(dir) + 1)
		if m.beats(p) && dirGlob(dir).Match(path) {
			m.best, m.any = p, true
		}
	}
}

// beats breaks ties by ID, since an index does not try rules in order.
func (m *coldMatch) beats(p automaton.Pattern) bool {
	if !m.any || p.Beats(m.best) {
		return true
	}
	return !m.best.Beats(p) && p.ID < m.best.ID
}

func (m *coldMatch) verdict() Verdict {
	if !m.any {
		return Verdict{}
	}
	return Verdict{ID: m.best.ID, Allow: m.best.Allow, Matched: true}
}

func (rs *RuleSet) matchAll(m *coldMatch, path string) {
	f := rs.file
	var grams pathGrams
	id := int32(0)
	for _, gi := range rs.Groups() {
		lo, hi := f.groupRules(gi)
		for i := lo; i < hi; i, id = i+1, id+1 {
			m.try(f, i, id, path, &grams)
		}
	}
}

// eachRule calls fn with the file's index and the selection's ID of each rule.
func (rs *RuleSet) eachRule(fn func(i, id int32)) {
	id := int32(0)
	for _, gi := range rs.Groups() {
		lo, hi := rs.file.groupRules(gi)
		for i := lo; i < hi; i, id = i+1, id+1 {
			fn(i, id)
		}
	}
}

// samePrefixByte reports false when one of the pattern's first two bytes
// is a literal the path lacks there: most rules of a group differ there.
func samePrefixByte(expr, path string) bool {
	if len(expr) < 2 || expr[0] == '*' || expr[1] == '*' || expr[1] == '$' && len(expr) == 2 {
		return true
	}
	return len(path) >= 2 && expr[0] == path[0] && expr[1] == path[1]
}

// RulePatterns returns the patterns a rule is matched as in the file's
// mode: its pattern, and in Google mode the directory of an index.htm* allow.
func (f *File) RulePatterns(r Rule) []automaton.Pattern {
	return f.dialect.appendPatterns(nil, r.Pattern, r.Allow, 0)
}

func (f *File) appendPatterns(ps []automaton.Pattern, i, id int32) []automaton.Pattern {
	r := f.rules[i]
	return f.dialect.appendPatterns(ps, f.pattern(i, r), r.allow(), id)
}

// appendPatterns appends the patterns of a rule with pattern expr, as the
// dialect reads it: normalised, and with an allowed index page's directory
// (indexDirectory). Every tier derives its patterns here.
func (d Dialect) appendPatterns(ps []automaton.Pattern, expr string, allow bool, id int32) []automaton.Pattern {
	if d.NormalizePercent {
		expr = NormalizeRFCPattern(expr)
	}
	ps = append(ps, automaton.Pattern{Expr: expr, Allow: allow, Priority: int32(len(expr)), ID: id})
	if dir, ok := indexDirectory(expr); ok && allow && d.IndexHTML {
		ps = append(ps, automaton.Pattern{Expr: dir, Allow: true, Priority: int32(len(dir)), ID: id})
	}
	return ps
}

// indexDirectory implements Google's rule that allowing a directory's
// index page allows the directory ("/a/index.html" gives "/a/$"). Google
// applies it only when the original pattern does not match; adding it
// always decides the same, as the original is longer and of the same kind.
func indexDirectory(pattern string) (string, bool) {
	dir, ok := indexDir(pattern)
	if !ok {
		return "", false
	}
	return dir + "$", true
}

// dirGlob returns the Glob of indexDirectory's pattern, dir+"$", from dir,
// its body, which indexDir gives as a substring of the rule's pattern.
func dirGlob(dir string) automaton.Glob {
	g := automaton.ReadGlob(dir) // dir ends in '/', never in '$'
	g.Anchored = true
	return g
}

// indexDir is indexDirectory without the '$': a substring of pattern.
func indexDir(pattern string) (string, bool) {
	slash := strings.LastIndexByte(pattern, '/')
	if slash < 0 || !strings.HasPrefix(pattern[slash:], "/index.htm") {
		return "", false
	}
	return pattern[:slash+1], true
}
