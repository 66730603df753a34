package serve

import (
	"container/heap"
	"container/list"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"syscall"
	"time"
)

// An open connection costs the server a goroutine, a timer, and once it
// has sent a byte two 4 KiB buffers and the headers it has sent so far;
// the kernel holds its socket buffers. Each connection has a goroutine of
// its own, so nothing needs a slot of a fixed few to be served: a
// connection that sends nothing, or drips its headers a byte at a time
// (slowloris), waits on its own timer (firstByteTimeout,
// readHeaderTimeout, idleTimeout) and keeps nobody else waiting. What bounds the server's memory is how many it holds open, so
// the connTable below counts them, and once a count is reached it makes
// room by closing a connection with no request under way (idle between
// requests, or still sending its headers), never one whose request is
// being answered. A new connection is never queued behind old ones: it
// is served, or, when every connection open is being answered, closed at
// once.

// Limits of the connections the server holds open.
const (
	// maxConnections bounds the connections open at once, idle and slow
	// ones included: they hold at most maxConnMemory, outside of the
	// requests being answered. 16,384 holds ten thousand idle connections
	// and a thousand slow ones with room to spare. Past it, a connection
	// with no request under way is closed to make room: the longest
	// waiting of the client that has the most waiting.
	maxConnections = 16_384
	// maxConnBytes bounds the memory of a connection with no request
	// under way: its goroutine, its buffers, and headers of at most
	// maxRequestHeaderBytes read so far. Measured by
	// TestServeConnectionMemory: a connection that has sent nothing yet
	// takes about 2.5 KiB (see firstByteListener), one that has sent its
	// headers up to the limit 28 KiB in one line and up to 37 KiB in
	// short ones (each a string and an entry of the header map).
	maxConnBytes = 48 << 10
	// maxConnMemory bounds the memory of the connections with no request
	// under way: 768 MiB, when every one of them has sent all the headers
	// it may; 40 MiB when none has sent anything.
	maxConnMemory = maxConnections * maxConnBytes
	// reservedFiles are file descriptors kept for what the server opens
	// besides connections: its listener, the fetches of robots.txt files,
	// and the runtime's own. When the process may open fewer than
	// maxConnections+reservedFiles, the table holds fewer connections.
	reservedFiles = 256
)

// connTable counts the open connections of an http.Server, through its
// ConnState and ConnContext hooks, and closes waiting ones past its
// limits. Past maxConnections it closes a connection with no request under
// way, chosen where connections crowd: in the network (an IPv4 /24, an
// IPv6 /48) with the most connections waiting, the source (an IPv4
// address, an IPv6 /64) with the most waiting, and of those the one that
// has waited longest; among networks or sources that wait as many, the
// one whose candidate has waited longest. A client that opens many
// connections pushes out its own; a crowd of sources, each holding one,
// pushes out its own oldest, never a newcomer's before its older
// neighbours'; and a network of many sources counts as one crowd. (Closing
// the longest waiting connection of all would let an attacker who opens
// connections again as fast as they are closed push out everyone else's;
// closing by count alone, the order among equals arbitrary, let a crowd of
// single connections push out a newcomer's before its request came in.)
type connTable struct {
	max int

	mu    sync.Mutex
	byNet map[netip.Prefix]*netConns
	// nets is a heap of the networks, the one to take from first.
	nets connHeap[*netConns]
	open int
	// seq orders the waits: a connection that began waiting earlier has
	// a lower number.
	seq uint64
	// closedFull counts the connections closed because the table was
	// full: the tests read it.
	closedFull int
}

// netConns are the connections of one network: its sources'.
type netConns struct {
	bySource map[netip.Prefix]*clientConns
	sources  connHeap[*clientConns]
	waiting  int
	index    int // in connTable.nets
}

// clientConns are the connections of one source.
type clientConns struct {
	open    int
	waiting *list.List // of *trackedConn, longest waiting first
	index   int        // in its netConns.sources
}

// trackedConn is one connection in the table.
type trackedConn struct {
	conn   net.Conn
	client netip.Prefix
	// at is its element in its client's waiting list, nil while a request
	// is under way; since is when it began waiting (connTable.seq).
	at            *list.Element
	since         uint64
	added, closed bool
}

// newConnTable returns a table of at most max connections.
func newConnTable(max int) *connTable {
	return &connTable{max: max, byNet: map[netip.Prefix]*netConns{}}
}

// rank is how a network or a source ranks in the table's choice: more
// connections waiting first, then the longer waiting candidate.
type rank struct {
	waiting int
	oldest  uint64
}

func (a rank) before(b rank) bool {
	if a.waiting != b.waiting {
		return a.waiting > b.waiting
	}
	return a.oldest < b.oldest
}

func (c *clientConns) rank() rank {
	if f := c.waiting.Front(); f != nil {
		return rank{c.waiting.Len(), f.Value.(*trackedConn).since}
	}
	return rank{0, math.MaxUint64}
}

func (n *netConns) rank() rank {
	if len(n.sources) == 0 {
		return rank{0, math.MaxUint64}
	}
	return rank{n.waiting, n.sources[0].rank().oldest}
}

func (c *clientConns) setIndex(i int) { c.index = i }
func (n *netConns) setIndex(i int)    { n.index = i }

// ranked is what a connHeap holds.
type ranked interface {
	rank() rank
	setIndex(int)
}

// connHeap is a heap of networks or sources, the first to take from on
// top.
type connHeap[T ranked] []T

func (h connHeap[T]) Len() int           { return len(h) }
func (h connHeap[T]) Less(i, j int) bool { return h[i].rank().before(h[j].rank()) }
func (h connHeap[T]) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].setIndex(i)
	h[j].setIndex(j)
}
func (h *connHeap[T]) Push(x any) {
	v := x.(T)
	v.setIndex(len(*h))
	*h = append(*h, v)
}
func (h *connHeap[T]) Pop() any {
	old := *h
	v := old[len(old)-1]
	*h = old[:len(old)-1]
	return v
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

// networkOf returns the network of a client: the /24 of an IPv4 address,
// the /48 of an IPv6 /64, what one host or one site is given.
func networkOf(client netip.Prefix) netip.Prefix {
	bits := 24
	if client.Addr().Is6() {
		bits = 48
	}
	p, _ := client.Addr().Prefix(bits)
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
		if fc, ok := c.(*firstByteConn); ok {
			tc = fc.tc // counted since it was accepted
		}
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

// A connection that has sent nothing yet is held by a firstByteListener,
// not by the HTTP server: a goroutine blocked on a one-byte read, with a
// deadline, about 2.5 KiB in all, where net/http would give it its buffers
// at once and close it after readHeaderTimeout, as it does a slow one.
// Closed so soon, connections that are opened again at once come back
// together, a storm of SYNs the kernel's accept queue drops; held, they
// cost their few KiB until firstByteTimeout, spread over a fifth of it
// so that connections opened together are not closed together either.

// firstByteTimeout is how long a new connection may wait before it sends
// its first byte: as long as a kept-alive connection may wait for its
// next request (idleTimeout); past it, it is closed.
const firstByteTimeout = idleTimeout

// firstByteListener accepts connections at once, counts them in its
// table, and hands them to the HTTP server once their first byte has
// come.
type firstByteListener struct {
	net.Listener
	table *connTable
	wait  time.Duration
	ready chan net.Conn

	mu      sync.Mutex
	pending map[net.Conn]struct{} // waiting for their first byte
	closed  chan struct{}
	err     error // the inner listener's, once it fails
}

// firstByteConn is a connection whose first byte has been read.
type firstByteConn struct {
	net.Conn
	tc    *trackedConn
	first []byte // the byte read, until it is read again
}

// CloseWrite half-closes a TCP connection, as net/http does before it
// closes one whose request it did not read whole.
func (c *firstByteConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

func (c *firstByteConn) Read(p []byte) (int, error) {
	if len(c.first) > 0 && len(p) > 0 {
		p[0] = c.first[0]
		c.first = nil
		return 1, nil
	}
	return c.Conn.Read(p)
}

// listen returns ln as a firstByteListener counting its connections in
// t, each waiting at most wait for its first byte; it accepts from ln
// until it is closed.
func (t *connTable) listen(ln net.Listener, wait time.Duration) net.Listener {
	l := &firstByteListener{Listener: ln, table: t, wait: wait, ready: make(chan net.Conn),
		pending: map[net.Conn]struct{}{}, closed: make(chan struct{})}
	go l.acceptLoop()
	return l
}

// acceptLoop accepts connections, never waiting for one to close.
func (l *firstByteListener) acceptLoop() {
	var backoff time.Duration
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) {
				// Out of files for a moment: as net/http does, wait and retry.
				backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
				time.Sleep(backoff)
				continue
			}
			l.mu.Lock()
			l.err = err
			l.mu.Unlock()
			l.Close()
			return
		}
		backoff = 0
		tc := &trackedConn{conn: c, client: clientOf(c)}
		if !l.table.add(tc) {
			continue // no room: closed at once
		}
		l.mu.Lock()
		l.pending[c] = struct{}{}
		l.mu.Unlock()
		go l.await(tc)
	}
}

// await waits for the first byte of tc's connection and hands it over.
func (l *firstByteListener) await(tc *trackedConn) {
	c := tc.conn
	// Spread the deadline over the last fifth of the wait.
	_ = c.SetReadDeadline(time.Now().Add(l.wait - rand.N(l.wait/5+1)))
	var b [1]byte
	n, err := c.Read(b[:])
	l.mu.Lock()
	delete(l.pending, c)
	l.mu.Unlock()
	if n == 0 || err != nil {
		c.Close()
		l.table.remove(tc)
		return
	}
	_ = c.SetReadDeadline(time.Time{}) // the server sets its own
	select {
	case l.ready <- &firstByteConn{Conn: c, tc: tc, first: b[:]}:
	case <-l.closed:
		c.Close()
		l.table.remove(tc)
	}
}

// Accept returns the next connection whose first byte has come.
func (l *firstByteListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ready:
		return c, nil
	case <-l.closed:
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.err != nil {
			return nil, l.err
		}
		return nil, net.ErrClosed
	}
}

// Close stops accepting and closes the connections that have sent
// nothing yet.
func (l *firstByteListener) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case <-l.closed:
		return nil
	default:
	}
	close(l.closed)
	for c := range l.pending {
		c.Close()
	}
	return l.Listener.Close()
}

// add counts a new connection, waiting for its first request, and makes
// room for it past a limit; when there is no room, it is closed, and add
// reports false. A connection counted already is left as it is.
func (t *connTable) add(tc *trackedConn) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if tc.added {
		return !tc.closed
	}
	tc.added = true
	n := t.byNet[networkOf(tc.client)]
	if n == nil {
		n = &netConns{bySource: map[netip.Prefix]*clientConns{}}
		t.byNet[networkOf(tc.client)] = n
		heap.Push(&t.nets, n)
	}
	cc := n.bySource[tc.client]
	if cc == nil {
		cc = &clientConns{waiting: list.New()}
		n.bySource[tc.client] = cc
		heap.Push(&n.sources, cc)
	}
	t.open++
	cc.open++
	t.listLocked(tc)
	if t.open > t.max {
		// The top network has a connection waiting: tc's does.
		top := t.nets[0].sources[0]
		t.closeLocked(top.waiting.Front().Value.(*trackedConn))
	}
	return !tc.closed
}

// closeLocked closes tc to make room, and stops counting it. The new
// connection itself may be the one closed: every other was busy.
func (t *connTable) closeLocked(tc *trackedConn) {
	t.closedFull++
	t.removeLocked(tc)
	tc.conn.Close() // its goroutine sees the error and ends
}

// wait moves tc to the back of its client's waiting list: it has no
// request under way, from now.
func (t *connTable) wait(tc *trackedConn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if tc.closed {
		return
	}
	t.unlistLocked(tc)
	t.listLocked(tc)
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
	nk := networkOf(tc.client)
	n := t.byNet[nk]
	cc := n.bySource[tc.client]
	if cc.open--; cc.open == 0 {
		heap.Remove(&n.sources, cc.index)
		delete(n.bySource, tc.client)
		if len(n.bySource) == 0 {
			heap.Remove(&t.nets, n.index)
			delete(t.byNet, nk)
			return
		}
		heap.Fix(&t.nets, n.index)
	}
}

// listLocked puts tc at the back of its client's waiting list.
func (t *connTable) listLocked(tc *trackedConn) {
	n := t.byNet[networkOf(tc.client)]
	cc := n.bySource[tc.client]
	t.seq++
	tc.since = t.seq
	tc.at = cc.waiting.PushBack(tc)
	n.waiting++
	t.fixLocked(n, cc)
}

func (t *connTable) unlistLocked(tc *trackedConn) {
	if tc.at == nil {
		return
	}
	n := t.byNet[networkOf(tc.client)]
	cc := n.bySource[tc.client]
	cc.waiting.Remove(tc.at)
	tc.at = nil
	n.waiting--
	t.fixLocked(n, cc)
}

// fixLocked restores the heaps after cc's waiting list, in network n,
// changed.
func (t *connTable) fixLocked(n *netConns, cc *clientConns) {
	heap.Fix(&n.sources, cc.index)
	heap.Fix(&t.nets, n.index)
}

// counts returns the connections open, and how many were closed to make
// room.
func (t *connTable) counts() (open, closedFull int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.open, t.closedFull
}
