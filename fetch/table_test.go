package fetch

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Entries are found until removed, through growth and through rebuilds
// that clear tombstones; the array stays within three quarters full.
func TestOriginTable(t *testing.T) {
	tab := newOriginTable()
	assert.Len(t, tab.slots.Load().slots, minTableSlots)
	entries := map[string]*entry{}
	for i := range 1000 {
		e := newEntry(fmt.Sprintf("http://site%d.test", i))
		tab.store(e)
		entries[e.origin()] = e
	}
	assert.Equal(t, 1000, tab.used)
	for k, e := range entries {
		require.Same(t, e, tab.load(k), k)
	}
	assert.Nil(t, tab.load("http://absent.test"))
	size := len(tab.slots.Load().slots)
	assert.LessOrEqual(t, tab.used*4, size*3)

	// Churn: remove and add as many again, many times over: tombstones
	// are reused or cleared, and the array does not grow.
	for round := range 20 {
		for i := range 500 {
			k := fmt.Sprintf("http://site%d.test", i)
			tab.remove(entries[k])
			delete(entries, k)
			assert.Nil(t, tab.load(k))
			e := newEntry(fmt.Sprintf("http://round%d-%d.test", round, i))
			tab.store(e)
			entries[e.origin()] = e
		}
		for i := range 500 {
			k := fmt.Sprintf("http://round%d-%d.test", round, i)
			tab.remove(entries[k])
			delete(entries, k)
			e := newEntry(fmt.Sprintf("http://site%d.test", i))
			tab.store(e)
			entries[e.origin()] = e
		}
		a := tab.slots.Load()
		assert.LessOrEqual(t, (tab.used+tab.dead)*4, len(a.slots)*3)
	}
	assert.Equal(t, size, len(tab.slots.Load().slots), "churn does not grow the array")
	assert.Equal(t, 1000, tab.used)
	for k, e := range entries {
		require.Same(t, e, tab.load(k), k)
	}
	tab.remove(newEntry("http://never.test")) // absent: nothing happens
	assert.Equal(t, 1000, tab.used)
}

// Lookups run while another goroutine stores and removes (under a lock,
// as Cache.mu serialises writes): a key that stays is always found. Run
// it with -race.
func TestOriginTableConcurrentLookups(t *testing.T) {
	tab := newOriginTable()
	stay := newEntry("http://stay.test")
	var mu sync.Mutex
	tab.store(stay)
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 5000 {
			e := newEntry(fmt.Sprintf("http://churn%d.test", i))
			mu.Lock()
			tab.store(e)
			if i%2 == 0 {
				tab.remove(e)
			}
			mu.Unlock()
		}
	})
	for range 4 {
		wg.Go(func() {
			for range 5000 {
				assert.Same(t, stay, tab.load("http://stay.test"))
			}
		})
	}
	wg.Wait()
}

// update makes a new view of an entry what its slot holds, found by the
// entry, not by an equal view; the entry's origin stays its key. An entry
// the table does not hold is left out.
func TestOriginTableUpdate(t *testing.T) {
	tab := newOriginTable()
	e := newEntry("http://a.test")
	tab.store(e)
	first := tab.find("http://a.test")
	require.Same(t, e.view.Load(), first)

	next := &view{key: "http://a.test", entry: e, agentKey: "Googlebot"}
	tab.update(next)
	assert.Same(t, next, tab.find("http://a.test"))
	assert.Same(t, e, tab.load("http://a.test"))
	assert.Equal(t, 1, tab.used)

	absent := newEntry("http://b.test")
	tab.update(absent.view.Load())
	assert.Nil(t, tab.find("http://b.test"))
	tab.remove(e)
	assert.Nil(t, tab.find("http://a.test"))
	tab.update(next) // a view of a removed entry does not come back
	assert.Nil(t, tab.find("http://a.test"))
}
