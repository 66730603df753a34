package main

import (
	"context"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServeBusyIsA503WithRetryAfter(t *testing.T) {
	s := newServer(serverConfig{heavySlots: 1, admissionWait: 50 * time.Millisecond, allowPrivate: true})
	ts := startHandler(t, s)
	origin, _ := countingOrigin(t, "User-agent: *\nDisallow: /a\n")
	rules := "User-agent: *\nDisallow: /a\n"
	bodies := map[string]string{
		"/api/check":   request(t, map[string]any{"robotstxt": rules, "urls": []string{"/a"}}),
		"/api/explain": request(t, map[string]any{"origin": origin.URL, "urls": []string{"/a"}}),
		"/api/lint":    request(t, map[string]any{"robotstxt": rules}),
		"/api/fetch":   request(t, map[string]any{"url": origin.URL + "/a"}),
	}
	release, err := s.admission.acquire(context.Background()) // the one slot, taken
	require.Nil(t, err)
	for path, body := range bodies {
		start := time.Now()
		resp := postRaw(t, ts, path, body)
		assert.Equal(t, http.StatusServiceUnavailable, resp.status, path)
		assert.Equal(t, strconv.Itoa(retryAfterSeconds), resp.retryAfter, path)
		assert.Equal(t, `{"error":"the server is busy with other requests: retry after 2 s"}`+"\n", resp.body, path)
		assert.Less(t, time.Since(start), 10*time.Second, "hang guard")
	}
	release()
	for path, body := range bodies {
		resp := postRaw(t, ts, path, body)
		assert.Equal(t, http.StatusOK, resp.status, "%s: the slot given back is taken by the next request: %s", path, resp.body)
	}
}

func TestServeDeadline503SaysWhenToRetry(t *testing.T) {
	s := apiServer(t, serverConfig{allowPrivate: true, requestTimeout: 100 * time.Millisecond})
	resp := postRaw(t, s.URL, "/api/check", request(t, map[string]any{"origin": hangingOrigin(t).URL, "urls": []string{"/"}}))
	assert.Equal(t, http.StatusServiceUnavailable, resp.status)
	assert.Equal(t, strconv.Itoa(retryAfterSeconds), resp.retryAfter)
}

func TestServeDeadlineIsCheckedAtEveryURL(t *testing.T) {
	// Fewer URLs than the server once checked the deadline after, each slow
	// to decide: the deadline still stops the request.
	s := apiServer(t, serverConfig{requestTimeout: 10 * time.Millisecond})
	body := heavyCheckRequest(t, 10_000, 1_000, 1)
	for _, path := range []string{"/api/check", "/api/explain"} {
		start := time.Now()
		resp := postRaw(t, s.URL, path, body)
		assert.Less(t, time.Since(start), 15*time.Second, "hang guard")
		assert.Equal(t, http.StatusServiceUnavailable, resp.status, "%s: %.100s", path, resp.body)
		assert.Equal(t, `{"error":"the request did not finish within the server's time limit"}`+"\n", resp.body)
	}
}

// TestServeUnderConcurrentHeavyRequests sends a burst of heavy checks at
// once: more work than the server can do within its deadline. Every
// request gets a status: 200 for those admitted, within the deadline, and
// 503 with Retry-After for the others; some are answered. With
// ROBOTS_HEAVY=1, 50 requests of 1 MiB at the server's own limits.
func TestServeUnderConcurrentHeavyRequests(t *testing.T) {
	n, rules, urls := 50, 10_000, 1_100
	heavy := os.Getenv("ROBOTS_HEAVY") != ""
	if heavy {
		rules, urls = 23_000, 9_000
	}
	body := heavyCheckRequest(t, rules, urls, 7)
	require.LessOrEqual(t, len(body), maxRequestBytes)
	cfg := serverConfig{}
	if !heavy {
		// A deadline ten times what one request takes alone here, whatever
		// the machine, its load or the race detector: the burst is
		// five times more work than fits in it on two cores.
		start := time.Now()
		require.Equal(t, http.StatusOK, postRaw(t, startHandler(t, newServer(cfg)), "/api/check", body).status)
		cfg = serverConfig{requestTimeout: 10 * time.Since(start), admissionWait: time.Second}
	}
	s := newServer(cfg)
	ts := startHandler(t, s)
	answers := make([]rawAnswer, n)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() {
			start := time.Now()
			answers[i] = postRaw(t, ts, "/api/check", body)
			answers[i].took = time.Since(start)
		})
	}
	wg.Wait()
	ok := 0
	for i, a := range answers {
		switch a.status {
		case http.StatusOK:
			ok++
			assert.Contains(t, a.body, `"results":[`, "request %d", i)
			// The answer is encoded within the deadline; sending it is
			// bounded by the write timeout.
			assert.Less(t, a.took, s.requestTimeout+writeTimeout, "request %d", i)
		case http.StatusServiceUnavailable:
			assert.Equal(t, strconv.Itoa(retryAfterSeconds), a.retryAfter, "request %d: %s", i, a.body)
		default:
			t.Errorf("request %d: status %d, %s", i, a.status, a.body)
		}
	}
	assert.Positive(t, ok, "the admitted requests are answered")
	t.Logf("%d of %d answered, the others told to retry", ok, n)
}

// heavyCheckRequest returns a check request of rules star rules over an
// eight-letter alphabet and urls random paths over it: each path is
// tried against many rules, and the rules outgrow the automaton's budget.
func heavyCheckRequest(t *testing.T, rules, urls int, seed uint64) string {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	letter := func() byte { return "abcdefgh"[r.IntN(8)] }
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for range rules {
		b.WriteString("Disallow: /")
		for k := range 4 {
			if k > 0 {
				b.WriteByte('*')
			}
			b.WriteByte(letter())
			b.WriteByte(letter())
		}
		b.WriteByte('\n')
	}
	list := make([]string, urls)
	for i := range list {
		p := []byte{'/'}
		for range 40 {
			p = append(p, letter())
		}
		list[i] = string(p)
	}
	return request(t, map[string]any{"robotstxt": b.String(), "urls": list})
}

// startHandler serves h on a loopback port and returns its URL.
func startHandler(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := newHTTPServer(h, serveTimeouts)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// rawAnswer is what a client got: a status, or an error when it got none.
type rawAnswer struct {
	status     int
	retryAfter string
	body       string
	took       time.Duration
}

// postRaw posts body as JSON to base+path on a connection of its own.
// A request that gets no status fails the test.
func postRaw(t *testing.T, base, path, body string) rawAnswer {
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: time.Minute}
	resp, err := client.Post(base+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Errorf("%s: no status: %v", path, err)
		return rawAnswer{}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Errorf("%s: answer cut: %v", path, err)
	}
	return rawAnswer{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), body: string(b)}
}
