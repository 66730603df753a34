// Package bench compares fastrobots with other Go robots.txt libraries.
//
// Every library sits behind a small adapter (peer_*.go) implementing Lib,
// so that each benchmark runs the same workload through every library:
//
//	Lib.Parse(body)            parse only
//	Parsed.Compile(agent)      resolve the agent's group (or nothing, where a
//	                           library has no such step)
//	Checker.Allowed(s)         one verdict, the way the library's docs
//	                           recommend for repeated checks
//
// Each adapter declares whether its checks take a path with query
// ("/a/b?c=d") or a full URL; the harness prepares both forms before any
// timing starts, so no benchmark measures the conversion. A panic in a
// library is recovered by the harness and counted, never fatal.
//
// Beside speed, Conform counts where each library's verdicts differ from
// those of Google's reference parser (cmd/peerconformance writes the table).
//
// See ../docs/benchmarks.md for the benchmarks, the adapters and the
// results.
package bench

import "strings"

// Input is what a Checker's Allowed takes.
type Input int

const (
	// InputPath is a path with parameters and query: "/a/b;p?c=d".
	InputPath Input = iota
	// InputURL is an absolute URL: "https://example.com/a/b?c=d". Crawled
	// URLs are given as crawled, on their own hosts.
	InputURL
	// InputSiteURL is an absolute URL on Site: Site + "/a/b?c=d", for a
	// library that refuses URLs on a host other than its robots.txt's.
	InputSiteURL
)

func (in Input) String() string {
	switch in {
	case InputURL:
		return "URL"
	case InputSiteURL:
		return "site URL"
	}
	return "path"
}

// Lib is one library under test.
type Lib interface {
	// Name is the benchmark's sub-name: "fastrobots", "temoto", ...
	Name() string
	// Input tells what Checker.Allowed and OneShot take.
	Input() Input
	// Parse parses a robots.txt body. A library that rejects some bodies
	// returns an error; the harness counts those.
	Parse(body []byte) (Parsed, error)
	// OneShot answers one question about a body never seen before, in the
	// cheapest way the library offers.
	OneShot(body []byte, agent, pathOrURL string) bool
}

// Parsed is a parsed robots.txt.
type Parsed interface {
	// Compile resolves the rules that apply to agent.
	Compile(agent string) Checker
}

// Checker answers for one agent.
type Checker interface {
	Allowed(pathOrURL string) bool
}

// Libs returns every library under test, fastrobots first.
func Libs() []Lib {
	return []Lib{
		fastrobotsLib{}, temotoLib{}, temotoGroupLib{}, grobotstxtLib{},
		slyrzLib{}, samclarkeLib{}, benjaminestesLib{},
	}
}

// Site is the scheme and host the harness puts before a path for libraries
// that take a URL.
const Site = "https://www.example-shop.com"

// Prepare returns paths in the form lib takes: unchanged for InputPath,
// prefixed with Site for InputURL and InputSiteURL.
func Prepare(lib Lib, paths []string) []string {
	if lib.Input() == InputPath {
		return paths
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = Site + p
	}
	return out
}

// InputOf returns rawURL, an absolute URL as crawled, in the form lib
// takes: its path (PathOf) for InputPath, unchanged for InputURL, its path
// on Site for InputSiteURL.
func InputOf(lib Lib, rawURL string) string {
	switch lib.Input() {
	case InputPath:
		return PathOf(rawURL)
	case InputSiteURL:
		return Site + PathOf(rawURL)
	}
	return rawURL
}

// PathOf returns the path, parameters and query of rawURL, as Google's
// reference parser extracts them (GetPathParamsQuery): the fragment is
// dropped, and a URL with no path gives "/". The harness uses it to give
// path-taking libraries the crawled URLs of the corpus.
func PathOf(rawURL string) string {
	start := 0
	if strings.HasPrefix(rawURL, "//") {
		start = 2
	}
	early := indexAnyFrom(rawURL, "/?;", start)
	proto := indexFrom(rawURL, "://", start)
	if early != -1 && early < proto {
		proto = -1
	}
	if proto == -1 {
		proto = start
	} else {
		proto += 3
	}
	pathStart := indexAnyFrom(rawURL, "/?;", proto)
	if pathStart == -1 {
		return "/"
	}
	hash := indexFrom(rawURL, "#", start)
	if hash != -1 && hash < pathStart {
		return "/"
	}
	end := len(rawURL)
	if hash != -1 {
		end = hash
	}
	if rawURL[pathStart] != '/' {
		return "/" + rawURL[pathStart:end]
	}
	return rawURL[pathStart:end]
}

func indexFrom(s, sub string, from int) int {
	if from > len(s) {
		return -1
	}
	i := strings.Index(s[from:], sub)
	if i < 0 {
		return -1
	}
	return from + i
}

func indexAnyFrom(s, chars string, from int) int {
	if from > len(s) {
		return -1
	}
	i := strings.IndexAny(s[from:], chars)
	if i < 0 {
		return -1
	}
	return from + i
}

// Precompiler is implemented by a Checker whose rules are compiled lazily
// and can be compiled at once.
type Precompiler interface {
	CompileNow()
}

// AutomatonSizer is implemented by a Checker that can tell the size of the
// matcher it has built so far (fastrobots' lazily built automaton).
type AutomatonSizer interface {
	AutomatonSize() (states, bytes int)
}
