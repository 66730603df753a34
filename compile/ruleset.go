package compile

import (
	"strings"

	"github.com/fastrobots/robots/automaton"
)

// RuleRef names a rule of a File: group index and rule index within it.
type RuleRef struct {
	Group, Rule int32
}

// RuleSet is the merged rules of a Selection, compiled for matching.
type RuleSet struct {
	Refs []RuleRef // indexed by automaton.Pattern.ID
	Set  *automaton.Set
}

// Compile merges the rules of the selected groups into a RuleSet whose
// automaton is built with opts. The automaton's options are given here,
// where it is built, rather than kept in the File: one parsed file may be
// compiled under different budgets.
func (f *File) Compile(sel Selection, opts automaton.Options) *RuleSet {
	var refs []RuleRef
	var patterns []automaton.Pattern
	for _, gi := range sel.Groups {
		for ri, r := range f.Groups[gi].Rules {
			id := int32(len(refs))
			refs = append(refs, RuleRef{gi, int32(ri)})
			patterns = f.appendPatterns(patterns, r, id)
		}
	}
	return &RuleSet{Refs: refs, Set: automaton.NewSet(patterns, opts)}
}

// RulePatterns returns the patterns a rule is matched as, in the file's
// mode: its pattern, and in Google mode the directory of an index.htm*
// allow. It is what Compile gives the automaton, for callers that explain
// or analyse rules one by one.
func (f *File) RulePatterns(r Rule) []automaton.Pattern {
	return f.appendPatterns(nil, r, 0)
}

// appendPatterns appends the patterns rule r stands for.
func (f *File) appendPatterns(ps []automaton.Pattern, r Rule, id int32) []automaton.Pattern {
	expr := r.Pattern
	if f.Mode == RFC {
		expr = NormalizeRFCPattern(expr)
	}
	ps = append(ps, automaton.Pattern{Expr: expr, Allow: r.Allow, Priority: int32(len(expr)), ID: id})
	if dir, ok := indexDirectory(expr); ok && r.Allow && f.Mode == Google {
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
	slash := strings.LastIndexByte(pattern, '/')
	if slash < 0 || !strings.HasPrefix(pattern[slash:], "/index.htm") {
		return "", false
	}
	return pattern[:slash+1] + "$", true
}

// Rule returns the rule a pattern ID stands for.
func (f *File) Rule(rs *RuleSet, id int32) *Rule {
	ref := rs.Refs[id]
	return &f.Groups[ref.Group].Rules[ref.Rule]
}
