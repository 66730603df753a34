package serve

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/internal/testkit/hostile"
	"github.com/fastrobots/robots/internal/testkit/worstcase"
)

func TestServeBusyIsA503WithRetryAfter(t *testing.T) {
	assert.Equal(t, 2, retryAfterSeconds)
	s := newServer(serverConfig{heavySlots: 1, allowPrivate: true})
	ts := startHandler(t, s)
	origin, _ := countingOrigin(t, "User-agent: *\nDisallow: /a\n")
	rules := "User-agent: *\nDisallow: /a\n"
	bodies := map[string]string{
		"/api/check":   clitest.JSON(t, map[string]any{"robotstxt": rules, "urls": []string{"/a"}}),
		"/api/explain": clitest.JSON(t, map[string]any{"origin": origin.URL, "urls": []string{"/a"}}),
		"/api/lint":    clitest.JSON(t, map[string]any{"robotstxt": rules}),
		"/api/fetch":   clitest.JSON(t, map[string]any{"url": origin.URL + "/a"}),
	}
	release, err := s.admission.acquire() // the one slot, taken
	require.Nil(t, err)
	for path, body := range bodies {
		start := time.Now()
		resp := clitest.PostRaw(t, ts, path, body)
		assert.Equal(t, http.StatusServiceUnavailable, resp.Status, path)
		assert.Equal(t, strconv.Itoa(retryAfterSeconds), resp.RetryAfter, path)
		assert.Equal(t, `{"error":"the server is busy with other requests: retry after 2 s"}`+"\n", resp.Body, path)
		assert.Less(t, time.Since(start), time.Second, "%s: after a short wait for a slot, not the work", path)
	}
	release()
	for path, body := range bodies {
		resp := clitest.PostRaw(t, ts, path, body)
		assert.Equal(t, http.StatusOK, resp.Status, "%s: the slot given back is taken by the next request: %s", path, resp.Body)
	}
}

// workCall is an api.Call that decodes a request body as the server does
// and records the work the endpoint asks to be admitted for; it stops the
// endpoint once the checks are counted, before any of them is made.
type workCall struct {
	body  []byte
	work  int64
	calls int
}

var errCounted = &api.Error{Status: http.StatusTeapot, Msg: "counted"}

func (c *workCall) Context() context.Context  { return context.Background() }
func (c *workCall) Decode(dst any) *api.Error { return api.DecodeBody(c.body, dst) }
func (c *workCall) FetchOrigin(string, []string, robots.Mode) (*api.Fetched, *api.Error) {
	return nil, errCounted
}

func (c *workCall) Admit(work int64) *api.Error {
	if c.calls == 0 {
		work = satAdd64(work, api.AnswerWork(len(c.body)))
	}
	c.calls++
	c.work = satAdd64(c.work, work)
	if c.calls == 2 { // the parse, then the checks: all is counted
		return errCounted
	}
	return nil
}

// admittedWork returns the work the server counts for a request to path
// with body, a robots.txt given as text: what its Admit compares with
// maxWork.
func admittedWork(t testing.TB, path, body string) int64 {
	t.Helper()
	c := &workCall{body: []byte(body)}
	_, err := api.Endpoints[path](c)
	require.True(t, err == errCounted || err == nil && path == "/api/lint", "%s: %v", path, err)
	return c.work
}

// mostAdmitted returns the request built by build(n) of the most URLs n
// (up to api.MaxURLs) whose work maxWork admits, and its work; with over, the
// one of a URL more. It returns "" when one URL is too much, or when the
// request of the most URLs passes api.MaxRequestBytes.
func mostAdmitted(t testing.TB, path string, build func(n int) string, over bool) (string, int64) {
	t.Helper()
	lo, hi := 0, api.MaxURLs+1 // lo is admitted, hi is not
	if admittedWork(t, path, build(api.MaxURLs)) <= maxWork {
		lo, hi = api.MaxURLs, api.MaxURLs+1
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if admittedWork(t, path, build(mid)) <= maxWork {
			lo = mid
		} else {
			hi = mid
		}
	}
	n := lo
	if over {
		n = hi
	}
	if n == 0 || n > api.MaxURLs {
		return "", 0
	}
	body := build(n)
	if len(body) > api.MaxRequestBytes {
		return "", 0
	}
	return body, admittedWork(t, path, body)
}

// worstCheck returns the check request of the most work maxWork admits,
// of heavyCheckRequest's shape: rules star rules, and as many URLs as
// fit, one more when over is set; "" when they are more than a request
// may hold.
func worstCheck(t *testing.T, rules int, over bool) (string, int64) {
	t.Helper()
	return mostAdmitted(t, "/api/check", func(n int) string { return heavyCheckRequest(t, rules, n, 7) }, over)
}

// TestServeWorkBound: a check of the most work maxWork admits is
// answered, with no deadline to cut it; one URL more is refused with a
// 413 before any work, at once. On the server's own limits, with the
// rules of the worst cases the tests know (star rules that outgrow the
// automaton's budget, and the hostile file whose every rule waits for the
// end of the path), it logs how long the largest check takes alone;
// BenchmarkServeWorstAdmitted measures every worst file.
func TestServeWorkBound(t *testing.T) {
	assert.Equal(t, int64(1_000_000_000), maxWork)
	ts := startHandler(t, newServer(serverConfig{}))
	dollar := string(hostile.Dollar().Body)
	for _, tt := range []struct {
		name  string
		build func(n int) string
	}{
		{"23,000 star rules", func(n int) string { return heavyCheckRequest(t, 23_000, n, 7) }},
		{"9,000 star rules", func(n int) string { return heavyCheckRequest(t, 9_000, n, 7) }},
		{"hostile dollar", func(n int) string {
			return clitest.JSON(t, map[string]any{"robotstxt": dollar, "urls": hostileURLs(hostile.Dollar(), n, 16)})
		}},
	} {
		body, work := mostAdmitted(t, "/api/check", tt.build, false)
		require.NotEmpty(t, body, "%s: the bound is within a request's limits", tt.name)
		start := time.Now()
		resp := clitest.PostRaw(t, ts, "/api/check", body)
		took := time.Since(start)
		assert.Equal(t, http.StatusOK, resp.Status, "%s: %.200s", tt.name, resp.Body)
		t.Logf("%s, %d units: answered in %v alone", tt.name, work, took)

		body, work = mostAdmitted(t, "/api/check", tt.build, true)
		if body == "" {
			t.Logf("%s: every URL a request may hold is admitted", tt.name)
			continue
		}
		start = time.Now()
		resp = clitest.PostRaw(t, ts, "/api/check", body)
		assert.Equal(t, http.StatusRequestEntityTooLarge, resp.Status, tt.name)
		assert.Equal(t, "", resp.RetryAfter, "retrying would not help")
		assert.Contains(t, resp.Body, fmt.Sprintf("the request is %d units of work, more than the %d one request may do", work, maxWork))
		assert.Less(t, time.Since(start), took, "refused before the work, which took %v", took)
	}
	// The worst explanation: every rule of the file matches every URL.
	rules := "User-agent: *\n" + strings.Repeat("allow:/\n", 63_998)
	explain := func(n int) string {
		return clitest.JSON(t, map[string]any{"robotstxt": rules, "urls": slices.Repeat([]string{"/"}, n)})
	}
	body, work := mostAdmitted(t, "/api/explain", explain, false)
	require.NotEmpty(t, body)
	start := time.Now()
	resp := clitest.PostRaw(t, ts, "/api/explain", body)
	assert.Equal(t, http.StatusOK, resp.Status, "%.200s", resp.Body)
	t.Logf("63,998 matching rules, %d units: explained in %v alone", work, time.Since(start))
	body, _ = mostAdmitted(t, "/api/explain", explain, true)
	assert.Equal(t, http.StatusRequestEntityTooLarge, clitest.PostRaw(t, ts, "/api/explain", body).Status)
}

// hostileURLs returns n paths of size bytes of the kind that hurts f,
// the worst one and random ones in turn.
func hostileURLs(f hostile.File, n, size int) []string {
	urls := make([]string, n)
	for i := range urls {
		urls[i] = f.Path(size, uint64(i%64))
	}
	return urls
}

// Each endpoint's work is counted from what its request holds and the
// file it names: the robots.txt as text, in base64 or fetched counts
// alike, an explanation costs more than a check, and a lint of the
// largest file is admitted.
func TestServeWorkOfEachEndpoint(t *testing.T) {
	ts := startHandler(t, newServer(serverConfig{allowPrivate: true}))
	rules := "User-agent: *\n" + strings.Repeat("Disallow: /a*b*c*d\n", 20_000)
	urls := func(n int) []string { return slices.Repeat([]string{"/abcd"}, n) }
	text := func(n int) string { return clitest.JSON(t, map[string]any{"robotstxt": rules, "urls": urls(n)}) }
	in := urlsAdmitted(t, "/api/check", text)
	inExplain := urlsAdmitted(t, "/api/explain", func(n int) string {
		return clitest.JSON(t, map[string]any{"robotstxt": rules, "urls": urls(n)})
	})
	require.Greater(t, in, 1)
	require.Greater(t, inExplain, 0)
	assert.Less(t, inExplain, in, "an explanation costs more than a check")
	b64 := base64.StdEncoding.EncodeToString([]byte(rules))
	assert.Equal(t, admittedWork(t, "/api/check", text(in))-api.AnswerWork(len(text(in))),
		admittedWork(t, "/api/check", clitest.JSON(t, map[string]any{"robotstxt_b64": b64, "urls": urls(in)}))-
			api.AnswerWork(len(clitest.JSON(t, map[string]any{"robotstxt_b64": b64, "urls": urls(in)}))),
		"the file counts alike as text or base64, but for the answer's bound")
	for _, tt := range []struct {
		name, path string
		body       map[string]any
		status     int
	}{
		{"check at the bound", "/api/check", map[string]any{"robotstxt": rules, "urls": urls(in)}, http.StatusOK},
		{"check over", "/api/check", map[string]any{"robotstxt": rules, "urls": urls(in + 1)}, http.StatusRequestEntityTooLarge},
		{"base64 over", "/api/check", map[string]any{"robotstxt_b64": b64, "urls": urls(in + 1)}, http.StatusRequestEntityTooLarge},
		{"explain at the bound", "/api/explain", map[string]any{"robotstxt": rules, "urls": urls(inExplain)}, http.StatusOK},
		{"explain over", "/api/explain", map[string]any{"robotstxt": rules, "urls": urls(inExplain + 1)}, http.StatusRequestEntityTooLarge},
		{"lint of 760,028 bytes", "/api/lint", map[string]any{"robotstxt": strings.Repeat(rules, 2)}, http.StatusOK},
	} {
		resp := clitest.PostRaw(t, ts, tt.path, clitest.JSON(t, tt.body))
		assert.Equal(t, tt.status, resp.Status, "%s: %.200s", tt.name, resp.Body)
	}
	origin, _ := countingOrigin(t, rules)
	var statuses []int
	for n := in - 20; n <= in+20; n += 20 {
		resp := clitest.PostRaw(t, ts, "/api/check", clitest.JSON(t, map[string]any{"origin": origin.URL, "urls": urls(n)}))
		statuses = append(statuses, resp.Status)
	}
	assert.Equal(t, []int{http.StatusOK, http.StatusOK, http.StatusRequestEntityTooLarge}, statuses[:3],
		"the fetched robots.txt counts as the text would, within the answer's bound of the body fetched")
}

// urlsAdmitted returns the most URLs of a request built by build that
// maxWork admits.
func urlsAdmitted(t *testing.T, path string, build func(n int) string) int {
	t.Helper()
	lo, hi := 0, api.MaxURLs+1
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if admittedWork(t, path, build(mid)) <= maxWork {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// TestServeAdmittedChecksAreAnswered: six checks of the most work
// maxWork admits, at once, beside a busy loop on each core. The server
// takes as many as it has slots and tells the others at once to come
// back (503, Retry-After), before any work; each one admitted runs to
// its end and is answered, however long its share of the cores makes it
// take, within the bound: a few times what it takes alone.
func TestServeAdmittedChecksAreAnswered(t *testing.T) {
	body, _ := worstCheck(t, 23_000, false)
	ts := startHandler(t, newServer(serverConfig{}))
	start := time.Now()
	require.Equal(t, http.StatusOK, clitest.PostRaw(t, ts, "/api/check", body).Status)
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

	answers := make([]clitest.RawAnswer, 6)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() {
			start := time.Now()
			answers[i] = clitest.PostRaw(t, ts, "/api/check", body)
			answers[i].Took = time.Since(start)
		})
	}
	wg.Wait()
	ok := 0
	var slowest503 time.Duration
	for i, a := range answers {
		switch a.Status {
		case http.StatusOK:
			ok++
			assert.Contains(t, a.Body, `"results":[`, "request %d", i)
			assert.Less(t, a.Took, 10*alone+5*time.Second, "request %d: admitted, it runs to its end within the bound", i)
		case http.StatusServiceUnavailable:
			assert.Equal(t, strconv.Itoa(retryAfterSeconds), a.RetryAfter, "request %d: %s", i, a.Body)
			slowest503 = max(slowest503, a.Took)
		default:
			t.Errorf("request %d: status %d, %s", i, a.Status, a.Body)
		}
	}
	assert.GreaterOrEqual(t, ok, min(2, heavySlots()), "the admitted requests are answered")
	// Six at once on fewer slots: those that found none were told so,
	// rather than kept waiting for one.
	assert.Less(t, ok, len(answers), "some were refused at once")
	for i, a := range answers {
		if a.Status == http.StatusOK {
			assert.Less(t, slowest503, a.Took, "request %d: the 503s came before any work was done", i)
		}
	}
	t.Logf("alone %v; beside %d busy loops: %d of 6 answered, the others told to retry within %v", alone, runtime.NumCPU(), ok, slowest503)
	for i, a := range answers {
		t.Logf("request %d: %d in %v", i, a.Status, a.Took)
	}
}

// A request admitted is answered even when its work outlasts the
// server's read and write timeouts: they bound reading the request and
// writing the answer, not the work between.
func TestServeWorkOutlastsTheReadAndWriteTimeouts(t *testing.T) {
	body, _ := worstCheck(t, 23_000, false)
	ln, err := listen("127.0.0.1:0")
	require.NoError(t, err)
	const short = 150 * time.Millisecond
	srv := newHTTPServer(newServer(serverConfig{}), httpTimeouts{readHeader: time.Second, read: short, write: short, idle: time.Second})
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	start := time.Now()
	resp := clitest.PostRaw(t, "http://"+ln.Addr().String(), "/api/check", body)
	require.Equal(t, http.StatusOK, resp.Status, resp.Body)
	assert.Greater(t, time.Since(start), short, "the work took longer than the timeouts")
	assert.Contains(t, resp.Body, `"results":[`)
}

// heavyCheckRequest returns a check request of rules star rules over an
// eight-letter alphabet and urls random paths over it: each path is
// tried against many rules, and the rules outgrow the automaton's budget.
func heavyCheckRequest(t testing.TB, rules, urls int, seed uint64) string {
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
	return clitest.JSON(t, map[string]any{"robotstxt": b.String(), "urls": list})
}

// startHandler serves h on a loopback port and returns its URL.
func startHandler(t testing.TB, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv, table := newHTTPServerConns(h, serveTimeouts, connLimit(maxConnections))
	go func() { _ = srv.Serve(table.listen(ln, firstByteTimeout)) }() // as serve does
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// A request's work is counted in 64 bits on every architecture: the
// hostile file of '$' rules and 10,000 short URLs, over four billion
// units, would wrap an int of 32 bits to a count under the bound (GOARCH=386
// admitted it, 32 times over); it is refused at once.
func TestServeWorkIsCountedIn64Bits(t *testing.T) {
	body := clitest.JSON(t, map[string]any{"robotstxt": string(hostile.Dollar().Body), "urls": hostileURLs(hostile.Dollar(), api.MaxURLs, 16)})
	require.Less(t, len(body), api.MaxRequestBytes)
	work := admittedWork(t, "/api/check", body)
	assert.Greater(t, work, int64(math.MaxUint32), "past what 32 bits hold")
	ts := startHandler(t, newServer(serverConfig{}))
	start := time.Now()
	resp := clitest.PostRaw(t, ts, "/api/check", body)
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.Status, "%.200s", resp.Body)
	assert.Contains(t, resp.Body, fmt.Sprintf("the request is %d units of work", work))
	assert.Less(t, time.Since(start), 5*time.Second, "refused before the work")
}

// realURLs returns n URLs of size bytes that follow the rules of body.
func realURLs(body []byte, n, size int) []string {
	paths := worstcase.RulePaths(body, "", 9)
	urls := make([]string, n)
	for i := range urls {
		urls[i] = paths(size, i)
	}
	return urls
}

// The largest real robots.txt of testdata/corpus (02270.txt, 852,930
// bytes, of which the 500 KiB Google reads hold 18,963 rules), with
// 10,000 URLs that follow its rules, is answered: given as text (its
// first 500 KiB, and URLs of 40 bytes, within the 1 MiB a request holds)
// and fetched (URLs of 80 bytes). With ../shared, the largest files of
// the shared corpus are answered too.
func TestServeAnswersALargeRealFile(t *testing.T) {
	body, err := os.ReadFile("../../../../testdata/corpus/files/02270.txt")
	require.NoError(t, err)
	files := map[string][]byte{"02270.txt": body}
	for name, b := range sharedCorpusFiles(t, "files/04789.txt", "files/13599.txt", "files/28814.txt", "files/01571.txt", "files/06018.txt") {
		files[name] = b
	}
	ts := startHandler(t, newServer(serverConfig{allowPrivate: true}))
	for name, body := range files {
		text := clitest.JSON(t, map[string]any{"robotstxt": string(body[:min(len(body), robots.MaxBytes)]), "urls": realURLs(body, api.MaxURLs, 40)})
		require.LessOrEqual(t, len(text), api.MaxRequestBytes, name)
		start := time.Now()
		resp := clitest.PostRaw(t, ts, "/api/check", text)
		require.Equal(t, http.StatusOK, resp.Status, "%s as text: %.300s", name, resp.Body)
		t.Logf("%s as text, 10,000 URLs: answered in %v, %d units", name, time.Since(start), admittedWork(t, "/api/check", text))

		origin, _ := countingOrigin(t, string(body))
		fetched := clitest.JSON(t, map[string]any{"origin": origin.URL, "urls": realURLs(body, api.MaxURLs, 80)})
		start = time.Now()
		resp = clitest.PostRaw(t, ts, "/api/check", fetched)
		require.Equal(t, http.StatusOK, resp.Status, "%s fetched: %.300s", name, resp.Body)
		t.Logf("%s fetched, 10,000 URLs: answered in %v", name, time.Since(start))
	}
}

// sharedCorpusFiles returns the files of ../shared's corpus archive that
// are named, or none when it is absent.
func sharedCorpusFiles(t *testing.T, names ...string) map[string][]byte {
	t.Helper()
	f, err := os.Open("../../../../../shared/corpus/robots-corpus.tar.gz")
	if err != nil {
		t.Logf("../shared's corpus is absent: %v", err)
		return nil
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	tr := tar.NewReader(zr)
	out := map[string][]byte{}
	for len(out) < len(names) {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if slices.Contains(names, h.Name) {
			b, err := io.ReadAll(tr)
			require.NoError(t, err)
			out[h.Name] = b
		}
	}
	return out
}

// Small requests that find every slot taken wait for one, in turn, rather
// than be told to come back: 200 clients sending small checks (100 URLs)
// at once on the server's own slots are all answered, when a request may
// wait as long as it takes; with the default wait, it logs how many were
// (a machine slowed down, as under the race detector, may tell some to
// come back after slotWait).
func TestServeSmallRequestsWaitForASlot(t *testing.T) {
	assert.Equal(t, 250*time.Millisecond, slotWait)
	assert.Equal(t, 256, maxWaiting)
	assert.Equal(t, maxWork/20, queueWork)
	var urls []string
	for i := range 100 {
		urls = append(urls, fmt.Sprintf("/drafts/%d", i))
	}
	body := clitest.JSON(t, map[string]any{"robotstxt": serveRules, "urls": urls})
	require.LessOrEqual(t, admittedWork(t, "/api/check", body), queueWork)
	const clients, each = 200, 20
	for _, wait := range []time.Duration{slotWait, time.Minute} {
		ts := startHandler(t, newServer(serverConfig{slotWait: wait}))
		statuses := make(chan int, clients*each)
		var wg sync.WaitGroup
		for range clients {
			wg.Go(func() {
				client := &http.Client{Timeout: 2 * time.Minute}
				for range each {
					resp, err := client.Post(ts+"/api/check", "application/json", strings.NewReader(body))
					if err != nil {
						t.Errorf("no answer: %v", err)
						return
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					statuses <- resp.StatusCode
				}
			})
		}
		wg.Wait()
		close(statuses)
		got := map[int]int{}
		for s := range statuses {
			got[s]++
		}
		t.Logf("a wait of %v: %d clients, %d small checks each, on %d slots: by status %v", wait, clients, each, heavySlots(), got)
		if wait != slotWait {
			assert.Equal(t, map[int]int{http.StatusOK: clients * each}, got)
		}
	}
}

// A small request waits for a slot at most slotWait, then is told to
// come back; a large one is told at once; and so is one past the
// maxWaiting already waiting.
func TestServeSlotWaitIsBounded(t *testing.T) {
	a := newAdmission(1, 100*time.Millisecond)
	release, err := a.acquire()
	require.Nil(t, err)
	start := time.Now()
	_, err = a.admit(context.Background(), queueWork)
	assert.Equal(t, errBusy, err)
	assert.GreaterOrEqual(t, time.Since(start), 100*time.Millisecond, "waited")
	start = time.Now()
	_, err = a.admit(context.Background(), queueWork+1)
	assert.Equal(t, errBusy, err)
	assert.Less(t, time.Since(start), 50*time.Millisecond, "a large request is told at once")
	// A slot given back goes to the one waiting.
	got := make(chan *api.Error)
	go func() {
		r, err := a.admit(context.Background(), 1)
		if err == nil {
			defer r()
		}
		got <- err
	}()
	time.Sleep(20 * time.Millisecond)
	release()
	assert.Nil(t, <-got)
	// Past maxWaiting, at once.
	a = newAdmission(1, time.Minute)
	release, err = a.acquire()
	require.Nil(t, err)
	defer release()
	a.waiting.Store(maxWaiting)
	start = time.Now()
	_, err = a.admit(context.Background(), 1)
	assert.Equal(t, errBusy, err)
	assert.Less(t, time.Since(start), 50*time.Millisecond)
}
