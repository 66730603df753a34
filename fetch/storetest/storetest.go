// Package storetest checks that a fetch.Store keeps the contract the
// Cache relies on: values read back intact, exclusive leases that end,
// writes only by the lease's holder, expiry, and errors when the context
// ends. A Store implementation runs it from its tests:
//
//	func TestContract(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) fetch.Store { return newStore(t) })
//	}
//
// Each subtest opens a Store of its own and uses keys of its own; the
// Stores need not be empty, only to hold nothing under keys starting with
// "storetest/".
package storetest

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/fetch"
)

// shortTTL is the lifetime of the values and leases whose end a subtest
// waits for; expiryWait bounds the wait.
const (
	shortTTL   = 50 * time.Millisecond
	longTTL    = time.Minute
	expiryWait = 5 * time.Second
)

// Run runs the contract's subtests against Stores open returns.
func Run(t *testing.T, open func(t *testing.T) fetch.Store) {
	for _, c := range []struct {
		name string
		test func(t *testing.T, s fetch.Store, key string)
	}{
		{"GetMissing", testGetMissing},
		{"LeaseIsExclusive", testLeaseIsExclusive},
		{"PutStoresAndReleases", testPutStoresAndReleases},
		{"PutWithoutLeaseStoresNothing", testPutWithoutLease},
		{"PutAfterLeaseEndedStoresNothing", testPutAfterLeaseEnded},
		{"LeaseEnds", testLeaseEnds},
		{"ValueEnds", testValueEnds},
		{"Release", testRelease},
		{"KeysAreIndependent", testKeysAreIndependent},
		{"ValuesAreOpaque", testValuesAreOpaque},
		{"PutReplaces", testPutReplaces},
		{"EndedContext", testEndedContext},
		{"ShardIsStable", testShardIsStable},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.test(t, open(t), fmt.Sprintf("storetest/%s/%d", c.name, time.Now().UnixNano()))
		})
	}
}

func testGetMissing(t *testing.T, s fetch.Store, key string) {
	v, err := s.Get(t.Context(), key)
	require.NoError(t, err)
	assert.Nil(t, v)
}

func testLeaseIsExclusive(t *testing.T, s fetch.Store, key string) {
	lease(t, s, key, longTTL)
	second, err := s.Lease(t.Context(), key, longTTL)
	require.NoError(t, err)
	assert.Empty(t, second, "a held lease is not given again")
}

func testPutStoresAndReleases(t *testing.T, s fetch.Store, key string) {
	token := lease(t, s, key, longTTL)
	require.NoError(t, s.Put(t.Context(), key, token, []byte("entry"), longTTL))
	assertValue(t, s, key, "entry")
	again := lease(t, s, key, longTTL)
	assert.NotEqual(t, token, again, "every lease has a token of its own")
}

func testPutWithoutLease(t *testing.T, s fetch.Store, key string) {
	err := s.Put(t.Context(), key, "not-a-token", []byte("forged"), longTTL)
	assert.ErrorIs(t, err, fetch.ErrLeaseLost)
	assertValue(t, s, key, "")

	held := lease(t, s, key, longTTL)
	err = s.Put(t.Context(), key, held+"x", []byte("forged"), longTTL)
	assert.ErrorIs(t, err, fetch.ErrLeaseLost, "another token does not hold the lease")
	assertValue(t, s, key, "")
	require.NoError(t, s.Put(t.Context(), key, held, []byte("real"), longTTL))
	assertValue(t, s, key, "real")
}

func testPutAfterLeaseEnded(t *testing.T, s fetch.Store, key string) {
	old := lease(t, s, key, shortTTL)
	var current string
	eventually(t, func() bool {
		tok, err := s.Lease(t.Context(), key, longTTL)
		require.NoError(t, err)
		current = tok
		return tok != ""
	}, "the short lease ended")
	err := s.Put(t.Context(), key, old, []byte("late"), longTTL)
	assert.ErrorIs(t, err, fetch.ErrLeaseLost, "the holder of an ended lease writes nothing")
	assertValue(t, s, key, "")
	require.NoError(t, s.Put(t.Context(), key, current, []byte("current"), longTTL))
	assertValue(t, s, key, "current")
}

func testLeaseEnds(t *testing.T, s fetch.Store, key string) {
	lease(t, s, key, shortTTL)
	eventually(t, func() bool {
		tok, err := s.Lease(t.Context(), key, longTTL)
		require.NoError(t, err)
		return tok != ""
	}, "a lease not released ends after its ttl")
}

func testValueEnds(t *testing.T, s fetch.Store, key string) {
	require.NoError(t, s.Put(t.Context(), key, lease(t, s, key, longTTL), []byte("brief"), shortTTL))
	eventually(t, func() bool {
		v, err := s.Get(t.Context(), key)
		require.NoError(t, err)
		return v == nil
	}, "a value ends after its ttl")
}

func testRelease(t *testing.T, s fetch.Store, key string) {
	token := lease(t, s, key, longTTL)
	require.NoError(t, s.Release(t.Context(), key, token+"x"))
	again, err := s.Lease(t.Context(), key, longTTL)
	require.NoError(t, err)
	assert.Empty(t, again, "another token releases nothing")
	require.NoError(t, s.Release(t.Context(), key, token))
	lease(t, s, key, longTTL)
}

func testKeysAreIndependent(t *testing.T, s fetch.Store, key string) {
	a, b := key+"/a", key+"/b"
	ta := lease(t, s, a, longTTL)
	tb := lease(t, s, b, longTTL)
	require.NoError(t, s.Put(t.Context(), a, ta, []byte("A"), longTTL))
	assertValue(t, s, a, "A")
	assertValue(t, s, b, "")
	assert.ErrorIs(t, s.Put(t.Context(), b, ta, []byte("A"), longTTL), fetch.ErrLeaseLost,
		"a's token does not hold b's lease")
	require.NoError(t, s.Put(t.Context(), b, tb, []byte("B"), longTTL))
	assertValue(t, s, a, "A")
	assertValue(t, s, b, "B")

	lease(t, s, a, longTTL)
	assertValue(t, s, a, "A") // a lease does not hide the value
}

func testValuesAreOpaque(t *testing.T, s fetch.Store, key string) {
	var every bytes.Buffer
	for range 3 {
		for b := range 256 {
			every.WriteByte(byte(b))
		}
	}
	big := bytes.Repeat([]byte("Disallow: /x\r\n\x00"), (fetch.MaxSharedBody+64<<10)/16)
	for _, v := range [][]byte{every.Bytes(), big, {0}} {
		require.NoError(t, s.Put(t.Context(), key, lease(t, s, key, longTTL), v, longTTL))
		got, err := s.Get(t.Context(), key)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(v, got), "a value of %d bytes comes back as written", len(v))
	}
}

func testPutReplaces(t *testing.T, s fetch.Store, key string) {
	require.NoError(t, s.Put(t.Context(), key, lease(t, s, key, longTTL), []byte("garbage \xff\xfe"), longTTL))
	require.NoError(t, s.Put(t.Context(), key, lease(t, s, key, longTTL), []byte("entry"), longTTL))
	assertValue(t, s, key, "entry")
}

func testEndedContext(t *testing.T, s fetch.Store, key string) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := s.Get(ctx, key)
	assert.Error(t, err, "Get")
	_, err = s.Lease(ctx, key, longTTL)
	assert.Error(t, err, "Lease")
	assert.Error(t, s.Put(ctx, key, "token", []byte("v"), longTTL), "Put")
	assert.Error(t, s.Release(ctx, key, "token"), "Release")
}

// lease takes key's lease and returns its token, failing the test when it
// is held.
// testShardIsStable checks a ShardedStore: a key's shard is the same for
// every call while its server is.
// Other Stores pass.
func testShardIsStable(t *testing.T, s fetch.Store, key string) {
	sh, ok := s.(fetch.ShardedStore)
	if !ok {
		return
	}
	first := sh.Shard(key)
	for range 10 {
		assert.Equal(t, first, sh.Shard(key))
	}
	// The shard names a server, not a call: a key's lease and value are
	// on it, whatever else happens.
	token := lease(t, s, key, longTTL)
	require.NoError(t, s.Put(t.Context(), key, token, []byte("v"), longTTL))
	assert.Equal(t, first, sh.Shard(key))
}

func lease(t *testing.T, s fetch.Store, key string, ttl time.Duration) string {
	t.Helper()
	token, err := s.Lease(t.Context(), key, ttl)
	require.NoError(t, err)
	require.NotEmpty(t, token, "the lease on %s is free", key)
	return token
}

// assertValue checks the value at key; "" means none.
func assertValue(t *testing.T, s fetch.Store, key, want string) {
	t.Helper()
	got, err := s.Get(t.Context(), key)
	require.NoError(t, err)
	if want == "" {
		assert.Nil(t, got, key)
		return
	}
	assert.Equal(t, want, string(got), key)
}

// eventually polls cond until it holds, failing the test past expiryWait.
func eventually(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(expiryWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", expiryWait, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
