// Package redisstore is a fetch.Store on Redis (or Valkey, which speaks
// the same protocol): the second cache level a fleet of crawlers shares,
// so that the fleet fetches each origin's robots.txt once.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "redis:6379", ContextTimeoutEnabled: true})
//	store := redisstore.New(rdb, redisstore.Options{Prefix: "crawler:robots:"})
//	cache := fetch.NewCache(fetcher, fetch.CacheOptions{Store: store})
//
// It lives in a module of its own so that users of the core module never
// download a Redis client.
//
// Each origin has two keys, both under Prefix, both carrying the Cache's
// key, which holds the wire format's version, in braces: a Redis Cluster
// hashes only the text in the first braces, so an origin's two keys share
// a hash slot, and one script can touch both.
//
//	PREFIX + "{" + key + "}"          the entry: opaque bytes, with the expiry the Cache asks
//	PREFIX + "{" + key + "}lease"     the lease: a random token, with an expiry
//
// The keys are the same up to the closing brace, so they hash alike
// whatever braces Prefix or the key hold, unless Prefix's first "{" is
// followed at once by "}" (an empty hash tag: the cluster hashes whole
// keys), which a Store on a cluster client refuses (ErrEmptyHashTag). A
// failed call makes a cluster client reload its map of the cluster, so
// that a replica promoted after a failover serves at once.
//
// Every call is one Lua script, so nothing is read before it is checked:
//
//   - Get returns the entry only when it is a string of at most
//     fetch.MaxSharedValue bytes, checked with STRLEN inside Redis; a
//     longer value or another type is foreign (fetch.ErrForeignValue): no
//     byte of it is sent, and the Cache counts it and overwrites it.
//   - Lease sets the lease with an expiry when the key is free. A lease key
//     holding something no Lease wrote (a string without an expiry, or
//     with one ten times the lease time away, another type) would hold
//     the origin for good: Lease takes it over and says so
//     (fetch.ErrForeignValue).
//   - Put writes the entry and deletes the lease in one script that first
//     checks that the lease still holds the caller's token, so that only
//     the holder writes; Release is the same check before the delete.
//
// A node that does not get the lease polls Get until the holder's entry
// comes (the Cache's backoff: 5 ms doubling to 200 ms), or takes the lease
// once it ends.
//
// The Cache bounds every call itself (fetch.CacheOptions.StoreTimeout),
// and tells a Redis that is down (an error: a refused or reset
// connection, a failed dial) from one that is slow to answer (no answer
// yet), which it waits for rather than fetch an origin another node may
// be fetching. Give the client ContextTimeoutEnabled, so that it gives up
// a call when the Cache does rather than at its own ReadTimeout, and a
// short DialTimeout, so that a Redis that is down costs little.
//
// On a cluster client the Store is a fetch.ShardedStore: Shard names the
// master of an origin's slot, and the Cache pauses sharing after failures
// for that master's origins alone.
//
// Any redis.UniversalClient serves: one Redis, one with replicas behind
// Sentinel (a failover client), or a Redis Cluster (a cluster client). A
// failover can lose a lease or a write the old master had not yet passed
// on; that costs one more fetch of the origin, never a wrong answer (see
// docs/fleet.md in the repository).
package redisstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fastrobots/robots/fetch"
)

// DefaultPrefix is the key prefix when Options.Prefix is empty.
const DefaultPrefix = "fastrobots:"

// Options configure a Store.
type Options struct {
	// Prefix starts every key the Store uses (default DefaultPrefix), to
	// share a Redis with other data or keep fleets apart. On a Redis
	// Cluster, its first "{", if any, must not be followed at once by "}"
	// (ErrEmptyHashTag).
	Prefix string
}

// Store is a fetch.Store on a Redis client. It is safe for concurrent use.
type Store struct {
	client redis.UniversalClient
	prefix string
	// cluster is client when it is a cluster client, else nil: a failed
	// call makes it reload the cluster's map, which it would otherwise do
	// only on a redirect or once a minute, long after a failover.
	cluster *redis.ClusterClient
	// refused, when not nil, is the error of every call: the Prefix
	// cannot work on the cluster.
	refused error
}

var _ fetch.ShardedStore = (*Store)(nil)

// New returns a Store on client.
func New(client redis.UniversalClient, opts Options) *Store {
	if opts.Prefix == "" {
		opts.Prefix = DefaultPrefix
	}
	s := &Store{client: client, prefix: opts.Prefix}
	s.cluster, _ = client.(*redis.ClusterClient)
	if s.cluster != nil && emptyHashTag(opts.Prefix) {
		s.refused = ErrEmptyHashTag
	}
	return s
}

// ErrEmptyHashTag is the error of every call of a Store on a Redis Cluster
// whose Prefix's first "{" is followed at once by "}": the cluster would
// then hash whole keys, and an origin's entry and lease would part.
var ErrEmptyHashTag = errors.New(`redisstore: on a Redis Cluster, Prefix's first "{" must not be followed at once by "}"`)

// emptyHashTag reports whether prefix's first "{" is followed at once by
// "}", which makes Redis Cluster hash a whole key, whatever follows.
func emptyHashTag(prefix string) bool {
	i := strings.IndexByte(prefix, '{')
	return i >= 0 && strings.HasPrefix(prefix[i:], "{}")
}

// shardLookup bounds Shard's look-up of a key's master: the cluster
// client's map is in memory once loaded, but its first load, or a reload
// it starts, may go to the network, which Shard must not wait on.
const shardLookup = 100 * time.Millisecond

// Shard names the server of key: on a Redis Cluster, the address of the
// master of key's hash slot, so that the Cache pauses sharing only for
// the origins of a master that fails, and goes on sharing the others'; a
// failover, which gives the slot another master, gives it a new name. ""
// (the Store as a whole) on any other client, or when the cluster's map is
// not at hand within shardLookup.
func (s *Store) Shard(key string) string {
	if s.cluster == nil || s.refused != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), shardLookup)
	defer cancel()
	master, err := s.cluster.MasterForKey(ctx, s.entryKey(key))
	if err != nil {
		return ""
	}
	return master.Options().Addr
}

// failed returns err, first asking a cluster client to reload the
// cluster's map: a master that does not answer may have been replaced by
// its replica. go-redis reloads at most once per 200 ms however many
// calls ask.
func (s *Store) failed(err error) error {
	if s.cluster != nil {
		s.cluster.ReloadState(context.Background())
	}
	return err
}

func (s *Store) entryKey(key string) string { return s.prefix + "{" + key + "}" }
func (s *Store) leaseKey(key string) string { return s.prefix + "{" + key + "}lease" }

// getScript returns the entry when it is a string of at most ARGV[1]
// bytes; nil when there is none; 0 when the key holds another type or a
// longer string, none of whose bytes it sends. KEYS: entry.
var getScript = redis.NewScript(`
local t = redis.call('TYPE', KEYS[1])['ok']
if t == 'none' then
	return false
end
if t ~= 'string' or redis.call('STRLEN', KEYS[1]) > tonumber(ARGV[1]) then
	return 0
end
return redis.call('GET', KEYS[1])
`)

// Get returns the entry at key; nil when there is none. A key holding
// another type of value (a list, say) or a string longer than
// fetch.MaxSharedValue is reported as none with fetch.ErrForeignValue, so
// that the Cache counts it and the next Put replaces it.
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	if s.refused != nil {
		return nil, s.refused
	}
	v, err := getScript.Run(ctx, s.client, []string{s.entryKey(key)}, fetch.MaxSharedValue).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, nil
	case err != nil:
		return nil, s.failed(err)
	}
	if b, ok := v.(string); ok {
		return []byte(b), nil
	}
	return nil, fetch.ErrForeignValue
}

// foreignLeaseFactor bounds the leases Lease respects: one that would
// still last more than foreignLeaseFactor times the lease time asked is
// foreign. Nodes of a fleet ask about the same lease time (the fetch's
// bound and two Store calls), so no Lease of theirs writes one; without
// the bound, a lease set to end in years would hold the origin as surely
// as one that never ends.
const foreignLeaseFactor = 10

// leaseScript takes the lease: 1 when the key was free, 2 when it held
// something no Lease writes (a string without an expiry or with one past
// ARGV[3] ms, another type), now replaced, 0 when another holds it. KEYS:
// lease. ARGV: token, ttl in ms, longest lease respected in ms.
var leaseScript = redis.NewScript(`
local t = redis.call('TYPE', KEYS[1])['ok']
if t == 'string' then
	local left = redis.call('PTTL', KEYS[1])
	if left >= 0 and left <= tonumber(ARGV[3]) then
		return 0
	end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if t == 'none' then
	return 1
end
return 2
`)

// Lease takes the lease on key for ttl when no one holds it, and returns
// its token; "" when another holds it. A lease key without an expiry, or
// with one more than foreignLeaseFactor times ttl away, or of another
// type, is taken over: the token comes with fetch.ErrForeignValue.
func (s *Store) Lease(ctx context.Context, key string, ttl time.Duration) (string, error) {
	if s.refused != nil {
		return "", s.refused
	}
	token := newToken()
	ms := millis(ttl)
	n, err := leaseScript.Run(ctx, s.client, []string{s.leaseKey(key)}, token, ms, ms*foreignLeaseFactor).Int()
	switch {
	case err != nil:
		return "", s.failed(err)
	case n == 0:
		return "", nil
	case n == 2:
		return token, fetch.ErrForeignValue
	}
	return token, nil
}

// putScript writes the entry and releases the lease if the lease holds the
// caller's token. KEYS: lease, entry. ARGV: token, value, ttl in ms.
var putScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
	return 0
end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
redis.call('DEL', KEYS[1])
return 1
`)

// releaseScript deletes the lease if it holds the caller's token. KEYS:
// lease. ARGV: token.
var releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
	return redis.call('DEL', KEYS[1])
end
return 0
`)

// Put stores value at key for ttl and releases the lease, if token holds
// it; otherwise it returns fetch.ErrLeaseLost.
func (s *Store) Put(ctx context.Context, key, token string, value []byte, ttl time.Duration) error {
	if s.refused != nil {
		return s.refused
	}
	n, err := putScript.Run(ctx, s.client, []string{s.leaseKey(key), s.entryKey(key)}, token, value, millis(ttl)).Int()
	if err != nil {
		return s.failed(err)
	}
	if n != 1 {
		return fetch.ErrLeaseLost
	}
	return nil
}

// Release ends the lease on key if token holds it.
func (s *Store) Release(ctx context.Context, key, token string) error {
	if s.refused != nil {
		return s.refused
	}
	if err := releaseScript.Run(ctx, s.client, []string{s.leaseKey(key)}, token).Err(); err != nil {
		return s.failed(err)
	}
	return nil
}

// millis is d in whole milliseconds, at least 1: PX takes no less.
func millis(d time.Duration) int64 { return max(d.Milliseconds(), 1) }

// newToken returns 128 random bits in hex.
func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}
