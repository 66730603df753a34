package fetch

import (
	"context"
	"errors"
	"strconv"
	"time"
)

// Store is a second cache level that the Caches of a fleet of crawlers
// share (CacheOptions.Store), so that the fleet fetches each origin's
// robots.txt once, not once per node. package redisstore
// (github.com/fastrobots/robots/fetch/redisstore, a module of its own)
// implements it on Redis or Valkey; MemoryStore in one process's memory.
//
// A Store holds opaque values under keys, and leases: a lease says "I am
// fetching this origin", so that one node fetches while the others wait
// for its entry. The Cache encodes entries itself (a versioned, size-capped
// and checksummed format), never trusts what Get returns, and bounds every
// call (CacheOptions.StoreTimeout, and the longer wait for a slow Store);
// a Store need not do either. A Store that is down should say so with an
// error as soon as it knows, not by running out of time: the Cache waits
// for a call that has not answered, as for a slow Store.
//
// Contract (package storetest checks it):
//   - Get returns the value at key, or nil and no error when there is
//     none. A key holding something that is not a value the Store wrote
//     (another type of record, or a value longer than MaxSharedValue,
//     which the Store need not read) may be reported as none, so that the
//     next Put replaces it; reported with ErrForeignValue, it is counted.
//   - Lease takes the lease on key for ttl when no one holds it, and
//     returns a token that no other call returns; when another holds it,
//     it returns "" and no error. A lease not released ends after ttl. A
//     lease key holding what no Lease wrote (a record that would never
//     end, another type) may be taken over: Lease then returns its token
//     with ErrForeignValue.
//   - Put stores value at key for ttl and releases the lease, in one step,
//     only while token holds the lease on key; otherwise it stores nothing
//     and returns ErrLeaseLost. Only the lease's holder writes.
//   - Release ends the lease when token holds it, and does nothing
//     otherwise.
//   - Leases and values of different keys are independent; a lease does
//     not hide the value at its key.
//   - Every method returns an error when ctx ends before it completes.
//
// Keys are the Cache's (a format version and an origin); a Store may
// prefix them to share a server with other data.
type Store interface {
	Get(ctx context.Context, key string) ([]byte, error)
	Lease(ctx context.Context, key string, ttl time.Duration) (token string, err error)
	Put(ctx context.Context, key, token string, value []byte, ttl time.Duration) error
	Release(ctx context.Context, key, token string) error
}

// A ShardedStore is a Store whose keys live on several servers that fail
// apart, as a Redis Cluster's masters do. Shard names the server of a key
// ("" for the Store as a whole); keys of one name share a server. The
// Cache keeps the pause after failures (CacheOptions.StoreRetry) and the
// tell-tales of a slow or hung Store for each name apart, so that a
// failing server pauses sharing only for the origins it holds, and the
// fleet goes on sharing the others. Shard is called before every Store
// call: it must be cheap, and must not block.
type ShardedStore interface {
	Store
	Shard(key string) string
}

// ErrLeaseLost is returned by Store.Put when the token no longer holds the
// key's lease: it ran out, and perhaps another node holds it now.
var ErrLeaseLost = errors.New("fetch: lease lost")

// ErrForeignValue is returned by a Store's Get or Lease, with the call's
// result, when the Store found at the key something it did not write and
// set it aside: a value too long to be an entry, a record of another type,
// a lease without an end. The Cache counts it (CacheStats.StoreCorrupt)
// and goes on with the result; it is not a failure of the Store.
var ErrForeignValue = errors.New("fetch: foreign value in the store")

// storeKey is the key of an origin's shared entry: the wire version and
// the origin, so that nodes reading different versions never meet.
func storeKey(origin string) string {
	return "v" + strconv.Itoa(wireVersion) + "/" + origin
}
