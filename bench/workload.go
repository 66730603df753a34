package bench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Agents used by the benchmarks. StarAgent is named by no group of
// testdata/realistic.txt (nor is any group's token a prefix of it, which
// matters to temoto's prefix lookup), so the '*' group applies to it.
const (
	NamedAgent = "Googlebot"
	StarAgent  = "ExampleFetcher"
)

// CrawlerAgents are the crawler tokens of the corpus benchmarks LongTail
// and Crawl: common crawlers, one of which each file is checked for
// (CrawlerAgent).
var CrawlerAgents = [...]string{
	"Googlebot", "Bingbot", "DuckDuckBot", "YandexBot", "Baiduspider",
	"Applebot", "facebookexternalhit", "AhrefsBot", "SemrushBot", "GPTBot",
}

// CrawlerAgent returns the crawler that corpus file number file is checked
// for: CrawlerAgents in turn, by file number.
func CrawlerAgent(file int) string { return CrawlerAgents[file%len(CrawlerAgents)] }

// ShopAgent is named by no group of testdata/shop.txt (nor is any group's
// token a prefix of it), so the '*' group, 260 rules, applies to it.
const ShopAgent = "ExampleBot"

// TestdataDir is where the workload files are, relative to bench/.
var TestdataDir = "testdata"

// Realistic returns testdata/realistic.txt.
func Realistic() ([]byte, error) {
	return os.ReadFile(filepath.Join(TestdataDir, "realistic.txt"))
}

// URLPaths returns the 64 paths of testdata/urls.txt.
func URLPaths() ([]string, error) { return readPaths("urls.txt") }

// Shop returns testdata/shop.txt: a shop's robots.txt written in
// wildcards, 599 rules (see internal/gen for its shape).
func Shop() ([]byte, error) {
	return os.ReadFile(filepath.Join(TestdataDir, "shop.txt"))
}

// ShopPaths returns the 64 paths of testdata/shop-urls.txt.
func ShopPaths() ([]string, error) { return readPaths("shop-urls.txt") }

// readPaths returns the 64 paths of a file of TestdataDir, one a line.
func readPaths(name string) ([]string, error) {
	b, err := os.ReadFile(filepath.Join(TestdataDir, name))
	if err != nil {
		return nil, err
	}
	paths := strings.Fields(string(b))
	if len(paths) != 64 {
		return nil, fmt.Errorf("%s: %d paths, want 64", name, len(paths))
	}
	return paths, nil
}

// PathologicalRobots returns a robots.txt whose '*' group has 100 rules
// full of '*': each would make a backtracking matcher explode on
// PathologicalPath, and each costs a position-set matcher
// O(len(pattern) × len(path)). None matches PathologicalPath, so every
// matcher must try every rule to its end.
func PathologicalRobots() []byte {
	var b bytes.Buffer
	b.WriteString("# 100 rules full of '*', none of which matches the pathological path\n")
	b.WriteString("User-agent: *\n")
	letters := "abcdefghijklmnopqrstuvwxy"
	for i := range 100 {
		var p string
		switch i % 5 {
		case 0: // "/" + "a*"×30 + "b"-like: many stars on a byte that is everywhere, then a byte that never comes
			p = "/" + strings.Repeat(string(letters[i%25])+"*", 20+i%11) + "z"
		case 1: // the alphabet in order, starred, anchored at the end
			k := 5 + i%20
			var s strings.Builder
			s.WriteString("/")
			for j := range k {
				s.WriteByte(letters[(j+i)%25])
				s.WriteByte('*')
			}
			s.WriteString("z$")
			p = s.String()
		case 2: // path segments: /*/*/…/x.php$
			p = strings.Repeat("/*", 10+i%15) + fmt.Sprintf("/x%d.php$", i)
		case 3: // query-like: *?*=*&*=…
			p = "/*" + strings.Repeat("?*=*&*", 3+i%8) + "zz="
		case 4: // long literal runs between stars, almost present in the path
			p = "/" + strings.Repeat("aaaaaaaaaaaaaaa*", 8+i%10) + "aaaab"
		}
		fmt.Fprintf(&b, "Disallow: %s\n", p)
	}
	b.WriteString("Allow: /\n")
	return b.Bytes()
}

// PathologicalPath returns a path of n bytes (n ≥ 2) that almost matches
// every rule of PathologicalRobots: long runs of 'a', every letter but 'z',
// slashes, '?', '=' and '&', but never a 'z', never "aaaab" and no ".php".
func PathologicalPath(n int) string {
	const block = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/abcdefghijklmnopqrstuvwxy?k=v&a=b/"
	var s strings.Builder
	s.Grow(n)
	s.WriteByte('/')
	for s.Len() < n {
		s.WriteString(block)
	}
	return s.String()[:n]
}
