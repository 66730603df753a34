package main

import (
	"os"
	"strings"
	"testing"
)

func parseFile(t *testing.T, name string) *Data {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestParseRaw(t *testing.T) {
	d := parseFile(t, "testdata/raw.txt")
	if got := strings.Join(d.Benchmarks, ","); got != "Parse,CheckStar,PathologicalScaling/n=1250" {
		t.Errorf("benchmarks = %s", got)
	}
	if got := strings.Join(d.Libs, ","); got != "fastrobots,temoto,temoto-group,grobotstxt" {
		t.Errorf("libs = %s", got)
	}
	// -count 3: the median of the three runs.
	if got := d.NsOp["CheckStar"]["fastrobots"]; got != 239.6 {
		t.Errorf("CheckStar/fastrobots = %v ns/op, want the median 239.6", got)
	}
	if got := d.NsOp["PathologicalScaling/n=1250"]["grobotstxt"]; got != 2392800 {
		t.Errorf("PathologicalScaling/grobotstxt/n=1250 = %v", got)
	}
}

func TestParseBenchstat(t *testing.T) {
	raw := parseFile(t, "testdata/raw.txt")
	bs := parseFile(t, "testdata/benchstat.txt")
	for _, b := range []string{"Parse", "CheckStar"} {
		for _, lib := range raw.Libs {
			r, s := raw.NsOp[b][lib], bs.NsOp[b][lib]
			if s == 0 || r/s < 0.99 || r/s > 1.01 {
				t.Errorf("%s/%s: raw median %v ns, benchstat %v ns", b, lib, r, s)
			}
		}
	}
	if len(bs.NsOp) != 4 {
		t.Errorf("benchstat: %d benchmarks, want the 4 of the sec/op table", len(bs.NsOp))
	}
}

func TestRenderDeterministic(t *testing.T) {
	a := Render(parseFile(t, "testdata/raw.txt"), "t")
	b := Render(parseFile(t, "testdata/raw.txt"), "t")
	if a != b {
		t.Fatal("two renderings differ")
	}
	for _, want := range []string{"<svg", "</svg>", ">fastrobots<", "#d9480f", "240 ns", "(326×)"} {
		if !strings.Contains(a, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
}

func TestExclude(t *testing.T) {
	d := parseFile(t, "testdata/raw.txt")
	d.Exclude([]string{"Parse", "BenchmarkPathologicalScaling/n=1250"})
	if got := strings.Join(d.Benchmarks, ","); got != "CheckStar" || len(d.NsOp) != 1 {
		t.Errorf("after Exclude: %s, %d", got, len(d.NsOp))
	}
}

func TestSplit(t *testing.T) {
	for _, c := range []struct{ in, bench, lib string }{
		{"Parse/fastrobots-2", "Parse", "fastrobots"},
		{"Parse/temoto-group", "Parse", "temoto-group"},
		{"PathologicalScaling/fastrobots/n=1250-8", "PathologicalScaling/n=1250", "fastrobots"},
	} {
		b, l, ok := split(c.in)
		if !ok || b != c.bench || l != c.lib {
			t.Errorf("split(%q) = %q, %q, %v", c.in, b, l, ok)
		}
	}
	if _, _, ok := split("Parse-2"); ok {
		t.Error("split accepted a name without a library")
	}
}

func TestDuration(t *testing.T) {
	for ns, want := range map[float64]string{1: "1.00 ns", 239.6: "240 ns", 1500: "1.50 µs", 12.5e6: "12.5 ms", 3e9: "3.00 s"} {
		if got := Duration(ns); got != want {
			t.Errorf("Duration(%v) = %q, want %q", ns, got, want)
		}
	}
}
