package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServeBusyIsA503WithRetryAfter(t *testing.T) {
	assert.Equal(t, 2, retryAfterSeconds)
	s := newServer(serverConfig{heavySlots: 1, allowPrivate: true})
	ts := startHandler(t, s)
	origin, _ := countingOrigin(t, "User-agent: *\nDisallow: /a\n")
	rules := "User-agent: *\nDisallow: /a\n"
	bodies := map[string]string{
		"/api/check":   request(t, map[string]any{"robotstxt": rules, "urls": []string{"/a"}}),
		"/api/explain": request(t, map[string]any{"origin": origin.URL, "urls": []string{"/a"}}),
		"/api/lint":    request(t, map[string]any{"robotstxt": rules}),
		"/api/fetch":   request(t, map[string]any{"url": origin.URL + "/a"}),
	}
	release, err := s.admission.acquire() // the one slot, taken
	require.Nil(t, err)
	for path, body := range bodies {
		start := time.Now()
		resp := postRaw(t, ts, path, body)
		assert.Equal(t, http.StatusServiceUnavailable, resp.status, path)
		assert.Equal(t, strconv.Itoa(retryAfterSeconds), resp.retryAfter, path)
		assert.Equal(t, `{"error":"the server is busy with other requests: retry after 2 s"}`+"\n", resp.body, path)
		assert.Less(t, time.Since(start), time.Second, "%s: at once, not after a wait for a slot", path)
	}
	release()
	for path, body := range bodies {
		resp := postRaw(t, ts, path, body)
		assert.Equal(t, http.StatusOK, resp.status, "%s: the slot given back is taken by the next request: %s", path, resp.body)
	}
}

// worstCheck returns the check request of the most work maxWork admits,
// of heavyCheckRequest's shape: rules star rules, and as many URLs as
// fit, one more when over is set. It returns "" when those URLs are more
// than a request may hold.
func worstCheck(t *testing.T, rules int, factor int, over bool) (string, int) {
	t.Helper()
	body := heavyCheckRequest(t, rules, 1, 7)
	sh := shapeOfRequest(t, body)
	perURL := factor * (sh.robotsBytes + urlWork + sh.urlBytes)
	urls := (maxWork - sh.robotsBytes) / perURL
	if over {
		urls++
	}
	if urls > api.MaxURLs {
		return "", 0
	}
	body = heavyCheckRequest(t, rules, urls, 7)
	if len(body) > api.MaxRequestBytes {
		return "", 0
	}
	return body, workOf(shapeOfRequest(t, body), 0, factor)
}

// shapeOfRequest decodes a check request as the server does and returns
// its shape.
func shapeOfRequest(t *testing.T, body string) requestShape {
	t.Helper()
	var req struct {
		RobotsTxt *string  `json:"robotstxt"`
		URLs      []string `json:"urls"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &req))
	return shapeOf(&req)
}

// TestServeWorkBound: a check of the most work maxWork admits is
// answered, with no deadline to cut it; one URL more is refused with a
// 413 before any work, at once. On the server's own limits, with the
// rules of the worst case the tests know (star rules that outgrow the
// automaton's budget), it logs how long the largest check takes alone.
func TestServeWorkBound(t *testing.T) {
	assert.Equal(t, 2_000_000_000, maxWork)
	assert.Equal(t, 1_000, urlWork)
	ts := startHandler(t, newServer(serverConfig{}))
	for _, rules := range []int{23_000, 9_000} {
		body, work := worstCheck(t, rules, 1, false)
		require.NotEmpty(t, body, "%d rules: the bound is within a request's limits", rules)
		start := time.Now()
		resp := postRaw(t, ts, "/api/check", body)
		took := time.Since(start)
		assert.Equal(t, http.StatusOK, resp.status, "%d rules: %.200s", rules, resp.body)
		t.Logf("%d star rules, %d units: answered in %v alone", rules, work, took)

		body, work = worstCheck(t, rules, 1, true)
		start = time.Now()
		resp = postRaw(t, ts, "/api/check", body)
		assert.Equal(t, http.StatusRequestEntityTooLarge, resp.status, "%d rules", rules)
		assert.Equal(t, "", resp.retryAfter, "retrying would not help")
		assert.Contains(t, resp.body, fmt.Sprintf("the request is %d units of work, more than the %d one request may do", work, maxWork))
		assert.Less(t, time.Since(start), took, "refused before the work, which took %v", took)
	}
	// The worst explanation: every rule of the file matches every URL.
	rules := "User-agent: *\n" + strings.Repeat("allow:/\n", 63_998)
	n := (maxWork - len(rules)) / (explainWorkFactor * (len(rules) + urlWork + 1))
	body := request(t, map[string]any{"robotstxt": rules, "urls": slices.Repeat([]string{"/"}, n)})
	start := time.Now()
	resp := postRaw(t, ts, "/api/explain", body)
	assert.Equal(t, http.StatusOK, resp.status, "%.200s", resp.body)
	t.Logf("%d matching rules, %d URLs explained, %d units: answered in %v alone", 63_998, n,
		workOf(requestShape{urls: n, urlBytes: n, robotsBytes: len(rules)}, 0, explainWorkFactor), time.Since(start))
	body = request(t, map[string]any{"robotstxt": rules, "urls": slices.Repeat([]string{"/"}, n+1)})
	assert.Equal(t, http.StatusRequestEntityTooLarge, postRaw(t, ts, "/api/explain", body).status)
}

// Each endpoint's work is counted from what its request holds: the URLs,
// the robots.txt as text, in base64 or fetched, and explain's factor.
func TestServeWorkOfEachEndpoint(t *testing.T) {
	assert.Equal(t, 128, explainWorkFactor)
	ts := startHandler(t, newServer(serverConfig{allowPrivate: true}))
	rules := strings.Repeat("Disallow: /a*b*c*d\n", 20_000)
	urls := func(n int) []string { return slices.Repeat([]string{"/abcd"}, n) }
	// The most URLs of five bytes that check against the file within
	// maxWork, and explain.
	in := (maxWork - len(rules)) / (len(rules) + urlWork + 5)
	inExplain := (maxWork - len(rules)) / (explainWorkFactor * (len(rules) + urlWork + 5))
	for _, tt := range []struct {
		name, path string
		body       map[string]any
		status     int
	}{
		{"check at the bound", "/api/check", map[string]any{"robotstxt": rules, "urls": urls(in)}, http.StatusOK},
		{"check over", "/api/check", map[string]any{"robotstxt": rules, "urls": urls(in + 1)}, http.StatusRequestEntityTooLarge},
		{"base64 over", "/api/check", map[string]any{"robotstxt_b64": base64.StdEncoding.EncodeToString([]byte(rules)), "urls": urls(in + 1)}, http.StatusRequestEntityTooLarge},
		{"explain at the bound", "/api/explain", map[string]any{"robotstxt": rules, "urls": urls(inExplain)}, http.StatusOK},
		{"explain over", "/api/explain", map[string]any{"robotstxt": rules, "urls": urls(inExplain + 1)}, http.StatusRequestEntityTooLarge},
		{"lint of 760,000 bytes", "/api/lint", map[string]any{"robotstxt": strings.Repeat(rules, 2)}, http.StatusOK},
	} {
		resp := postRaw(t, ts, tt.path, request(t, tt.body))
		assert.Equal(t, tt.status, resp.status, "%s: %.200s", tt.name, resp.body)
	}
	origin, _ := countingOrigin(t, rules)
	for _, tt := range []struct {
		n      int
		status int
	}{{in, http.StatusOK}, {in + 1, http.StatusRequestEntityTooLarge}} {
		resp := postRaw(t, ts, "/api/check", request(t, map[string]any{"origin": origin.URL, "urls": urls(tt.n)}))
		assert.Equal(t, tt.status, resp.status, "the fetched robots.txt counts: %d URLs: %.200s", tt.n, resp.body)
	}
}

// TestServeAdmittedChecksAreAnswered: six checks of the most work
// maxWork admits, at once, beside a busy loop on each core. The server
// takes as many as it has slots and tells the others at once to come
// back (503, Retry-After), before any work; each one admitted runs to
// its end and is answered, however long its share of the cores makes it
// take, within the bound: a few times what it takes alone.
func TestServeAdmittedChecksAreAnswered(t *testing.T) {
	body, _ := worstCheck(t, 23_000, 1, false)
	ts := startHandler(t, newServer(serverConfig{}))
	start := time.Now()
	require.Equal(t, http.StatusOK, postRaw(t, ts, "/api/check", body).status)
	alone := time.Since(start)

	stop := make(chan struct{})
	var spin sync.WaitGroup
	for range runtime.NumCPU() {
		spin.Go(func() {
			for n := 0; ; n++ {
				if n%1024 == 0 {
					select {
					case <-stop:
						return
					default:
					}
				}
			}
		})
	}
	defer func() { close(stop); spin.Wait() }()

	answers := make([]rawAnswer, 6)
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
	var slowest503 time.Duration
	for i, a := range answers {
		switch a.status {
		case http.StatusOK:
			ok++
			assert.Contains(t, a.body, `"results":[`, "request %d", i)
			assert.Less(t, a.took, 10*alone+5*time.Second, "request %d: admitted, it runs to its end within the bound", i)
		case http.StatusServiceUnavailable:
			assert.Equal(t, strconv.Itoa(retryAfterSeconds), a.retryAfter, "request %d: %s", i, a.body)
			slowest503 = max(slowest503, a.took)
		default:
			t.Errorf("request %d: status %d, %s", i, a.status, a.body)
		}
	}
	assert.GreaterOrEqual(t, ok, min(2, heavySlots()), "the admitted requests are answered")
	// Six at once on fewer slots: those that found none were told so,
	// rather than kept waiting for one.
	assert.Less(t, ok, len(answers), "some were refused at once")
	for i, a := range answers {
		if a.status == http.StatusOK {
			assert.Less(t, slowest503, a.took, "request %d: the 503s came before any work was done", i)
		}
	}
	t.Logf("alone %v; beside %d busy loops: %d of 6 answered, the others told to retry within %v", alone, runtime.NumCPU(), ok, slowest503)
	for i, a := range answers {
		t.Logf("request %d: %d in %v", i, a.status, a.took)
	}
}

// A request admitted is answered even when its work outlasts the
// server's read and write timeouts: they bound reading the request and
// writing the answer, not the work between.
func TestServeWorkOutlastsTheReadAndWriteTimeouts(t *testing.T) {
	body, _ := worstCheck(t, 23_000, 1, false)
	ln, err := listen("127.0.0.1:0")
	require.NoError(t, err)
	const short = 150 * time.Millisecond
	srv := newHTTPServer(newServer(serverConfig{}), httpTimeouts{readHeader: time.Second, read: short, write: short, idle: time.Second})
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	start := time.Now()
	resp := postRaw(t, "http://"+ln.Addr().String(), "/api/check", body)
	require.Equal(t, http.StatusOK, resp.status, resp.body)
	assert.Greater(t, time.Since(start), short, "the work took longer than the timeouts")
	assert.Contains(t, resp.body, `"results":[`)
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
	srv, table := newHTTPServerConns(h, serveTimeouts, connLimit(maxConnections))
	go func() { _ = srv.Serve(table.listen(ln, firstByteTimeout)) }() // as serve does
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

// shapeOf reads the requests of every endpoint, and anything else
// without a panic.
func TestServeShapeOf(t *testing.T) {
	text, b64, u := "User-agent: *\nDisallow: /\n", "AAAAAAAA", "https://example.com/"
	for _, tt := range []struct {
		dst  any
		want requestShape
	}{
		{&struct {
			RobotsTxt *string
			URLs      []string
		}{&text, []string{"/a", "/bc"}}, requestShape{urls: 2, urlBytes: 5, robotsBytes: len(text)}},
		{&struct{ RobotsTxtB64 *string }{&b64}, requestShape{robotsBytes: 6}},
		{&api.FetchRequest{URL: &u}, requestShape{urls: 1, urlBytes: 20}},
		{&api.FetchRequest{Origin: &u}, requestShape{urls: 1, urlBytes: 20}},
		{&struct {
			Origin *string
			URLs   []string
		}{&u, []string{"/a"}}, requestShape{urls: 1, urlBytes: 2}},
		{&struct {
			RobotsTxt string
			URLs      []int
			URL       int
		}{"x", []int{1}, 2}, requestShape{}},
		{nil, requestShape{}},
		{"a string", requestShape{}},
	} {
		assert.Equal(t, tt.want, shapeOf(tt.dst), "%#v", tt.dst)
	}
}
