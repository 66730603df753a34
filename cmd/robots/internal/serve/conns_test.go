package serve

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serverMemory returns the heap and stacks the process holds, after a
// collection.
func serverMemory() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse + m.StackInuse
}

// tableServer serves h on a loopback port with a connTable of max
// connections, and returns its address and table.
func tableServer(t *testing.T, h http.Handler, max int) (string, *connTable) {
	t.Helper()
	ln, err := listen("127.0.0.1:0")
	require.NoError(t, err)
	srv, table := newHTTPServerConns(h, serveTimeouts, max)
	go func() { _ = srv.Serve(table.listen(ln, firstByteTimeout)) }()
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), table
}

// dialFrom connects to addr from the loopback address src (any address
// of 127.0.0.0/8 is the machine's own).
func dialFrom(t *testing.T, src, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 10 * time.Second}
	c, err := d.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

// waitOpen waits until table counts n connections open.
func waitOpen(t *testing.T, table *connTable, n int) {
	t.Helper()
	require.Eventually(t, func() bool { open, _ := table.counts(); return open == n },
		10*time.Second, time.Millisecond, "want %d connections open", n)
}

// getOn sends GET path on conn and returns the answer's status.
func getOn(t *testing.T, conn net.Conn, path string) int {
	t.Helper()
	require.NoError(t, conn.SetDeadline(time.Now().Add(10*time.Second)))
	_, err := fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", path)
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// blockingHandler answers /block once release is closed, saying on
// entered when it starts; anything else at once.
func blockingHandler(entered chan<- struct{}, release <-chan struct{}) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/block" {
			entered <- struct{}{}
			<-release
		}
		w.WriteHeader(http.StatusNoContent)
	})
}

func TestServeConnectionLimitClosesTheLongestWaiting(t *testing.T) {
	assert.Equal(t, 16_384, maxConnections)
	entered, release := make(chan struct{}), make(chan struct{})
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	addr, table := tableServer(t, blockingHandler(entered, release), 4)
	var conns []net.Conn
	for i := range 4 {
		conns = append(conns, dialFrom(t, "127.0.0.1", addr))
		waitOpen(t, table, i+1)
	}
	// A fifth connection is served at once; the one that waited longest
	// is closed to make room.
	fifth := dialFrom(t, "127.0.0.1", addr)
	assert.Equal(t, http.StatusNoContent, getOn(t, fifth, "/"))
	assert.True(t, closedWithin(t, conns[0], 5*time.Second), "the oldest idle connection is closed")
	for _, c := range conns[1:] {
		assert.False(t, closedWithin(t, c, 50*time.Millisecond), "the others stay open")
	}
	// A connection whose request is being answered is never closed to
	// make room: with every connection busy, a new one is closed at once.
	for _, c := range append(conns[1:], fifth) {
		require.NoError(t, c.SetDeadline(time.Time{}))
		_, err := io.WriteString(c, "GET /block HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		require.NoError(t, err)
		<-entered
	}
	sixth := dialFrom(t, "127.0.0.1", addr)
	assert.True(t, closedWithin(t, sixth, 5*time.Second), "no room: the new connection is closed, not queued")
	close(release)
	for _, c := range append(conns[1:], fifth) {
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		require.NoError(t, err, "the busy connections were answered")
		assert.Equal(t, http.StatusNoContent, resp.StatusCode)
	}
	_, closedFull := table.counts()
	assert.Equal(t, 2, closedFull)
}

// Past maxConnections, the client with the most connections waiting
// loses one, not the client with fewer whose connection is older.
func TestServeConnectionLimitTakesFromTheLargestClient(t *testing.T) {
	addr, table := tableServer(t, blockingHandler(nil, nil), 4)
	light := dialFrom(t, "127.0.0.2", addr)
	waitOpen(t, table, 1)
	var heavy []net.Conn
	for i := range 3 {
		heavy = append(heavy, dialFrom(t, "127.0.0.3", addr))
		waitOpen(t, table, 2+i)
	}
	for range 5 { // the heavy client comes again and again
		c := dialFrom(t, "127.0.0.3", addr)
		assert.Equal(t, http.StatusNoContent, getOn(t, c, "/"))
		heavy = append(heavy, c)
	}
	assert.False(t, closedWithin(t, light, 50*time.Millisecond), "the light client's connection stays")
	assert.True(t, closedWithin(t, heavy[0], 5*time.Second), "the heavy client's oldest is closed")
	open, closedFull := table.counts()
	assert.Equal(t, 4, open)
	assert.Equal(t, 5, closedFull)
}

func TestServeClientIsTheAddressOrItsIPv6Slash64(t *testing.T) {
	for addr, want := range map[string]string{
		"192.0.2.7:80":                  "192.0.2.7/32",
		"[::ffff:192.0.2.7]:80":         "192.0.2.7/32",
		"[2001:db8:1:2:3:4:5:6]:443":    "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1]:443":    "2001:db8:1:2::/64",
		"[fe80::1%eth0]:443":            "fe80::/64",
		"[2001:db8:1:3::1]:443":         "2001:db8:1:3::/64",
		"127.0.0.1:8080":                "127.0.0.1/32",
		"[::1]:8080":                    "::/64",
		"[2001:db8:1:2:3:4:5:6%x]:1234": "2001:db8:1:2::/64",
	} {
		c := fakeAddrConn{remote: addr}
		assert.Equal(t, want, clientOf(c).String(), addr)
	}
}

// fakeAddrConn is a net.Conn that only has a remote address.
type fakeAddrConn struct {
	net.Conn
	remote string
}

func (c fakeAddrConn) RemoteAddr() net.Addr { return stringAddr(c.remote) }

type stringAddr string

func (a stringAddr) Network() string { return "tcp" }
func (a stringAddr) String() string  { return string(a) }

func TestServeConnectionLimitFollowsTheFileLimit(t *testing.T) {
	assert.Equal(t, 256, reservedFiles)
	var lim syscall.Rlimit
	require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim))
	t.Cleanup(func() { _ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim) })
	low := lim
	low.Cur = 1000
	require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low))
	assert.Equal(t, 1000-reservedFiles, connLimit(maxConnections))
	assert.Equal(t, 500, connLimit(500), "within the file limit, as asked")
}

// Each connection with no request under way holds at most maxConnBytes:
// an idle one, and one that has sent all the headers it may but the last
// line's end.
func TestServeConnectionMemory(t *testing.T) {
	assert.Equal(t, 48<<10, maxConnBytes)
	assert.Equal(t, 768<<20, maxConnMemory)
	for _, tt := range []struct {
		name string
		sent string
	}{
		{"idle", ""},
		// Net/http reads up to 4 KiB past MaxHeaderBytes before it refuses.
		{"headers at the limit", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + strings.Repeat("a", maxRequestHeaderBytes+3000)},
		{"many header lines", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + strings.Repeat("X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n", (maxRequestHeaderBytes+3000)/42)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			addr, table := tableServer(t, newServer(serverConfig{}), 10_000)
			const n = 500
			time.Sleep(200 * time.Millisecond) // for the connections of the last run to be gone
			before := serverMemory()
			for range n {
				c := dialFrom(t, "127.0.0.1", addr)
				if tt.sent != "" {
					_, err := io.WriteString(c, tt.sent)
					require.NoError(t, err)
				}
			}
			waitOpen(t, table, n)
			time.Sleep(500 * time.Millisecond) // for the server to read what was sent
			per := (int64(serverMemory()) - int64(before)) / n
			t.Logf("%s: %d bytes per connection (client side included)", tt.name, per)
			assert.LessOrEqual(t, per, int64(maxConnBytes))
			open, closedFull := table.counts()
			assert.Equal(t, n, open, "all still open")
			assert.Zero(t, closedFull)
		})
	}
}

// A new connection waits for its first byte as long as a kept-alive one
// waits for its next request, not readHeaderTimeout: it costs a few KiB
// meanwhile, and is closed after the wait, spread over its last fifth.
func TestServeNewConnectionWaitsForItsFirstByte(t *testing.T) {
	assert.Equal(t, idleTimeout, firstByteTimeout)
	assert.Equal(t, 60*time.Second, firstByteTimeout)
	ln, err := listen("127.0.0.1:0")
	require.NoError(t, err)
	const headers, wait = 200 * time.Millisecond, 600 * time.Millisecond
	srv, table := newHTTPServerConns(newServer(serverConfig{}), httpTimeouts{readHeader: headers, read: time.Second, write: time.Second, idle: time.Second}, 100)
	go func() { _ = srv.Serve(table.listen(ln, wait)) }()
	t.Cleanup(func() { srv.Close() })
	addr := ln.Addr().String()

	late := dialFrom(t, "127.0.0.1", addr)
	silent := dialFrom(t, "127.0.0.1", addr)
	start := time.Now()
	time.Sleep(2 * headers)
	assert.Equal(t, http.StatusOK, getOn(t, late, "/style.css"), "sent after readHeaderTimeout, and answered")
	assert.True(t, closedWithin(t, silent, 10*time.Second), "closed once the wait is over")
	assert.GreaterOrEqual(t, time.Since(start), wait-wait/5, "not before")
}

// crowdSource returns the loopback address of the i-th source of a crowd:
// 250 to a /24, or with spread each in a /24 of its own.
func crowdSource(i int, spread bool) string {
	if spread {
		return fmt.Sprintf("127.%d.%d.1", 30+i/250, 1+i%250)
	}
	return fmt.Sprintf("127.20.%d.%d", 1+i/250, 1+i%250)
}

// holdCrowd opens one idle connection from each of n sources, each opened
// again 0.5 to 1.5 s after the server closes it, as attack.hold does, and
// returns once all are open.
func holdCrowd(t *testing.T, addr string, n int, spread bool) *attack {
	t.Helper()
	a := &attack{addr: addr, redial: true, stop: make(chan struct{})}
	t.Cleanup(a.end)
	ready := make(chan error, n)
	for i := range n {
		a.wg.Go(func() { a.hold(crowdSource(i, spread), false, ready) })
		if i%100 == 99 {
			time.Sleep(time.Millisecond)
		}
	}
	for range n {
		require.NoError(t, <-ready)
	}
	return a
}

// A crowd of sources, each holding one idle connection and opening it
// again when the server closes it, past the table's room: a newcomer's
// requests are answered, each on a connection of its own, whether the
// crowd's sources share /24s or each has one of its own; the room is made
// from the crowd's longest waiting connections, never the newcomer's. The
// full figure, 17,000 sources against robots serve's own table, is
// TestServeCrowdFull.
func TestServeCrowdDoesNotLockOutANewcomer(t *testing.T) {
	const room, crowd, requests = 600, 1500, 60
	raiseFileLimit(t, 2*crowd+1000)
	for _, spread := range []bool{false, true} {
		t.Run(fmt.Sprintf("a /24 each %v", spread), func(t *testing.T) {
			addr, table := tableServer(t, newServer(serverConfig{}), room)
			a := holdCrowd(t, addr, crowd, spread)
			waitOpen(t, table, room)
			failed := 0
			for range requests {
				resp, err := goodClient.Get("http://" + addr + "/style.css")
				if err != nil {
					failed++
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				assert.Equal(t, http.StatusOK, resp.StatusCode)
				time.Sleep(25 * time.Millisecond)
			}
			_, closedFull := table.counts()
			t.Logf("%d of %d requests failed; %d connections closed to make room, the crowd opened %d", failed, requests, closedFull, a.opened.Load())
			assert.Zero(t, failed, "the newcomer's requests are answered")
			assert.Greater(t, closedFull, crowd-room, "the crowd was past the room")
		})
	}
}

// The source and network a connection counts for: an IPv4 address in
// its /24, an IPv6 /64 in its /48.
func TestServeNetworkIsTheSlash24OrSlash48(t *testing.T) {
	for addr, want := range map[string]string{
		"192.0.2.7:80":               "192.0.2.0/24",
		"[::ffff:192.0.2.7]:80":      "192.0.2.0/24",
		"[2001:db8:1:2:3:4:5:6]:443": "2001:db8:1::/48",
		"[2001:db8:1:ff::1]:443":     "2001:db8:1::/48",
		"127.10.1.250:8080":          "127.10.1.0/24",
		"[::1]:8080":                 "::/48",
	} {
		assert.Equal(t, want, networkOf(clientOf(fakeAddrConn{remote: addr})).String(), addr)
	}
}

// Past the table's room, the network with the most connections waiting
// loses one, then its source with the most, then the longest waiting of
// equals: a /24 of many sources of one connection each counts as one
// crowd, and a newcomer of another network keeps its connection.
func TestServeConnectionLimitTakesFromTheLargestNetwork(t *testing.T) {
	addr, table := tableServer(t, blockingHandler(nil, nil), 6)
	var crowd []net.Conn
	for i := range 5 { // five sources of one /24
		crowd = append(crowd, dialFrom(t, fmt.Sprintf("127.40.1.%d", i+1), addr))
		waitOpen(t, table, i+1)
	}
	light := dialFrom(t, "127.41.1.1", addr)
	waitOpen(t, table, 6)
	for i := range 3 { // the crowd comes again, from new sources of its /24
		c := dialFrom(t, fmt.Sprintf("127.40.1.%d", 10+i), addr)
		assert.Equal(t, http.StatusNoContent, getOn(t, c, "/"))
		crowd = append(crowd, c)
	}
	assert.False(t, closedWithin(t, light, 50*time.Millisecond), "the other network's connection stays")
	for i, c := range crowd[:3] {
		assert.True(t, closedWithin(t, c, 5*time.Second), "the crowd's oldest, %d, is closed", i)
	}
	for i, c := range crowd[3:5] {
		assert.False(t, closedWithin(t, c, 50*time.Millisecond), "the crowd's younger ones, %d, stay", i+3)
	}
	open, closedFull := table.counts()
	assert.Equal(t, 6, open)
	assert.Equal(t, 3, closedFull)
}

// One client (a /24 of a few sources) holding 600 connections past the
// table's room, opening each again when the server closes it, does not
// hold another's requests: those are answered within the second the
// attack tests allow (a few milliseconds here). The full figure is
// TestServeCrowdFull.
func TestServeHeavyClientDoesNotHoldOthers(t *testing.T) {
	const room, over = 600, 600
	raiseFileLimit(t, 2*(room+over)+1000)
	addr, table := tableServer(t, newServer(serverConfig{}), room)
	a := startAttack(t, addr, room+over, 0, 250, true)
	waitOpen(t, table, room)
	var gets, checks []time.Duration
	for range 20 {
		get, check := timedRequests(t, "http://"+addr)
		gets, checks = append(gets, get), append(checks, check)
		time.Sleep(50 * time.Millisecond)
	}
	slices.Sort(gets)
	slices.Sort(checks)
	_, closedFull := table.counts()
	t.Logf("GET /: median %v, max %v; POST /api/check: median %v, max %v; %d connections closed to make room, the client opened %d",
		gets[len(gets)/2], gets[len(gets)-1], checks[len(checks)/2], checks[len(checks)-1], closedFull, a.opened.Load())
	assert.Less(t, gets[len(gets)-1], time.Second)
	assert.Less(t, checks[len(checks)-1], time.Second)
	assert.Positive(t, closedFull, "the client was past the room")
}

// TestServeCrowdFull is the full figure of the crowds, against robots
// serve in a process of its own with its own table (16,384 connections):
// 17,000 sources each holding one idle connection, and one client (a /24
// of 68 sources) holding 16,984, each opened again 0.5 to 1.5 s after the
// server closes it; a normal client sends GET / and POST /api/check once
// a second, each on a connection of its own. It runs with
//
//	ROBOTS_ATTACK_FULL=1 go test -count=1 -v -run TestServeCrowdFull ./cmd/robots
func TestServeCrowdFull(t *testing.T) {
	if os.Getenv("ROBOTS_ATTACK_FULL") == "" {
		t.Skip("the full figure runs with ROBOTS_ATTACK_FULL=1")
	}
	const conns, seconds = 16_984, 60
	raiseFileLimit(t, conns+1000)
	for _, crowd := range []struct {
		name string
		hold func(t *testing.T, addr string) *attack
	}{
		{"17,000 sources", func(t *testing.T, addr string) *attack { return holdCrowd(t, addr, 17_000, false) }},
		{"one client 600 over", func(t *testing.T, addr string) *attack { return startAttack(t, addr, conns, 0, 250, true) }},
	} {
		t.Run(crowd.name, func(t *testing.T) {
			base, rss := startServeProcess(t)
			a := crowd.hold(t, strings.TrimPrefix(base, "http://"))
			var gets, checks []time.Duration
			failed := 0
			for range seconds {
				get, check, err := timedRequestsOrError(base)
				if err != nil {
					failed++
					t.Logf("failed: %v", err)
				} else {
					gets, checks = append(gets, get), append(checks, check)
				}
				time.Sleep(time.Second)
			}
			slices.Sort(gets)
			slices.Sort(checks)
			require.NotEmpty(t, gets, "every request failed")
			t.Logf("%d of %d failed; GET /: median %v, max %v; POST /api/check: median %v, max %v; the crowd opened %d connections, the server closed %d; server memory %s",
				failed, seconds, gets[len(gets)/2], gets[len(gets)-1], checks[len(checks)/2], checks[len(checks)-1],
				a.opened.Load(), a.closed.Load(), rss())
			assert.Zero(t, failed)
			assert.Less(t, gets[len(gets)/2], 300*time.Millisecond)
			assert.Less(t, checks[len(checks)/2], 300*time.Millisecond)
		})
	}
}

// timedRequestsOrError is timedRequests for a client that may fail: it
// returns the error rather than fail the test.
func timedRequestsOrError(base string) (get, check time.Duration, err error) {
	start := time.Now()
	resp, err := goodClient.Get(base + "/")
	if err != nil {
		return 0, 0, err
	}
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		return 0, 0, fmt.Errorf("GET /: %d, %v", resp.StatusCode, err)
	}
	get = time.Since(start)
	start = time.Now()
	resp, err = goodClient.Post(base+"/api/check", "application/json",
		strings.NewReader(`{"robotstxt":"User-agent: *\nDisallow: /private/\n","urls":["/private/x","/public"]}`))
	if err != nil {
		return get, 0, err
	}
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		return get, 0, fmt.Errorf("POST /api/check: %d, %v", resp.StatusCode, err)
	}
	return get, time.Since(start), nil
}
