package redisstore_test

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/fetch"
)

// The saturated fleet: the fleet of TestFleet, with saturatedWorkers
// checks at once on each node, beside busyLoops processes that spin on
// the machine's cores. A node on a hot machine answers its Store calls
// late; it must still fetch each origin once across the fleet.
const (
	saturatedWorkers = 32
	busyLoops        = 8
	// maxFetchesPerOrigin is what the saturated fleet may cost a site:
	// one fetch per origin and 5 % more.
	maxFetchesPerOrigin = 1.05
)

// heavy skips tb unless ROBOTS_HEAVY=1: a heavy test takes the machine's
// cores from everything else running on it.
func heavy(tb testing.TB) {
	tb.Helper()
	if os.Getenv("ROBOTS_HEAVY") != "1" {
		tb.Skip("a heavy test: set ROBOTS_HEAVY=1 to run it")
	}
}

// spinning returns how many spinning processes ROBOTS_BUSY_LOOPS asks
// for; def when it is not set.
func spinning(tb testing.TB, def int) int {
	tb.Helper()
	v := os.Getenv("ROBOTS_BUSY_LOOPS")
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	require.NoError(tb, err, "ROBOTS_BUSY_LOOPS")
	return n
}

// spin starts n processes that spin (a shell's empty endless loop), each
// taking a core while the scheduler gives it one, and stops them when tb
// ends. Processes, not goroutines: busy goroutines of the test would
// share the test's own Go scheduler and threads, where the runtime
// preempts them in favour of the nodes' goroutines; a process competes
// for the cores as another program on a crawler's machine does.
func spin(tb testing.TB, n int) {
	tb.Helper()
	for range n {
		cmd := exec.Command("sh", "-c", "while :; do :; done")
		require.NoError(tb, cmd.Start())
		tb.Cleanup(func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		})
	}
}

// With busyLoops processes spinning beside it (ROBOTS_BUSY_LOOPS sets
// another number), a fleet with the default
// options still fetches each origin about once: Store calls that are
// answered late are waited for, not taken for an outage.
func TestFleetSaturated(t *testing.T) {
	heavy(t)
	srv := startRedis(t)
	o := newOrigins(t)
	fleet := newFleet(t, o, srv, "saturated:", fleetNodes, fetch.CacheOptions{})
	loops := spinning(t, busyLoops)
	spin(t, loops)

	start := time.Now()
	checks, wrong := crawlWith(fleet, 0, fleetOrigins, saturatedWorkers)
	elapsed := time.Since(start)
	assert.Zero(t, wrong)
	fetched, twice := 0, 0
	for i := range fleetOrigins {
		n := o.fetches(site(i), "")
		fetched += n
		if n > 1 {
			twice++
		}
	}
	st := sumStats(fleet)
	perOrigin := float64(fetched) / fleetOrigins
	t.Logf("%d busy loops: %.0f checks/s, %.3f fetches per origin, %d of %d origins fetched more than once, %d Store errors, %d slow calls",
		loops, float64(checks)/elapsed.Seconds(), perOrigin, twice, fleetOrigins, st.StoreErrors, st.StoreSlow)
	assert.LessOrEqual(t, perOrigin, maxFetchesPerOrigin)
}

// BenchmarkFleetSaturated is BenchmarkFleet's sharing and lone fleets with
// saturatedWorkers checks at once on each node, beside busyLoops spinning
// processes (ROBOTS_BUSY_LOOPS sets another number). It is heavy:
// ROBOTS_HEAVY=1 runs it.
func BenchmarkFleetSaturated(b *testing.B) {
	heavy(b)
	loops := spinning(b, busyLoops)
	b.Run(fmt.Sprintf("redis-busy%d", loops), func(b *testing.B) {
		srv := startRedis(b)
		spin(b, loops)
		benchFleetWith(b, srv, saturatedWorkers)
	})
	b.Run(fmt.Sprintf("alone-busy%d", loops), func(b *testing.B) {
		spin(b, loops)
		benchFleetWith(b, nil, saturatedWorkers)
	})
}
