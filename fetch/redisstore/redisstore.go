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
// Each origin has two keys, both under Prefix, and both carrying the
// Cache's key, which holds the wire format's version:
//
//	PREFIX + key              the entry: opaque bytes, with the expiry the Cache asks
//	PREFIX + "lease/" + key   the lease: a random token, SET NX PX
//
// A lease is taken with SET key token NX PX ttl. Put writes the entry
// and deletes the lease in one Lua script that first checks that the lease
// still holds the caller's token, so that only the holder writes; Release
// is the same check before the delete. A node that does not get the lease
// polls Get until the holder's entry comes (the Cache's backoff: 5 ms
// doubling to 200 ms), or takes the lease once it ends.
//
// The Cache bounds every call itself (fetch.CacheOptions.StoreTimeout).
// Give the client ContextTimeoutEnabled, so that it gives up a call when
// the Cache does rather than at its own ReadTimeout, and a short
// DialTimeout, so that a Redis that is down costs little.
//
// Redis Cluster is out of scope: Put's script touches two keys, which a
// cluster would need in one hash slot. Use a single Redis, or one with
// replicas behind Sentinel (a failover client), through the same
// redis.UniversalClient.
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
	// share a Redis with other data or keep fleets apart.
	Prefix string
}

// Store is a fetch.Store on a Redis client. It is safe for concurrent use.
type Store struct {
	client redis.UniversalClient
	prefix string
}

var _ fetch.Store = (*Store)(nil)

// New returns a Store on client.
func New(client redis.UniversalClient, opts Options) *Store {
	if opts.Prefix == "" {
		opts.Prefix = DefaultPrefix
	}
	return &Store{client: client, prefix: opts.Prefix}
}

func (s *Store) entryKey(key string) string { return s.prefix + key }
func (s *Store) leaseKey(key string) string { return s.prefix + "lease/" + key }

// Get returns the entry at key; nil when there is none. A key holding
// another type of value (a list, say) is reported as none, so that the
// next Put replaces it.
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	v, err := s.client.Get(ctx, s.entryKey(key)).Bytes()
	switch {
	case errors.Is(err, redis.Nil), isWrongType(err):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return v, nil
}

// isWrongType reports whether err is Redis's answer to a command on a key
// of another type.
func isWrongType(err error) bool {
	return err != nil && strings.HasPrefix(err.Error(), "WRONGTYPE")
}

// Lease takes the lease on key for ttl (SET NX PX) when no one holds it,
// and returns its token; "" when another holds it.
func (s *Store) Lease(ctx context.Context, key string, ttl time.Duration) (string, error) {
	token := newToken()
	err := s.client.Do(ctx, "SET", s.leaseKey(key), token, "NX", "PX", millis(ttl)).Err()
	switch {
	case errors.Is(err, redis.Nil):
		return "", nil
	case err != nil:
		return "", err
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
	n, err := putScript.Run(ctx, s.client, []string{s.leaseKey(key), s.entryKey(key)}, token, value, millis(ttl)).Int()
	if err != nil {
		return err
	}
	if n != 1 {
		return fetch.ErrLeaseLost
	}
	return nil
}

// Release ends the lease on key if token holds it.
func (s *Store) Release(ctx context.Context, key, token string) error {
	return releaseScript.Run(ctx, s.client, []string{s.leaseKey(key)}, token).Err()
}

// millis is d in whole milliseconds, at least 1: PX takes no less.
func millis(d time.Duration) int64 { return max(d.Milliseconds(), 1) }

// newToken returns 128 random bits in hex.
func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}
