package robots

import (
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/internal/alloc"
)

// groups returns the file's groups, built in this package's types the
// first time they are asked for (Groups, a Decision's rule, Explain) and
// kept with the Robots, counted in MemoryBytes. Two goroutines may both
// build them; the one published first is kept and charged.
func (r *Robots) groups() []Group {
	if g := r.views.Load(); g != nil {
		return *g
	}
	f := r.file
	extras := converted(f.Others(), directiveOf) // the groups' Extras are slices of it
	g := compile.GroupsAs(f, extras, func(agents []AgentLine, rules []Rule, extras []Directive) Group {
		return Group{Agents: agents, Rules: rules, Extras: extras}
	})
	if r.views.CompareAndSwap(nil, &g) {
		r.meter.Add(compile.GroupsBytes[Group, AgentLine, Rule](f) + alloc.Size(len(extras)*directiveBytes))
		return g
	}
	return *r.views.Load()
}

var directiveBytes = alloc.SizeOf[Directive]()

// rule returns the rule a pattern ID of the agent's rules names, in the
// groups Robots.Groups returns.
func (a *Agent) rule(id int32) *Rule {
	ref := a.rules.Ref(id)
	return &a.robots.groups()[ref.Group].Rules[ref.Rule]
}
