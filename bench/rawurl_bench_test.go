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
	files []crawledRun
	urls  int
}

// crawledRun is the URLs of one file, with its agent.
type crawledRun struct {
	agent *robots.Agent
	urls  []string
	paths []string // runtime.Path of each URL
}

func loadCrawledChecks(b *testing.B) *crawledChecks {
	c := needCorpus(b)
	w := &crawledChecks{}
	for k, f := range c.Crawled {
		run := crawledRun{agent: robots.Parse(c.Body(f.File)).Agent(NamedAgent).Compile(), urls: c.URLs(k)}
		for _, u := range run.urls {
			run.agent.Allowed(u)
			run.paths = append(run.paths, runtime.Path(u))
		}
		w.files = append(w.files, run)
		w.urls += len(run.urls)
	}
	return w
}

// BenchmarkCrawledURLs checks every crawled URL of the corpus per op,
// warm, each way a crawler may ask: AllowedPath given the path, the
// reference; Allowed given the raw URL, which finds the path; AllowedMany
// given each file's URLs at once. Origin is the origins' cost alone.
// ns/URL and cpu-ns/URL are the figures to compare, the second on a
// loaded machine.
//
//	go test -run '^$' -bench CrawledURLs -count 8 .
func BenchmarkCrawledURLs(b *testing.B) {
	w := loadCrawledChecks(b)
	// perURL starts the clock of the process's CPU time and returns what
	// reports the figures per URL: ns/URL of the wall clock, and
	// cpu-ns/URL, which does not count the time the process waits for a
	// core and is the steadier on a loaded machine.
	perURL := func(b *testing.B) func() {
		cpu0, hasCPU := processCPU()
		return func() {
			n := float64(b.N) * float64(w.urls)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/URL")
			if cpu1, _ := processCPU(); hasCPU {
				b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/n, "cpu-ns/URL")
			}
		}
	}
	b.Run("AllowedPath", func(b *testing.B) {
		m, report := 0, perURL(b)
		for b.Loop() {
			for _, f := range w.files {
				for _, p := range f.paths {
					if f.agent.AllowedPath(p) {
						m++
					}
				}
			}
		}
		sink += m
		report()
	})
	b.Run("Allowed", func(b *testing.B) {
		m, report := 0, perURL(b)
		for b.Loop() {
			for _, f := range w.files {
				for _, u := range f.urls {
					if f.agent.Allowed(u) {
						m++
					}
				}
			}
		}
		sink += m
		report()
	})
	b.Run("AllowedMany", func(b *testing.B) {
		out, report := make([]bool, w.urls), perURL(b)
		for b.Loop() {
			for _, f := range w.files {
				f.agent.AllowedMany(f.urls, out)
			}
		}
		report()
	})
	b.Run("Origin", func(b *testing.B) {
		m, report := 0, perURL(b)
		for b.Loop() {
			for _, f := range w.files {
				for _, u := range f.urls {
					if o, err := robots.Origin(u); err == nil {
						m += len(o)
					}
				}
			}
		}
		sink += m
		report()
	})
}
