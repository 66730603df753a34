package fetch

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// versioned serves a robots.txt with an ETag and a Last-Modified, answers
// 304 to a request whose If-None-Match or If-Modified-Since matches, and
// records the conditional headers of each request.
type versioned struct {
	mu       sync.Mutex
	body     string
	etag     string
	modified string
	header   []string // extra header lines of every answer
	got      []http.Header
	status   map[int]int
}

func (v *versioned) set(body, etag string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.body, v.etag = body, etag
}

func (v *versioned) handler(w http.ResponseWriter, r *http.Request) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.got = append(v.got, r.Header.Clone())
	if v.status == nil {
		v.status = map[int]int{}
	}
	for i := 0; i+1 < len(v.header); i += 2 {
		w.Header().Set(v.header[i], v.header[i+1])
	}
	if v.etag != "" {
		w.Header().Set("ETag", v.etag)
	}
	if v.modified != "" {
		w.Header().Set("Last-Modified", v.modified)
	}
	inm, ims := r.Header.Get("If-None-Match"), r.Header.Get("If-Modified-Since")
	if (inm != "" && inm == v.etag) || (inm == "" && ims != "" && ims == v.modified) {
		v.status[304]++
		w.WriteHeader(http.StatusNotModified)
		return
	}
	v.status[200]++
	_, _ = w.Write([]byte(v.body))
}

func (v *versioned) count(status int) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.status[status]
}

func (v *versioned) last() http.Header {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.got[len(v.got)-1]
}

// An expired copy with an ETag is refreshed with If-None-Match; the 304
// renews it: the same parse, a new lifetime, one request and no body.
func TestCacheConditionalRefreshRenewsTheCopy(t *testing.T) {
	v := &versioned{body: rules, etag: `"r1"`, header: []string{"Cache-Control", "max-age=600"}}
	s := serve(t, v.handler)
	clock := newFakeClock()
	c := newTestCache(t, clock, CacheOptions{})
	first := pageGetter(t, c, s.URL+"/a")()
	assert.Empty(t, v.last().Get("If-None-Match"), "the first fetch is not conditional")

	clock.Advance(10 * time.Minute)
	renewed := pageGetter(t, c, s.URL+"/a")()
	assert.Equal(t, `"r1"`, v.last().Get("If-None-Match"))
	assert.Equal(t, 1, v.count(304))
	assert.Equal(t, 1, v.count(200))
	assert.Same(t, first.Robots, renewed.Robots, "a 304 keeps the parse")
	assert.Equal(t, Conditional, renewed.Policy)
	assert.Equal(t, 200, renewed.Status, "the copy is the 200's")
	assert.Equal(t, clock.Now(), renewed.FetchedAt)
	assert.Equal(t, 10*time.Minute, renewed.Lifetime(), "the 304's Cache-Control sets the lifetime")
	assert.False(t, renewed.Agent("FooBot").Allowed("/x"))

	// A new version is a 200: it replaces the copy.
	clock.Advance(10 * time.Minute)
	v.set("User-agent: *\nDisallow: /new\n", `"r2"`)
	changed := pageGetter(t, c, s.URL+"/a")()
	assert.Equal(t, 2, v.count(200))
	assert.NotSame(t, first.Robots, changed.Robots)
	assert.False(t, changed.Agent("x").Allowed("/new"))
	assert.Equal(t, int64(3), c.Stats().Fetches, "a 304 is a fetch")
}

// Without Cache-Control on the 304, the copy keeps its lifetime. A
// Last-Modified is sent as If-Modified-Since.
func TestCacheConditionalRefreshKeepsLifetime(t *testing.T) {
	v := &versioned{body: rules, modified: "Tue, 01 Jan 2030 00:00:00 GMT"}
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-Modified-Since") == "" {
			w.Header().Set("Cache-Control", "max-age=120")
		}
		v.handler(w, r)
	})
	clock := newFakeClock()
	c := newTestCache(t, clock, CacheOptions{})
	pageGetter(t, c, s.URL+"/a")()
	clock.Advance(2 * time.Minute)
	renewed := pageGetter(t, c, s.URL+"/a")()
	assert.Equal(t, v.modified, v.last().Get("If-Modified-Since"))
	assert.Empty(t, v.last().Get("If-None-Match"))
	assert.Equal(t, 1, v.count(304))
	assert.Equal(t, 2*time.Minute, renewed.Lifetime())
}

// The validators go only with the request for the URL they came from:
// after a redirect, the final hop's.
func TestCacheConditionalRefreshAfterRedirect(t *testing.T) {
	v := &versioned{body: rules, etag: `"r1"`, header: []string{"Cache-Control", "max-age=60"}}
	var robotsHeaders []http.Header
	var mu sync.Mutex
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		robotsHeaders = append(robotsHeaders, r.Header.Clone())
		mu.Unlock()
		http.Redirect(w, r, "/real.txt", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/real.txt", v.handler)
	s := serve(t, mux.ServeHTTP)
	clock := newFakeClock()
	c := newTestCache(t, clock, CacheOptions{})
	first := pageGetter(t, c, s.URL+"/a")()
	clock.Advance(time.Minute)
	renewed := pageGetter(t, c, s.URL+"/a")()
	assert.Same(t, first.Robots, renewed.Robots)
	assert.Equal(t, 1, v.count(304))
	require.Len(t, robotsHeaders, 2)
	assert.Empty(t, robotsHeaders[1].Get("If-None-Match"), "not sent to /robots.txt")
	assert.Equal(t, `"r1"`, v.last().Get("If-None-Match"))
}

// A validator longer than maxValidatorBytes is not kept: the refresh is
// unconditional.
func TestCacheDropsLongValidators(t *testing.T) {
	for _, n := range []int{maxValidatorBytes, maxValidatorBytes + 1} {
		v := &versioned{body: rules, etag: `"` + strings.Repeat("e", n-2) + `"`, header: []string{"Cache-Control", "max-age=60"}}
		s := serve(t, v.handler)
		clock := newFakeClock()
		c := newTestCache(t, clock, CacheOptions{})
		pageGetter(t, c, s.URL+"/a")()
		clock.Advance(time.Minute)
		pageGetter(t, c, s.URL+"/a")()
		if n <= maxValidatorBytes {
			assert.Equal(t, 1, v.count(304), "an ETag of %d bytes is sent", n)
		} else {
			assert.Empty(t, v.last().Get("If-None-Match"), "an ETag of %d bytes is not", n)
			assert.Equal(t, 2, v.count(200))
		}
	}
}

// Only a definite 2xx has validators: a failure's are not kept, and the
// good copy's survive it.
func TestCacheConditionalRefreshAfterFailure(t *testing.T) {
	v := &versioned{body: rules, etag: `"r1"`, header: []string{"Cache-Control", "max-age=60"}}
	failing := false
	var mu sync.Mutex
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		f := failing
		mu.Unlock()
		if f {
			w.Header().Set("ETag", `"error-page"`)
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		v.handler(w, r)
	})
	clock := newFakeClock()
	c := newTestCache(t, clock, CacheOptions{})
	first := pageGetter(t, c, s.URL+"/a")()
	clock.Advance(time.Minute)
	mu.Lock()
	failing = true
	mu.Unlock()
	stale := pageGetter(t, c, s.URL+"/a")()
	assert.True(t, stale.Stale)
	clock.Advance(stale.Expires.Sub(clock.Now()))
	mu.Lock()
	failing = false
	mu.Unlock()
	back := pageGetter(t, c, s.URL+"/a")()
	assert.Equal(t, `"r1"`, v.last().Get("If-None-Match"))
	assert.Equal(t, 1, v.count(304))
	assert.Same(t, first.Robots, back.Robots)
	assert.False(t, back.Stale)
	assert.True(t, back.FailingSince.IsZero())
}

// Fetch sends no validators, so a 304 to it still leads nowhere
// (TestFetchUnfollowableRedirectIsFullAllow); a conditional fetch's 304
// is the copy's renewal, not a policy.
func TestFetchConditional304(t *testing.T) {
	v := &versioned{body: rules, etag: `"r1"`}
	s := serve(t, v.handler)
	f := fetcher(t, nil).config()
	out, err := f.fetchFor(t.Context(), s.URL+"/robots.txt", time.Second,
		fetchRequest{cond: validators{url: s.URL + "/robots.txt", etag: `"r1"`}})
	require.NoError(t, err)
	assert.True(t, out.notModified)
	assert.Equal(t, 304, out.res.Status)
	assert.Equal(t, `"r1"`, out.valid.etag)

	out, err = f.fetchFor(t.Context(), s.URL+"/robots.txt", time.Second,
		fetchRequest{cond: validators{url: s.URL + "/other.txt", etag: `"r1"`}})
	require.NoError(t, err)
	assert.False(t, out.notModified, "validators of another URL are not sent")
	assert.Equal(t, 200, out.res.Status)
}
