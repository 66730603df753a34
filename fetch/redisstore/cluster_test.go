package redisstore_test

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/fetch/redisstore"
)

// clusterNodeTimeout is the cluster-node-timeout of the test clusters: a
// master that does not answer for it is failed over to its replica, so a
// failover takes a second or two, not the default's 15 s and more.
const clusterNodeTimeout = 1000 * time.Millisecond

// redisCluster is a Redis Cluster of redis-servers on loopback, each with
// its own port, bus port and directory, created with redis-cli and stopped
// when the test ends.
type redisCluster struct {
	nodes []*redisServer
}

// startCluster starts masters masters, each with replicas replicas, and
// waits until every node sees the cluster ok.
func startCluster(tb testing.TB, masters, replicas int) *redisCluster {
	tb.Helper()
	cli := lookPath(tb, "redis-cli")
	c := &redisCluster{}
	addrs := []string{}
	for range masters * (1 + replicas) {
		s := startRedis(tb, "--cluster-enabled", "yes", "--cluster-port", strconv.Itoa(freePort(tb)),
			"--cluster-config-file", "nodes.conf",
			"--cluster-node-timeout", strconv.Itoa(int(clusterNodeTimeout.Milliseconds())),
			// A replica syncs at once, and may be promoted however long
			// its master has been gone: the test kills a master soon
			// after the cluster is made.
			"--repl-diskless-sync-delay", "0", "--cluster-replica-validity-factor", "0",
			// The masters alive serve their slots while one is gone, as
			// a cluster that pauses one master's origins alone needs.
			"--cluster-require-full-coverage", "no")
		c.nodes = append(c.nodes, s)
		addrs = append(addrs, s.addr())
	}
	args := append([]string{"--cluster", "create"}, addrs...)
	args = append(args, "--cluster-replicas", strconv.Itoa(replicas), "--cluster-yes")
	out, err := exec.Command(cli, args...).CombinedOutput()
	require.NoError(tb, err, "redis-cli --cluster create: %s", out)
	for _, s := range c.nodes {
		c.waitFor(tb, s, func(info string) bool { return strings.Contains(info, "cluster_state:ok") })
		c.waitForSync(tb, s)
	}
	return c
}

// waitForSync waits until node s, when it is a replica, has synced with
// its master: only then can it be promoted.
func (c *redisCluster) waitForSync(tb testing.TB, s *redisServer) {
	tb.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: s.addr(), DialTimeout: 100 * time.Millisecond})
	defer rdb.Close()
	deadline := time.Now().Add(20 * time.Second)
	for {
		info, err := rdb.Info(context.Background(), "replication").Result()
		if err == nil && (strings.Contains(info, "role:master") || strings.Contains(info, "master_link_status:up")) {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("replica %s did not sync: %v\n%s", s.addr(), err, info)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitFor waits until the CLUSTER INFO of node s satisfies ok.
func (c *redisCluster) waitFor(tb testing.TB, s *redisServer, ok func(info string) bool) {
	tb.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: s.addr(), DialTimeout: 100 * time.Millisecond})
	defer rdb.Close()
	deadline := time.Now().Add(20 * time.Second)
	for {
		info, err := rdb.ClusterInfo(context.Background()).Result()
		if err == nil && ok(info) {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("cluster node %s: %v\n%s", s.addr(), err, info)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// client returns a cluster client configured as the package doc advises,
// closed when the test ends.
func (c *redisCluster) client(tb testing.TB) redis.UniversalClient {
	addrs := make([]string, len(c.nodes))
	for i, s := range c.nodes {
		addrs[i] = s.addr()
	}
	rdb := redis.NewClusterClient(&redis.ClusterOptions{
		Addrs:                 addrs,
		ContextTimeoutEnabled: true,
		DialTimeout:           100 * time.Millisecond,
		DialerRetries:         1,
	})
	tb.Cleanup(func() { _ = rdb.Close() })
	return rdb
}

// masterOf returns the address of the master that serves key's slot, as
// node via sees it; "" when it cannot tell.
func masterOf(via *redisServer, key string) string {
	rdb := redis.NewClient(&redis.Options{Addr: via.addr(), DialTimeout: 100 * time.Millisecond})
	defer rdb.Close()
	ctx := context.Background()
	slot, err := rdb.ClusterKeySlot(ctx, key).Result()
	if err != nil {
		return ""
	}
	shards, err := rdb.ClusterShards(ctx).Result()
	if err != nil {
		return ""
	}
	for _, sh := range shards {
		for _, r := range sh.Slots {
			if r.Start > slot || slot > r.End {
				continue
			}
			for _, n := range sh.Nodes {
				if n.Role == "master" && n.Health == "online" {
					return n.IP + ":" + strconv.FormatInt(n.Port, 10)
				}
			}
		}
	}
	return ""
}

// masterServer returns the node that serves key's slot as master now;
// nil when none does.
func (c *redisCluster) masterServer(key string) *redisServer {
	addr := masterOf(c.nodes[0], key)
	for _, s := range c.nodes {
		if s.addr() == addr {
			return s
		}
	}
	return nil
}

// failOver kills the master of key's slot and waits until every other
// node sees another master serve it and the cluster ok again: the
// replica promoted. It returns an error when that takes more than 20 s;
// it may run outside the test's goroutine.
func (c *redisCluster) failOver(key string) error {
	dead := c.masterServer(key)
	if dead == nil {
		return fmt.Errorf("no master serves %q", key)
	}
	dead.kill()
	deadline := time.Now().Add(20 * time.Second)
	for _, s := range c.nodes {
		if s == dead {
			continue
		}
		for !c.promoted(s, key, dead) {
			if time.Now().After(deadline) {
				return fmt.Errorf("no replica of %s promoted, as %s sees it", dead.addr(), s.addr())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return nil
}

// promoted reports whether node s sees another master than dead serve
// key's slot, and the cluster ok.
func (c *redisCluster) promoted(s *redisServer, key string, dead *redisServer) bool {
	if m := masterOf(s, key); m == "" || m == dead.addr() {
		return false
	}
	rdb := redis.NewClient(&redis.Options{Addr: s.addr(), DialTimeout: 100 * time.Millisecond})
	defer rdb.Close()
	info, err := rdb.ClusterInfo(context.Background()).Result()
	return err == nil && strings.Contains(info, "cluster_state:ok")
}

// waitForCluster waits until a Store on rdb reaches the master of every
// slot a few dozen keys hash to: the Store's failed calls have made the
// client reload its map of the cluster.
func waitForCluster(tb testing.TB, rdb redis.UniversalClient) {
	tb.Helper()
	store := redisstore.New(rdb, redisstore.Options{Prefix: "probe:"})
	deadline := time.Now().Add(20 * time.Second)
	var lastErr error
	for {
		ok := true
		for i := range 48 {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			_, err := store.Get(ctx, strconv.Itoa(i))
			cancel()
			if err != nil {
				ok, lastErr = false, err
				break
			}
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the cluster client did not reach every master: %v", lastErr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
