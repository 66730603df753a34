package robots

// GroupsFor returns the indexes, into Groups, of the groups that apply to
// a crawler answering to agents: Agent(agents...).Groups(), without an
// Agent resolved. Nothing is compiled or kept, so a caller that only asks
// which groups apply (a linter, a report) leaves the Robots as it was.
func (r *Robots) GroupsFor(agents ...string) []int {
	return intSlice(r.orEmpty().file.Resolve(agents...).Groups)
}
