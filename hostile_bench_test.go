package robots_test

import (
	"testing"
	"time"

	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/internal/testkit/hostile"
	"github.com/fastrobots/robots/runtime"
)

// hostileURLSizes are the path lengths checked against each hostile file.
var hostileURLSizes = []struct {
	name string
	n    int
}{
	{"4KiB", 4 << 10},
	{"1MiB", 1 << 20},
}

// hostileSpendSeeds is how many other paths may be checked against a
// hostile file before timing, to spend the lazy DFA's budget.
const hostileSpendSeeds = 64

// BenchmarkHostileCheck times one check (Agent.Allowed's path: a URL string,
// Google mode, the default automaton budget) of a hostile path against each
// file of internal/testkit/hostile. The file is parsed and its group compiled as
// robots.Parse and Agent do. Random paths of the file's kind are checked
// first until the lazy DFA's budget is spent (Stats.Full), so that the
// timed checks run where a hostile site would have them: past the budget.
// The first check of the timed path, which builds what the automaton
// builds lazily, is timed apart and reported as ns/first-check, and the
// checks that spend the budget as ns/spend. scan-B is
// the memory of the rule set's fallback matcher after the checks.
//
//	go test -run '^$' -bench BenchmarkHostileCheck -benchtime 2x .
func BenchmarkHostileCheck(b *testing.B) {
	for _, f := range hostile.Files() {
		for _, size := range hostileURLSizes {
			b.Run(f.Name+"/"+size.name, func(b *testing.B) {
				file := compile.Parse(f.Body, compile.Options{})
				rules := file.Compile(file.Resolve("FooBot"), automaton.Options{})
				// Agent.Allowed's path: the URL's rooted part, read in place.
				allowed := func(rawURL string) bool {
					return rules.AllowedBeforeFragment(rawURL[runtime.RootedStart(rawURL):])
				}
				spendStart := time.Now()
				for seed := uint64(1); seed <= hostileSpendSeeds && !rules.Set().Stats().Full; seed++ {
					allowed("https://example.com" + f.Path(4<<10, seed))
				}
				spend := time.Since(spendStart)
				in := "https://example.com" + f.Path(size.n, 0)

				start := time.Now()
				first := allowed(in)
				firstCheck := time.Since(start)
				b.ResetTimer()
				for range b.N {
					if allowed(in) != first {
						b.Fatal("the verdict changed between checks")
					}
				}
				b.StopTimer()
				b.ReportMetric(float64(firstCheck.Nanoseconds()), "ns/first-check")
				b.ReportMetric(float64(spend.Nanoseconds()), "ns/spend")
				b.ReportMetric(float64(fallbackBytes(rules.Stats())), "scan-B")
			})
		}
	}
}

// fallbackBytes returns the memory of the rule set's fallback matcher.
func fallbackBytes(st automaton.Stats) int { return st.ScanBytes }
