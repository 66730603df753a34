package robots_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/fuzzgen"
)

// Concurrency: a *Robots and the *Agent values it returns are shared by
// many goroutines, which must get the answers of a single-threaded run.
// The rule sets are compiled on first use and their automata grow as paths
// arrive, so these tests are meant for go test -race.

// raceGoroutines is how many goroutines share one value.
const raceGoroutines = 64

// raceBodies are the files the tests share: groups and fallbacks, a
// generated file, wildcard-heavy rules whose automaton outgrows its memory
// budget on long paths, and a large real file.
func raceBodies(t *testing.T) map[string][]byte {
	bodies := map[string][]byte{
		"groups": []byte("User-agent: *\nDisallow: /private\nAllow: /private/ok\n\n" +
			"User-agent: FooBot\nUser-agent: BarBot\nDisallow: /\nAllow: /public\nAllow: /a/index.html\n\n" +
			"User-agent: BazBot\nDisallow: /*.php$\nDisallow: /%E3%83%84\n\n" +
			"User-agent: Googlebot-Image\nDisallow: /photos\nUser-agent: Googlebot\nDisallow: /nogoogle\n"),
		"generated": fuzzgen.Generate(rand.New(rand.NewPCG(7, 7)), fuzzgen.Config{MaxItems: 60, MaxAgents: 3, MaxRules: 30, MaxValue: 30, Extensions: true}).Body,
	}
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 400 {
		fmt.Fprintf(&b, "Disallow: /*?k%d=*\nAllow: /*&k%d=*x*$\nDisallow: /s%d/*/*.html\n", i, i, i)
	}
	bodies["wildcards"] = []byte(b.String())
	realFile, err := os.ReadFile(filepath.Join(corpusLicensed, "files", "02948.txt"))
	require.NoError(t, err)
	bodies["real"] = realFile
	return bodies
}

var raceAgents = [][]string{
	{"FooBot"}, {"foobot"}, {"BarBot"}, {"BazBot"}, {"Googlebot"}, {"GOOGLEBOT"},
	{"Googlebot-Image", "Googlebot"}, {"Bingbot"}, {"NoSuchBot"}, {""}, {"a"}, {"_"},
}

// raceURLs derives URLs from a file's rules and adds some of every shape.
func raceURLs(r *robots.Robots) []string {
	urls := []string{
		"https://example.com/", "https://example.com/private", "https://example.com/private/ok",
		"https://example.com/public/x", "https://example.com/a/", "https://example.com/x.php",
		"https://example.com/%E3%83%84", "https://example.com/photos/1", "https://example.com/robots.txt",
		"https://example.com/?k7=1", "https://example.com/x?a=1&k9=2x", "https://example.com/s3/a/b.html",
		"https://example.com/" + strings.Repeat("ab/", 300) + "?k1=" + strings.Repeat("x", 300),
	}
	// Paths of random pieces of the wildcard rules: each reaches states
	// of its own, enough to fill an automaton's memory budget.
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"/", "?k1=", "&k2=", "x", ".html", "s3", "a", "?", "&", "=", "k", "7"}
	for range 8 {
		var p strings.Builder
		for p.Len() < 600 {
			p.WriteString(pieces[rng.IntN(len(pieces))])
		}
		urls = append(urls, "https://example.com/"+p.String())
	}
	fill := strings.NewReplacer("*", "zz", "$", "")
	for _, g := range r.Groups() {
		for _, rule := range g.Rules {
			if len(urls) < 150 && strings.HasPrefix(rule.Value, "/") {
				urls = append(urls, "https://example.com"+fill.Replace(rule.Value))
			}
		}
	}
	return urls
}

// raceVerdict is an answer: the verdict and the deciding rule's line.
type raceVerdict struct {
	allowed bool
	line    int
}

func raceDecide(a *robots.Agent, u string) raceVerdict {
	d := a.Decide(u)
	v := raceVerdict{allowed: d.Allowed}
	if d.Rule != nil {
		v.line = d.Rule.Line
	}
	return v
}

// raceWant computes the answers single-threaded on a value of its own.
func raceWant(body []byte, m robots.Mode, urls []string) map[string]raceVerdict {
	r := robots.Parse(body, robots.WithMode(m))
	want := map[string]raceVerdict{}
	for _, ag := range raceAgents {
		a := r.Agent(ag...)
		for _, u := range urls {
			want[strings.Join(ag, ",")+" "+u] = raceDecide(a, u)
		}
	}
	return want
}

// raceEach runs fn for every body and mode with the single-threaded
// answers.
func raceEach(t *testing.T, fn func(t *testing.T, body []byte, m robots.Mode, urls []string, want map[string]raceVerdict)) {
	for name, body := range raceBodies(t) {
		for _, m := range []robots.Mode{robots.Google, robots.RFC} {
			t.Run(name+"/"+m.String(), func(t *testing.T) {
				urls := raceURLs(robots.Parse(body, robots.WithMode(m)))
				fn(t, body, m, urls, raceWant(body, m, urls))
			})
		}
	}
}

// Goroutines resolve agents (the same ones, in different cases, and
// different ones) on one shared, freshly parsed *Robots, all at once, and
// decide URLs through Agent, Robots.Allowed and AnyAgent.
func TestRaceSharedRobots(t *testing.T) {
	raceEach(t, func(t *testing.T, body []byte, m robots.Mode, urls []string, want map[string]raceVerdict) {
		r := robots.Parse(body, robots.WithMode(m))
		start := make(chan struct{})
		var wg sync.WaitGroup
		for g := range raceGoroutines {
			wg.Go(func() {
				<-start
				rng := rand.New(rand.NewPCG(uint64(g), 1))
				for i := range 40 {
					ag := raceAgents[(g+i)%len(raceAgents)]
					a := r.Agent(ag...)
					u := urls[rng.IntN(len(urls))]
					key := strings.Join(ag, ",") + " " + u
					if got := raceDecide(a, u); got != want[key] {
						t.Errorf("goroutine %d: %s: %+v, want %+v", g, key, got, want[key])
					}
					if len(ag) == 1 {
						if got := r.Allowed(ag[0], u); got != want[key].allowed {
							t.Errorf("goroutine %d: Robots.Allowed %s: %v", g, key, got)
						}
						if got := raceDecide(r.AnyAgent(ag[0]), u); got != want[key] {
							t.Errorf("goroutine %d: AnyAgent %s: %+v, want %+v", g, key, got, want[key])
						}
					}
				}
			})
		}
		close(start)
		wg.Wait()
	})
}

// Goroutines share the *Agent values themselves, resolved once: their
// automata are built by whichever goroutine reaches a state first.
func TestRaceSharedAgents(t *testing.T) {
	raceEach(t, func(t *testing.T, body []byte, m robots.Mode, urls []string, want map[string]raceVerdict) {
		r := robots.Parse(body, robots.WithMode(m))
		agents := make([]*robots.Agent, len(raceAgents))
		for i, ag := range raceAgents {
			agents[i] = r.Agent(ag...)
		}
		start := make(chan struct{})
		var wg sync.WaitGroup
		for g := range raceGoroutines {
			wg.Go(func() {
				<-start
				for i := range min(len(urls), 80) {
					k := (g + i) % len(raceAgents)
					u := urls[(g*7+i)%len(urls)]
					key := strings.Join(raceAgents[k], ",") + " " + u
					if got := raceDecide(agents[k], u); got != want[key] {
						t.Errorf("goroutine %d: %s: %+v, want %+v", g, key, got, want[key])
					}
					if got := agents[k].Allowed(u); got != want[key].allowed {
						t.Errorf("goroutine %d: Allowed %s: %v", g, key, got)
					}
				}
			})
		}
		close(start)
		wg.Wait()
	})
}
