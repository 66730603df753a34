package compile

// An empty rule ("Allow:", "Disallow:") matches every path with priority
// 0: it never beats a rule that matches, and it decides nothing, since a
// path no rule matches is allowed anyway. Google's reference parser still
// records it as the match of its kind, keeping the first one, and when
// nothing else matched names its line as the one that applies
// (RobotsMatcher::matching_line): the first empty Allow's line when there
// is one, since Allow wins a tie, else the first empty Disallow's. The
// automaton is given no empty pattern; the rule set finds that line's rule
// once, in the walk Compile makes of its rules, so a check pays nothing
// for it.

// emptyRules finds the rule the reference names when no rule matches, as
// Compile walks a selection's rules: the first empty Allow, else the first
// empty Disallow. Its zero value has seen no rule; Compile starts it at
// noEmpty.
type emptyRules struct{ allow, disallow int32 }

// noEmpty is an emptyRules that has seen no empty rule.
var noEmpty = emptyRules{-1, -1}

// see takes the rule r, whose selection ID is id, in selection order.
func (e *emptyRules) see(r ruleRec, id int32) {
	switch {
	case r.size() != 0:
	case r.allow() && e.allow < 0:
		e.allow = id
	case !r.allow() && e.disallow < 0:
		e.disallow = id
	}
}

// first returns the selection ID of the rule the reference names, -1 when
// the rules seen hold no empty rule.
func (e emptyRules) first() int32 {
	if e.allow >= 0 {
		return e.allow
	}
	return e.disallow
}

// Undecided returns the ID of the empty rule that applies when no rule
// matches a path (emptyRules), and false when the selection holds no
// empty rule. That rule matches without deciding: the path is allowed.
func (rs *RuleSet) Undecided() (id int32, ok bool) { return rs.empty, rs.empty >= 0 }
