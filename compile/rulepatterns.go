package compile

import "github.com/fastrobots/robots/automaton"

// AppendRulePatterns appends to ps the patterns rule r is matched as in
// the mode, as File.RulePatterns gives them for a file of the mode: its
// pattern and, in Google's, the directory of an index.htm* allow. It is
// for a caller that holds a File's Rule values, not the File (package
// lint reads them from a robots.Robots).
func (m Mode) AppendRulePatterns(ps []automaton.Pattern, r Rule) []automaton.Pattern {
	return m.Dialect().appendPatterns(ps, r.Pattern, r.Allow, 0)
}
