package compile

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/fastrobots/robots/automaton"
)

// coldSite is a rule set of the corpus, indexed, with paths to check.
type coldSite struct {
	rs    *RuleSet
	ix    *coldIndex
	paths []string
}

// coldPaths are paths every site is checked on, of the shapes a crawl
// meets; each site is also checked on paths under its own keys.
var coldPaths = []string{
	"/", "/search?q=dune", "/wp-admin/admin-ajax.php", "/a/b/c.html",
	"/products/item-123?color=red&size=m", "/blog/2024/05/a-post-title/",
	"/catalog/category/view/s/shoes/id/42/", "/en/about-us",
}

// loadColdSites indexes the rules for "*" of each corpus file, its groups
// sorted, so that a benchmark times the checks alone.
func loadColdSites(b *testing.B) []coldSite {
	dir := filepath.Join("..", "testdata", "corpus", "files")
	names, err := os.ReadDir(dir)
	if err != nil {
		b.Skip(err)
	}
	var sites []coldSite
	for _, n := range names {
		body, err := os.ReadFile(filepath.Join(dir, n.Name()))
		if err != nil {
			b.Fatal(err)
		}
		f := Parse(body, Options{})
		rs := f.Compile(f.Resolve(), automaton.Options{})
		if rs.rules == 0 {
			continue
		}
		ix := rs.buildIndex()
		paths := append([]string(nil), coldPaths...)
		keyed := ix.keyed()
		for i := 0; i < len(keyed) && i < 8; i++ {
			e := &keyed[i*len(keyed)/8]
			paths = append(paths, e.keyOf(ix.slab)+"x/page.html")
		}
		s := coldSite{rs: rs, ix: ix, paths: paths}
		for _, p := range paths {
			var m coldMatch
			ix.match(&m, rs, p) // sorts the groups the paths need
		}
		sites = append(sites, s)
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(sites), func(i, j int) { sites[i], sites[j] = sites[j], sites[i] })
	return sites
}

// BenchmarkColdCorpus times one cold check of an indexed rule set per op,
// the sites of the corpus taken in turn, as a crawl of many sites meets
// them: each check finds its site's index and rules out of cache.
func BenchmarkColdCorpus(b *testing.B) {
	sites := loadColdSites(b)
	matched := 0
	i, round := 0, 0
	b.ResetTimer()
	for b.Loop() {
		s := &sites[i]
		var m coldMatch
		s.ix.match(&m, s.rs, s.paths[round%len(s.paths)])
		if m.any {
			matched++
		}
		if i++; i == len(sites) {
			i, round = 0, round+1
		}
	}
	if matched == 0 {
		b.Fatal("no check matched a rule")
	}
}
