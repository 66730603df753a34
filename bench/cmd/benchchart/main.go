// Command benchchart draws the time per operation of `go test -bench`
// results as an SVG bar chart: one group of bars per benchmark, one bar per
// library, on a shared logarithmic axis, fastrobots highlighted and each
// peer labelled with how many times slower than fastrobots it is.
//
//	benchchart [-o chart.svg] [-title T] [-exclude Memory,...] [file ...]
//
// It reads standard input when no file is named. Input is either raw
// `go test -bench` output (benchmarks named BenchmarkX/<lib>[/<variant>];
// with -count > 1 the median of the runs is drawn) or benchstat's text
// output (the sec/op table). Output depends only on the input.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Highlight is the library drawn in the accent colour.
const Highlight = "fastrobots"

func main() {
	out := flag.String("o", "", "write the SVG to this file (default: standard output)")
	title := flag.String("title", "Time per operation (log scale, lower is better)", "chart title")
	exclude := flag.String("exclude", "", "comma-separated benchmarks to leave out (Memory,Corpus/...)")
	flag.Parse()
	var in io.Reader = os.Stdin
	if flag.NArg() > 0 {
		var rs []io.Reader
		for _, name := range flag.Args() {
			f, err := os.Open(name)
			if err != nil {
				log.Fatal(err)
			}
			defer f.Close()
			rs = append(rs, f)
		}
		in = io.MultiReader(rs...)
	}
	data, err := Parse(in)
	if err != nil {
		log.Fatal(err)
	}
	data.Exclude(strings.Split(*exclude, ","))
	if len(data.Benchmarks) == 0 {
		log.Fatal("benchchart: no ns/op results in the input")
	}
	svg := Render(data, *title)
	if *out == "" {
		os.Stdout.WriteString(svg)
		return
	}
	if err := os.WriteFile(*out, []byte(svg), 0o644); err != nil {
		log.Fatal(err)
	}
}

// Data is the parsed input: ns/op per benchmark and library.
type Data struct {
	Benchmarks []string // in order of first appearance
	Libs       []string // Highlight first, then in order of first appearance
	NsOp       map[string]map[string]float64
}

// Parse reads raw `go test -bench` output or benchstat output.
func Parse(r io.Reader) (*Data, error) {
	var lines []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	raw := false
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "Benchmark") {
			raw = true
		}
		lines = append(lines, line)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	samples := map[[2]string][]float64{}
	d := &Data{NsOp: map[string]map[string]float64{}}
	seenB, seenL := map[string]bool{}, map[string]bool{}
	add := func(name string, ns float64) {
		bench, lib, ok := split(name)
		if !ok {
			return
		}
		if !seenB[bench] {
			seenB[bench] = true
			d.Benchmarks = append(d.Benchmarks, bench)
		}
		if !seenL[lib] {
			seenL[lib] = true
			d.Libs = append(d.Libs, lib)
		}
		samples[[2]string{bench, lib}] = append(samples[[2]string{bench, lib}], ns)
	}
	if raw {
		for _, line := range lines {
			f := strings.Fields(line)
			if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
				continue
			}
			for i := 2; i+1 < len(f); i += 2 {
				if f[i+1] == "ns/op" {
					if v, err := strconv.ParseFloat(f[i], 64); err == nil {
						add(strings.TrimPrefix(f[0], "Benchmark"), v)
					}
				}
			}
		}
	} else {
		inTime := false
		for _, line := range lines {
			if strings.Contains(line, "│") { // a table's header: file names, then units
				if strings.Contains(line, "sec/op") {
					inTime = true
				}
				continue
			}
			if strings.TrimSpace(line) == "" {
				inTime = false
				continue
			}
			f := strings.Fields(line)
			if !inTime || len(f) < 2 || f[0] == "geomean" {
				continue
			}
			if v, ok := parseSI(f[1]); ok {
				add(f[0], v*1e9)
			}
		}
	}
	sort.SliceStable(d.Libs, func(i, j int) bool { return d.Libs[i] == Highlight && d.Libs[j] != Highlight })
	for key, xs := range samples {
		if d.NsOp[key[0]] == nil {
			d.NsOp[key[0]] = map[string]float64{}
		}
		d.NsOp[key[0]][key[1]] = median(xs)
	}
	return d, nil
}

// Exclude drops the named benchmarks.
func (d *Data) Exclude(names []string) {
	drop := map[string]bool{}
	for _, n := range names {
		drop[strings.TrimPrefix(strings.TrimSpace(n), "Benchmark")] = true
	}
	kept := d.Benchmarks[:0]
	for _, b := range d.Benchmarks {
		if drop[b] {
			delete(d.NsOp, b)
			continue
		}
		kept = append(kept, b)
	}
	d.Benchmarks = kept
}

// split turns "X/<lib>[/<variant>...]-N" into ("X[/<variant>...]", lib).
func split(name string) (bench, lib string, ok bool) {
	if i := strings.LastIndexByte(name, '-'); i > 0 && i > strings.LastIndexByte(name, '/') {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i]
		}
	}
	parts := strings.Split(name, "/")
	if len(parts) < 2 {
		return "", "", false
	}
	bench = strings.Join(append([]string{parts[0]}, parts[2:]...), "/")
	return bench, parts[1], true
}

// parseSI reads benchstat's "92.23µ", "1.5m", "3.2n", "2.000".
func parseSI(s string) (float64, bool) {
	mult := 1.0
	for _, u := range []struct {
		suffix string
		m      float64
	}{{"n", 1e-9}, {"µ", 1e-6}, {"u", 1e-6}, {"m", 1e-3}, {"k", 1e3}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSuffix(s, u.suffix), u.m
			break
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	return v * mult, err == nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Duration formats nanoseconds with three significant digits.
func Duration(ns float64) string {
	units := []struct {
		name string
		div  float64
	}{{"s", 1e9}, {"ms", 1e6}, {"µs", 1e3}, {"ns", 1}}
	for _, u := range units {
		if ns >= u.div || u.div == 1 {
			v := ns / u.div
			switch {
			case v >= 100:
				return fmt.Sprintf("%.0f %s", v, u.name)
			case v >= 10:
				return fmt.Sprintf("%.1f %s", v, u.name)
			default:
				return fmt.Sprintf("%.2f %s", v, u.name)
			}
		}
	}
	return ""
}

// tick formats a power of ten of nanoseconds: "100 ns", "1 µs".
func tick(ns float64) string {
	return strings.Replace(strings.Replace(Duration(ns), ".00 ", " ", 1), ".0 ", " ", 1)
}

func ratio(r float64) string {
	switch {
	case r >= 100:
		return fmt.Sprintf("%.0f×", r)
	case r >= 10:
		return fmt.Sprintf("%.1f×", r)
	default:
		return fmt.Sprintf("%.2f×", r)
	}
}

// Render draws d.
func Render(d *Data, title string) string {
	const (
		left     = 260.0 // benchmark and library names
		barW     = 560.0 // the axis
		right    = 230.0 // value and ratio labels
		barH     = 14.0
		gap      = 3.0
		groupGap = 16.0
		top      = 62.0
	)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, b := range d.Benchmarks {
		for _, v := range d.NsOp[b] {
			if v > 0 {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	lo = math.Pow(10, math.Floor(math.Log10(lo/2))) // the shortest bar stays visible
	hi = math.Pow(10, math.Ceil(math.Log10(hi)))
	if hi <= lo {
		hi = lo * 10
	}
	x := func(v float64) float64 {
		return left + barW*(math.Log10(v)-math.Log10(lo))/(math.Log10(hi)-math.Log10(lo))
	}
	h := top
	for _, b := range d.Benchmarks {
		h += 18 + float64(len(d.NsOp[b]))*(barH+gap) + groupGap
	}
	h += 20
	width := left + barW + right

	var s strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&s, format, args...); s.WriteByte('\n') }
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">`, width, h, width, h)
	p(`<rect width="100%%" height="100%%" fill="#ffffff"/>`)
	p(`<text x="%.0f" y="24" font-size="16" font-weight="bold">%s</text>`, left, esc(title))
	p(`<rect x="%.0f" y="33" width="12" height="10" fill="#d9480f"/><text x="%.0f" y="42">%s</text>`, left, left+16, Highlight)
	p(`<rect x="%.0f" y="33" width="12" height="10" fill="#868e96"/><text x="%.0f" y="42">other libraries (label: time per op, and × fastrobots)</text>`, left+110, left+126)
	// Decade grid lines.
	for v := lo; v <= hi*1.0001; v *= 10 {
		gx := x(v)
		p(`<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#dee2e6"/>`, gx, top-6, gx, h-24)
		p(`<text x="%.1f" y="%.0f" text-anchor="middle" fill="#495057" font-size="10">%s</text>`, gx, h-10, tick(v))
	}
	y := top
	for _, b := range d.Benchmarks {
		p(`<text x="8" y="%.0f" font-weight="bold">%s</text>`, y+10, esc(b))
		y += 18
		ref, hasRef := d.NsOp[b][Highlight]
		for _, lib := range d.Libs {
			v, ok := d.NsOp[b][lib]
			if !ok {
				continue
			}
			fill := "#868e96"
			if lib == Highlight {
				fill = "#d9480f"
			}
			p(`<text x="%.0f" y="%.0f" text-anchor="end">%s</text>`, left-8, y+barH-3, esc(lib))
			w := math.Max(x(v)-left, 1)
			p(`<rect x="%.0f" y="%.0f" width="%.1f" height="%.0f" fill="%s"><title>%s %s: %s/op</title></rect>`, left, y, w, barH, fill, esc(b), esc(lib), Duration(v))
			label := Duration(v)
			if hasRef && lib != Highlight && ref > 0 {
				label += "  (" + ratio(v/ref) + ")"
			}
			p(`<text x="%.1f" y="%.0f" fill="#212529">%s</text>`, left+w+4, y+barH-3, esc(label))
			y += barH + gap
		}
		y += groupGap
	}
	p(`</svg>`)
	return s.String()
}

func esc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
