package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
)

const serveSynopsis = `robots serve [--addr 127.0.0.1:8080] [--allow-private]

Serves a robots.txt tester in the browser at /, and a JSON API under /api/
for crawlers in any language: POST /api/check, /api/explain, /api/lint and
/api/fetch answer what check, explain, lint and fetch answer with --json.
docs/serve.md describes the API and its limits.

The server fetches robots.txt files for its users ("load from URL", and
"origin" in API requests); it refuses to connect to loopback, private,
link-local, multicast, unspecified and reserved addresses, whatever name
or redirect leads there, unless --allow-private is given, for testing a
site on the local machine or network. It listens on loopback unless --addr
says otherwise. It stops on SIGINT or SIGTERM, letting the requests under
way finish.`

// Time limits of the server. The work of an API request is bounded by
// its size (maxWork), not by the clock; the time to write its answer
// starts when the work ends (answerWriteTimeout). writeTimeout bounds the
// rest of the answers, from the end of the request's headers.
const (
	// readHeaderTimeout bounds the sending of a request's headers, from
	// its first byte: a slow connection costs its memory (maxConnBytes)
	// and no one else's time, and is closed after it.
	readHeaderTimeout = 5 * time.Second
	// readTimeout bounds the sending of a whole request, its body of at
	// most api.MaxRequestBytes included.
	readTimeout = 15 * time.Second
	// writeTimeout bounds the writing of the page, and of an API error
	// found before any work, from the end of the request's headers: room
	// for readTimeout and a fetch (fetchTimeout) before it.
	writeTimeout = 30 * time.Second
	// answerWriteTimeout bounds the writing of an API answer, from the
	// end of its work, however long the work took: an answer of at most
	// 33 MiB to a client that reads it.
	answerWriteTimeout = 10 * time.Second
	// idleTimeout is how long a kept-alive connection may wait for its
	// next request (and a new one for its first, firstByteTimeout).
	idleTimeout = 60 * time.Second
	// fetchTimeout bounds one robots.txt fetch, redirects and body
	// included, as robots fetch --timeout does; running out of it is a
	// network failure, a full disallow.
	fetchTimeout = 10 * time.Second
	// shutdownTimeout is how long the requests under way may take to
	// finish once the server is told to stop.
	shutdownTimeout = 5 * time.Second
)

// serveOptions are the parsed arguments of serve.
type serveOptions struct {
	addr         string
	allowPrivate bool
}

// Run runs "robots serve" until SIGINT or SIGTERM.
func Run(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	opts, code := parseServe(args, stderr)
	if opts == nil {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serveUntil(ctx, opts, stdout); err != nil {
		fmt.Fprintf(stderr, "robots serve: %v\n", err)
		return cli.ExitUsage
	}
	return cli.ExitOK
}

// parseServe parses serve's arguments. When they do not make a run, it
// returns nil and the exit code to stop with.
func parseServe(args []string, stderr io.Writer) (*serveOptions, int) {
	opts := &serveOptions{}
	fs := cli.NewFlagSet("serve", serveSynopsis, stderr)
	fs.StringVar(&opts.addr, "addr", "127.0.0.1:8080", "listen on `host:port` (port 0 picks a free one)")
	fs.BoolVar(&opts.allowPrivate, "allow-private", false, "let fetches connect to loopback and private addresses")
	rest, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return nil, cli.FlagExit(err)
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "robots serve: unexpected argument %q\n", rest[0])
		fs.Usage()
		return nil, cli.ExitUsage
	}
	return opts, cli.ExitOK
}

// serveUntil listens on opts.addr, says where on stdout, and serves until
// ctx ends; then it lets the requests under way finish, for
// shutdownTimeout at most.
func serveUntil(ctx context.Context, opts *serveOptions, stdout io.Writer) error {
	ln, err := listen(opts.addr)
	if err != nil {
		return err
	}
	cfg := serverConfig{allowPrivate: opts.allowPrivate, loopbackHosts: isLoopback(ln.Addr())}
	srv, table := newHTTPServerConns(newServer(cfg), serveTimeouts, connLimit(maxConnections))
	ln = table.listen(ln, firstByteTimeout)
	fmt.Fprintf(stdout, "robots serve: listening on http://%s/\n", ln.Addr())
	if !isLoopback(ln.Addr()) {
		fmt.Fprintln(stdout, "robots serve: not a loopback address: other hosts can reach the server")
	}
	if opts.allowPrivate {
		fmt.Fprintln(stdout, "robots serve: --allow-private: fetches may connect to loopback and private addresses")
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// listen listens on addr. Connections are bounded by the connTable of
// the server, not by the listener: accepting never waits for one to
// close.
func listen(addr string) (net.Listener, error) {
	return net.Listen("tcp", addr)
}

// httpTimeouts are the time limits of the HTTP server.
type httpTimeouts struct {
	readHeader, read, write, idle time.Duration
}

// serveTimeouts are the time limits serve runs with.
var serveTimeouts = httpTimeouts{readHeaderTimeout, readTimeout, writeTimeout, idleTimeout}

// newHTTPServer returns an http.Server for h with every time limit set,
// so that no client can hold a connection open by being slow, and its
// connections bounded by a connTable of the server's limits.
func newHTTPServer(h http.Handler, t httpTimeouts) *http.Server {
	srv, _ := newHTTPServerConns(h, t, connLimit(maxConnections))
	return srv
}

// newHTTPServerConns is newHTTPServer holding at most max connections;
// it returns the table that counts them too.
func newHTTPServerConns(h http.Handler, t httpTimeouts, max int) (*http.Server, *connTable) {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: t.readHeader,
		ReadTimeout:       t.read,
		WriteTimeout:      t.write,
		IdleTimeout:       t.idle,
		MaxHeaderBytes:    maxRequestHeaderBytes,
	}
	table := newConnTable(max)
	table.install(srv)
	return srv, table
}

// maxRequestHeaderBytes bounds the headers of a request to the server:
// 8 KiB, what nginx reads in a line and Node.js took for years, holds a
// browser's headers, and the page sets no cookie. A connection still
// sending its headers holds what it has sent, so this bounds its memory
// too (maxConnBytes).
const maxRequestHeaderBytes = 8 << 10

// isLoopback reports whether a is a loopback address.
func isLoopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}
