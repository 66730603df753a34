package fetch

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// ringOrder returns the ring's entries from the front to the back, by
// their origins, walking the links both ways: each way must give the
// same order and as many entries as len says.
func ringOrder(t *testing.T, r *clockRing) []string {
	t.Helper()
	var front, back []string
	if r.n > 0 {
		for e := r.root.next; e != &r.root; e = e.next {
			front = append(front, e.origin())
		}
		for e := r.root.prev; e != &r.root; e = e.prev {
			back = append([]string{e.origin()}, back...)
		}
	}
	assert.Equal(t, front, back, "the links agree both ways")
	assert.Len(t, front, r.len())
	return front
}

func TestClockRing(t *testing.T) {
	var r clockRing
	assert.Nil(t, r.back(), "an empty ring has no back")
	a, b, c := newEntry("a"), newEntry("b"), newEntry("c")
	r.remove(a) // in no ring: nothing happens
	assert.Equal(t, 0, r.len())

	for _, e := range []*entry{a, b, c} {
		r.pushFront(e)
	}
	assert.Equal(t, []string{"c", "b", "a"}, ringOrder(t, &r))
	assert.Same(t, a, r.back(), "the hand starts at the oldest insertion")

	r.moveToFront(a)
	assert.Equal(t, []string{"a", "c", "b"}, ringOrder(t, &r))
	r.moveToFront(a) // at the front already
	assert.Equal(t, []string{"a", "c", "b"}, ringOrder(t, &r))
	assert.Same(t, b, r.back())

	r.remove(c)
	assert.Equal(t, []string{"a", "b"}, ringOrder(t, &r))
	r.remove(c) // removed already: nothing happens
	assert.Equal(t, []string{"a", "b"}, ringOrder(t, &r))

	r.pushFront(c) // a removed entry goes back in
	assert.Equal(t, []string{"c", "a", "b"}, ringOrder(t, &r))
	for _, e := range []*entry{b, a, c} {
		r.remove(e)
	}
	assert.Nil(t, r.back())
	assert.Nil(t, ringOrder(t, &r))
}
