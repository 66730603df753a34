package bench

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"

	"github.com/fastrobots/robots"
)

// FrontierAgent is the crawler the frontier is checked for. No corpus
// file is meant to name it, so the '*' groups apply to it, as they do to
// most crawlers written with these libraries.
const FrontierAgent = "ExampleBot"

// FrontierShape sizes a frontier.
type FrontierShape struct {
	URLs    int    // URLs in all
	Origins int    // origins they are on, the crawled ones included
	Seed    uint64 // seeds the made-up origins' files and templates, and the serving order
}

// FrontierFull is the shape of the benchmarks' frontier.
var FrontierFull = FrontierShape{URLs: 1_000_000, Origins: 10_000, Seed: 25}

// FrontierOrigin is one origin of a frontier.
type FrontierOrigin struct {
	// Origin is "scheme://host[:port]", as robots.Origin gives it.
	Origin string
	// File is the number of the corpus file served as its robots.txt.
	File int
	// URLs is how many URLs of the frontier are on it.
	URLs int
	// MadeUp tells an origin made up to reach the shape's count from one
	// that was crawled.
	MadeUp bool
}

// Frontier is the frontier workload: what a crawler's robots.txt check
// sees when its frontier serves the URLs of many sites at once. The
// benchmarks' (FrontierFull) is 1,000,000 URLs over 10,000 origins, each
// origin's robots.txt a corpus file.
//
// The origins are those of the crawled URLs (crawled-urls.tsv.gz), each
// with the file crawled with it and its own URLs in the crawled order,
// and made-up ones, "https://h0001.example" and on, as many as it takes
// to reach the shape's count. A made-up origin is given a corpus file no
// other origin has (a seeded draw among the files no crawled origin has,
// which the full frontier does not exhaust) and the URLs of a crawled origin, its template (a seeded draw),
// re-hosted: path, query and fragment kept, scheme and host replaced. The
// URLs the crawled origins lack are shared among the made-up ones in
// proportion to the URLs of their templates, each getting one at least; a
// made-up origin given more URLs than its template has takes its
// template's again from the first.
//
// The frontier serves them as a polite crawler's does: one queue per
// origin, in the queue's order, and the origins in turn, one URL of each
// per round in a fixed seeded order, an origin leaving the rounds when
// its queue is empty. So the first round meets every origin once, no
// origin is met twice in a row while another still has URLs, and a
// site's URLs are spread over the whole pass, as a crawl delay spreads
// them: from one check of a site to its next, the crawler checks every
// other site still in the rounds.
type Frontier struct {
	// URLs are absolute URLs, as crawled or re-hosted.
	URLs []string
	// OriginOf is, for each URL, the index of its origin in Origins.
	OriginOf []int32
	// Origins lists the crawled origins in the order of
	// crawled-urls.tsv.gz, then the made-up ones in the order of their
	// names.
	Origins []FrontierOrigin
	// Skipped is the number of crawled URLs left out: those that have no
	// origin (robots.Origin) or that net/url does not parse, which no
	// crawler's frontier would hold.
	Skipped int

	corpus *Corpus
	byHost map[string]int // host[:port] of an origin -> its corpus file
}

// Body returns the robots.txt of the origins on host, "host[:port]" as
// the URLs write it, and false when no origin of the frontier is on host.
// The bytes must not be modified.
func (f *Frontier) Body(host string) ([]byte, bool) {
	file, ok := f.byHost[strings.ToLower(host)]
	if !ok {
		return nil, false
	}
	return f.corpus.Body(file), true
}

// originQueue is an origin and its URLs in the order they are crawled.
type originQueue struct {
	FrontierOrigin
	urls []string
}

// NewFrontier builds the frontier of the given shape over c (see
// Frontier). The same corpus and
// shape give the same frontier. It fails when the crawled origins alone
// are more than shape.Origins, or leave fewer URLs than made-up origins.
func NewFrontier(c *Corpus, shape FrontierShape) (*Frontier, error) {
	f := &Frontier{corpus: c, byHost: map[string]int{}}
	queues, err := f.crawledQueues(c)
	if err != nil {
		return nil, err
	}
	real, realURLs := len(queues), 0
	for _, q := range queues {
		realURLs += len(q.urls)
	}
	madeUp, madeUpURLs := shape.Origins-real, shape.URLs-realURLs
	switch {
	case madeUp < 0:
		return nil, fmt.Errorf("frontier: %d crawled origins, more than the %d asked for", real, shape.Origins)
	case madeUpURLs < madeUp:
		return nil, fmt.Errorf("frontier: %d URLs left for %d made-up origins", madeUpURLs, madeUp)
	case madeUp > 0 && real == 0:
		return nil, errors.New("frontier: no crawled origin to take URLs from")
	}
	rng := rand.New(rand.NewPCG(shape.Seed, 0x66726f6e74696572))
	queues = append(queues, f.madeUpQueues(c, queues, madeUp, madeUpURLs, rng)...)
	f.serve(queues, rng)
	return f, nil
}

// crawledQueues returns the queues of the crawled origins, in the order of
// their first URL in crawled-urls.tsv.gz, each with its file and its URLs.
func (f *Frontier) crawledQueues(c *Corpus) ([]originQueue, error) {
	var queues []originQueue
	index := map[string]int{}
	for k, cf := range c.Crawled {
		for _, u := range c.URLs(k) {
			origin, host, ok := originAndHost(u)
			if !ok {
				f.Skipped++
				continue
			}
			if file, seen := f.byHost[host]; seen && file != cf.File {
				return nil, fmt.Errorf("frontier: host %s is crawled with two files, %s and %s", host, c.Name(file), c.Name(cf.File))
			}
			f.byHost[host] = cf.File
			i, seen := index[origin]
			if !seen {
				i = len(queues)
				index[origin] = i
				queues = append(queues, originQueue{FrontierOrigin: FrontierOrigin{Origin: origin, File: cf.File}})
			}
			queues[i].urls = append(queues[i].urls, u)
		}
	}
	return queues, nil
}

// originAndHost returns rawURL's origin and the host[:port] it names, the
// key of Frontier.Body, and false when either is missing or the host that
// net/url reads is not the origin's (a crawler's map by host would then
// hold the file under another name).
func originAndHost(rawURL string) (origin, host string, ok bool) {
	origin, err := robots.Origin(rawURL)
	if err != nil {
		return "", "", false
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", "", false
	}
	_, host, _ = strings.Cut(origin, "://")
	return origin, host, strings.ToLower(u.Host) == host
}

// madeUpQueues returns n made-up origins sharing urls URLs, each with a
// corpus file no crawled origin has and the URLs of a crawled template.
func (f *Frontier) madeUpQueues(c *Corpus, crawled []originQueue, n, urls int, rng *rand.Rand) []originQueue {
	if n == 0 {
		return nil
	}
	files := unusedFiles(c, crawled, rng)
	templates := make([]int, n)
	weight := make([]int64, n+1) // cumulative URLs of the templates
	for i := range templates {
		templates[i] = rng.IntN(len(crawled))
		weight[i+1] = weight[i] + int64(len(crawled[templates[i]].urls))
	}
	// Each origin gets one URL, then a share of the rest in proportion to
	// its template's URLs: the cumulative shares, rounded down, differ by
	// each origin's count and add up to exactly urls.
	extra, total := int64(urls-n), weight[n]
	var packed strings.Builder
	type span struct{ origin, start, end int }
	var spans []span
	queues := make([]originQueue, n)
	for i := range queues {
		host := fmt.Sprintf("h%04d.example", i+1)
		count := 1 + int(extra*weight[i+1]/total-extra*weight[i]/total)
		q := &queues[i]
		q.FrontierOrigin = FrontierOrigin{Origin: "https://" + host, File: files[i%len(files)], MadeUp: true}
		f.byHost[host] = q.File
		tmpl := crawled[templates[i]].urls
		for j := range count {
			start := packed.Len()
			packed.WriteString(q.Origin)
			packed.WriteString(afterAuthority(tmpl[j%len(tmpl)]))
			spans = append(spans, span{i, start, packed.Len()})
		}
	}
	// One string holds every made-up URL, so that they cost the garbage
	// collector one object (see Corpus).
	all := packed.String()
	for _, s := range spans {
		queues[s.origin].urls = append(queues[s.origin].urls, all[s.start:s.end])
	}
	return queues
}

// unusedFiles returns the numbers of the corpus files that no crawled
// origin has, in a seeded order; every file when they all have one.
func unusedFiles(c *Corpus, crawled []originQueue, rng *rand.Rand) []int {
	used := map[int]bool{}
	for _, q := range crawled {
		used[q.File] = true
	}
	var files []int
	for i := range c.Len() {
		if !used[i] {
			files = append(files, i)
		}
	}
	if len(files) == 0 {
		files = make([]int, c.Len())
		for i := range files {
			files[i] = i
		}
	}
	rng.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
	return files
}

// afterAuthority returns what follows the scheme and host of an absolute
// URL: its path, query and fragment, "" when it has none.
func afterAuthority(rawURL string) string {
	_, rest, ok := strings.Cut(rawURL, "://")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		return rest[i:]
	}
	return ""
}

// serve fills f.URLs, f.OriginOf and f.Origins: the queues' URLs in the
// order a polite frontier serves them, round after round, one URL of each
// origin with URLs left per round, the origins in a seeded order.
func (f *Frontier) serve(queues []originQueue, rng *rand.Rand) {
	total := 0
	f.Origins = make([]FrontierOrigin, len(queues))
	for i := range queues {
		queues[i].URLs = len(queues[i].urls)
		f.Origins[i] = queues[i].FrontierOrigin
		total += len(queues[i].urls)
	}
	f.URLs = make([]string, 0, total)
	f.OriginOf = make([]int32, 0, total)
	active := rng.Perm(len(queues))
	for round := 0; len(active) > 0; round++ {
		left := active[:0]
		for _, o := range active {
			f.URLs = append(f.URLs, queues[o].urls[round])
			f.OriginOf = append(f.OriginOf, int32(o))
			if round+1 < len(queues[o].urls) {
				left = append(left, o)
			}
		}
		active = left
	}
}
