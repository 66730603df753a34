package robots_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fastrobots/robots/compile"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/hostile"
	"github.com/fastrobots/robots/internal/testkit/worstcase"
)

// scanOnly parses body as a service bounding its work does.
func scanOnly(body []byte) *robots.Robots {
	return robots.Parse(body, robots.WithAutomatonBudget(robots.ScannerBudget))
}

// The bounds grow with what they count: a longer URL, more rules, usage
// lines and user-agent lines cost more, and an agent without rules costs
// a unit a check.
func TestWorkGrowsWithWhatItCounts(t *testing.T) {
	small := scanOnly([]byte("User-agent: *\nDisallow: /a*b\n")).Agent("x").Work()
	large := scanOnly([]byte("User-agent: *\n" + strings.Repeat("Disallow: /a*b\n", 1000))).Agent("x").Work()
	for _, n := range []int{0, 10, 1000} {
		assert.Less(t, small.Check(n), small.Check(n+100), "a longer URL")
		assert.Less(t, small.Check(n), large.Check(n), "more rules a path begins")
		assert.Less(t, small.Explain(n), large.Explain(n), "more rules to match")
	}
	assert.Less(t, small.Setup(), large.Setup())
	assert.Less(t, small.ColdChecks(1, 10), small.ColdChecks(2, 10))
	assert.Equal(t, small.ColdChecks(compile.HotAfter, 10), small.ColdChecks(compile.HotAfter+1000, 10), "only the first compile.HotAfter checks are cold")
	assert.Zero(t, scanOnly([]byte("User-agent: *\nDisallow: /a*b\n")).Agent("x").Compile().Work().ColdChecks(5000, 10),
		"no check of a compiled agent is cold")
	usage := scanOnly([]byte("User-agent: *\nDisallow: /a\nContent-Usage: /b* train-ai=n\n")).Agent("x").Work()
	assert.Zero(t, small.Usage(10))
	assert.Positive(t, usage.Usage(10))

	none := robots.Parse(nil, robots.WithAutomatonBudget(robots.ScannerBudget)).Agent("x").Work()
	assert.Equal(t, int64(1), robots.Work{}.Check(100))
	assert.Positive(t, none.Check(100))
	assert.LessOrEqual(t, none.Check(100), small.Check(100))
}

// An agent whose automaton may build states has no bound: their work is
// not bounded by their memory budget.
func TestWorkHasNoBoundWithStates(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /a*b\n")
	assert.Equal(t, int64(math.MaxInt64), robots.Parse(body).Agent("x").Work().Setup())
	assert.Equal(t, int64(math.MaxInt64), robots.Parse(body, robots.WithAutomatonBudget(64)).Agent("x").Work().Setup())
	assert.Less(t, scanOnly(body).Agent("x").Work().Setup(), int64(1<<20))
}

// No bound wraps: the longest URLs and the largest files give the most
// work, never a negative number, on 32-bit as on 64-bit.
func TestWorkSaturates(t *testing.T) {
	w := scanOnly(hostile.Dollar().Body).Agent("x").Work()
	for _, n := range []int{math.MaxInt32, math.MaxInt} {
		for _, b := range []int64{w.Check(n), w.Explain(n), w.Usage(n), w.ColdChecks(math.MaxInt, n)} {
			assert.GreaterOrEqual(t, b, int64(0), "n = %d", n)
		}
		assert.GreaterOrEqual(t, w.Explain(n), w.Explain(n/2), "n = %d", n)
	}
	if math.MaxInt > math.MaxInt32 {
		assert.Equal(t, int64(math.MaxInt64), w.Explain(math.MaxInt), "saturated")
	}
	assert.Greater(t, w.Check(math.MaxInt32), int64(math.MaxInt32), "counted past 32 bits")
}

// workCase is a file and the URLs a benchmark of its work checks.
type workCase struct {
	name string
	body []byte
	// path returns the i-th URL of n bytes (about) of the file's kind.
	path func(n, i int) string
}

// workCases are the files BenchmarkWorkBound measures: the hostile ones,
// those that cost the most to classify, the worst cases of the linter and
// Explain at the size Google reads, and the largest files of
// testdata/corpus.
func workCases(tb testing.TB) []workCase {
	var cases []workCase
	for _, f := range hostile.Files() {
		cases = append(cases, workCase{"hostile/" + f.Name, f.Body, func(n, i int) string {
			return f.Path(n, uint64(i%64)) // the worst path, then random ones
		}})
	}
	for _, f := range hostile.ClassifyFiles([]string{"FooBot"}) {
		cases = append(cases, workCase{"classify/" + f.Name, f.Body, worstcase.RulePaths(f.Body, "https://example.com", 7)})
	}
	for _, s := range worstcase.Shapes {
		body := s.Build(robots.MaxBytes)
		cases = append(cases, workCase{"worstcase/" + s.Name, body, worstcase.RulePaths(body, "https://example.com", 7)})
	}
	for _, name := range []string{"02270.txt", "02948.txt", "02152.txt", "29144.txt"} {
		body, err := os.ReadFile(filepath.Join(corpusLicensed, "files", name))
		require.NoError(tb, err)
		cases = append(cases, workCase{"corpus/" + name, body, worstcase.RulePaths(body, "https://example.com", 7)})
	}
	return cases
}

// workShapes are the requests BenchmarkWorkBound makes of each file: k
// URLs of n bytes, decided and their usage asked (as robots serve answers
// a check), or explained.
var workShapes = []struct {
	n, k    int
	explain bool
}{
	{16, 1, false}, {64, 4096, false}, {512, 1024, false}, {4096, 128, false},
	{64, 32, true}, {4096, 4, true},
}

// BenchmarkWorkBound measures how long each worst file's checks take
// against the bound Work gives for them, in nanoseconds of the process's
// CPU time per work unit (cpu-ns/unit; a loaded machine stretches the
// time on the clock, not this), and on the clock (ns/unit): k URLs of n
// bytes each decided and their usage asked, or explained, on a file
// parsed with ScannerBudget (the parse and the resolution of the agent
// are not timed). docs/serve.md gives the most cpu-ns/unit:
//
//	go test -run '^$' -bench BenchmarkWorkBound -benchtime 3x .
func BenchmarkWorkBound(b *testing.B) {
	for _, c := range workCases(b) {
		for _, sh := range workShapes {
			name := fmt.Sprintf("%s/n=%d/k=%d", c.name, sh.n, sh.k)
			if sh.explain {
				name += "/explain"
			}
			b.Run(name, func(b *testing.B) {
				urls := make([]string, sh.k)
				for i := range urls {
					urls[i] = c.path(sh.n, i)
				}
				var took, cpu time.Duration
				var bound int64
				for b.Loop() {
					b.StopTimer()
					a := scanOnly(c.body).Agent("FooBot") // as the parse, counted apart
					b.StartTimer()
					start, cpuStart := time.Now(), cpuTime()
					for _, u := range urls {
						if sh.explain {
							a.Explain(u)
						} else {
							a.Decide(u)
						}
						a.Usage(u)
					}
					took += time.Since(start)
					cpu += cpuTime() - cpuStart
					b.StopTimer()
					bound = workOf(a.Work(), urls, sh.explain)
					b.StartTimer()
				}
				b.ReportMetric(float64(took.Nanoseconds())/float64(b.N)/float64(bound), "ns/unit")
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(bound), "cpu-ns/unit")
				b.ReportMetric(float64(bound), "units")
			})
		}
	}
}

// cpuTime returns the CPU time the process has used, its garbage
// collector's included.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// workOf is the bound on the work of deciding, or explaining, and asking
// the usage of urls, as robots serve counts it.
func workOf(w robots.Work, urls []string, explain bool) int64 {
	longest := 0
	for _, u := range urls {
		longest = max(longest, len(u))
	}
	sum := w.Setup() + w.ColdChecks(2*len(urls), longest)
	for _, u := range urls {
		sum += 2*w.Check(len(u)) + w.Usage(len(u))
		if explain {
			sum += w.Explain(len(u))
		}
	}
	return sum
}

// The paths the benchmark checks are of the file's kind and of the size
// asked, and the same on every run.
func TestWorkCasesArePathsOfTheirSize(t *testing.T) {
	for _, c := range workCases(t) {
		u := c.path(512, 3)
		assert.GreaterOrEqual(t, len(u), 512, c.name)
		assert.LessOrEqual(t, len(u), 512+len("https://example.com"), c.name)
		assert.Equal(t, u, c.path(512, 3), c.name)
		assert.True(t, slices.Contains([]byte(u), '/'), c.name)
	}
}

// BenchmarkScannerBudget decides 4,096 URLs that follow the rules of the
// largest files of testdata/corpus, and of the worst case of many
// distinct rules in one group, on a fresh parse with the default
// automaton budget and with ScannerBudget, and reports the CPU time
// (cpu-ms) and the automaton's memory (automaton-B): wide states, the
// position of every rule that shares a path's first bytes, cost their
// building far more than their bytes.
//
//	go test -run '^$' -bench BenchmarkScannerBudget -benchtime 3x .
func BenchmarkScannerBudget(b *testing.B) {
	var cases []workCase
	for _, c := range workCases(b) {
		if strings.HasPrefix(c.name, "corpus/") || c.name == "worstcase/rules-one-group" {
			cases = append(cases, c)
		}
	}
	for _, c := range cases {
		urls := make([]string, 4096)
		for i := range urls {
			urls[i] = c.path(64, i)
		}
		for _, budget := range []struct {
			name string
			n    int
		}{{"default", 0}, {"scanner", robots.ScannerBudget}} {
			b.Run(c.name+"/"+budget.name, func(b *testing.B) {
				var cpu time.Duration
				var st robots.Stats
				for b.Loop() {
					b.StopTimer()
					a := robots.Parse(c.body, robots.WithAutomatonBudget(budget.n)).Agent("FooBot")
					b.StartTimer()
					start := cpuTime()
					for _, u := range urls {
						a.Decide(u)
					}
					cpu += cpuTime() - start
					st = a.Stats()
				}
				b.ReportMetric(cpu.Seconds()*1000/float64(b.N), "cpu-ms")
				b.ReportMetric(float64(st.Bytes), "automaton-B")
			})
		}
	}
}
