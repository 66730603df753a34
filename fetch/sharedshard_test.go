package fetch

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// shardedStore puts the keys of origins whose host starts with "down" on
// a shard that fails every call, and the others on one that works.
type shardedStore struct {
	Store
	downCalls atomic.Int64
}

func (s *shardedStore) Shard(key string) string {
	if strings.Contains(key, "://down") {
		return "down:6379"
	}
	return "up:6379"
}

func (s *shardedStore) fault(key string) error {
	if s.Shard(key) == "down:6379" {
		s.downCalls.Add(1)
		return errStoreDown
	}
	return nil
}

func (s *shardedStore) Get(ctx context.Context, key string) ([]byte, error) {
	if err := s.fault(key); err != nil {
		return nil, err
	}
	return s.Store.Get(ctx, key)
}

func (s *shardedStore) Lease(ctx context.Context, key string, ttl time.Duration) (string, error) {
	if err := s.fault(key); err != nil {
		return "", err
	}
	return s.Store.Lease(ctx, key, ttl)
}

// A shard that fails pauses sharing only for its origins: after
// storeFailuresToOpen failures it is left alone, and the origins of the
// other shard are still shared across nodes.
func TestSharedShardPausesAlone(t *testing.T) {
	var cnt counter
	s := serve(t, cnt.wrap(text(200, rules)))
	store := &shardedStore{Store: NewMemoryStore()}
	opts := CacheOptions{StoreRetry: time.Hour}
	a := node(t, s.Listener.Addr().String(), nil, store, opts)
	b := node(t, s.Listener.Addr().String(), nil, store, opts)
	const origins = 6
	for i := range origins {
		getOK(t, a, fmt.Sprintf("http://down%d.test/", i))
	}
	assert.Equal(t, int64(storeFailuresToOpen), store.downCalls.Load(), "the failing shard is paused")
	for i := range origins {
		getOK(t, a, fmt.Sprintf("http://up%d.test/", i))
		getOK(t, b, fmt.Sprintf("http://up%d.test/", i))
		assert.Equal(t, 1, cnt.get(fmt.Sprintf("up%d.test/robots.txt", i)), "shared across the nodes")
	}
	assert.Equal(t, int64(origins), b.Stats().SharedHits)
	assert.Equal(t, int64(storeFailuresToOpen), a.Stats().StoreErrors)
	assert.Equal(t, int64(storeFailuresToOpen), store.downCalls.Load(), "still paused")
}

// A Store that is no ShardedStore, or a shard named "", has one pause for
// all its keys.
func TestBreakerForShard(t *testing.T) {
	b := &breaker{retry: time.Second, clock: SystemClock()}
	assert.Same(t, b, b.forShard(""))
	x := b.forShard("x:6379")
	assert.NotSame(t, b, x)
	assert.Same(t, x, b.forShard("x:6379"))
	assert.NotSame(t, x, b.forShard("y:6379"))
	assert.Equal(t, b.retry, x.retry)
}
