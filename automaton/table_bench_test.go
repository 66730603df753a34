package automaton

import (
	"bufio"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"unsafe"
)

// BenchmarkTableRun times the hot loop of a check, table.run, over the 64
// paths of bench/testdata/urls.txt in the DFA of bench/testdata/realistic.txt's
// rules (every group's, merged), its states built: Checked is the loop
// every check runs, a bounds-checked slice index per byte; Unchecked is the
// same walk through a pointer read with no bounds check, which this test
// alone has (unsafe is not imported by the package). The difference is what
// memory safety costs a check's walk:
//
//	go test -run '^$' -bench BenchmarkTableRun -count 6 ./automaton
func BenchmarkTableRun(b *testing.B) {
	patterns, paths := realisticWorkload(b)
	s := NewSet(patterns, Options{})
	for range 8 { // rows for the states the paths reach
		for _, p := range paths {
			s.Allowed(p, "")
		}
	}
	t, start := s.dfa.table.Load(), row(uint32(s.dfa.start))
	for _, p := range paths {
		if c, n := t.run(start, p); c != uncheckedRun(t, start, p) || n < 0 {
			b.Fatalf("%q: the two walks differ", p)
		}
	}
	b.Run("Checked", func(b *testing.B) {
		sum := row(0)
		for i := range b.N {
			c, _ := t.run(start, paths[i&63])
			sum += c
		}
		benchSink = sum
	})
	b.Run("Unchecked", func(b *testing.B) {
		sum := row(0)
		for i := range b.N {
			sum += uncheckedRun(t, start, paths[i&63])
		}
		benchSink = sum
	})
}

var benchSink row

// uncheckedRun is table.run reading the table through a raw pointer: the
// address is (base + 4·class) + 4·cur, the class added off the
// loop-carried chain, and no bounds check.
func uncheckedRun(t *table, cur row, in string) row {
	base := unsafe.Pointer(unsafe.SliceData(t.trans))
	n, class := row(len(t.trans)), t.class
	for i := 0; i < len(in); i++ {
		c := uintptr(class[in[i]])
		if cur >= n {
			return cur
		}
		cur = row(atomic.LoadUint32((*uint32)(unsafe.Add(unsafe.Add(base, c*4), uintptr(cur)*4))))
	}
	return cur
}

// realisticWorkload reads the benchmarks' realistic file's allow and
// disallow values as patterns, and their 64 paths.
func realisticWorkload(b *testing.B) ([]Pattern, []string) {
	b.Helper()
	f, err := os.Open("../bench/testdata/realistic.txt")
	if err != nil {
		b.Skipf("the benchmarks' workload: %v", err)
	}
	defer f.Close()
	var patterns []Pattern
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		key, value = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value)
		if ok && (key == "allow" || key == "disallow") && value != "" {
			patterns = append(patterns, Pattern{Expr: value, Allow: key == "allow", Priority: int32(len(value)), ID: int32(len(patterns))})
		}
	}
	urls, err := os.ReadFile("../bench/testdata/urls.txt")
	if err != nil {
		b.Fatal(err)
	}
	paths := strings.Fields(string(urls))
	if len(patterns) == 0 || len(paths) < 64 {
		b.Fatalf("%d patterns, %d paths", len(patterns), len(paths))
	}
	return patterns, paths[:64]
}
