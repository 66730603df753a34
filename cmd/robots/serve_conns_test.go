package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
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
