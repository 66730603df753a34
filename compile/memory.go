package compile

import (
	"github.com/fastrobots/robots/internal/alloc"
)

// Sizes of what a File and a RuleSet hold. Each object is counted at what
// the allocator takes for it (alloc.Size): a cache charges what a file
// reports, and must not charge less than the heap holds.
var (
	ruleRecBytes   = alloc.SizeOf[ruleRec]()
	agentRecBytes  = alloc.SizeOf[agentRec]()
	groupRecBytes  = alloc.SizeOf[groupRec]()
	dirRecBytes    = alloc.SizeOf[dirRec]()
	nameBytes      = alloc.SizeOf[name]()
	fileBytes      = alloc.SizeOf[File]()
	ruleSetBytes   = alloc.SizeOf[RuleSet]()
	stringHdrBytes = alloc.SizeOf[string]()
)

// memoryBytes returns the memory the parsed file holds, views aside.
func (f *File) memoryBytes() int {
	n := alloc.Size(fileBytes) + alloc.Size(len(f.body)) +
		alloc.Size(cap(f.rules)*ruleRecBytes) + alloc.Size(cap(f.agents)*agentRecBytes) +
		alloc.Size(cap(f.groups)*groupRecBytes) + alloc.Size(cap(f.others)*dirRecBytes) +
		alloc.Size(4*cap(f.global))
	if isShared(f.global) {
		n -= alloc.Size(4 * cap(f.global))
	}
	if nm := f.names; nm != nil {
		n += alloc.Size(alloc.SizeOf[names]()) + alloc.Size(cap(nm.list)*nameBytes) +
			alloc.Size(4*(cap(nm.groups)+cap(nm.slots))) // one allocation (names.finish)
	}
	if r := f.rare; r != nil {
		n += alloc.Size(alloc.SizeOf[rareRecs]())
		for _, p := range r.escaped {
			n += alloc.Size(len(p))
		}
		n += alloc.MapBytes(len(r.escaped), 4+stringHdrBytes)
		n += alloc.MapBytes(len(r.farLines), 4+4)
	}
	return n
}

var viewsBytes = alloc.SizeOf[views]()

// GroupsBytes returns the memory of the file's groups built by GroupsAs
// in types G, A and R, whose rules and agents share one allocation each.
func GroupsBytes[G, A, R any](f *File) int {
	return alloc.Size(len(f.groups)*alloc.SizeOf[G]()) +
		alloc.Size(len(f.rules)*alloc.SizeOf[R]()) + alloc.Size(len(f.agents)*alloc.SizeOf[A]())
}

func directivesBytes(ds []Directive) int {
	return alloc.Size(cap(ds) * alloc.SizeOf[Directive]())
}
