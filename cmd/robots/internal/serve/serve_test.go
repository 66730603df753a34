package serve

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServeUsageErrors(t *testing.T) {
	clitest.AssertUsageErrors(t, Run, "", []clitest.UsageCase{
		{Name: "an argument", Args: []string{"now"}, Stderr: `unexpected argument "now"`},
		{Name: "an unknown flag", Args: []string{"--port", "80"}, Stderr: "flag provided but not defined: -port"},
	})
	r := clitest.Invoke(Run, "", "-h")
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.Contains(t, r.Stderr, "Usage: robots serve [--addr 127.0.0.1:8080] [--allow-private]")
}

func TestServeDefaultsToLoopback(t *testing.T) {
	opts, _ := parseServe(nil, io.Discard)
	require.NotNil(t, opts)
	assert.Equal(t, "127.0.0.1:8080", opts.addr)
	assert.False(t, opts.allowPrivate)
}

// startServe runs serveUntil with args in the background and returns the
// URL it says it listens on, and a function that stops it and returns its
// error.
func startServe(t *testing.T, args ...string) (string, func() error) {
	t.Helper()
	opts, code := parseServe(args, io.Discard)
	require.NotNil(t, opts, "exit %d", code)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serveUntil(ctx, opts, pw)
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	require.True(t, lines.Scan(), "serve printed nothing")
	base, ok := strings.CutPrefix(lines.Text(), "robots serve: listening on ")
	require.True(t, ok, lines.Text())
	go func() {
		for lines.Scan() { // drain, so that later lines never block serve
		}
	}()
	stop := func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			t.Fatal("serve did not stop")
			return nil
		}
	}
	return strings.TrimSuffix(base, "/"), stop
}

func TestServeServesUntilStopped(t *testing.T) {
	base, stop := startServe(t, "--addr", "127.0.0.1:0")
	resp, err := http.Get(base + "/")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, contentSecurityPolicy, resp.Header.Get("Content-Security-Policy"))

	resp, err = http.Post(base+"/api/check", "application/json", strings.NewReader(`{"robotstxt":"User-agent: *\nDisallow: /\n","urls":["/a"]}`))
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, `{"results":[{"url":"/a","allowed":false,"line":2,"rule":"Disallow: /"}]}`+"\n", string(b))

	req, err := http.NewRequest(http.MethodGet, base+"/", nil)
	require.NoError(t, err)
	req.Host = "rebind.example"
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMisdirectedRequest, resp.StatusCode, "on loopback, only loopback names are answered")

	require.NoError(t, stop())
	_, err = http.Get(base + "/")
	assert.Error(t, err, "the port is closed once serve returns")
}

func TestServeSaysWhenOthersCanReachIt(t *testing.T) {
	var out strings.Builder
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // serve starts, says where it listens, and stops at once
	require.NoError(t, serveUntil(ctx, &serveOptions{addr: "0.0.0.0:0", allowPrivate: true}, &out))
	assert.Contains(t, out.String(), "robots serve: listening on http://[::]:")
	assert.Contains(t, out.String(), "not a loopback address: other hosts can reach the server")
	assert.Contains(t, out.String(), "--allow-private: fetches may connect to loopback and private addresses")

	out.Reset()
	require.NoError(t, serveUntil(ctx, &serveOptions{addr: "127.0.0.1:0"}, &out))
	assert.NotContains(t, out.String(), "other hosts")
	assert.NotContains(t, out.String(), "--allow-private")
}

func TestServeFailsOnABusyAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	r := clitest.Invoke(Run, "", "--addr", ln.Addr().String())
	assert.Equal(t, cli.ExitUsage, r.Code)
	assert.Contains(t, r.Stderr, "robots serve: listen tcp "+ln.Addr().String())
	assert.Empty(t, r.Stdout)
}

// testTimeouts are short server time limits, to watch them act.
var testTimeouts = httpTimeouts{readHeader: 200 * time.Millisecond, read: 300 * time.Millisecond, write: time.Second, idle: 300 * time.Millisecond}

// rawServer serves the API with the time limits of tm on a loopback port
// and returns its address.
func rawServer(t *testing.T, tm httpTimeouts) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv, table := newHTTPServerConns(newServer(serverConfig{}), tm, connLimit(maxConnections))
	go func() { _ = srv.Serve(table.listen(ln, tm.idle)) }() // as serve does
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// closedWithin reports whether the server closes conn within d: a read
// returns EOF or a reset rather than timing out.
func closedWithin(t *testing.T, conn net.Conn, d time.Duration) bool {
	t.Helper()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(d)))
	_, err := io.ReadAll(conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false
	}
	return true
}

func TestServeClosesSlowHeaders(t *testing.T) {
	conn, err := net.Dial("tcp", rawServer(t, testTimeouts))
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n") // and never the end of the headers
	require.NoError(t, err)
	assert.True(t, closedWithin(t, conn, 10*time.Second), "a client that never ends its headers is cut off")
}

func TestServeClosesSlowBodies(t *testing.T) {
	conn, err := net.Dial("tcp", rawServer(t, testTimeouts))
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "POST /api/lint HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"robotstxt\"")
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err, "a body that stops coming is answered, then the connection closed")
	b, _ := io.ReadAll(resp.Body)
	assert.Equal(t, http.StatusRequestTimeout, resp.StatusCode)
	assert.Equal(t, `{"error":"the request body did not come in time"}`+"\n", string(b))
	assert.True(t, closedWithin(t, conn, 10*time.Second))
}

func TestServeClosesIdleConnections(t *testing.T) {
	conn, err := net.Dial("tcp", rawServer(t, testTimeouts))
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	// The connection is kept alive for the next request, for a while only.
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	_, err = r.ReadByte()
	assert.ErrorIs(t, err, io.EOF, "an idle connection is closed")
}

func TestServeTimeoutsAreSet(t *testing.T) {
	srv := newHTTPServer(http.NotFoundHandler(), serveTimeouts)
	assert.Equal(t, readHeaderTimeout, srv.ReadHeaderTimeout)
	assert.Equal(t, readTimeout, srv.ReadTimeout)
	assert.Equal(t, writeTimeout, srv.WriteTimeout)
	assert.Equal(t, idleTimeout, srv.IdleTimeout)
	assert.Equal(t, maxRequestHeaderBytes, srv.MaxHeaderBytes)
}

func TestServeRefusesLargeHeaders(t *testing.T) {
	addr := rawServer(t, serveTimeouts)
	req, err := http.NewRequest(http.MethodGet, "http://"+addr+"/", nil)
	require.NoError(t, err)
	req.Header.Set("X-Big", strings.Repeat("a", 2*maxRequestHeaderBytes))
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, resp.StatusCode)
}
