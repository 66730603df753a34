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
// A rule set is tiered, as a JIT is: a crawler checks one or a few URLs
// on most sites, about a hundred on a typical crawled site, and thousands
// on a few. Its checks start cold: each rule is tested on its own with
// automaton.Match, which needs nothing built; from the second cold check
// on, the rules are indexed by the literal prefix of their patterns
// (coldindex.go), so a check tests only the rules whose prefix its path
// starts with, and, when many rules hold a star, by a rare two-byte
// substring of what follows their prefix (coldgram.go). Once the rule set has answered HotAfter checks it compiles
// its automaton.Set, whose checks cost one table load per byte whatever
// the rules, but whose states cost more to build than a cold check costs
// until paths repeat.
//
// A cold check is taken only while its work, bounded by the path's length
// times the rules and their bytes, stays under coldWorkMax, so a hostile
// file or URL goes straight to the automaton, whose cost per byte is
// bounded. RFC mode compiles at once: its patterns are normalised, which
// copies them.
//
// A RuleSet is safe for concurrent use.
//
// A cache holds one per site a crawler met: its fields, the options of its
// automaton (options) and its groups (Groups) among them, are packed into
// 96 bytes, a size class whose objects start 32 bytes apart. What every check reads comes first, in 32 bytes,
// so that a check of a site the crawl has not met for a while loads one
// cache line of it (TestRuleSetCheckFieldsShareALine).
type RuleSet struct {
	set    atomic.Pointer[automaton.Set] // nil until compiled
	index  atomic.Pointer[coldIndex]
	checks atomic.Int32 // cold checks answered
	rules  int32        // rules in the selection
	bytes  int32        // bytes of their patterns, saturated at math.MaxInt32
	// The file's dialect's NormalizePercent and EndAtNUL, which every
	// cold check reads, and its Verbatim, which every check reads: kept
	// here, a check need not load the File.
	normalize, endAtNUL, verbatim bool

	file   *File
	groups []int32          // the selection's groups
	meter  *automaton.Meter // the automaton's options.Meter
	mu     sync.Mutex       // held while compiling or indexing
	budget int32            // the automaton's options.Budget, -1 for no limit but its own
	empty  int32            // the empty rule that applies when none matches (emptyRules), or -1

	attached atomic.Pointer[attachment] // Attach's value, nil until then
}

// attachment boxes the value a rule set carries for its user (Attach).
type attachment struct{ v any }

// attachmentBytes is what Attach charges the meter for its box.
const attachmentBytes = 16

// Attach keeps v beside the rule set, once: the first value attached
// stays, and Attach returns it. The rule set's meter is charged bytes (what
// v holds) and the box, once. Attached returns it, or nil. It is for what
// the user of a rule set reads once per selection of groups and shares
// between the agents resolved to it (package robots: the usage lines).
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

// options returns the options the rule set's automaton is built with.
func (rs *RuleSet) options() automaton.Options {
	return automaton.Options{Budget: int(rs.budget), Meter: rs.meter, EndAtNUL: rs.file.dialect.EndAtNUL}
}

// HotAfter is the number of cold checks a rule set answers before it
// compiles its automaton. A cold check of an indexed rule set costs a few
// pattern tests; the automaton costs, for each state, about as much to
// build as a cold check, and a new path builds several. On the real-world
// crawl (bench: Crawl, about a hundred URLs a site, a few thousand on the
// largest) the automaton did not pay for itself within the crawl when it
// was built after 256 checks: 1,024 made the crawl about 10 % faster, and
// 4,096 no faster than 1,024 (each value built into its own test binary
// with `go test -c` in bench/, the binaries run in turn with
// -test.bench 'Crawl/fastrobots$', five times each).
const HotAfter = 1024

// coldWorkMax bounds the work of one cold check, in bytes compared: the
// path's length times the rules it tries plus a sixteenth of their bytes
// (coldWork). Past it, the automaton answers. It also keeps the index's
// sort within its 24-bit entry indices (maxSortedEntries in
// coldindex.go): raising it past 1<<20 fails to compile.
const coldWorkMax = 1 << 18

// Compile returns the rule set of the selected groups; its automaton is
// built with opts when it is needed. The automaton's options are given
// here, where it is built, rather than kept in the File: one parsed file
// may be compiled under different budgets. Their EndAtNUL is the file's
// dialect's, whatever opts say, so that every tier reads a path alike.
func (f *File) Compile(sel Selection, opts automaton.Options) *RuleSet {
	rs := &RuleSet{}
	f.CompileTo(rs, sel, opts)
	rs.meter.Add(alloc.Size(ruleSetBytes))
	return rs
}

// CompileTo is Compile into rs, a zero RuleSet the caller holds within a
// value of its own, which saves an allocation; the meter is not charged
// for rs, which the caller's value is charged with.
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

// budget32 returns an automaton budget as a RuleSet keeps it: a budget
// past automaton.MaxBudget means that budget, and any negative one no
// limit but it.
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

// Dialect returns the dialect of the file the rules come from, in which
// its checks are read.
func (rs *RuleSet) Dialect() Dialect { return rs.file.dialect }

// Metered returns the bytes the rule set's meter has counted so far: its
// options' Meter, or its file's. For a file parsed with a meter, that is
// the memory of the file and of every rule set compiled from it, which
// grows as checks build automaton states; 0 without a meter. It is one
// atomic load.
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

// compile builds the automaton once.
func (rs *RuleSet) compile() *automaton.Set {
	if s := rs.set.Load(); s != nil {
		return s
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if s := rs.set.Load(); s != nil {
		return s
	}
	patterns := make([]automaton.Pattern, 0, rs.rules)
	rs.eachRule(func(i, id int32) {
		patterns = rs.file.appendPatterns(patterns, i, id)
	})
	s := automaton.NewSet(patterns, rs.options())
	rs.set.Store(s)
	return s
}

// coldMatch is the best rule found so far by a cold check.
type coldMatch struct {
	best automaton.Pattern
	any  bool
}

// try tests rule i of the file, whose ID in the selection is id, against
// path, and keeps it when it beats the best so far: by priority and kind,
// then by ID, since rules are not tried in file order once indexed.
func (m *coldMatch) try(f *File, i, id int32, path string, grams *pathGrams) {
	r := f.rules[i]
	expr := f.pattern(i, r)
	if expr == "" {
		return
	}
	p := automaton.Pattern{Expr: expr, Allow: r.allow(), Priority: int32(len(expr)), ID: id}
	if m.beats(p) && samePrefixByte(expr, path) && grams.mayMatch(expr, path) && automaton.Match(expr, path) {
		m.best, m.any = p, true
		return
	}
	if !p.Allow {
		return
	}
	if dir, ok := indexDir(expr); ok {
		p.Priority = int32(len(dir) + 1)
		if m.beats(p) && automaton.MatchAnchored(dir, path) {
			m.best, m.any = p, true
		}
	}
}

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

// matchAll tries every rule, in selection order.
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

// eachRule calls fn with the file's index and the selection's ID of each
// rule, in selection order.
func (rs *RuleSet) eachRule(fn func(i, id int32)) {
	id := int32(0)
	for _, gi := range rs.Groups() {
		lo, hi := rs.file.groupRules(gi)
		for i := lo; i < hi; i, id = i+1, id+1 {
			fn(i, id)
		}
	}
}

// samePrefixByte is a quick test that may rule a pattern out before Match:
// it reports false when one of the pattern's first two bytes is a literal
// the path does not have there. Nearly every pattern and path start with
// '/', and most rules of a group differ in the next byte.
func samePrefixByte(expr, path string) bool {
	if len(expr) < 2 || expr[0] == '*' || expr[1] == '*' || expr[1] == '$' && len(expr) == 2 {
		return true
	}
	return len(path) >= 2 && expr[0] == path[0] && expr[1] == path[1]
}

// RulePatterns returns the patterns a rule is matched as, in the file's
// mode: its pattern, and in Google mode the directory of an index.htm*
// allow. It is what the automaton is given, for callers that explain or
// analyse rules one by one.
func (f *File) RulePatterns(r Rule) []automaton.Pattern {
	return f.dialect.appendPatterns(nil, r.Pattern, r.Allow, 0)
}

// appendPatterns appends the patterns rule i stands for.
func (f *File) appendPatterns(ps []automaton.Pattern, i, id int32) []automaton.Pattern {
	r := f.rules[i]
	return f.dialect.appendPatterns(ps, f.pattern(i, r), r.allow(), id)
}

// appendPatterns appends the patterns of a rule with pattern expr, which
// the dialect matches: the pattern, in RFC 9309's form when it normalises
// percent-encoding, and the directory of an index page that it allows
// (indexDirectory), when it reads Google's index.html rule. It is the one
// statement of both rules, which every tier derives its patterns from.
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

// indexDirectory implements Google's rule that allowing a directory's index
// page allows the directory: for a pattern whose last segment starts with
// "index.htm", it returns the directory pattern anchored at its end
// ("/a/index.html" gives "/a/$"). Google applies it only when the original
// pattern does not match; adding it unconditionally decides the same,
// because the original is always longer and of the same kind.
func indexDirectory(pattern string) (string, bool) {
	dir, ok := indexDir(pattern)
	if !ok {
		return "", false
	}
	return dir + "$", true
}

// indexDir returns the directory of an index page's pattern, without the
// '$' that anchors it: a substring of pattern.
func indexDir(pattern string) (string, bool) {
	slash := strings.LastIndexByte(pattern, '/')
	if slash < 0 || !strings.HasPrefix(pattern[slash:], "/index.htm") {
		return "", false
	}
	return pattern[:slash+1], true
}
