package bench

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/fetch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// syntheticCorpus returns a corpus of the given bodies, named
// files/00000.txt and on, the first len(crawled) of which were crawled
// with the given URLs.
func syntheticCorpus(bodies []string, crawled [][]string) *Corpus {
	c := &Corpus{}
	var names, urls strings.Builder
	for i, b := range bodies {
		fmt.Fprintf(&names, "files/%05d.txt", i)
		c.nameEnds = append(c.nameEnds, int32(names.Len()))
		c.bodies = append(c.bodies, b...)
		c.bodyEnds = append(c.bodyEnds, int64(len(c.bodies)))
		c.Bytes += int64(len(b))
	}
	c.names = names.String()
	for k, list := range crawled {
		f := CrawledFile{File: k, start: int32(urls.Len())}
		for _, u := range list {
			urls.WriteString(u)
			f.ends = append(f.ends, int32(urls.Len()))
		}
		c.Crawled = append(c.Crawled, f)
		c.CrawledURLs += len(list)
	}
	c.urls = urls.String()
	return c
}

// smallCorpus is 40 files, three of them crawled on four origins (a.test
// over both schemes), with ten URLs that have an origin and two that have
// none.
func smallCorpus() *Corpus {
	bodies := make([]string, 40)
	for i := range bodies {
		bodies[i] = fmt.Sprintf("User-agent: *\nDisallow: /%d/\n", i)
	}
	return syntheticCorpus(bodies, [][]string{
		{"https://a.test/x", "https://a.test/y?q=1", "http://a.test/z"},
		{"https://b.test", "not a URL", "https://b.test/p#frag"},
		{"https://c.test/1", "https://c.test/2", "https://c.test/%zz", "https://c.test/3", "https://c.test/4", "https://c.test/5"},
	})
}

// TestFrontierWorkloadShape checks a small frontier's counts and order,
// and when the corpus is present, the benchmarks' full one: exactly the
// shape's URLs and origins, the crawled origins with their own URLs in
// their order, the made-up ones with distinct unused files and re-hosted
// URLs, and the polite frontier's turns (checkFrontier).
func TestFrontierWorkloadShape(t *testing.T) {
	t.Run("small", func(t *testing.T) {
		c := smallCorpus()
		shape := FrontierShape{URLs: 300, Origins: 30, Seed: 7}
		f, err := NewFrontier(c, shape)
		require.NoError(t, err)
		checkFrontier(t, c, f, shape)
		assert.Equal(t, 2, f.Skipped, "the URLs without an origin")
		var real []string
		for _, o := range f.Origins[:4] {
			real = append(real, o.Origin)
		}
		assert.Equal(t, []string{"https://a.test", "http://a.test", "https://b.test", "https://c.test"}, real)
		assert.Equal(t, []int{2, 1, 2, 5}, []int{f.Origins[0].URLs, f.Origins[1].URLs, f.Origins[2].URLs, f.Origins[3].URLs})
		suffixes := map[string]bool{"/x": true, "/y?q=1": true, "/z": true, "": true, "/p#frag": true,
			"/1": true, "/2": true, "/3": true, "/4": true, "/5": true}
		for i, u := range f.URLs {
			o := f.Origins[f.OriginOf[i]]
			if o.MadeUp {
				assert.True(t, suffixes[strings.TrimPrefix(u, o.Origin)], "%s: not a crawled URL re-hosted", u)
			}
		}
		again, err := NewFrontier(c, shape)
		require.NoError(t, err)
		assert.Equal(t, f.URLs, again.URLs, "the same shape gives the same frontier")
		other, err := NewFrontier(c, FrontierShape{URLs: 300, Origins: 30, Seed: 8})
		require.NoError(t, err)
		assert.NotEqual(t, f.URLs, other.URLs, "another seed serves them otherwise")
	})
	t.Run("impossible", func(t *testing.T) {
		c := smallCorpus()
		_, err := NewFrontier(c, FrontierShape{URLs: 300, Origins: 3})
		assert.Error(t, err, "fewer origins than were crawled")
		_, err = NewFrontier(c, FrontierShape{URLs: 20, Origins: 30})
		assert.Error(t, err, "fewer URLs than made-up origins")
	})
	t.Run("full", func(t *testing.T) {
		if testing.Short() {
			t.Skip("loads the corpus")
		}
		c, err := LoadCorpus()
		if errors.Is(err, fs.ErrNotExist) {
			t.Skipf("corpus absent: %v", err)
		}
		require.NoError(t, err)
		f, err := NewFrontier(c, FrontierFull)
		require.NoError(t, err)
		checkFrontier(t, c, f, FrontierFull)
		real := 0
		for _, o := range f.Origins {
			if !o.MadeUp {
				real++
			}
		}
		assert.Equal(t, 1278, real, "the crawled origins")
		assert.Equal(t, 0, f.Skipped, "crawled URLs without an origin")
	})
}

// checkFrontier checks f against its shape and its corpus.
func checkFrontier(t *testing.T, c *Corpus, f *Frontier, shape FrontierShape) {
	t.Helper()
	require.Len(t, f.URLs, shape.URLs)
	require.Len(t, f.OriginOf, shape.URLs)
	require.Len(t, f.Origins, shape.Origins)
	queues := make([][]string, len(f.Origins))
	for i, u := range f.URLs {
		o := f.OriginOf[i]
		queues[o] = append(queues[o], u)
		origin, err := robots.Origin(u)
		if assert.NoError(t, err, u) {
			assert.Equal(t, f.Origins[o].Origin, origin, u)
		}
	}
	crawled := crawledByOrigin(c)
	usedFiles := map[int]bool{}
	madeUp := 0
	for i, o := range f.Origins {
		assert.Equal(t, o.URLs, len(queues[i]), o.Origin)
		assert.NotZero(t, o.URLs, o.Origin)
		if !o.MadeUp {
			assert.Zero(t, madeUp, "%s: a crawled origin after a made-up one", o.Origin)
			assert.Equal(t, crawled[o.Origin], queues[i], "%s: its crawled URLs, in their order", o.Origin)
			usedFiles[o.File] = true
			continue
		}
		madeUp++
		assert.Equal(t, fmt.Sprintf("https://h%04d.example", madeUp), o.Origin)
		assert.False(t, usedFiles[o.File], "%s: file %d is another origin's", o.Origin, o.File)
		usedFiles[o.File] = true
		body, ok := f.Body(strings.TrimPrefix(o.Origin, "https://"))
		assert.True(t, ok && string(body) == string(c.Body(o.File)), "%s: Body is not its file", o.Origin)
	}
	checkTurns(t, f)
}

// crawledByOrigin returns the crawled URLs that have an origin, by origin,
// in the crawled order.
func crawledByOrigin(c *Corpus) map[string][]string {
	out := map[string][]string{}
	for k := range c.Crawled {
		for _, u := range c.URLs(k) {
			if origin, _, ok := originAndHost(u); ok {
				out[origin] = append(out[origin], u)
			}
		}
	}
	return out
}

// checkTurns checks that f serves its origins in turn: the first round
// meets every origin once, each later round meets the origins that have
// URLs left in the first round's order, and so no origin comes twice in a
// row while another has URLs left.
func checkTurns(t *testing.T, f *Frontier) {
	t.Helper()
	n := len(f.Origins)
	first := f.OriginOf[:n]
	seen := make([]bool, n)
	for _, o := range first {
		require.False(t, seen[o], "origin %d twice in the first round", o)
		seen[o] = true
	}
	var want []int32
	for round := 0; len(want) < len(f.URLs); round++ {
		for _, o := range first {
			if f.Origins[o].URLs > round {
				want = append(want, o)
			}
		}
	}
	require.Equal(t, want, f.OriginOf, "the rounds")
	left := make([]int, n)
	others := 0 // origins with URLs left
	for o := range f.Origins {
		left[o] = f.Origins[o].URLs
		others++
	}
	for i, o := range f.OriginOf {
		if i > 0 && o == f.OriginOf[i-1] {
			require.Equal(t, 1, others, "URL %d: origin %d twice in a row while others have URLs left", i, o)
		}
		if left[o]--; left[o] == 0 {
			others--
		}
	}
}

// crawlerCases are URLs of three sites with the verdict every crawler
// must give for FrontierAgent.
var crawlerCases = []struct {
	url     string
	allowed bool
}{
	{"https://a.test/private/x.html", false},
	{"https://a.test/public/x.html", true},
	{"https://a.test", true},
	{"https://b.test/x.html", false},
	{"https://c.test/docs/x.pdf", false},
	{"https://c.test/docs/x.pdf.html", true},
	{"https://c.test/search?q=go", false},
	{"https://c.test/searching", true},
}

var crawlerBodies = []string{
	"User-agent: *\nDisallow: /private/\n",
	"User-agent: ExampleBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
	"User-agent: *\nDisallow: /*.pdf$\nDisallow: /search?\n",
}

// TestFrontierCrawlersAgree checks every library's crawler on three sites
// whose verdicts are obvious, so that a broken crawler is not silently
// measured; fastrobots' Checker and Transport fetch each robots.txt from
// the frontier's loopback server once, and keep it.
func TestFrontierCrawlersAgree(t *testing.T) {
	var urls [][]string
	for _, host := range []string{"a.test", "b.test", "c.test"} {
		var list []string
		for _, c := range crawlerCases {
			if strings.HasPrefix(c.url, "https://"+host) {
				list = append(list, c.url)
			}
		}
		urls = append(urls, list)
	}
	corpus := syntheticCorpus(crawlerBodies, urls)
	f, err := NewFrontier(corpus, FrontierShape{URLs: len(crawlerCases), Origins: 3})
	require.NoError(t, err)
	srv := newFrontierServer(f)
	t.Cleanup(srv.srv.Close)
	checker := fetch.NewChecker(fetch.NewCache(&fetch.Fetcher{Client: srv.client()}, fetch.CacheOptions{}))
	crawlers := map[string]FrontierCrawler{
		"fastrobots":           NewCheckerCrawler(checker),
		"fastrobots/transport": NewTransportCrawler(checker),
		"temoto":               NewTemotoCrawler(f.Body),
		"slyrz":                NewSlyrzCrawler(f.Body),
		"grobotstxt":           NewGrobotstxtCrawler(f.Body),
	}
	for _, name := range slices.Sorted(maps.Keys(crawlers)) {
		for _, c := range crawlerCases {
			got, err := crawlers[name].Allowed(c.url)
			if assert.NoError(t, err, "%s: %s", name, c.url) {
				assert.Equal(t, c.allowed, got, "%s: %s", name, c.url)
			}
		}
		var tally FrontierTally
		RunFrontier(crawlers[name], f.URLs, 0, 1, &tally)
		assert.Equal(t, FrontierTally{URLs: len(crawlerCases), Disallowed: 4}, tally, name)
	}
	assert.Equal(t, int64(3), checker.Cache().Stats().Fetches, "each origin fetched once")
	assert.Zero(t, srv.missing.Load(), "requests for a robots.txt the server has not")
	_, err = NewTemotoCrawler(f.Body).Allowed("https://unknown.test/")
	assert.ErrorIs(t, err, errNoRobots)
}

// panicky panics on URLs that hold "boom".
type panicky struct{}

func (panicky) Allowed(rawURL string) (bool, error) {
	if strings.Contains(rawURL, "boom") {
		panic("boom")
	}
	if strings.Contains(rawURL, "bad") {
		return false, errors.New("bad")
	}
	return !strings.Contains(rawURL, "no"), nil
}

// TestRunFrontierCountsAndRecovers checks RunFrontier's tally, a panic
// recovered and the pass going on after it, and the turns of a stride.
func TestRunFrontierCountsAndRecovers(t *testing.T) {
	urls := []string{"/a", "/boom", "/no", "/bad", "/boom", "/b", "/no"}
	var all FrontierTally
	RunFrontier(panicky{}, urls, 0, 1, &all)
	assert.Equal(t, FrontierTally{URLs: 7, Disallowed: 2, Errors: 1, Panics: 2}, all)
	var even, odd FrontierTally
	RunFrontier(panicky{}, urls, 0, 2, &even) // /a /no /boom /no
	RunFrontier(panicky{}, urls, 1, 2, &odd)  // /boom /bad /b
	assert.Equal(t, FrontierTally{URLs: 4, Disallowed: 2, Panics: 1}, even)
	assert.Equal(t, FrontierTally{URLs: 3, Errors: 1, Panics: 1}, odd)
}
