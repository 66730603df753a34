package bench

import (
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"sync"
	"testing"
	"time"
)

// Every benchmark is BenchmarkX/<lib>, one sub-benchmark per library, so
// that one `go test -bench .` run measures every library on the same
// machine. See ../docs/benchmarks.md for what each one measures.

var sink int

func workload(b *testing.B) (body []byte, paths []string) {
	b.Helper()
	body, err := Realistic()
	if err != nil {
		b.Fatal(err)
	}
	paths, err = URLPaths()
	if err != nil {
		b.Fatal(err)
	}
	return body, paths
}

func mustParse(b *testing.B, lib Lib, body []byte) Parsed {
	b.Helper()
	p, err := lib.Parse(body)
	if err != nil {
		b.Fatalf("%s refuses the file: %v", lib.Name(), err)
	}
	return p
}

// BenchmarkParse parses testdata/realistic.txt (≈17 KB) once per op.
func BenchmarkParse(b *testing.B) {
	body, _ := workload(b)
	benchParse(b, body, func(b *testing.B, lib Lib) { mustParse(b, lib, body) })
}

// BenchmarkCompile parses testdata/realistic.txt and resolves NamedAgent's
// group once per op.
func BenchmarkCompile(b *testing.B) {
	body, _ := workload(b)
	benchResolve(b, body, NamedAgent, func(b *testing.B, lib Lib) { mustParse(b, lib, body) })
}

// benchParse times parsing body once per op, for every library that ready
// (called first, outside the timer) does not stop.
func benchParse(b *testing.B, body []byte, ready func(*testing.B, Lib)) {
	for _, lib := range Libs() {
		b.Run(lib.Name(), func(b *testing.B) {
			ready(b, lib)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if p, _ := lib.Parse(body); p != nil {
					sink++
				}
			}
		})
	}
}

// benchResolve times parsing body and resolving agent once per op, for
// every library that ready does not stop.
func benchResolve(b *testing.B, body []byte, agent string, ready func(*testing.B, Lib)) {
	for _, lib := range Libs() {
		b.Run(lib.Name(), func(b *testing.B) {
			ready(b, lib)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				p, _ := lib.Parse(body)
				if p.Compile(agent) != nil {
					sink++
				}
			}
		})
	}
}

// BenchmarkCheckStar checks one of the 64 paths of testdata/urls.txt per op
// for StarAgent, which falls to the '*' group (≈270 rules). Parsing,
// resolving and one warm-up pass over the 64 paths are done before the timer
// starts, so a matcher built lazily is measured in its steady state (its
// building shows in OneShot and Memory).
func BenchmarkCheckStar(b *testing.B) { benchCheck(b, StarAgent) }

// BenchmarkCheckNamed is BenchmarkCheckStar for NamedAgent (Googlebot), which
// has a group of its own (32 rules).
func BenchmarkCheckNamed(b *testing.B) { benchCheck(b, NamedAgent) }

func benchCheck(b *testing.B, agent string) {
	body, paths := workload(b)
	for _, lib := range Libs() {
		b.Run(lib.Name(), func(b *testing.B) {
			c := mustParse(b, lib, body).Compile(agent)
			in := Prepare(lib, paths)
			for _, s := range in {
				c.Allowed(s) // warm-up: see the doc comment
			}
			b.ReportAllocs()
			b.ResetTimer()
			n := 0
			for i := range b.N {
				if c.Allowed(in[i&63]) {
					n++
				}
			}
			sink += n
		})
	}
}

// BenchmarkOneShot answers one question about a body never seen before per
// op: parse testdata/realistic.txt, resolve NamedAgent, check one path (a
// different one of the 64 each op), in the cheapest way each library offers.
func BenchmarkOneShot(b *testing.B) {
	body, paths := workload(b)
	for _, lib := range Libs() {
		b.Run(lib.Name(), func(b *testing.B) {
			mustParse(b, lib, body)
			in := Prepare(lib, paths)
			b.ReportAllocs()
			b.ResetTimer()
			n := 0
			for i := range b.N {
				if lib.OneShot(body, NamedAgent, in[i&63]) {
					n++
				}
			}
			sink += n
		})
	}
}

// pathoCap is the time one pathological check may take; a library slower
// than that is measured once and skipped, so that the run stays short.
const pathoCap = time.Second

var pathoTimes sync.Map // "lib/n" -> time.Duration of one check

// BenchmarkPathological checks one 5,000-byte path that almost matches
// against the 100 star-heavy rules of PathologicalRobots, per op. The first
// check, made before the timer starts, is reported apart as ns/first-check
// (a lazily built matcher builds its states then).
func BenchmarkPathological(b *testing.B) {
	for _, lib := range Libs() {
		b.Run(lib.Name(), func(b *testing.B) { benchPatho(b, lib, 5000) })
	}
}

// BenchmarkPathologicalScaling is BenchmarkPathological for paths of
// 1,250 to 10,000 bytes: a matcher linear in the path's length doubles its
// ns/op from one size to the next and keeps ns/B flat. temoto is left out:
// its matcher is temoto-group's.
func BenchmarkPathologicalScaling(b *testing.B) {
	for _, lib := range Libs() {
		if lib.Name() == "temoto" {
			continue
		}
		b.Run(lib.Name(), func(b *testing.B) {
			for _, n := range []int{1250, 2500, 5000, 10000} {
				b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchPatho(b, lib, n) })
			}
		})
	}
}

func benchPatho(b *testing.B, lib Lib, n int) {
	key := fmt.Sprintf("%s/%d", lib.Name(), n)
	if d, ok := pathoTimes.Load(key); ok && d.(time.Duration) > pathoCap {
		b.Skipf("skipped: one check took %v, over the %v cap", d.(time.Duration).Round(time.Millisecond), pathoCap)
	}
	c := mustParse(b, lib, PathologicalRobots()).Compile(StarAgent)
	in := Prepare(lib, []string{PathologicalPath(n)})[0]
	start := time.Now()
	c.Allowed(in) // the first, cold check: also the warm-up
	cold := time.Since(start)
	pathoTimes.Store(key, cold)
	if cold > pathoCap {
		b.Skipf("skipped: one check took %v, over the %v cap", cold.Round(time.Millisecond), pathoCap)
	}
	b.ReportAllocs()
	b.ResetTimer()
	m := 0
	for range b.N {
		if c.Allowed(in) {
			m++
		}
	}
	sink += m
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/B")
	b.ReportMetric(float64(cold.Nanoseconds()), "ns/first-check")
}

func needCorpus(b *testing.B) *Corpus {
	b.Helper()
	c, err := LoadCorpus()
	if errors.Is(err, fs.ErrNotExist) {
		b.Skipf("corpus absent (%v): put robots-corpus.tar.gz and crawled-urls.tsv.gz in %s", err, CorpusDir)
	}
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkCorpus is the realistic crawler workload: per op, every file of
// the corpus that has crawled URLs is parsed, NamedAgent resolved and each
// of the file's crawled URLs checked.
func BenchmarkCorpus(b *testing.B) {
	c := needCorpus(b)
	var size int64
	for _, f := range c.Crawled {
		size += int64(len(c.Body(f.File)))
	}
	for _, lib := range Libs() {
		b.Run(lib.Name(), func(b *testing.B) {
			names := make([]string, len(c.Crawled))
			bodies := make([][]byte, len(c.Crawled))
			inputs := make([][]string, len(c.Crawled))
			for k, f := range c.Crawled {
				names[k], bodies[k], inputs[k] = c.Name(f.File), c.Body(f.File), c.Inputs(k, lib)
			}
			b.SetBytes(size)
			b.ReportAllocs()
			b.ResetTimer()
			var st Stats
			for range b.N {
				for k := range inputs {
					RunFile(lib, names[k], bodies[k], NamedAgent, inputs[k], &st)
				}
			}
			reportCorpus(b, &st)
		})
	}
}

// BenchmarkCorpusAll parses every file of the corpus (28,515, HTML pages
// served as robots.txt included), resolves NamedAgent and checks "/", per
// op: the robustness pass.
func BenchmarkCorpusAll(b *testing.B) {
	c := needCorpus(b)
	for _, lib := range Libs() {
		b.Run(lib.Name(), func(b *testing.B) {
			in := Prepare(lib, []string{"/"})
			names := make([]string, c.Len())
			bodies := make([][]byte, c.Len())
			for i := range names {
				names[i], bodies[i] = c.Name(i), c.Body(i)
			}
			b.SetBytes(c.Bytes)
			b.ReportAllocs()
			b.ResetTimer()
			var st Stats
			for range b.N {
				for i := range names {
					RunFile(lib, names[i], bodies[i], NamedAgent, in, &st)
				}
			}
			reportCorpus(b, &st)
		})
	}
}

func reportCorpus(b *testing.B, st *Stats) {
	b.StopTimer()
	sec := b.Elapsed().Seconds()
	n := float64(b.N)
	b.ReportMetric(float64(st.Files)/sec, "files/s")
	b.ReportMetric(float64(st.Checks)/sec, "checks/s")
	b.ReportMetric(float64(st.Panics)/n, "panics")
	b.ReportMetric(float64(st.Errors)/n, "errors")
	b.ReportMetric(float64(st.Disallowed)/n, "disallowed")
	if st.Panics > 0 {
		b.Logf("%d panics per pass, first in %v", st.Panics/b.N, st.PanicFiles)
	}
}

// memoryStep picks the memory sample: every memoryStep-th file of the
// sorted corpus (28,515 files → 2,037).
const memoryStep = 14

type memResult struct {
	median, p90, mean         int64
	files, failed             int
	realisticParse, realistic int64
	states, automaton         int // -1: the library does not tell
	// the same with the rules compiled at once, for a library that
	// compiles them lazily (Precompiler); -1 otherwise
	realisticCompiled                 int64
	statesCompiled, automatonCompiled int
}

var memResults sync.Map // lib name -> *memResult

// BenchmarkMemory reports the heap each library retains per parsed and
// compiled file (see RetainedFiles and Retained for the method):
// B/file-median, B/file-p90 and B/file-mean over a deterministic sample of
// the corpus (every 14th file of the sorted names: 2,037 files), and for
// testdata/realistic.txt B/realistic-parse (Parse only) and
// B/realistic-star (Parse, StarAgent resolved, all 64 paths checked once:
// what a lazily built matcher has grown to), with, for a library that
// tells (AutomatonSizer), B/automaton-star and states-star: the size of its
// automaton at that point. The measurement is made once
// per process, before the timer starts; the timed op parses and compiles
// every sampled file (ns/file is the mean per file).
func BenchmarkMemory(b *testing.B) {
	body, paths := workload(b)
	c := needCorpus(b)
	sample := c.Sample(memoryStep)
	bodies := make([][]byte, len(sample))
	for i, j := range sample {
		bodies[i] = c.Body(j)
	}
	for _, lib := range Libs() {
		b.Run(lib.Name(), func(b *testing.B) {
			in := Prepare(lib, []string{"/"})
			r, ok := memResults.Load(lib.Name())
			if !ok {
				r = measureMemory(lib, bodies, body, Prepare(lib, paths), in[0])
				memResults.Store(lib.Name(), r)
				if m := r.(*memResult); m.failed > 0 {
					b.Logf("%d of %d sampled files not measured (refused by the library or made it panic)", m.failed, m.files)
				}
			}
			m := r.(*memResult)
			b.ReportAllocs()
			b.ResetTimer()
			var st Stats
			for range b.N {
				for _, body := range bodies {
					RunFile(lib, "", body, NamedAgent, in, &st)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(bodies)), "ns/file")
			b.ReportMetric(float64(m.median), "B/file-median")
			b.ReportMetric(float64(m.p90), "B/file-p90")
			b.ReportMetric(float64(m.mean), "B/file-mean")
			b.ReportMetric(float64(m.realisticParse), "B/realistic-parse")
			b.ReportMetric(float64(m.realistic), "B/realistic-star")
			if m.automaton >= 0 {
				b.ReportMetric(float64(m.automaton), "B/automaton-star")
				b.ReportMetric(float64(m.states), "states-star")
			}
			if m.automatonCompiled >= 0 {
				b.ReportMetric(float64(m.realisticCompiled), "B/realistic-star-compiled")
				b.ReportMetric(float64(m.automatonCompiled), "B/automaton-star-compiled")
				b.ReportMetric(float64(m.statesCompiled), "states-star-compiled")
			}
		})
	}
}

func measureMemory(lib Lib, bodies [][]byte, body []byte, paths []string, probe string) *memResult {
	// One P makes each forced collection ~10× faster on 2 cores (no
	// hand-offs between threads) and changes nothing that is measured.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	r := &memResult{files: len(bodies)}
	xs, failed := RetainedFiles(lib, bodies, NamedAgent, probe)
	r.failed = failed
	var sum int64
	for _, x := range xs {
		sum += x
	}
	if len(xs) > 0 {
		r.mean = sum / int64(len(xs))
	}
	r.median = Quantile(xs, 0.5)
	r.p90 = Quantile(xs, 0.9)
	r.realisticParse, _ = Retained(func() any {
		p, _ := lib.Parse(append([]byte(nil), body...))
		return p
	})
	r.states, r.automaton = -1, -1
	r.realistic, _ = Retained(func() any {
		p, _ := lib.Parse(append([]byte(nil), body...))
		ch := p.Compile(StarAgent)
		for _, s := range paths {
			ch.Allowed(s)
		}
		if a, ok := ch.(AutomatonSizer); ok {
			r.states, r.automaton = a.AutomatonSize()
		}
		return [2]any{p, ch}
	})
	// A library that compiles its rules lazily is measured once more with
	// them compiled before the paths are checked: the automaton a crawler
	// holds for a site it checks many URLs of.
	r.statesCompiled, r.automatonCompiled = -1, -1
	r.realisticCompiled, _ = Retained(func() any {
		p, _ := lib.Parse(append([]byte(nil), body...))
		ch := p.Compile(StarAgent)
		pc, ok := ch.(Precompiler)
		if !ok {
			return nil
		}
		pc.CompileNow()
		for _, s := range paths {
			ch.Allowed(s)
		}
		if a, ok := ch.(AutomatonSizer); ok {
			r.statesCompiled, r.automatonCompiled = a.AutomatonSize()
		}
		return [2]any{p, ch}
	})
	// Everything allocated before a measurement must outlive it, or its
	// release would be subtracted from the figure.
	runtime.KeepAlive(bodies)
	runtime.KeepAlive(body)
	runtime.KeepAlive(paths)
	runtime.KeepAlive(probe)
	return r
}
