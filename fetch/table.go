package fetch

import (
	"hash/maphash"
	"sync/atomic"
)

// minTableSlots is the size of an origin table's first array, a power of
// two.
const minTableSlots = 16

// originTable maps origins to the views of their entries for Cache: a hit
// goes from the origin's slot straight to what it serves (view), which
// names its entry, with no load of the entry between. A lookup takes no
// lock and writes nothing: it hashes the origin and probes an array of
// atomic pointers, linearly from the hash, until it finds the view or an
// empty slot. Writes (store, update, remove) are serialised by Cache.mu,
// which the caller holds; an entry's slot holds the view its entry holds
// (entry.view), which update writes to both.
//
// A removed entry leaves a tombstone, which lookups step over, so that
// the probe of another origin does not stop short. The array is never
// more than three quarters full, tombstones included, so every probe
// ends; past that, store builds a new array (twice as large when the live
// entries fill more than three eighths of it, the same size when
// tombstones did) and publishes it with one atomic store. A lookup still
// on the old array sees the views as they were, and misses only what
// was stored during it, as with any concurrent insert: it is then a miss,
// and the caller takes the locked path.
type originTable struct {
	seed  maphash.Seed
	slots atomic.Pointer[tableArray]
	used  int // live entries; guarded by Cache.mu
	dead  int // tombstones; guarded by Cache.mu
}

// tableArray is one array of slots, its length a power of two.
type tableArray struct {
	mask  uint64
	slots []atomic.Pointer[view]
}

// tombstone marks the slot of a removed entry. Its key is no origin's.
var tombstone = &view{}

func newOriginTable() *originTable {
	t := &originTable{seed: maphash.MakeSeed()}
	t.slots.Store(newTableArray(minTableSlots))
	return t
}

func newTableArray(n int) *tableArray {
	return &tableArray{mask: uint64(n - 1), slots: make([]atomic.Pointer[view], n)}
}

// hash returns the hash of origin, whose low bits are its first slot.
func (t *originTable) hash(origin string) uint64 { return maphash.String(t.seed, origin) }

// find returns the view of origin; nil when there is none.
func (t *originTable) find(origin string) *view {
	a := t.slots.Load()
	for i := t.hash(origin) & a.mask; ; i = (i + 1) & a.mask {
		v := a.slots[i].Load()
		if v == nil {
			return nil
		}
		if v.is(origin) && v != tombstone {
			return v
		}
	}
}

// load returns the entry of origin; nil when there is none.
func (t *originTable) load(origin string) *entry {
	if v := t.find(origin); v != nil {
		return v.entry
	}
	return nil
}

// slotOf returns the index in a of e's slot; -1 when a holds none.
func (t *originTable) slotOf(a *tableArray, e *entry) int {
	for i := t.hash(e.origin()) & a.mask; ; i = (i + 1) & a.mask {
		switch v := a.slots[i].Load(); {
		case v == nil:
			return -1
		case v.entry == e:
			return int(i)
		}
	}
}

// store adds e, whose origin the table does not hold, with the view e
// holds. Cache.mu is held.
func (t *originTable) store(e *entry) {
	a := t.slots.Load()
	if (t.used+t.dead+1)*4 > len(a.slots)*3 {
		a = t.rebuild()
	}
	for i := t.hash(e.origin()) & a.mask; ; i = (i + 1) & a.mask {
		switch cur := a.slots[i].Load(); cur {
		case tombstone:
			t.dead--
			fallthrough
		case nil:
			a.slots[i].Store(e.view.Load())
			t.used++
			return
		}
	}
}

// update makes v, a view of an entry the table holds, what its slot
// holds. Cache.mu is held.
func (t *originTable) update(v *view) {
	a := t.slots.Load()
	if i := t.slotOf(a, v.entry); i >= 0 {
		a.slots[i].Store(v)
	}
}

// remove drops e. Cache.mu is held.
func (t *originTable) remove(e *entry) {
	a := t.slots.Load()
	if i := t.slotOf(a, e); i >= 0 {
		a.slots[i].Store(tombstone)
		t.used--
		t.dead++
	}
}

// rebuild publishes a new array holding the live entries and no
// tombstones, sized so that they fill at most three eighths of it, and
// returns it. Cache.mu is held.
func (t *originTable) rebuild() *tableArray {
	old := t.slots.Load()
	n := minTableSlots
	for (t.used+1)*8 > n*3 {
		n *= 2
	}
	a := newTableArray(n)
	for i := range old.slots {
		v := old.slots[i].Load()
		if v == nil || v == tombstone {
			continue
		}
		for j := t.hash(v.key) & a.mask; ; j = (j + 1) & a.mask {
			if a.slots[j].Load() == nil {
				a.slots[j].Store(v)
				break
			}
		}
	}
	t.dead = 0
	t.slots.Store(a)
	return a
}
