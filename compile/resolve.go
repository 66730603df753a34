package compile

// Selection is the outcome of choosing groups for a crawler.
type Selection struct {
	// Groups are the indexes into File.Groups whose rules apply, in file
	// order. It may be empty: a crawler named by a group without rules, or a
	// file with neither its group nor a '*' group, is allowed everywhere.
	Groups []int32
	// Agent is the caller's agent whose groups were chosen, or "" when the
	// '*' groups (or none) were.
	Agent string
	// Specific is true when Agent named at least one group. Such groups hide
	// the '*' groups entirely, even when they hold no rules.
	Specific bool
}

// Resolve chooses the groups for a crawler that answers to agents, most
// specific first: the first agent named by any group wins and all groups
// naming it are merged; if none is named, all '*' groups are merged. An
// agent matches a group's product token ignoring ASCII case, and the
// caller's agent is compared whole, never cut.
func (f *File) Resolve(agents ...string) Selection {
	for _, a := range agents {
		if groups, ok := f.byAgent[FoldAgent(a)]; ok {
			return Selection{Groups: groups, Agent: a, Specific: true}
		}
	}
	return Selection{Groups: f.global}
}

// Names reports whether any group names agent (ignoring ASCII case).
func (f *File) Names(agent string) bool {
	_, ok := f.byAgent[FoldAgent(agent)]
	return ok
}
