package redisstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/fetch"
	"github.com/fastrobots/robots/fetch/redisstore"
	"github.com/fastrobots/robots/fetch/storetest"
)

// The Store contract holds on a Redis Cluster of 3 masters.
func TestClusterContract(t *testing.T) {
	cluster := startCluster(t, 3, 0)
	c := cluster.client(t)
	storetest.Run(t, func(t *testing.T) fetch.Store {
		return redisstore.New(c, redisstore.Options{Prefix: "contract:" + t.Name() + ":"})
	})
}

// On a cluster, every Lease and Put succeeds: an origin's entry and lease
// share a slot, and origins spread over the masters.
func TestClusterLeaseAndPut(t *testing.T) {
	cluster := startCluster(t, 3, 0)
	c := cluster.client(t)
	ctx := t.Context()
	s := redisstore.New(c, redisstore.Options{Prefix: "{braces}in:prefix:"})
	plain := redisstore.New(c, redisstore.Options{})
	masters := map[string]bool{}
	for i := range 50 {
		key := fmt.Sprintf("v1/http://site%d.test", i)
		for _, s := range []*redisstore.Store{s, plain} {
			token, err := s.Lease(ctx, key, time.Minute)
			require.NoError(t, err, key)
			require.NotEmpty(t, token, key)
			require.NoError(t, s.Put(ctx, key, token, []byte("entry"), time.Minute), key)
			v, err := s.Get(ctx, key)
			require.NoError(t, err, key)
			assert.Equal(t, []byte("entry"), v, key)
		}
		masters[masterOf(cluster.nodes[0], redisstore.DefaultPrefix+"{"+key+"}")] = true
	}
	assert.Len(t, masters, 3, "origins spread over every master")

	for _, prefix := range []string{"{}", "a{}b{c}:", "{}{v1}"} {
		bad := redisstore.New(c, redisstore.Options{Prefix: prefix})
		_, err := bad.Lease(ctx, "v1/http://site0.test", time.Minute)
		assert.ErrorIs(t, err, redisstore.ErrEmptyHashTag, prefix)
		_, err = bad.Get(ctx, "v1/http://site0.test")
		assert.ErrorIs(t, err, redisstore.ErrEmptyHashTag, prefix)
	}
	for _, prefix := range []string{"{", "}{", "a{b}{}", "{x}"} {
		s := redisstore.New(c, redisstore.Options{Prefix: prefix})
		token, err := s.Lease(ctx, "v1/http://site0.test", time.Minute)
		require.NoError(t, err, prefix)
		require.NoError(t, s.Put(ctx, "v1/http://site0.test", token, []byte("entry"), time.Minute), prefix)
	}
}

// On a cluster, Shard names the master of an origin's slot: the same for
// an origin's every call, one of the 3 masters; on one Redis, "".
func TestClusterShard(t *testing.T) {
	cluster := startCluster(t, 3, 0)
	s := redisstore.New(cluster.client(t), redisstore.Options{Prefix: "shard:"})
	masters := map[string]bool{}
	for i := range 100 {
		key := "v1/http://" + site(i)
		name := s.Shard(key)
		require.NotEmpty(t, name, key)
		assert.Equal(t, name, s.Shard(key), key)
		masters[name] = true
	}
	assert.Len(t, masters, 3)
	one := redisstore.New(startRedis(t).client(t), redisstore.Options{})
	assert.Empty(t, one.Shard("v1/http://"+site(0)))
}

// A fleet on a 3-master cluster fetches each origin once.
func TestFleetOnCluster(t *testing.T) {
	cluster := startCluster(t, 3, 0)
	o := newOrigins(t)
	fleet := newFleetOn(t, o, cluster.client, "cfleet:", 4, fetch.CacheOptions{StoreRetry: storeRetry})
	const n = 300
	checks, wrong := crawl(fleet, 0, n)
	assert.Equal(t, int64(4*n*2), checks)
	assert.Zero(t, wrong)
	for i := range n {
		if !assert.Equal(t, 1, o.fetches(site(i), ""), site(i)) {
			break
		}
	}
	st := sumStats(fleet)
	assert.Equal(t, int64(n), st.Fetches)
	assert.Equal(t, int64(3*n), st.SharedHits)
	assert.Zero(t, st.StoreErrors)
}

// On a cluster of 3 masters with a replica each, a master is killed while
// the fleet checks: every check is answered and right, no node fetches an
// origin twice; once its replica is promoted, the fleet fetches each new
// origin once again.
func TestFleetOnClusterFailover(t *testing.T) {
	cluster := startCluster(t, 3, 1)
	o := newOrigins(t)
	var clients []redis.UniversalClient
	connect := func(tb testing.TB) redis.UniversalClient {
		c := cluster.client(tb)
		clients = append(clients, c)
		return c
	}
	fleet := newFleetOn(t, o, connect, "failover:", 4, fetch.CacheOptions{StoreRetry: storeRetry})
	const n = 200
	_, wrong := crawl(fleet, 0, n)
	assert.Zero(t, wrong)
	for i := range n {
		if !assert.Equal(t, 1, o.fetches(site(i), ""), site(i)) {
			break
		}
	}

	// Which origins the master about to die serves.
	shards := redisstore.New(clients[0], redisstore.Options{Prefix: "failover:"})
	dead := shards.Shard("v1/http://" + site(0))
	require.NotEmpty(t, dead)
	onDead := map[int]bool{}
	for i := n; i < n+20000; i++ {
		onDead[i] = shards.Shard("v1/http://"+site(i)) == dead
	}

	// The master of site0's slot dies; the fleet checks new origins, 50 at
	// a time, until its replica is promoted.
	failed := make(chan error, 1)
	start := time.Now()
	go func() { failed <- cluster.failOver("failover:{v1/http://" + site(0) + "}") }()
	var checks int64
	next := n
	for promoted := false; !promoted; next += 50 {
		select {
		case err := <-failed:
			require.NoError(t, err)
			promoted = true
		default:
		}
		c, w := crawl(fleet, next, next+50)
		checks, wrong = checks+c, wrong+w
	}
	assert.Zero(t, wrong, "checks go on through the failover")
	fetched := 0
	var deadFetched, deadOrigins, liveFetched, liveOrigins int
	for i := n; i < next; i++ {
		fetched += o.fetches(site(i), "")
		if onDead[i] {
			deadFetched, deadOrigins = deadFetched+o.fetches(site(i), ""), deadOrigins+1
		} else {
			liveFetched, liveOrigins = liveFetched+o.fetches(site(i), ""), liveOrigins+1
		}
		for _, node := range fleet {
			assert.LessOrEqual(t, o.fetches(site(i), node.name), 1, "%s by %s", site(i), node.name)
		}
	}
	t.Logf("failover: replica promoted after %v; meanwhile %d checks of %d origins, %d wrong, %.2f fetches per origin, %d Store errors",
		time.Since(start).Round(10*time.Millisecond), checks, next-n, wrong, float64(fetched)/float64(next-n), sumStats(fleet).StoreErrors)
	livePer := float64(liveFetched) / float64(liveOrigins)
	t.Logf("failover: %.2f fetches per origin of the dead master (%d origins), %.2f of the live ones (%d origins)",
		float64(deadFetched)/float64(deadOrigins), deadOrigins, livePer, liveOrigins)
	assert.LessOrEqual(t, livePer, maxFetchesPerOrigin, "the dead master's pause is its own: the live masters' origins are still shared")

	// The replica serves: sharing resumes.
	for _, c := range clients {
		waitForCluster(t, c)
	}
	time.Sleep(2 * storeRetry)
	for _, node := range fleet {
		_, _ = node.checker.Allowed(context.Background(), "ExampleBot", "http://warmup-"+node.name+".test/")
	}
	_, wrong = crawl(fleet, next, next+n)
	assert.Zero(t, wrong)
	for i := next; i < next+n; i++ {
		if !assert.Equal(t, 1, o.fetches(site(i), ""), site(i)) {
			break
		}
	}
}
