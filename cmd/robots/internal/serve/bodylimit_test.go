package serve

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A body over api.MaxRequestBytes gets a 413 however it is sent: with a
// Content-Length or chunked, by a client that reads the answer while it
// sends (net/http's) or by one that sends its whole body first.
func TestServeBodyOverTheLimitIs413HoweverSent(t *testing.T) {
	base := startHandler(t, newServer(serverConfig{}))
	addr := strings.TrimPrefix(base, "http://")
	body := append([]byte(`{"robotstxt":"","urls":["/"]}`), bytes.Repeat([]byte(" "), 20<<20)...)
	want := fmt.Sprintf(`{"error":"request body larger than %d bytes"}`+"\n", api.MaxRequestBytes)
	client := &http.Client{Timeout: time.Minute}
	for _, tt := range []struct {
		name string
		body io.Reader
	}{
		{"net/http, Content-Length", bytes.NewReader(body)},
		{"net/http, chunked", io.MultiReader(bytes.NewReader(body))}, // a reader of unknown length
	} {
		resp, err := client.Post(base+"/api/check", "application/json", tt.body)
		require.NoError(t, err, tt.name)
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err, tt.name)
		assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode, tt.name)
		assert.Equal(t, want, string(b), tt.name)
	}
	for _, chunked := range []bool{false, true} {
		name := fmt.Sprintf("sent whole before reading, chunked %v", chunked)
		resp, err := sendWholeThenRead(addr, body, chunked)
		require.NoError(t, err, "%s: no answer", name)
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err, name)
		assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode, name)
		assert.Equal(t, want, string(b), name)
		assert.True(t, resp.Close, "%s: the connection is closed after the answer", name)
	}
}

// A body declared larger than the limit is refused before it is read: a
// client that waits for "100 Continue" gets the 413 in its place.
func TestServeRefusesADeclaredLargeBodyBeforeReadingIt(t *testing.T) {
	base := startHandler(t, newServer(serverConfig{}))
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
	_, err = fmt.Fprintf(conn, "POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"+
		"Content-Length: %d\r\nExpect: 100-continue\r\n\r\n", api.MaxRequestBytes+1)
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode, "the answer, not 100 Continue")
	assert.True(t, resp.Close)
}

// sendWholeThenRead posts body to /api/check on a connection of its own,
// writing every byte before it reads the answer, as many simple clients
// do.
func sendWholeThenRead(addr string, body []byte, chunked bool) (*http.Response, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(time.Minute)); err != nil {
		return nil, err
	}
	w := bufio.NewWriter(conn)
	fmt.Fprint(w, "POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n")
	if chunked {
		fmt.Fprint(w, "Transfer-Encoding: chunked\r\n\r\n")
		for rest := body; len(rest) > 0; {
			n := min(len(rest), 64<<10)
			fmt.Fprintf(w, "%x\r\n%s\r\n", n, rest[:n])
			rest = rest[n:]
		}
		fmt.Fprint(w, "0\r\n\r\n")
	} else {
		fmt.Fprint(w, "Content-Length: "+strconv.Itoa(len(body))+"\r\n\r\n")
		w.Write(body)
	}
	if err := w.Flush(); err != nil {
		return nil, fmt.Errorf("sending: %w", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body = io.NopCloser(bytes.NewReader(b))
	return resp, err
}

// A refused body is read for drainTimeout at most: a client that
// declares a body it does not send is closed on after that.
func TestServeDrainTimeout(t *testing.T) {
	require.Equal(t, 10*time.Second, drainTimeout)
	base := startHandler(t, newServer(serverConfig{drainTimeout: 300 * time.Millisecond}))
	resp, closed := declareBodyAndWait(t, base, api.MaxRequestBytes+1)
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	assert.GreaterOrEqual(t, closed, 300*time.Millisecond, "the server waited for the body it refused")
	assert.Less(t, closed, drainTimeout, "and closed after its drain timeout, not the default")
}

// A body declared larger than maxDrainBytes is not read at all: the
// connection is closed right after the 413.
func TestServeMaxDrainBytes(t *testing.T) {
	require.Equal(t, 32<<20, maxDrainBytes)
	base := startHandler(t, newServer(serverConfig{}))
	resp, closed := declareBodyAndWait(t, base, maxDrainBytes+1)
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	assert.Less(t, closed, drainTimeout/2, "closed without waiting for the body")
	// One that the server would read is waited for.
	resp, closed = declareBodyAndWait(t, startHandler(t, newServer(serverConfig{drainTimeout: 300 * time.Millisecond})), maxDrainBytes)
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	assert.GreaterOrEqual(t, closed, 300*time.Millisecond)
}

// declareBodyAndWait sends the headers of a check whose body has size
// bytes, sends none of it, and returns the answer and how long after the
// headers were sent the server closed the connection. The clock starts
// before the headers go, not at the answer: the server's wait for the body
// starts when it reads them, which may be before the answer is read here,
// so a clock started at the answer could read less than the server waited.
func declareBodyAndWait(t *testing.T, base string, size int) (*http.Response, time.Duration) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(time.Minute)))
	start := time.Now()
	_, err = fmt.Fprintf(conn, "POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", size)
	require.NoError(t, err)
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	require.NoError(t, err)
	_, err = io.ReadAll(resp.Body)
	require.NoError(t, err)
	_, err = br.ReadByte()
	require.ErrorIs(t, err, io.EOF, "the server closes the connection")
	return resp, time.Since(start)
}

// The bodies held at once are bounded by their declared sizes: once two
// connections sending bodies of 1 MiB slowly hold a budget of 2 MiB, a
// third request is answered 503 with Retry-After at once, before its
// body is read; when one of them is done, it is served.
func TestServeBodyMemory(t *testing.T) {
	assert.Equal(t, 256<<20, maxBodyMemory)
	s := newServer(serverConfig{bodyMemory: 2 * api.MaxRequestBytes})
	base := startHandler(t, s)
	addr := strings.TrimPrefix(base, "http://")
	body := []byte(`{"robotstxt":"","urls":["/"]}`)
	body = append(body, bytes.Repeat([]byte(" "), api.MaxRequestBytes-len(body))...)
	var slow []net.Conn
	for range 2 {
		conn, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		defer conn.Close()
		_, err = fmt.Fprintf(conn, "POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:1000])
		require.NoError(t, err)
		slow = append(slow, conn)
	}
	// A slow body takes its share of the budget when the server starts on
	// its request, which may be after a request sent later has taken its
	// own few bytes: the second slow body would then find 1 MiB minus those
	// bytes left and be refused, and every request after it be served. So
	// nothing else is sent before both slow bodies hold their share.
	deadline := time.Now().Add(10 * time.Second)
	for bodiesHeld(s) < 2*api.MaxRequestBytes && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	require.Equal(t, int64(2*api.MaxRequestBytes), bodiesHeld(s),
		"the budget held once both slow bodies are under way; their connections got: %s", answersSoFar(slow))

	small := `{"robotstxt":"","urls":["/"]}`
	start := time.Now()
	resp := clitest.PostRaw(t, base, "/api/check", small)
	assert.Equal(t, http.StatusServiceUnavailable, resp.Status, "the budget is spent: %s", resp.Body)
	assert.Equal(t, strconv.Itoa(retryAfterSeconds), resp.RetryAfter)
	assert.Contains(t, resp.Body, "the server is reading too many request bodies")
	assert.Less(t, time.Since(start), time.Second, "at once")

	_, err := slow[0].Write(body[1000:])
	require.NoError(t, err)
	require.NoError(t, slow[0].SetReadDeadline(time.Now().Add(30*time.Second)))
	answer, err := http.ReadResponse(bufio.NewReader(slow[0]), nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, answer.StatusCode, "the slow body, once sent, is answered")
	// The server gives the budget back just after it has written the
	// answer, which the client may read first: a request may still find it
	// spent for a moment.
	got := map[int]int{} // status (0: none) → requests
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		resp := clitest.PostRaw(t, base, "/api/check", small)
		if resp.Status == http.StatusOK {
			break
		}
		got[resp.Status]++
		if time.Now().After(deadline) {
			t.Fatalf("its budget is given back: no request was served in 10 s; by status they got %v, the last %q; the budget holds %d bytes",
				got, resp.Body, bodiesHeld(s))
		}
	}
}

// bodiesHeld returns the bytes of request bodies s holds.
func bodiesHeld(s *server) int64 {
	s.bodies.mu.Lock()
	defer s.bodies.mu.Unlock()
	return s.bodies.used
}

// answersSoFar returns what each of conns has been answered so far, if
// anything, waiting a little for it.
func answersSoFar(conns []net.Conn) string {
	var out []string
	for i, c := range conns {
		_ = c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		switch {
		case err == nil:
			b, _ := io.ReadAll(resp.Body)
			out = append(out, fmt.Sprintf("connection %d: %d %q", i, resp.StatusCode, b))
		case errors.Is(err, os.ErrDeadlineExceeded):
			out = append(out, fmt.Sprintf("connection %d: nothing yet", i))
		default:
			out = append(out, fmt.Sprintf("connection %d: %v", i, err))
		}
	}
	return strings.Join(out, "; ")
}

// slowOrigin serves a robots.txt of size bytes without a Content-Length:
// it sends held bytes at once, then waits for release before the rest.
// sent counts the requests that have sent their first held bytes.
func slowOrigin(t *testing.T, size, held int, release <-chan struct{}) (url string, sent *atomic.Int64) {
	t.Helper()
	sent = &atomic.Int64{}
	body := []byte("User-agent: *\nDisallow: /private\n" + strings.Repeat("# slowly sent\n", size/14+1))[:size]
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write(body[:held])
		http.NewResponseController(w).Flush()
		sent.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		_, _ = w.Write(body[held:])
	}))
	t.Cleanup(s.Close)
	return s.URL, sent
}

// Every byte a fetch brings in is held within the bound request bodies
// are held to: many concurrent fetches of a large robots.txt, sent
// slowly, hold at most the bound between them (those that find it spent
// are answered 503 with Retry-After, before they hold more), the heap
// grows by no more, and once the bodies come the fetches that held their
// share are answered; every byte taken is given back.
func TestServeFetchMemory(t *testing.T) {
	assert.Equal(t, 4, fetchHeldPerByte)
	assert.Equal(t, 64<<10, fetchBaseBytes)
	const bound, fetches, size, held = 16 << 20, 64, 500 << 10, 400 << 10
	release := make(chan struct{})
	origin, sent := slowOrigin(t, size, held, release)
	s := newServer(serverConfig{allowPrivate: true, bodyMemory: bound, heavySlots: fetches})
	base := startHandler(t, s)
	body := clitest.JSON(t, map[string]any{"url": origin + "/private"})

	before := serverMemory()
	answers := make(chan clitest.RawAnswer, fetches)
	for range fetches {
		go func() { answers <- clitest.PostRaw(t, base, "/api/fetch", body) }()
	}
	// Wait until nothing changes: each fetch is under way, its first
	// bytes held, or refused.
	var got []clitest.RawAnswer
	for last, still := -1, time.Now(); time.Since(still) < 500*time.Millisecond; {
		select {
		case a := <-answers:
			got = append(got, a)
		case <-time.After(10 * time.Millisecond):
		}
		if now := int(sent.Load()) + len(got); now != last {
			last, still = now, time.Now()
		}
	}
	grown := int64(serverMemory()) - int64(before)
	t.Logf("%d fetches sent their first %d KiB, %d answered before the rest; %d bytes of the bound held, the heap grew by %.1f MiB (bound %d MiB)",
		sent.Load(), held>>10, len(got), bodiesHeld(s), float64(grown)/(1<<20), bound>>20)
	assert.LessOrEqual(t, bodiesHeld(s), int64(bound))
	assert.Less(t, grown, int64(bound+4<<20), "the bytes held are within the bound")
	assert.NotEmpty(t, got, "some found the bound spent")
	close(release)
	for range fetches - len(got) {
		got = append(got, <-answers)
	}
	ok := 0
	for _, a := range got {
		if a.Status == http.StatusOK {
			ok++
			assert.Contains(t, a.Body, `"allowed":false`)
			continue
		}
		assert.Equal(t, http.StatusServiceUnavailable, a.Status, a.Body)
		assert.Equal(t, strconv.Itoa(retryAfterSeconds), a.RetryAfter)
		assert.Contains(t, a.Body, "the server holds too many fetched robots.txt bodies")
	}
	t.Logf("%d of %d answered, the others told to retry", ok, fetches)
	assert.Positive(t, ok, "the fetches that held their share are answered")
	require.Eventually(t, func() bool { return bodiesHeld(s) == 0 }, 10*time.Second, 10*time.Millisecond,
		"every byte taken is given back")
}

// TestServeFetchMemoryFull is the full figure of fetched bodies: 2,000
// concurrent fetches of a robots.txt of 500 KiB whose last 100 KiB come
// only once every fetch has its first 400 KiB or was refused, against
// robots serve in a process of its own (--allow-private, its own memory
// bound of 256 MiB). It logs the server's resident memory at its peak and
// how many fetches were answered. It runs with
//
//	ROBOTS_ATTACK_FULL=1 go test -count=1 -v -run TestServeFetchMemoryFull ./cmd/robots
func TestServeFetchMemoryFull(t *testing.T) {
	if os.Getenv("ROBOTS_ATTACK_FULL") == "" {
		t.Skip("the full figure runs with ROBOTS_ATTACK_FULL=1")
	}
	const fetches, size, held = 2000, 500 << 10, 400 << 10
	raiseFileLimit(t, 3*fetches+1000)
	release := make(chan struct{})
	origin, sent := slowOrigin(t, size, held, release)
	base, rss := startServeProcess(t, "--allow-private")
	body := clitest.JSON(t, map[string]any{"url": origin + "/private"})
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true, MaxConnsPerHost: 0}, Timeout: 5 * time.Minute}
	answers := make(chan int, fetches)
	for range fetches {
		go func() {
			resp, err := client.Post(base+"/api/fetch", "application/json", strings.NewReader(body))
			if err != nil {
				answers <- 0
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			answers <- resp.StatusCode
		}()
	}
	got := map[int]int{}
	n := 0
	for last, still := -1, time.Now(); time.Since(still) < 2*time.Second; {
		select {
		case s := <-answers:
			got[s]++
			n++
		case <-time.After(10 * time.Millisecond):
		}
		if now := int(sent.Load()) + n; now != last {
			last, still = now, time.Now()
		}
	}
	t.Logf("%d fetches sent their first %d KiB, %d answered before the rest (%v); server memory %s", sent.Load(), held>>10, n, got, rss())
	close(release)
	for ; n < fetches; n++ {
		got[<-answers]++
	}
	t.Logf("all answered: by status %v; server memory %s", got, rss())
	assert.Zero(t, got[0], "every fetch got an answer")
}
