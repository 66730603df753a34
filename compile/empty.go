package compile

// An empty rule ("Allow:", "Disallow:") matches every path with priority
// 0: it never beats a rule that matches, and it decides nothing, since a
// path no rule matches is allowed anyway. Google's reference parser still
// records it as the match of its kind, keeping the first one, and when
// nothing else matched names its line as the one that applies
// (RobotsMatcher::matching_line): the first empty Allow's line when there
// is one, since Allow wins a tie, else the first empty Disallow's. The
// automaton is given no empty pattern; the rule set finds that line's rule
// once, when it is compiled, so a check pays nothing for it.

// firstEmpty returns the selection ID of the rule the reference names
// when no rule matches: the first empty Allow of the groups, else their
// first empty Disallow; -1 when they hold no empty rule.
func (f *File) firstEmpty(groups []int32) int32 {
	allow, disallow := int32(-1), int32(-1)
	id := int32(0)
	for _, gi := range groups {
		lo, hi := f.groupRules(gi)
		for i := lo; i < hi; i, id = i+1, id+1 {
			r := f.rules[i]
			switch {
			case r.size() != 0:
			case r.allow() && allow < 0:
				allow = id
			case !r.allow() && disallow < 0:
				disallow = id
			}
		}
	}
	if allow >= 0 {
		return allow
	}
	return disallow
}

// Undecided returns the ID of the empty rule that applies when no rule
// matches a path (firstEmpty), and false when the selection holds no
// empty rule. That rule matches without deciding: the path is allowed.
func (rs *RuleSet) Undecided() (id int32, ok bool) { return rs.empty, rs.empty >= 0 }
