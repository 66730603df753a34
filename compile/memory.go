package compile

import (
	"unsafe"

	"github.com/fastrobots/robots/automaton"
)

// Sizes of what a File and a RuleSet hold, for the memory they report.
const (
	ruleRecBytes   = int(unsafe.Sizeof(ruleRec{}))
	agentRecBytes  = int(unsafe.Sizeof(agentRec{}))
	groupRecBytes  = int(unsafe.Sizeof(groupRec{}))
	dirRecBytes    = int(unsafe.Sizeof(dirRec{}))
	nameBytes      = int(unsafe.Sizeof(name{}))
	fileBytes      = int(unsafe.Sizeof(File{}))
	ruleSetBytes   = int(unsafe.Sizeof(RuleSet{})) + int(unsafe.Sizeof(compiled{}))
	stringHdrBytes = int(unsafe.Sizeof(""))
)

// memoryBytes returns the memory the file's records hold: the body, the
// records and the index of agents, at their allocated capacity. The view
// (Groups, Sitemaps, Others) is counted when it is built.
func (f *File) memoryBytes() int {
	n := fileBytes + len(f.body) +
		cap(f.rules)*ruleRecBytes + cap(f.agents)*agentRecBytes + cap(f.groups)*groupRecBytes +
		(cap(f.sitemaps)+cap(f.others))*dirRecBytes + 4*cap(f.global)
	n += cap(f.names.list)*nameBytes + 4*(cap(f.names.slots)+cap(f.names.groups))
	for _, p := range f.escaped {
		n += len(p)
	}
	n += automaton.MapBytes(len(f.escaped), 4+stringHdrBytes)
	n += automaton.MapBytes(len(f.farLines), 4+4)
	return n
}

// memoryBytes returns the memory of the built directives.
func (d *dirView) memoryBytes() int {
	return int(unsafe.Sizeof(dirView{})) + (cap(d.sitemaps)+cap(d.others))*int(unsafe.Sizeof(Directive{}))
}

// memoryBytes returns the memory of the built view.
func (v *view) memoryBytes() int {
	n := int(unsafe.Sizeof(view{})) + cap(v.groups)*int(unsafe.Sizeof(Group{}))
	for i := range v.groups {
		// rules and agents share one allocation each; the groups' slices
		// cover them, one after another
		n += len(v.groups[i].Rules)*int(unsafe.Sizeof(Rule{})) + len(v.groups[i].Agents)*int(unsafe.Sizeof(AgentLine{}))
	}
	return n
}
