package fetch

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"
)

// MemoryStore is a Store in one process's memory, for tests and for
// Caches of one process that share a second level. The zero value is not
// usable; call NewMemoryStore. It is safe for concurrent use.
type MemoryStore struct {
	mu     sync.Mutex
	values map[string]memoryItem
	leases map[string]memoryItem
	puts   int
}

type memoryItem struct {
	data    string
	expires time.Time
}

// sweepEvery Puts, expired items are swept; otherwise they are dropped
// only when their key is used.
const sweepEvery = 1024

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{values: map[string]memoryItem{}, leases: map[string]memoryItem{}}
}

// Get returns the value at key; nil when there is none.
func (s *MemoryStore) Get(ctx context.Context, key string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := live(s.values, key, time.Now())
	if !ok {
		return nil, nil
	}
	return []byte(v.data), nil
}

// Lease takes the lease on key for ttl when no one holds it.
func (s *MemoryStore) Lease(ctx context.Context, key string, ttl time.Duration) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	token := newToken()
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, held := live(s.leases, key, now); held {
		return "", nil
	}
	s.leases[key] = memoryItem{data: token, expires: now.Add(ttl)}
	return token, nil
}

// Put stores value at key for ttl and releases the lease, if token holds
// it.
func (s *MemoryStore) Put(ctx context.Context, key, token string, value []byte, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if l, held := live(s.leases, key, now); !held || l.data != token {
		return ErrLeaseLost
	}
	delete(s.leases, key)
	s.values[key] = memoryItem{data: string(value), expires: now.Add(ttl)}
	if s.puts++; s.puts%sweepEvery == 0 {
		s.sweep(now)
	}
	return nil
}

// Release ends the lease on key if token holds it.
func (s *MemoryStore) Release(ctx context.Context, key, token string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if l, held := live(s.leases, key, time.Now()); held && l.data == token {
		delete(s.leases, key)
	}
	return nil
}

func live(m map[string]memoryItem, key string, now time.Time) (memoryItem, bool) {
	it, ok := m[key]
	if ok && !now.Before(it.expires) {
		delete(m, key)
		return memoryItem{}, false
	}
	return it, ok
}

func (s *MemoryStore) sweep(now time.Time) {
	for _, m := range []map[string]memoryItem{s.values, s.leases} {
		for k, it := range m {
			if !now.Before(it.expires) {
				delete(m, k)
			}
		}
	}
}

func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}
