package compile

// Selection is the groups chosen for a crawler.
type Selection struct {
	// Groups are the indexes into File.Groups whose rules apply, in file
	// order, each once. When empty, the crawler is allowed everywhere.
	Groups []int32
	// Agent is the caller's agent whose groups were chosen, or "".
	Agent string
	// Specific is true when Agent named at least one group. Such groups
	// hide the '*' groups, even when they hold no rules.
	Specific bool
}

// Resolve chooses the groups for a crawler that answers to agents, most
// specific first: the first agent named by any group wins and all groups
// naming it are merged; if none is named, all '*' groups are merged. An
// agent matches a group's product token ignoring ASCII case, and the
// caller's agent is compared whole, never cut.
func (f *File) Resolve(agents ...string) Selection {
	for _, a := range agents {
		if groups, ok := f.named(a); ok {
			return Selection{Groups: groups, Agent: a, Specific: true}
		}
	}
	return Selection{Groups: f.global}
}

// ResolveAny chooses the groups for a crawler that answers to all of
// agents at once, as Google's reference parser does when it is handed
// several: every group naming any of them is merged, in file order; if
// none is named, all '*' groups are. Agent is the first of agents that a
// group names.
func (f *File) ResolveAny(agents ...string) Selection {
	var sel Selection
	var lists [][]int32
	for _, a := range agents {
		groups, ok := f.named(a)
		if !ok {
			continue
		}
		if !sel.Specific {
			sel.Agent, sel.Specific = a, true
		}
		lists = append(lists, groups)
	}
	if !sel.Specific {
		return Selection{Groups: f.global}
	}
	sel.Groups = mergeGroups(lists)
	return sel
}

// mergeGroups returns the union of sorted group lists, sorted.
func mergeGroups(lists [][]int32) []int32 {
	if len(lists) == 1 {
		return lists[0]
	}
	var out []int32
	for {
		next := int32(-1)
		for _, l := range lists {
			if len(l) > 0 && (next < 0 || l[0] < next) {
				next = l[0]
			}
		}
		if next < 0 {
			return out
		}
		out = append(out, next)
		for i, l := range lists {
			if len(l) > 0 && l[0] == next {
				lists[i] = l[1:]
			}
		}
	}
}

func (f *File) named(agent string) ([]int32, bool) { return f.names.groupsOf(agent) }
