package main

import (
	"container/list"
	"context"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"syscall"
)

// An open connection costs the server a goroutine, two 4 KiB buffers and
// the headers it has sent so far; the kernel holds its socket buffers.
// Net/http gives each connection a goroutine of its own, so nothing
// needs a slot of a fixed few to be served: a connection that sends
// nothing, or drips its headers a byte at a time (slowloris), waits on
// its own timer (readHeaderTimeout, idleTimeout) and keeps nobody else
// waiting. What bounds the server's memory is how many it holds open, so
// the connTable below counts them, and once a count is reached it makes
// room by closing the connection that has waited longest without a
// request under way (a connection idle between requests, or one still
// sending its headers), never one whose request is being answered. A new
// connection is never queued behind old ones: it is served, or, when
// every connection open is being answered, closed at once.

// Limits of the connections the server holds open.
const (
	// maxConnections bounds the connections open at once, idle and slow
	// ones included: they hold at most maxConnMemory, outside of the
	// requests being answered. Past it, the connection that has waited
	// longest without a request under way is closed to make room.
	maxConnections = 4096
	// maxClientConnections bounds the connections of one client (an IPv4
	// address, or an IPv6 /64, what one host is given): past it, that
	// client's own longest waiting connection is closed. One host cannot
	// fill the table and push out everyone else's kept-alive
	// connections; it needs maxConnections/maxClientConnections
	// addresses to try.
	maxClientConnections = 512
	// maxConnBytes bounds the memory of a connection with no request
	// under way: its goroutine, its buffers, and headers of at most
	// maxRequestHeaderBytes read so far. Measured by
	// TestServeConnectionMemory: an idle connection takes about 16 KiB,
	// one that has sent 16 KiB of short header lines up to 52 KiB (each
	// line is a string and an entry of the header map).
	maxConnBytes = 64 << 10
	// maxConnMemory bounds the memory of the connections with no request
	// under way: 256 MiB.
	maxConnMemory = maxConnections * maxConnBytes
	// reservedFiles are file descriptors kept for what the server opens
	// besides connections: its listener, the fetches of robots.txt files,
	// and the runtime's own. When the process may open fewer than
	// maxConnections+reservedFiles, the table holds fewer connections.
	reservedFiles = 256
)

// connTable counts the open connections of an http.Server, through its
// ConnState and ConnContext hooks, and closes the longest waiting ones
// past its limits.
type connTable struct {
	max, perClient int

	mu sync.Mutex
	// waiting lists the connections with no request under way, longest
	// waiting first; byClient the same per client.
	waiting  *list.List // of *trackedConn
	byClient map[netip.Prefix]*clientConns
	open     int
	// closedFull counts the connections closed because the table or a
	// client was full: the tests read it.
	closedFull int
}

// clientConns are the connections of one client.
type clientConns struct {
	open    int
	waiting *list.List // of *trackedConn, longest waiting first
}

// trackedConn is one connection in the table.
type trackedConn struct {
	conn   net.Conn
	client netip.Prefix
	// at and atClient are its elements in the waiting lists, nil while a
	// request is under way.
	at, atClient *list.Element
	closed       bool
}

// newConnTable returns a table of at most max connections, perClient of
// them from one client.
func newConnTable(max, perClient int) *connTable {
	return &connTable{max: max, perClient: perClient, waiting: list.New(), byClient: map[netip.Prefix]*clientConns{}}
}

// connLimit returns how many connections the server may hold: want, or
// fewer when the process may not open that many files.
func connLimit(want int) int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && lim.Cur < uint64(want+reservedFiles) {
		return max(int(lim.Cur)-reservedFiles, 16)
	}
	return want
}

// clientOf returns the client a connection comes from: its IPv4
// address, or the /64 of its IPv6 address.
func clientOf(c net.Conn) netip.Prefix {
	ap, err := netip.ParseAddrPort(c.RemoteAddr().String())
	if err != nil {
		return netip.Prefix{}
	}
	a := ap.Addr().Unmap()
	bits := 32
	if a.Is6() {
		bits = 64
	}
	p, _ := a.Prefix(bits)
	return p
}

// connKey is the context key under which a request finds its connection.
type connKey struct{}

// install sets srv's hooks so that the table counts its connections and
// knows which of them have a request under way.
func (t *connTable) install(srv *http.Server) {
	// ConnContext sees a connection before ConnState's StateNew does.
	conns := sync.Map{} // net.Conn → *trackedConn
	srv.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		tc := &trackedConn{conn: c, client: clientOf(c)}
		conns.Store(c, tc)
		return context.WithValue(ctx, connKey{}, tc)
	}
	srv.ConnState = func(c net.Conn, s http.ConnState) {
		v, ok := conns.Load(c)
		if !ok {
			return
		}
		tc := v.(*trackedConn)
		switch s {
		case http.StateNew:
			t.add(tc)
		case http.StateIdle:
			t.wait(tc)
		case http.StateClosed, http.StateHijacked:
			conns.Delete(c)
			t.remove(tc)
		}
	}
	next := srv.Handler
	srv.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tc, ok := r.Context().Value(connKey{}).(*trackedConn); ok && tc != nil {
			t.busy(tc)
		}
		next.ServeHTTP(w, r)
	})
}

// add counts a new connection, waiting for its first request, and makes
// room for it past a limit; when there is no room, it is closed.
func (t *connTable) add(tc *trackedConn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	cc := t.byClient[tc.client]
	if cc == nil {
		cc = &clientConns{waiting: list.New()}
		t.byClient[tc.client] = cc
	}
	t.open++
	cc.open++
	tc.at = t.waiting.PushBack(tc)
	tc.atClient = cc.waiting.PushBack(tc)
	if cc.open > t.perClient {
		t.closeLocked(cc.waiting.Front().Value.(*trackedConn))
	}
	if t.open > t.max {
		t.closeLocked(t.waiting.Front().Value.(*trackedConn))
	}
}

// closeLocked closes tc to make room, and stops counting it. The new
// connection itself may be the one closed: every other was busy.
func (t *connTable) closeLocked(tc *trackedConn) {
	t.closedFull++
	t.removeLocked(tc)
	tc.conn.Close() // its goroutine sees the error and ends
}

// wait moves tc to the back of the waiting lists: it has no request
// under way, from now.
func (t *connTable) wait(tc *trackedConn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if tc.closed {
		return
	}
	t.unlistLocked(tc)
	tc.at = t.waiting.PushBack(tc)
	tc.atClient = t.byClient[tc.client].waiting.PushBack(tc)
}

// busy takes tc off the waiting lists: a request of it is being
// answered, and it is not closed to make room.
func (t *connTable) busy(tc *trackedConn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !tc.closed {
		t.unlistLocked(tc)
	}
}

// remove stops counting tc, closed.
func (t *connTable) remove(tc *trackedConn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !tc.closed {
		t.removeLocked(tc)
	}
}

func (t *connTable) removeLocked(tc *trackedConn) {
	tc.closed = true
	t.unlistLocked(tc)
	t.open--
	cc := t.byClient[tc.client]
	if cc.open--; cc.open == 0 {
		delete(t.byClient, tc.client)
	}
}

func (t *connTable) unlistLocked(tc *trackedConn) {
	if tc.at != nil {
		t.waiting.Remove(tc.at)
		t.byClient[tc.client].waiting.Remove(tc.atClient)
		tc.at, tc.atClient = nil, nil
	}
}

// counts returns the connections open, and how many were closed to make
// room.
func (t *connTable) counts() (open, closedFull int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.open, t.closedFull
}
