package bench

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
)

// CorpusDir is the shared real-world corpus, relative to bench/.
var CorpusDir = filepath.Join("..", "..", "shared", "corpus")

// Corpus is the real-world corpus, in memory.
//
// It is laid out in a few large objects (all bodies in one buffer, all
// names in one string, all crawled URLs in one string, indexed by offsets)
// rather than ~250,000 small ones, so that it costs the garbage collector
// next to nothing: BenchmarkMemory forces thousands of collections.
//
// Files are numbered 0 to Len()-1 in the order of their sorted names.
type Corpus struct {
	// Crawled lists the files that have crawled URLs, in the order of
	// crawled-urls.tsv.gz.
	Crawled []CrawledFile
	// Bytes is the total size of all bodies.
	Bytes int64
	// CrawledURLs is the number of crawled URLs whose file is in the archive.
	CrawledURLs int

	names    string  // every name, one after another
	nameEnds []int32 // end of name i in names
	bodies   []byte  // every body, one after another
	bodyEnds []int64 // end of body i in bodies
	urls     string  // the crawled URLs, one after another
}

// Len returns the number of files.
func (c *Corpus) Len() int { return len(c.nameEnds) }

// Name returns file i's name: "files/00001.txt", "files_html/28987.txt".
func (c *Corpus) Name(i int) string {
	start := int32(0)
	if i > 0 {
		start = c.nameEnds[i-1]
	}
	return c.names[start:c.nameEnds[i]]
}

// Body returns file i's bytes. They must not be modified.
func (c *Corpus) Body(i int) []byte {
	start := int64(0)
	if i > 0 {
		start = c.bodyEnds[i-1]
	}
	return c.bodies[start:c.bodyEnds[i]:c.bodyEnds[i]]
}

// CrawledFile is a robots.txt with the URLs crawled on its host.
type CrawledFile struct {
	File  int     // the file's number in the corpus
	start int32   // offset of the first URL in Corpus.urls
	ends  []int32 // end offset of each URL in Corpus.urls
}

var (
	corpusOnce sync.Once
	corpus     *Corpus
	corpusErr  error
)

// LoadCorpus unpacks robots-corpus.tar.gz and crawled-urls.tsv.gz from
// CorpusDir into memory, once per process. It returns an error wrapping
// fs.ErrNotExist when the corpus is absent.
func LoadCorpus() (*Corpus, error) {
	corpusOnce.Do(func() { corpus, corpusErr = loadCorpus(CorpusDir) })
	return corpus, corpusErr
}

func loadCorpus(dir string) (*Corpus, error) {
	c := &Corpus{}
	f, err := os.Open(filepath.Join(dir, "robots-corpus.tar.gz"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return nil, err
	}
	type entry struct {
		name   string
		off, n int
	}
	var entries []entry
	var all bytes.Buffer
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("robots-corpus.tar.gz: %w", err)
		}
		name := strings.TrimPrefix(h.Name, "./")
		if h.Typeflag != tar.TypeReg || !strings.HasSuffix(name, ".txt") ||
			!(strings.HasPrefix(name, "files/") || strings.HasPrefix(name, "files_html/")) ||
			strings.Count(name, "/") != 1 {
			continue
		}
		off := all.Len()
		n, err := io.Copy(&all, tr)
		if err != nil {
			return nil, fmt.Errorf("robots-corpus.tar.gz: %s: %w", name, err)
		}
		entries = append(entries, entry{name, off, int(n)})
		c.Bytes += n
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
	var names strings.Builder
	bodies := make([]byte, 0, all.Len())
	index := make(map[string]int, len(entries))
	c.nameEnds = make([]int32, len(entries))
	c.bodyEnds = make([]int64, len(entries))
	for i, e := range entries {
		names.WriteString(e.name)
		c.nameEnds[i] = int32(names.Len())
		bodies = append(bodies, all.Bytes()[e.off:e.off+e.n]...)
		c.bodyEnds[i] = int64(len(bodies))
		index[e.name] = i
	}
	all = bytes.Buffer{}
	c.names, c.bodies = names.String(), bodies

	u, err := os.Open(filepath.Join(dir, "crawled-urls.tsv.gz"))
	if err != nil {
		return nil, err
	}
	defer u.Close()
	uz, err := gzip.NewReader(u)
	if err != nil {
		return nil, err
	}
	type crawl struct {
		file     int
		off, end int
	}
	var urls strings.Builder
	var crawls []crawl
	sc := bufio.NewScanner(uz)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for line := 0; sc.Scan(); line++ {
		name, rest, ok := bytes.Cut(sc.Bytes(), []byte("\t"))
		if line == 0 || !ok {
			continue // the header
		}
		url, _, _ := bytes.Cut(rest, []byte("\t"))
		i, ok := index[string(name)]
		if !ok {
			continue
		}
		off := urls.Len()
		urls.Write(url)
		crawls = append(crawls, crawl{i, off, urls.Len()})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("crawled-urls.tsv.gz: %w", err)
	}
	c.urls = strings.Clone(urls.String())
	c.CrawledURLs = len(crawls)
	// Group the URLs by file, files in order of first appearance. The URLs
	// of one file are contiguous in the TSV, but do not rely on it.
	byFile := map[int]int{}
	var order [][]crawl
	for _, cr := range crawls {
		k, ok := byFile[cr.file]
		if !ok {
			k = len(order)
			byFile[cr.file] = k
			order = append(order, nil)
		}
		order[k] = append(order[k], cr)
	}
	var packed strings.Builder
	for _, list := range order {
		f := CrawledFile{File: list[0].file, start: int32(packed.Len())}
		for _, cr := range list {
			packed.WriteString(c.urls[cr.off:cr.end])
			f.ends = append(f.ends, int32(packed.Len()))
		}
		c.Crawled = append(c.Crawled, f)
	}
	c.urls = packed.String()
	// Return the loading's garbage (~300 MB) to the system: a heap that
	// large makes every later collection several times slower.
	debug.FreeOSMemory()
	return c, nil
}

// URLs returns the crawled URLs of c.Crawled[k], as crawled (absolute).
func (c *Corpus) URLs(k int) []string {
	f := &c.Crawled[k]
	out := make([]string, len(f.ends))
	start := f.start
	for i, end := range f.ends {
		out[i] = c.urls[start:end]
		start = end
	}
	return out
}

// Inputs returns the crawled URLs of c.Crawled[k] in the form lib takes
// (InputOf).
func (c *Corpus) Inputs(k int, lib Lib) []string {
	out := c.URLs(k)
	for i, u := range out {
		out[i] = InputOf(lib, u)
	}
	return out
}

// Sample returns the numbers of every step-th file, starting with
// the first: a deterministic sample of the corpus.
func (c *Corpus) Sample(step int) []int {
	var out []int
	for i := 0; i < c.Len(); i += step {
		out = append(out, i)
	}
	return out
}
