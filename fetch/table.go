package fetch

import (
	"hash/maphash"
	"sync/atomic"
)

// minTableSlots is the size of an origin table's first array, a power of
// two.
const minTableSlots = 16

// originTable maps origins to their entries for Cache. A lookup takes no
// lock and writes nothing: it hashes the origin and probes an array of
// atomic pointers, linearly from the hash, until it finds the entry or an
// empty slot. Writes (store, remove) are serialised by Cache.mu, which
// the caller holds.
//
// A removed entry leaves a tombstone, which lookups step over, so that
// the probe of another origin does not stop short. The array is never
// more than three quarters full, tombstones included, so every probe
// ends; past that, store builds a new array (twice as large when the live
// entries fill more than three eighths of it, the same size when
// tombstones did) and publishes it with one atomic store. A lookup still
// on the old array sees the entries as they were, and misses only what
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
	slots []atomic.Pointer[entry]
}

// tombstone marks the slot of a removed entry.
var tombstone = &entry{}

func newOriginTable() *originTable {
	t := &originTable{seed: maphash.MakeSeed()}
	t.slots.Store(newTableArray(minTableSlots))
	return t
}

func newTableArray(n int) *tableArray {
	return &tableArray{mask: uint64(n - 1), slots: make([]atomic.Pointer[entry], n)}
}

// load returns the entry of origin; nil when there is none.
func (t *originTable) load(origin string) *entry {
	a := t.slots.Load()
	for i := maphash.String(t.seed, origin) & a.mask; ; i = (i + 1) & a.mask {
		e := a.slots[i].Load()
		if e == nil {
			return nil
		}
		if e != tombstone && e.key == origin {
			return e
		}
	}
}

// store adds e, whose origin the table does not hold. Cache.mu is held.
func (t *originTable) store(e *entry) {
	a := t.slots.Load()
	if (t.used+t.dead+1)*4 > len(a.slots)*3 {
		a = t.rebuild()
	}
	for i := maphash.String(t.seed, e.key) & a.mask; ; i = (i + 1) & a.mask {
		switch cur := a.slots[i].Load(); cur {
		case tombstone:
			t.dead--
			fallthrough
		case nil:
			a.slots[i].Store(e)
			t.used++
			return
		}
	}
}

// remove drops e. Cache.mu is held.
func (t *originTable) remove(e *entry) {
	a := t.slots.Load()
	for i := maphash.String(t.seed, e.key) & a.mask; ; i = (i + 1) & a.mask {
		switch a.slots[i].Load() {
		case nil:
			return
		case e:
			a.slots[i].Store(tombstone)
			t.used--
			t.dead++
			return
		}
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
		e := old.slots[i].Load()
		if e == nil || e == tombstone {
			continue
		}
		for j := maphash.String(t.seed, e.key) & a.mask; ; j = (j + 1) & a.mask {
			if a.slots[j].Load() == nil {
				a.slots[j].Store(e)
				break
			}
		}
	}
	t.dead = 0
	t.slots.Store(a)
	return a
}
