package bench

import (
	"path"
	"strings"
	"testing"

	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/compile"
)

// The LongTail and Crawl benchmarks replay the crawl of the real corpus:
// every file with crawled URLs (crawled-urls.tsv.gz), each for one of the
// CrawlerAgents chosen by its file number. One op is one pass over all
// those files.

// crawlInputs holds a pass's files, prepared before any timing starts.
type crawlInputs struct {
	names, agents []string
	bodies        [][]byte
	inputs        [][]string // the crawled URLs in the form the library takes
	urls          int
}

func prepareCrawl(c *Corpus, lib Lib) *crawlInputs {
	in := &crawlInputs{
		names:  make([]string, len(c.Crawled)),
		agents: make([]string, len(c.Crawled)),
		bodies: make([][]byte, len(c.Crawled)),
		inputs: make([][]string, len(c.Crawled)),
	}
	for k, f := range c.Crawled {
		in.names[k], in.agents[k], in.bodies[k] = c.Name(f.File), CrawlerAgent(f.File), c.Body(f.File)
		in.inputs[k] = c.Inputs(k, lib)
		in.urls += len(in.inputs[k])
	}
	return in
}

// BenchmarkLongTail is the crawler meeting a site once: per file, parse,
// resolve the agent and check the file's first crawled URL, with OneShot
// (the cheapest way each library offers). It reports files (per op),
// ns/file and the panics recovered per op.
func BenchmarkLongTail(b *testing.B) {
	benchSites(b, false, func(lib Lib, in *crawlInputs, k int, st *Stats) {
		RunOneShot(lib, in.names[k], in.bodies[k], in.agents[k], in.inputs[k][0], st)
	})
}

// BenchmarkCrawl is the crawler working through a site: per file, parse,
// resolve the agent and check every crawled URL of the file (Parse,
// Compile, Allowed, as RunFile does). It reports files and urls (per op),
// ns/url, and the panics recovered and files refused per op.
func BenchmarkCrawl(b *testing.B) {
	benchSites(b, true, func(lib Lib, in *crawlInputs, k int, st *Stats) {
		RunFile(lib, in.names[k], in.bodies[k], in.agents[k], in.inputs[k], st)
	})
}

// BenchmarkCrawlRepeat is Crawl with each site crawled twice in a row, as
// if met again at once: the second time its file and URLs are in the
// caches and the processor's branch history is the site's. Repeat less
// Crawl is what a site costs once the machine is warm to it; Crawl less
// that, what meeting it cold adds (docs/benchmarks.md, "Where a crawl's
// time goes").
func BenchmarkCrawlRepeat(b *testing.B) {
	benchSites(b, true, func(lib Lib, in *crawlInputs, k int, st *Stats) {
		for range 2 {
			RunFile(lib, in.names[k], in.bodies[k], in.agents[k], in.inputs[k], st)
		}
	})
}

// benchSites runs site for every file of the crawl, per op, for every
// library, and reports the files (and the URLs, when every URL is checked).
func benchSites(b *testing.B, allURLs bool, site func(lib Lib, in *crawlInputs, k int, st *Stats)) {
	c := needCorpus(b)
	for _, lib := range Libs() {
		b.Run(lib.Name(), func(b *testing.B) {
			in := prepareCrawl(c, lib)
			b.ReportAllocs()
			b.ResetTimer()
			var st Stats
			for range b.N {
				for k := range in.bodies {
					site(lib, in, k, &st)
				}
			}
			b.StopTimer()
			urls := 0
			if allURLs {
				urls = in.urls
			}
			reportCrawl(b, &st, len(in.bodies), urls)
		})
	}
}

// reportCrawl reports a pass's size (files, and when urls > 0 the URLs
// with the time per URL and the files refused) and the panics, per op.
func reportCrawl(b *testing.B, st *Stats, files, urls int) {
	n := float64(b.N)
	perOp := float64(b.Elapsed().Nanoseconds()) / n
	b.ReportMetric(float64(files), "files")
	b.ReportMetric(perOp/float64(files), "ns/file")
	if urls > 0 {
		b.ReportMetric(float64(urls), "urls")
		b.ReportMetric(perOp/float64(urls), "ns/url")
		b.ReportMetric(float64(st.Errors)/n, "errors")
	}
	b.ReportMetric(float64(st.Panics)/n, "panics")
	if st.Panics > 0 {
		b.Logf("%d panics per pass, first in %v", st.Panics/b.N, st.PanicFiles)
	}
}

// BenchmarkCrawlTiers times the tiers of a rule set (package compile) on
// the crawl's busiest sites, those with 1,000 crawled URLs or more, an op
// being a pass over the site's URLs on a new rule set of the crawled
// agent: cold (its first checks, on the cold index), compiled (the first
// pass once its automaton is built, which builds the states the paths
// need) and warm (a pass on the states a first pass built). It reports
// ns/url; compile.HotAfter is chosen from them.
func BenchmarkCrawlTiers(b *testing.B) {
	c := needCorpus(b)
	in := prepareCrawl(c, fastrobotsLib{})
	for k, urls := range in.inputs {
		if len(urls) < 1000 {
			continue
		}
		f := compile.Parse(in.bodies[k], compile.Options{})
		sel := f.Resolve(in.agents[k])
		name := strings.TrimSuffix(path.Base(in.names[k]), ".txt")
		pass := func(rs *compile.RuleSet) {
			for _, u := range urls {
				rs.Allowed(u, "", "")
			}
		}
		perURL := func(b *testing.B) {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(urls)), "ns/url")
		}
		// A new rule set each op, made outside the timer; compiled, when
		// compiled is set.
		fresh := func(tier string, compiled bool) {
			b.Run(tier+"/"+name, func(b *testing.B) {
				for range b.N {
					b.StopTimer()
					rs := f.Compile(sel, automaton.Options{})
					if compiled {
						rs.Set()
					}
					b.StartTimer()
					pass(rs)
				}
				perURL(b)
			})
		}
		fresh("cold", false)
		fresh("compiled", true)
		b.Run("warm/"+name, func(b *testing.B) {
			rs := f.Compile(sel, automaton.Options{})
			rs.Set()
			pass(rs)
			b.ResetTimer()
			for range b.N {
				pass(rs)
			}
			perURL(b)
		})
	}
}
