package bench

import (
	"testing"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/runtime"
)

// crawledChecks is every crawled URL of the corpus with the agent of its
// file, NamedAgent resolved and compiled, each URL checked once: the warm
// state of a crawler that has met its hosts before. The URLs come file by
// file, as crawled.
type crawledChecks struct {
	agents []*robots.Agent // the agent of each URL
	urls   []string
	paths  []string // runtime.Path of each URL
	runs   []int    // the end of each file's URLs in urls
}

func loadCrawledChecks(b *testing.B) *crawledChecks {
	c := needCorpus(b)
	w := &crawledChecks{}
	for k, f := range c.Crawled {
		a := robots.Parse(c.Body(f.File)).Agent(NamedAgent).Compile()
		for _, u := range c.URLs(k) {
			a.Allowed(u)
			w.agents = append(w.agents, a)
			w.urls = append(w.urls, u)
			w.paths = append(w.paths, runtime.Path(u))
		}
		w.runs = append(w.runs, len(w.urls))
	}
	return w
}

// BenchmarkCrawledURLs checks the corpus's crawled URLs, warm, one per op,
// each way a crawler may ask: AllowedPath given the path, the reference;
// Allowed given the raw URL, which finds the path; AllowedMany given each
// file's URLs at once. Origin is the origin's cost alone.
//
//	go test -run '^$' -bench CrawledURLs -count 8 .
func BenchmarkCrawledURLs(b *testing.B) {
	w := loadCrawledChecks(b)
	n := len(w.urls)
	b.Run("AllowedPath", func(b *testing.B) {
		i, m := 0, 0
		for b.Loop() {
			if w.agents[i].AllowedPath(w.paths[i]) {
				m++
			}
			if i++; i == n {
				i = 0
			}
		}
		sink += m
	})
	b.Run("Allowed", func(b *testing.B) {
		i, m := 0, 0
		for b.Loop() {
			if w.agents[i].Allowed(w.urls[i]) {
				m++
			}
			if i++; i == n {
				i = 0
			}
		}
		sink += m
	})
	b.Run("Origin", func(b *testing.B) {
		i, m := 0, 0
		for b.Loop() {
			if o, err := robots.Origin(w.urls[i]); err == nil {
				m += len(o)
			}
			if i++; i == n {
				i = 0
			}
		}
		sink += m
	})
}
