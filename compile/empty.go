package compile

// An empty rule ("Allow:", "Disallow:") matches every path with priority
// 0, so it decides nothing. Google's reference parser still names its line
// when nothing else matched (RobotsMatcher::matching_line): the first empty
// Allow's, since Allow wins a tie, else the first empty Disallow's. The
// automaton is given no empty pattern; Compile finds that rule once.

// emptyRules finds the rule the reference names when no rule matches, as
// Compile walks a selection's rules in order. It starts as noEmpty.
type emptyRules struct{ allow, disallow int32 }

var noEmpty = emptyRules{-1, -1}

func (e *emptyRules) see(r ruleRec, id int32) {
	switch {
	case r.size() != 0:
	case r.allow() && e.allow < 0:
		e.allow = id
	case !r.allow() && e.disallow < 0:
		e.disallow = id
	}
}

// first returns the selection ID of the rule the reference names, or -1.
func (e emptyRules) first() int32 {
	if e.allow >= 0 {
		return e.allow
	}
	return e.disallow
}

// Undecided returns the ID of the empty rule that applies when no rule
// matches a path, and false when the selection holds none. That rule
// matches without deciding: the path is allowed.
func (rs *RuleSet) Undecided() (id int32, ok bool) { return rs.empty, rs.empty >= 0 }
