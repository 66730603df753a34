package fetch

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/internal/alloc"
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

	next := newView("http://a.test")
	next.entry, next.agentKey = e, "Googlebot"
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

// TestViewStamp checks the word that holds a view's deadline and its
// referenced bit: the deadline reads back as stored (clamped to
// ±maxDeadline), whatever the bit; touch sets the bit, referenced reads and
// clears it; a new view of the entry (serve, keepAgent) carries the bit
// over.
func TestViewStamp(t *testing.T) {
	for _, d := range []int64{0, 1, -1, 12345678901, -98765, maxDeadline, -maxDeadline, math.MaxInt64, math.MinInt64} {
		want := min(max(d, -maxDeadline), maxDeadline)
		for _, bit := range []int64{0, 1} {
			var v view
			v.stamp.Store(stampOf(d, bit))
			assert.Equal(t, want, v.deadline(), "deadline %d, bit %d", d, bit)
			assert.Equal(t, bit == 1, v.referenced(), "deadline %d, bit %d", d, bit)
			assert.False(t, v.referenced(), "cleared")
			v.touch()
			assert.Equal(t, want, v.deadline(), "deadline %d, touched", d)
			assert.True(t, v.referenced())
		}
	}

	c := NewCache(nil, CacheOptions{})
	res, err := c.Put("http://a.test", 200, []byte("User-agent: *\nDisallow: /x\n"), time.Now())
	require.NoError(t, err)
	e := c.load("http://a.test")
	v := e.view.Load()
	v.touch()
	c.keepAgent(v, "FooBot", res.Agent("FooBot"))
	kept := e.view.Load()
	require.NotSame(t, v, kept)
	assert.Equal(t, v.deadline(), kept.deadline())
	assert.True(t, kept.referenced(), "keepAgent carries the bit over")
	c.mu.Lock()
	c.serve(e, res)
	c.mu.Unlock()
	assert.False(t, e.view.Load().referenced(), "serve carries the cleared bit over")
	kept.touch()
	c.mu.Lock()
	c.serve(e, res)
	c.mu.Unlock()
	assert.False(t, e.view.Load().referenced(), "a bit set on a view no longer served is not carried")
	e.view.Load().touch()
	c.mu.Lock()
	c.serve(e, res)
	c.mu.Unlock()
	assert.True(t, e.view.Load().referenced(), "serve carries the set bit over")
}

// TestViewAndEntryFillTheirSizeClasses pins the sizes every cached origin
// pays once: a view of 96 bytes with viewKeyBytes of key in it, and an
// entry of 128, each a size class of the allocator's; a field more takes
// either to the next class (112 or 144 bytes), 16 bytes more for every
// origin cached, against the 1,500 bytes a median origin may hold
// (TestCacheHoldsOriginsAtTheirCharge).
func TestViewAndEntryFillTheirSizeClasses(t *testing.T) {
	if !alloc.Wide { // the charges are a 64-bit build's, and cover a 32-bit one's
		assert.LessOrEqual(t, unsafe.Sizeof(view{}), uintptr(96), "view")
		assert.LessOrEqual(t, unsafe.Sizeof(entry{}), uintptr(128), "entry")
		return
	}
	assert.Equal(t, uintptr(96), unsafe.Sizeof(view{}), "view")
	assert.Equal(t, uintptr(128), unsafe.Sizeof(entry{}), "entry")
	assert.Equal(t, uintptr(96), unsafe.Offsetof(view{}.keyBytes)+viewKeyBytes, "the key's bytes end the view")
}

// A view keeps a key of at most viewKeyBytes in its own bytes, and
// tells its key from every other origin, short or long, whatever string
// holds either.
func TestViewKeepsShortKeysInItsOwnBytes(t *testing.T) {
	for _, n := range []int{1, 8, 23, viewKeyBytes - 1, viewKeyBytes, viewKeyBytes + 1, 64} {
		key := "http://" + strings.Repeat("k", n-1) + "z"
		key = key[len(key)-n:]
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			v := newView(key)
			assert.Equal(t, key, v.key)
			inside := unsafe.StringData(v.key) == &v.keyBytes[0]
			assert.Equal(t, n <= viewKeyBytes, inside, "the key is in the view's bytes")
			if n <= viewKeyBytes {
				assert.NotSame(t, unsafe.StringData(key), unsafe.StringData(v.key), "the view copies a short key")
			}
			assert.True(t, v.is(strings.Clone(key)), "the same origin in another string")
			last := key[:n-1] + "y"
			first := "y" + key[1:]
			for _, other := range []string{last, first, key[:n-1], key + "z", "", strings.Repeat("z", viewKeyBytes+1)} {
				if other != key {
					assert.False(t, v.is(other), "%q is not %q", other, key)
				}
			}
		})
	}
	assert.False(t, tombstone.is("http://a.test"))
}
