package redisstore_test

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
)

// TestMain keeps go-redis from logging every failed dial of the tests
// that stop Redis on purpose.
func TestMain(m *testing.M) {
	redis.SetLogger(quiet{})
	os.Exit(m.Run())
}

type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}

// redisServer is a redis-server the tests run on a free loopback port,
// with a temporary directory of its own and no persistence, stopped when
// the test ends. It can be killed and started again on the same port.
type redisServer struct {
	path string
	port int
	dir  string
	args []string // more arguments of redis-server

	mu   sync.Mutex
	cmd  *exec.Cmd
	logs bytes.Buffer
}

// startRedis starts a redis-server for tb. Without one on the PATH the
// test is skipped, naming the Debian package to install; under CI=true it
// fails instead.
func startRedis(tb testing.TB, args ...string) *redisServer {
	tb.Helper()
	s := &redisServer{path: lookPath(tb, "redis-server"), port: freePort(tb), dir: tb.TempDir(), args: args}
	s.start(tb)
	tb.Cleanup(s.kill)
	return s
}

// lookPath returns the path of a program of the Debian package
// redis-server (redis-server, redis-cli). Without it the test is skipped
// with a line naming this package and the Debian package; under CI=true
// it fails instead.
func lookPath(tb testing.TB, program string) string {
	tb.Helper()
	path, err := exec.LookPath(program)
	if err != nil {
		msg := "fetch/redisstore: " + program + " not found: install the Debian package redis-server (apt-get install -y redis-server)"
		if os.Getenv("CI") == "true" {
			tb.Fatal(msg)
		}
		tb.Skip(msg)
	}
	return path
}

// freePort returns a loopback port nothing listens on.
func freePort(tb testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(tb, err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func (s *redisServer) addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// start runs redis-server and waits until it answers PING.
func (s *redisServer) start(tb testing.TB) {
	tb.Helper()
	cmd := exec.Command(s.path, append([]string{
		"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1", "--dir", s.dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no"}, s.args...)...)
	s.mu.Lock()
	cmd.Stdout, cmd.Stderr = &s.logs, &s.logs
	require.NoError(tb, cmd.Start())
	s.cmd = cmd
	s.mu.Unlock()

	c := redis.NewClient(&redis.Options{Addr: s.addr(), DialTimeout: 100 * time.Millisecond, MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			s.kill()
			tb.Fatalf("redis-server on %s did not answer: %v\n%s", s.addr(), err, s.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill stops the server at once (SIGKILL), as a crash would.
func (s *redisServer) kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

// client returns a client of the server configured as the package doc
// advises, closed when the test ends.
func (s *redisServer) client(tb testing.TB) *redis.Client {
	c := redis.NewClient(&redis.Options{
		Addr:                  s.addr(),
		ContextTimeoutEnabled: true,
		DialTimeout:           100 * time.Millisecond,
		DialerRetries:         1,
	})
	tb.Cleanup(func() { _ = c.Close() })
	return c
}
