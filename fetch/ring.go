package fetch

// clockRing holds the cache's entries for CLOCK eviction: the newest
// insertion at the front, the hand at the back. It links the entries
// themselves (entry.prev, entry.next) so it allocates nothing. Its zero
// value is an empty ring. It is guarded by Cache.mu.
type clockRing struct {
	root entry // root.next is the front, root.prev the back
	n    int
}

func (r *clockRing) lazyInit() {
	if r.root.next == nil {
		r.root.next, r.root.prev = &r.root, &r.root
	}
}

func (r *clockRing) len() int { return r.n }

// back returns the entry under the hand, or nil.
func (r *clockRing) back() *entry {
	if r.n == 0 {
		return nil
	}
	return r.root.prev
}

func (r *clockRing) pushFront(e *entry) {
	r.lazyInit()
	r.link(e)
	r.n++
}

func (r *clockRing) moveToFront(e *entry) {
	if r.root.next == e {
		return
	}
	r.unlink(e)
	r.link(e)
}

// remove does nothing to an entry in no ring.
func (r *clockRing) remove(e *entry) {
	if e.next == nil {
		return
	}
	r.unlink(e)
	e.next, e.prev = nil, nil
	r.n--
}

func (r *clockRing) link(e *entry) {
	e.prev, e.next = &r.root, r.root.next
	r.root.next.prev = e
	r.root.next = e
}

func (r *clockRing) unlink(e *entry) {
	e.prev.next = e.next
	e.next.prev = e.prev
}
