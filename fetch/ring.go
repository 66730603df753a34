package fetch

// clockRing is the cache's entries in a circle, for CLOCK eviction: the
// newest insertion at the front, the hand at the back. The links are the
// entries' own (entry.prev, entry.next), so that an entry costs the ring
// no object of its own. Its zero value is an empty ring. It is guarded by
// Cache.mu.
type clockRing struct {
	root entry // root.next is the front, root.prev the back
	n    int
}

// lazyInit makes an empty ring's root point to itself.
func (r *clockRing) lazyInit() {
	if r.root.next == nil {
		r.root.next, r.root.prev = &r.root, &r.root
	}
}

// len returns the number of entries in the ring.
func (r *clockRing) len() int { return r.n }

// back returns the entry at the back, where the hand is; nil when the
// ring is empty.
func (r *clockRing) back() *entry {
	if r.n == 0 {
		return nil
	}
	return r.root.prev
}

// pushFront puts e, which is in no ring, at the front.
func (r *clockRing) pushFront(e *entry) {
	r.lazyInit()
	r.link(e)
	r.n++
}

// moveToFront moves e, which is in r, to the front.
func (r *clockRing) moveToFront(e *entry) {
	if r.root.next == e {
		return
	}
	r.unlink(e)
	r.link(e)
}

// remove takes e out of r; it does nothing to an entry in no ring.
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
