package fetch

import (
	"hash/maphash"
	"sync/atomic"
)

// minTableSlots must be a power of two.
const minTableSlots = 16

// originTable maps origins to the views of their entries, so that a hit
// goes from the origin's slot straight to what it serves. A lookup takes
// no lock and writes nothing: it probes an array of atomic pointers
// linearly from the hash. Writes are serialised by Cache.mu, which the
// caller holds; an entry's slot holds the same view as entry.view.
//
// A removed entry leaves a tombstone so that other probes do not stop
// short. The array is never more than three quarters full, tombstones
// included, so every probe ends; past that, store publishes a rebuilt
// array with one atomic store. A lookup on the old array misses at most
// what was stored during it, and the caller then takes the locked path.
type originTable struct {
	seed  maphash.Seed
	slots atomic.Pointer[tableArray]
	used  int // live entries; guarded by Cache.mu
	dead  int // tombstones; guarded by Cache.mu
}

type tableArray struct {
	mask  uint64
	slots []atomic.Pointer[view]
}

// tombstone's key is no origin's.
var tombstone = &view{}

func newOriginTable() *originTable {
	t := &originTable{seed: maphash.MakeSeed()}
	t.slots.Store(newTableArray(minTableSlots))
	return t
}

func newTableArray(n int) *tableArray {
	return &tableArray{mask: uint64(n - 1), slots: make([]atomic.Pointer[view], n)}
}

func (t *originTable) hash(origin string) uint64 { return maphash.String(t.seed, origin) }

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

func (t *originTable) load(origin string) *entry {
	if v := t.find(origin); v != nil {
		return v.entry
	}
	return nil
}

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

// store adds e, whose origin the table does not hold. Cache.mu is held.
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

// update, remove and rebuild are called with Cache.mu held.
func (t *originTable) update(v *view) {
	a := t.slots.Load()
	if i := t.slotOf(a, v.entry); i >= 0 {
		a.slots[i].Store(v)
	}
}

func (t *originTable) remove(e *entry) {
	a := t.slots.Load()
	if i := t.slotOf(a, e); i >= 0 {
		a.slots[i].Store(tombstone)
		t.used--
		t.dead++
	}
}

// rebuild sizes the new array so that live entries fill at most three
// eighths of it.
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
