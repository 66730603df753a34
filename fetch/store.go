package fetch

import (
	"context"
	"errors"
	"strconv"
	"time"
)

// Store is a second cache level shared by the Caches of a fleet of
// crawlers (CacheOptions.Store), so that the fleet fetches each origin's
// robots.txt once, not once per node. Package redisstore implements it on
// Redis or Valkey; MemoryStore in one process's memory.
//
// A Store holds opaque values and leases: a lease says "I am fetching this
// origin", so that the others wait for its entry. The Cache validates
// entries and bounds every call itself. A Store that is down should return
// an error as soon as it knows rather than time out.
//
// Contract (package storetest checks it):
//   - Get returns the value at key, or nil and no error when there is
//     none. A key holding something the Store did not write (another
//     record type, or a value longer than MaxSharedValue) may be reported
//     as none, so that the next Put replaces it, or with ErrForeignValue.
//   - Lease takes the lease on key for ttl when no one holds it, and
//     returns a token no other call returns; when another holds it, it
//     returns "" and no error. A lease not released ends after ttl. A lease
//     key holding what no Lease wrote may be taken over: Lease then returns
//     its token with ErrForeignValue.
//   - Put stores value at key for ttl and releases the lease, atomically,
//     only while token holds the lease on key; otherwise it stores nothing
//     and returns ErrLeaseLost.
//   - Release ends the lease when token holds it, and does nothing
//     otherwise.
//   - Leases and values of different keys are independent; a lease does
//     not hide the value at its key.
//   - Every method returns an error when ctx ends before it completes.
//
// A Store may prefix the Cache's keys to share a server with other data.
type Store interface {
	Get(ctx context.Context, key string) ([]byte, error)
	Lease(ctx context.Context, key string, ttl time.Duration) (token string, err error)
	Put(ctx context.Context, key, token string, value []byte, ttl time.Duration) error
	Release(ctx context.Context, key, token string) error
}

// A ShardedStore is a Store whose keys live on several servers that fail
// independently, as a Redis Cluster's masters do. Shard names the server
// of a key ("" for the Store as a whole). The Cache tracks failures and
// slowness per shard, so that a failing server pauses sharing only for the
// origins it holds. Shard is called before every Store call: it must be
// cheap and must not block.
type ShardedStore interface {
	Store
	Shard(key string) string
}

// ErrLeaseLost is returned by Store.Put when the token no longer holds the
// key's lease: it ran out, and perhaps another node holds it now.
var ErrLeaseLost = errors.New("fetch: lease lost")

// ErrForeignValue is returned by a Store's Get or Lease, with the call's
// result, when the Store found at the key something it did not write and
// set it aside. The Cache counts it (CacheStats.StoreCorrupt) and uses the
// result; it is not a failure of the Store.
var ErrForeignValue = errors.New("fetch: foreign value in the store")

// storeKey includes the wire version so that nodes reading different
// versions never meet.
func storeKey(origin string) string {
	return "v" + strconv.Itoa(wireVersion) + "/" + origin
}
