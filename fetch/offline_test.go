package fetch_test

import (
	"bufio"
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/fetch"
)

// offlineFetcher returns a Fetcher whose every connection attempt is
// counted in dials and fails: an offline cache must never make one.
func offlineFetcher(dials *atomic.Int64) *fetch.Fetcher {
	tr := &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
		dials.Add(1)
		return nil, errors.New("an offline cache dialled")
	}}
	return &fetch.Fetcher{Client: &http.Client{Transport: tr}}
}

// storedFile is a robots.txt saved earlier and the URLs a batch asks of it.
type storedFile struct {
	origin string
	body   []byte
	urls   []string
}

// licensedFiles reads the repository's licensed corpus (testdata/corpus)
// as a batch job's stored files: each under an origin of its own, with
// URLs made from its rules (each rule's literal start, and below it) and
// the home page.
func licensedFiles(t *testing.T) []storedFile {
	t.Helper()
	dir := filepath.Join("..", "testdata", "corpus")
	f, err := os.Open(filepath.Join(dir, "manifest.tsv"))
	require.NoError(t, err)
	defer f.Close()
	var files []storedFile
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		name := strings.SplitN(sc.Text(), "\t", 2)[0]
		body, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		origin := "https://" + strings.TrimSuffix(filepath.Base(name), ".txt") + ".example.com"
		urls := []string{origin + "/"}
		for _, g := range robots.Parse(body).Groups() {
			for _, r := range g.Rules {
				lit, _, _ := strings.Cut(strings.TrimLeft(r.Pattern, "/"), "*")
				lit = strings.TrimSuffix(lit, "$")
				urls = append(urls, origin+"/"+lit, origin+"/"+lit+"x/y?z=1")
			}
		}
		files = append(files, storedFile{origin, body, urls})
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, files)
	return files
}

// TestOfflineBatchNeverDials checks 1,000,000 URLs of stored files
// fetched years ago through an offline Checker: every verdict is the
// file's own (robots.Parse), every answer is marked stale, and nothing
// dials. Without Offline, the same cache would fetch every origin again.
// Under the race detector, which makes a check some hundred times slower
// and finds nothing in one goroutine's checks, 10,000 of them.
func TestOfflineBatchNeverDials(t *testing.T) {
	checks := 1_000_000
	const agent = "Googlebot"
	var dials atomic.Int64
	cache := fetch.NewCache(offlineFetcher(&dials), fetch.CacheOptions{Offline: true, MaxMemory: -1})
	fetchedAt := time.Date(2021, 2, 1, 0, 0, 0, 0, time.UTC)
	files := licensedFiles(t)
	type question struct {
		url  string
		want bool
	}
	if fetch.RaceEnabled {
		checks = 10_000
	}
	var qs []question
	for i, f := range files {
		res, err := cache.Put(f.origin+"/", http.StatusOK, f.body, fetchedAt)
		require.NoError(t, err)
		require.True(t, res.Stale, "%s: an answer seeded five years ago is stale", f.origin)
		if len(qs) >= checks && i%50 != 0 {
			continue // enough questions: one file in 50 still asked about
		}
		bot := robots.Parse(f.body).Agent(agent)
		for _, u := range f.urls {
			qs = append(qs, question{u, bot.Allowed(u)})
		}
	}
	checker := fetch.NewChecker(cache)
	ctx := context.Background()
	allowed := 0
	for i := range checks {
		q := qs[i%len(qs)]
		if checks < len(qs) {
			q = qs[i*len(qs)/checks] // spread over every file asked about
		}
		got, err := checker.Allowed(ctx, agent, q.url)
		if err != nil || got != q.want {
			t.Fatalf("Allowed(%q) = %v, %v; the stored file says %v", q.url, got, err, q.want)
		}
		if got {
			allowed++
		}
	}
	v, err := checker.Decide(ctx, agent, qs[0].url)
	require.NoError(t, err)
	assert.True(t, v.Result.Stale)
	assert.Zero(t, dials.Load(), "connections attempted")
	assert.Zero(t, cache.Stats().Fetches)
	t.Logf("%d stored files, %d distinct URLs, %d checks (%d allowed), 0 dials", len(files), len(qs), checks, allowed)
}

// TestOfflineNotSeeded: an origin the job never stored is an error the
// caller can test, through every door, and not a verdict.
func TestOfflineNotSeeded(t *testing.T) {
	var dials atomic.Int64
	cache := fetch.NewCache(offlineFetcher(&dials), fetch.CacheOptions{Offline: true})
	_, err := cache.Put("https://seeded.example/", http.StatusOK, []byte("User-agent: *\nDisallow: /x\n"), time.Now())
	require.NoError(t, err)
	checker := fetch.NewChecker(cache)
	ctx := context.Background()

	ok, err := checker.Allowed(ctx, "Googlebot", "https://other.example/page")
	assert.ErrorIs(t, err, fetch.ErrNotSeeded)
	assert.False(t, ok)
	_, err = checker.Decide(ctx, "Googlebot", "https://other.example/page")
	assert.ErrorIs(t, err, fetch.ErrNotSeeded)
	_, err = cache.Get(ctx, "https://other.example/page")
	assert.ErrorIs(t, err, fetch.ErrNotSeeded)
	_, err = checker.AllowedBatch(ctx, "Googlebot", []string{"https://seeded.example/a", "https://other.example/b"}, nil)
	assert.ErrorIs(t, err, fetch.ErrNotSeeded)

	ok, err = checker.Allowed(ctx, "Googlebot", "https://seeded.example/x")
	require.NoError(t, err)
	assert.False(t, ok)
	res, err := cache.Get(ctx, "https://seeded.example/")
	require.NoError(t, err)
	assert.False(t, res.Stale, "an answer seeded now is within its lifetime")
	assert.Zero(t, dials.Load())
}

// TestOnlineCacheRefetchesOldSeeds is the behaviour Offline exists for:
// a cache that may fetch treats an answer seeded long ago as expired and
// goes to the network for it.
func TestOnlineCacheRefetchesOldSeeds(t *testing.T) {
	var dials atomic.Int64
	cache := fetch.NewCache(offlineFetcher(&dials), fetch.CacheOptions{})
	_, err := cache.Put("https://seeded.example/", http.StatusOK, []byte("User-agent: *\nDisallow: /x\n"), time.Date(2021, 2, 1, 0, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	_, err = fetch.NewChecker(cache).Allowed(context.Background(), "Googlebot", "https://seeded.example/a")
	require.NoError(t, err) // a failed fetch is an answer
	assert.NotZero(t, dials.Load())
}
