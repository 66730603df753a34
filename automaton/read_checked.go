//go:build robotschecked

package automaton

import (
	"fmt"
	"sync/atomic"
)

// tableEntry returns trans[s+cls] as read_unchecked.go's tableEntry does,
// but checks the read: built with the tag robotschecked, an entry out of
// the table panics with an outOfTable instead of reading past it.
func tableEntry(trans []int32, s, cls uint) uint {
	if s+cls >= uint(len(trans)) {
		panic(outOfTable{s, cls, len(trans)})
	}
	return uint(uint32(atomic.LoadInt32(&trans[s+cls])))
}

// outOfTable is the panic of a read of entry s+cls of a table of n
// entries: a state or a class that the invariants of rows.go rule out.
type outOfTable struct {
	s, cls uint
	n      int
}

func (e outOfTable) Error() string {
	return fmt.Sprintf("automaton: transition table read out of range: entry %d (row offset %d + class %d) of a table of %d entries", e.s+e.cls, e.s, e.cls, e.n)
}
