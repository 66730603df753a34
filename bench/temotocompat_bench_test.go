package bench

import (
	"net/url"
	"testing"

	compat "github.com/fastrobots/robots/compat/temoto"
	"github.com/temoto/robotstxt"
)

// BenchmarkTemotoCompat times, per op, what a temoto user does for a host
// it has not seen: parse testdata/realistic.txt, find NamedAgent's group,
// test one path (a different one of the 64 each op). temoto is
// github.com/temoto/robotstxt v1.1.2; compat is ../compat/temoto, its
// drop-in with Google's verdicts, through the same calls.
func BenchmarkTemotoCompat(b *testing.B) {
	body, paths := workload(b)
	b.Run("temoto", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for i := range b.N {
			r, err := robotstxt.FromBytes(body)
			if err != nil {
				b.Fatal(err)
			}
			if r.FindGroup(NamedAgent).Test(paths[i&63]) {
				n++
			}
		}
		sink += n
	})
	b.Run("compat", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for i := range b.N {
			r, err := compat.FromBytes(body)
			if err != nil {
				b.Fatal(err)
			}
			if r.FindGroup(NamedAgent).Test(paths[i&63]) {
				n++
			}
		}
		sink += n
	})
}

// collyCrawl is the crawl of the real corpus (crawl_test.go) as colly
// checks robots.txt through temoto's API: per URL, url.Parse, the parsed
// file looked up by host (parsed with FromBytes on the host's first URL),
// FindGroup(agent), and Test of the escaped path with the query
// re-encoded, u.EscapedPath()+"?"+u.Query().Encode().
type collyCrawl struct {
	agents []string
	bodies [][]byte
	urls   [][]string // absolute, as crawled
	n      int        // URLs in all
}

// prepareCollyCrawl reads the crawl's files, their agents and URLs. Each
// file is its own host: a host the URLs of two files share would make the
// second read the first's file, so the preparation fails on one.
func prepareCollyCrawl(b *testing.B, c *Corpus) *collyCrawl {
	cc := &collyCrawl{}
	owner := map[string]int{}
	for k, f := range c.Crawled {
		urls := c.URLs(k)
		for _, raw := range urls {
			if u, err := url.Parse(raw); err == nil {
				if o, ok := owner[u.Host]; ok && o != k {
					b.Fatalf("host %q has URLs in two files", u.Host)
				}
				owner[u.Host] = k
			}
		}
		cc.agents = append(cc.agents, CrawlerAgent(f.File))
		cc.bodies = append(cc.bodies, c.Body(f.File))
		cc.urls = append(cc.urls, urls)
		cc.n += len(urls)
	}
	return cc
}

// collyAPI is what the crawl calls of a temoto-shaped package; the parsed
// file is the package's *RobotsData.
type collyAPI struct {
	fromBytes func([]byte) (any, error)
	test      func(r any, agent, path string) bool // FindGroup(agent).Test(path)
}

// pass crawls every URL once with a map by host of its own, as a new
// crawler does; it returns the files the package refused to parse (a
// refused file is not parsed again: colly would fetch it again, which is
// not this benchmark's to time) and the URLs allowed.
func (cc *collyCrawl) pass(api collyAPI) (refused, allowed int) {
	byHost := map[string]any{}
	for k, urls := range cc.urls {
		for _, raw := range urls {
			u, err := url.Parse(raw)
			if err != nil {
				continue // colly stops at url.Parse too
			}
			r, seen := byHost[u.Host]
			if !seen {
				if r, err = api.fromBytes(cc.bodies[k]); err != nil {
					refused++
					r = nil
				}
				byHost[u.Host] = r
			}
			if r == nil {
				continue
			}
			eu := u.EscapedPath()
			if u.RawQuery != "" {
				eu += "?" + u.Query().Encode()
			}
			if api.test(r, cc.agents[k], eu) {
				allowed++
			}
		}
	}
	return refused, allowed
}

// BenchmarkTemotoCompatCrawl times, per op, the crawl of the real corpus
// through temoto's API as colly makes it (collyCrawl): temoto is
// github.com/temoto/robotstxt v1.1.2, compat is ../compat/temoto. It
// reports files and urls (per op), ns/url, and the files refused per op
// (errors), which are then skipped.
func BenchmarkTemotoCompatCrawl(b *testing.B) {
	cc := prepareCollyCrawl(b, needCorpus(b))
	apis := []struct {
		name string
		api  collyAPI
	}{
		{"temoto", collyAPI{
			fromBytes: func(body []byte) (any, error) { return robotstxt.FromBytes(body) },
			test: func(r any, agent, path string) bool {
				return r.(*robotstxt.RobotsData).FindGroup(agent).Test(path)
			},
		}},
		{"compat", collyAPI{
			fromBytes: func(body []byte) (any, error) { return compat.FromBytes(body) },
			test: func(r any, agent, path string) bool {
				return r.(*compat.RobotsData).FindGroup(agent).Test(path)
			},
		}},
	}
	for _, a := range apis {
		b.Run(a.name, func(b *testing.B) {
			b.ReportAllocs()
			var st Stats
			n := 0
			for range b.N {
				refused, allowed := cc.pass(a.api)
				st.Errors += refused
				n += allowed
			}
			sink += n
			reportCrawl(b, &st, len(cc.bodies), cc.n)
		})
	}
}
