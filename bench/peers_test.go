package bench

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/compile"
)

// TestPeersAgreeOnBasics checks that every adapter gives the obvious verdict
// on trivial cases, through Parse/Compile/Allowed and through OneShot, so
// that a broken adapter is not silently measured.
func TestPeersAgreeOnBasics(t *testing.T) {
	const twoGroups = "User-agent: FooBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"
	cases := []struct {
		body, agent, path string
		want              bool
	}{
		{twoGroups, "BarBot", "/private/x.html", false},
		{twoGroups, "BarBot", "/public/x.html", true},
		{twoGroups, "FooBot", "/public/x.html", false},
		{"User-agent: *\nDisallow: /a\nAllow: /a/b\n", "BarBot", "/a/b/c?d=e", true},
		{"User-agent: *\nDisallow: /*.pdf$\n", "BarBot", "/docs/x.pdf", false},
	}
	for _, lib := range Libs() {
		for _, c := range cases {
			in := Prepare(lib, []string{c.path})[0]
			p, err := lib.Parse([]byte(c.body))
			if err != nil {
				t.Errorf("%s: Parse(%q): %v", lib.Name(), c.body, err)
				continue
			}
			if got := p.Compile(c.agent).Allowed(in); got != c.want {
				t.Errorf("%s: %q for %s in %q: allowed = %v, want %v", lib.Name(), in, c.agent, c.body, got, c.want)
			}
			if got := lib.OneShot([]byte(c.body), c.agent, in); got != c.want {
				t.Errorf("%s: OneShot %q for %s in %q: allowed = %v, want %v", lib.Name(), in, c.agent, c.body, got, c.want)
			}
		}
	}
}

// TestWorkload checks the benchmark inputs: the realistic file's shape, a
// mix of verdicts over the 64 paths for both agents, and the pathological
// path, which no library may find disallowed (its rules never match).
// Verdicts that differ from fastrobots' are logged, not failed: the peers
// do not all follow Google's rules.
func TestWorkload(t *testing.T) {
	body, paths := loadWorkload(t)
	if n := len(body); n < 15000 || n > 20000 {
		t.Errorf("realistic.txt is %d bytes, want about 17 KB", n)
	}
	if n := strings.Count(string(body), "\nUser-agent: "); n < 15 {
		t.Errorf("realistic.txt has %d user-agent lines, want at least 15", n)
	}
	for _, p := range paths {
		if len(p) < 20 || len(p) > 120 || p[0] != '/' {
			t.Errorf("urls.txt: %q: want a path of 20 to 120 bytes", p)
		}
	}
	verdicts := map[string][]bool{}
	for _, lib := range Libs() {
		p, err := lib.Parse(body)
		if err != nil {
			t.Fatalf("%s refuses realistic.txt: %v", lib.Name(), err)
		}
		for _, agent := range []string{StarAgent, NamedAgent} {
			c := p.Compile(agent)
			for _, in := range Prepare(lib, paths) {
				verdicts[lib.Name()+"/"+agent] = append(verdicts[lib.Name()+"/"+agent], c.Allowed(in))
			}
		}
	}
	for _, agent := range []string{StarAgent, NamedAgent} {
		ref := verdicts["fastrobots/"+agent]
		allowed := 0
		for _, v := range ref {
			if v {
				allowed++
			}
		}
		if allowed < 16 || allowed > 48 {
			t.Errorf("%s: fastrobots allows %d of 64 paths, want a mix (16 to 48)", agent, allowed)
		}
		t.Logf("%s: fastrobots allows %d of 64 paths", agent, allowed)
		for _, lib := range Libs()[1:] {
			for i, v := range verdicts[lib.Name()+"/"+agent] {
				if v != ref[i] {
					t.Logf("%s differs from fastrobots for %s on %s: allowed = %v", lib.Name(), agent, paths[i], v)
				}
			}
		}
	}
	for _, lib := range Libs() {
		p, err := lib.Parse(PathologicalRobots())
		if err != nil {
			t.Fatalf("%s refuses the pathological file: %v", lib.Name(), err)
		}
		c := p.Compile(StarAgent)
		for _, n := range []int{100, 1250} {
			path := PathologicalPath(n)
			if len(path) != n {
				t.Fatalf("PathologicalPath(%d) has %d bytes", n, len(path))
			}
			if !c.Allowed(Prepare(lib, []string{path})[0]) {
				t.Errorf("%s disallows the pathological path of %d bytes", lib.Name(), n)
			}
		}
	}
}

func TestPathOf(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"https://example.com", "/"},
		{"https://example.com/", "/"},
		{"https://example.com/a/b?c=d#e", "/a/b?c=d"},
		{"https://example.com?q=1", "/?q=1"},
		{"https://example.com;p", "/;p"},
		{"https://example.com#x/y", "/"},
		{"//example.com/a", "/a"},
		{"/a/b", "/a/b"},
		{"example.com/a", "/a"},
		{"http://a.com/b://c", "/b://c"},
	} {
		if got := PathOf(c.url); got != c.want {
			t.Errorf("PathOf(%q) = %q, want %q", c.url, got, c.want)
		}
	}
}

type panicLib struct{ when string }

func (panicLib) Name() string { return "panic" }
func (panicLib) Input() Input { return InputPath }
func (l panicLib) OneShot(body []byte, a, p string) bool {
	maybePanic(l.when, "oneshot")
	return p != "/no"
}
func (l panicLib) Parse(body []byte) (Parsed, error) { maybePanic(l.when, "parse"); return l, nil }
func (l panicLib) Compile(agent string) Checker      { maybePanic(l.when, "compile"); return l }
func (l panicLib) Allowed(path string) bool          { maybePanic(l.when, path); return path != "/no" }
func maybePanic(when, what string) {
	if when == what {
		panic(what)
	}
}

func TestRunFileRecovers(t *testing.T) {
	inputs := []string{"/a", "/boom", "/no", "/c"}
	for _, c := range []struct {
		when                      string
		checks, panics, disallows int
	}{
		{"", 4, 0, 1},
		{"parse", 0, 1, 0},
		{"compile", 0, 1, 0},
		{"/boom", 4, 1, 1},
	} {
		var st Stats
		RunFile(panicLib{c.when}, "f", nil, "a", inputs, &st)
		if st.Files != 1 || st.Checks != c.checks || st.Panics != c.panics || st.Disallowed != c.disallows {
			t.Errorf("panic in %q: %+v", c.when, st)
		}
	}
}

func TestCheckCycleRecovers(t *testing.T) {
	inputs := []string{"/a", "/boom", "/no", "/c"}
	var st Stats
	CheckCycle(panicLib{"/boom"}, inputs, 10, &st)
	want := Stats{Checks: 10, Panics: 3, Disallowed: 2, PanicFiles: []string{""}} // a file is named once
	if !reflect.DeepEqual(st, want) {
		t.Errorf("CheckCycle: %+v, want %+v", st, want)
	}
}

func TestRunOneShotRecovers(t *testing.T) {
	var st Stats
	for _, p := range []string{"/a", "/no"} {
		RunOneShot(panicLib{}, "f", nil, "a", p, &st)
	}
	RunOneShot(panicLib{"oneshot"}, "g", nil, "a", "/a", &st)
	want := Stats{Files: 3, Checks: 3, Panics: 1, Disallowed: 1, PanicFiles: []string{"g"}}
	if !reflect.DeepEqual(st, want) {
		t.Errorf("RunOneShot: %+v, want %+v", st, want)
	}
}

func TestCrawlerAgent(t *testing.T) {
	seen := map[string]bool{}
	for i := range 20 {
		seen[CrawlerAgent(i)] = true
	}
	if len(seen) != 10 || CrawlerAgent(0) != "Googlebot" || CrawlerAgent(13) != "YandexBot" {
		t.Errorf("CrawlerAgent: %d agents over 20 files, 0 → %s, 13 → %s", len(seen), CrawlerAgent(0), CrawlerAgent(13))
	}
}

func TestRetained(t *testing.T) {
	n, ok := Retained(func() any { return make([]byte, 1<<20) })
	if !ok || n < 1<<20 || n > 1<<20+64<<10 {
		t.Errorf("Retained(1 MiB) = %d, %v", n, ok)
	}
	n, _ = Retained(func() any { _ = make([]byte, 1<<20); return nil })
	if n > 64<<10 {
		t.Errorf("Retained(garbage) = %d, want about 0", n)
	}
	sizes, failed := RetainedFiles(fastrobotsLib{}, [][]byte{[]byte("User-agent: *\nDisallow: /x\n"), nil}, "a", "/")
	if failed != 0 || len(sizes) != 2 {
		t.Errorf("RetainedFiles: %v, %d failed", sizes, failed)
	}
	if q := Quantile([]int64{5, 1, 4, 2, 3}, 0.5); q != 3 {
		t.Errorf("median = %d", q)
	}
}

// TestRealisticStarAutomaton reports the make-up of the automaton that the
// `*` group of realistic.txt has after the 64 paths (docs/benchmarks.md,
// "The automaton's memory"): run it with -v. The rules are compiled at
// once, as they are once hot. It also reports the automaton once every
// path was checked four more times, so that every state they reach has its
// row: the memory of a site whose same URLs are checked again and again.
//
// robots.Stats reports states and bytes only; the make-up is
// automaton.Stats, so the test builds the agent from the layers as
// robots.Robots.Agent does: resolve, compile (the file's dialect sets
// the automaton's options), check.
func TestRealisticStarAutomaton(t *testing.T) {
	body, paths := loadWorkload(t)
	file := compile.Parse(body, compile.Options{})
	rules := file.Compile(file.Resolve(StarAgent), automaton.Options{})
	rules.Set()
	pathBytes := 0
	for _, p := range paths {
		rules.Allowed(p, "", "")
		pathBytes += len(p)
	}
	st := rules.Stats()
	rows := st.Rows * (st.Classes + 2) * 4
	t.Logf("%d paths, %d bytes: %d states, %d of them with a row, %d positions, %d byte classes", len(paths), pathBytes, st.States, st.Rows, st.Positions, st.Classes)
	t.Logf("counted %d B = table %d B (rows in use %d B) + sparse transitions %d B + stored kernels %d B + bookkeeping %d B",
		st.Bytes, st.TableBytes, rows, st.EdgeBytes, st.KernelBytes, st.Bytes-st.TableBytes-st.EdgeBytes-st.KernelBytes)
	if st.States == 0 || st.TableBytes < rows || st.Bytes <= st.TableBytes+st.EdgeBytes+st.KernelBytes {
		t.Errorf("stats do not add up: %+v", st)
	}
	// The same paths again and again: every state they reach gets its row.
	for range 4 {
		for _, p := range paths {
			rules.Allowed(p, "", "")
		}
	}
	again := rules.Stats()
	t.Logf("after 4 more checks of each path: %d B, %d states with a row, table %d B", again.Bytes, again.Rows, again.TableBytes)
	if again.Rows <= st.Rows || again.States != st.States {
		t.Errorf("checking the same paths again gave %d rows of %d states, had %d rows of %d", again.Rows, again.States, st.Rows, st.States)
	}
}

// loadWorkload returns realistic.txt and the 64 paths, failing t if either
// cannot be read.
func loadWorkload(t *testing.T) ([]byte, []string) {
	t.Helper()
	body, err := Realistic()
	if err != nil {
		t.Fatal(err)
	}
	paths, err := URLPaths()
	if err != nil {
		t.Fatal(err)
	}
	return body, paths
}

// TestShopWorkload checks that the 64 shop paths give ShopAgent a mix of
// verdicts under shop.txt, and that fastrobots resolves ShopAgent to the
// 260 rules of the '*' group. Verdicts that differ from fastrobots' are
// logged, not failed.
func TestShopWorkload(t *testing.T) {
	body, err := Shop()
	require.NoError(t, err)
	paths, err := ShopPaths()
	require.NoError(t, err)
	r := robots.Parse(body)
	star := r.Agent(ShopAgent)
	rules := 0
	for _, g := range star.Groups() {
		for _, a := range r.Groups()[g].Agents {
			require.True(t, a.Global, "group %d names %q", g, a.Value)
		}
		rules += len(r.Groups()[g].Rules)
	}
	require.Equal(t, 260, rules, "rules that apply to %s", ShopAgent)
	ref := make([]bool, len(paths))
	allowed := 0
	for i, p := range paths {
		ref[i] = star.AllowedPath(p)
		if ref[i] {
			allowed++
		}
	}
	if allowed < 16 || allowed > 48 {
		t.Errorf("fastrobots allows %d of 64 shop paths, want a mix (16 to 48)", allowed)
	}
	t.Logf("fastrobots allows %d of 64 shop paths", allowed)
	for _, lib := range Libs()[1:] {
		p, err := lib.Parse(body)
		if err != nil {
			t.Logf("%s refuses shop.txt: %v", lib.Name(), err)
			continue
		}
		c := p.Compile(ShopAgent)
		differ := 0
		for i, in := range Prepare(lib, paths) {
			if v, panicked := recovered(func() bool { return c.Allowed(in) }); panicked || v != ref[i] {
				differ++
				t.Logf("%s differs on %s: allowed = %v, panicked = %v", lib.Name(), paths[i], v, panicked)
			}
		}
		t.Logf("%s differs from fastrobots on %d of 64 shop paths", lib.Name(), differ)
	}
}
