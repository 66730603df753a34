package warctest

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Server serves files over loopback with http.ServeContent, so
// that Range and If-Range work as a static server's do, and breaks its
// responses as a test asks: cut (the connection closed after some bytes of
// the body), stalled (no more bytes after some), an ETag that changes, a
// server that ignores Range, a status.
type Server struct {
	*httptest.Server
	Mu       sync.Mutex
	Files    map[string][]byte // by path
	Status   map[string]int    // a path answered with this status
	Requests map[string]int    // requests seen, by path
	Ranges   []string          // the Range header of each request, "" for none
	Agents   map[string]bool   // User-Agent headers seen
	Conns    int               // connections accepted
	CutAt    []string          // the Range that resumes each broken response where it breaks

	// faults, read under Mu
	CutAfter    int                // bytes of body a broken response sends (0: none are broken)
	CutFirst    int                // the first cutFirst responses of a path are broken; <0 for all
	Stall       bool               // a broken response stalls rather than closing its connection
	IgnoreRange bool               // answer every request with the whole object
	ETag        func(n int) string // the ETag of a path's n-th response
}

// modTime is the Last-Modified of every file served.
var modTime = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)

// NewServer starts a Server on loopback, closed when the test ends.
func NewServer(t testing.TB) *Server {
	t.Helper()
	s := &Server{Files: map[string][]byte{}, Status: map[string]int{}, Requests: map[string]int{}, Agents: map[string]bool{}}
	s.ETag = func(int) string { return `"v1"` }
	s.Server = httptest.NewUnstartedServer(s)
	s.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			s.Mu.Lock()
			s.Conns++
			s.Mu.Unlock()
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// Add serves the local file at /name and returns its URL.
func (s *Server) Add(t testing.TB, name, local string) string {
	t.Helper()
	data, err := os.ReadFile(local)
	require.NoError(t, err)
	return s.AddData(name, data)
}

func (s *Server) AddData(name string, data []byte) string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.Files["/"+name] = data
	return s.URL + "/" + name
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.Mu.Lock()
	n := s.Requests[r.URL.Path]
	s.Requests[r.URL.Path]++
	s.Ranges = append(s.Ranges, r.Header.Get("Range"))
	s.Agents[r.Header.Get("User-Agent")] = true
	data, ok := s.Files[r.URL.Path]
	status := s.Status[r.URL.Path]
	broken := s.CutAfter > 0 && (s.CutFirst < 0 || n < s.CutFirst)
	cut, stall, ignore, etag := s.CutAfter, s.Stall, s.IgnoreRange, s.ETag(n)
	s.Mu.Unlock()
	switch {
	case status != 0:
		http.Error(w, http.StatusText(status), status)
		return
	case !ok:
		http.NotFound(w, r)
		return
	}
	if ignore {
		r.Header.Del("Range")
		r.Header.Del("If-Range")
	}
	if broken {
		var from int
		fmt.Sscanf(r.Header.Get("Range"), "bytes=%d-", &from)
		s.Mu.Lock()
		s.CutAt = append(s.CutAt, fmt.Sprintf("bytes=%d-", from+cut))
		s.Mu.Unlock()
	}
	w.Header().Set("ETag", etag)
	var rw http.ResponseWriter = w
	if broken {
		rw = &breakingWriter{ResponseWriter: w, left: cut, stall: stall, r: r}
	}
	http.ServeContent(rw, r, path.Base(r.URL.Path), modTime, bytes.NewReader(data))
}

// breakingWriter writes left bytes of a body, then closes the connection
// under it (the client reads an unexpected EOF) or, with stall, sends
// nothing more until the client gives up.
type breakingWriter struct {
	http.ResponseWriter
	left  int
	stall bool
	r     *http.Request
	done  bool
}

var errTestBroken = errors.New("connection broken by the test")

func (b *breakingWriter) Write(p []byte) (int, error) {
	if b.done {
		return 0, errTestBroken
	}
	if len(p) <= b.left {
		b.left -= len(p)
		return b.ResponseWriter.Write(p)
	}
	n, _ := b.ResponseWriter.Write(p[:b.left])
	b.done = true
	rc := http.NewResponseController(b.ResponseWriter)
	rc.Flush()
	if b.stall {
		select {
		case <-b.r.Context().Done():
		case <-time.After(10 * time.Second):
		}
		return n, errTestBroken
	}
	if conn, _, err := rc.Hijack(); err == nil {
		conn.Close()
	}
	return n, errTestBroken
}

// SetFaults sets the server's faults under its lock.
func (s *Server) SetFaults(f func(s *Server)) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	f(s)
}
