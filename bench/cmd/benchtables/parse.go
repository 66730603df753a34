package main

import (
	"bufio"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Run is the raw output of one `go test -bench` run, with its benchmarks
// named BenchmarkX/<lib>[/<variant>].
//
// A benchmark is X, or X/<variant> when it has variants
// ("PathologicalScaling/n=1250"); its family is X. Every list keeps the
// order of first appearance, so that the same input always gives the same
// tables.
type Run struct {
	// CPU is the "cpu:" header line's value.
	CPU string
	// Benchmarks lists every benchmark that reported a result.
	Benchmarks []string
	// Libs lists every library that reported a result.
	Libs []string
	// Units lists, per benchmark, every unit any library reported for it.
	Units map[string][]string
	// Notes are the messages the benchmarks logged or skipped with, each
	// once.
	Notes []Note

	samples map[sampleKey][]float64
}

// A Note is a message a benchmark logged (Kind "BENCH"), skipped with
// ("SKIP") or failed with ("FAIL"), without its file:line prefix.
type Note struct {
	Bench, Lib, Kind, Text string
}

type sampleKey struct{ bench, lib, unit string }

// Median returns the median of lib's samples of unit in bench (the mean of
// the middle two when there is an even number of them), and false when
// there is none.
func (r *Run) Median(bench, lib, unit string) (float64, bool) {
	xs := r.samples[sampleKey{bench, lib, unit}]
	if len(xs) == 0 {
		return 0, false
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2], true
	}
	return (s[n/2-1] + s[n/2]) / 2, true
}

// Runs returns the fewest and the most results any library reported for
// any benchmark (both the -count of the run when no result is missing),
// and whether some benchmark's library has an even number of them.
func (r *Run) Runs() (fewest, most int, someEven bool) {
	for k, xs := range r.samples {
		if k.unit != "ns/op" {
			continue
		}
		if fewest == 0 || len(xs) < fewest {
			fewest = len(xs)
		}
		most = max(most, len(xs))
		someEven = someEven || len(xs)%2 == 0
	}
	return fewest, most, someEven
}

// logPrefix is the "file.go:123: " that testing puts before a logged line.
var logPrefix = regexp.MustCompile(`^\S+\.go:\d+: `)

// ParseRun reads raw `go test -bench` output (-count runs, -benchmem or
// not, -v or not). A result whose numbers a library's own output on
// standard output pushed to a later line is still read: the numbers are
// found on whichever line follows the name.
func ParseRun(in io.Reader) (*Run, error) {
	p := &parser{
		r:         &Run{Units: map[string][]string{}, samples: map[sampleKey][]float64{}},
		seenBench: map[string]bool{}, seenLib: map[string]bool{},
		seenUnit: map[[2]string]bool{}, seenNote: map[Note]bool{},
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		p.line(sc.Text())
	}
	p.endNote()
	return p.r, sc.Err()
}

// parser is ParseRun's state between lines.
type parser struct {
	r                  *Run
	seenBench, seenLib map[string]bool
	seenUnit           map[[2]string]bool // benchmark, unit
	seenNote           map[Note]bool
	pending            string // a benchmark whose name was printed but not its numbers
	note               *Note  // the note whose indented lines follow
	noteLines          int    // the indented lines that followed it
}

func (p *parser) line(line string) {
	if p.note != nil && strings.HasPrefix(line, "    ") {
		p.noteLines++
		n := *p.note
		n.Text = logPrefix.ReplaceAllString(strings.TrimSpace(line), "")
		p.addNote(n)
		return
	}
	p.endNote()
	if cpu, ok := strings.CutPrefix(line, "cpu: "); ok && p.r.CPU == "" {
		p.r.CPU = strings.TrimSpace(cpu)
		return
	}
	if n, ok := parseNoteHeader(line); ok {
		p.note = &n
		return
	}
	name, values, ok := parseResult(line)
	if !ok {
		if strings.HasPrefix(line, "Benchmark") {
			p.pending = strings.Fields(line)[0]
		}
		return
	}
	if name == "" {
		name = p.pending
	}
	p.pending = ""
	p.addResult(name, values)
}

// endNote ends the current note. A skip or failure that logged nothing is
// noted all the same.
func (p *parser) endNote() {
	if p.note != nil && p.noteLines == 0 && p.note.Kind != "BENCH" {
		p.addNote(*p.note)
	}
	p.note, p.noteLines = nil, 0
}

// addNote appends n unless it is already there.
func (p *parser) addNote(n Note) {
	if !p.seenNote[n] {
		p.seenNote[n] = true
		p.r.Notes = append(p.r.Notes, n)
	}
}

// addResult adds one result line's values to their samples.
func (p *parser) addResult(name string, values []value) {
	bench, lib, ok := splitName(name)
	if !ok {
		return
	}
	r := p.r
	if !p.seenBench[bench] {
		p.seenBench[bench] = true
		r.Benchmarks = append(r.Benchmarks, bench)
	}
	if !p.seenLib[lib] {
		p.seenLib[lib] = true
		r.Libs = append(r.Libs, lib)
	}
	for _, v := range values {
		if !p.seenUnit[[2]string{bench, v.unit}] {
			p.seenUnit[[2]string{bench, v.unit}] = true
			r.Units[bench] = append(r.Units[bench], v.unit)
		}
		k := sampleKey{bench, lib, v.unit}
		r.samples[k] = append(r.samples[k], v.value)
	}
}

// parseNoteHeader reads "--- BENCH: BenchmarkX/lib-2" (and SKIP, FAIL).
func parseNoteHeader(line string) (Note, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "--- ")
	if !ok {
		return Note{}, false
	}
	kind, name, ok := strings.Cut(rest, ": ")
	if !ok || (kind != "BENCH" && kind != "SKIP" && kind != "FAIL") {
		return Note{}, false
	}
	bench, lib, ok := splitName(strings.Fields(name)[0])
	if !ok {
		return Note{}, false
	}
	return Note{Bench: bench, Lib: lib, Kind: kind}, true
}

type value struct {
	value float64
	unit  string
}

// parseResult reads a result line: "BenchmarkX/lib-2 \t 200\t 123 ns/op\t
// 4.5 MB/s ...", or only its numbers, "200\t 123 ns/op ...", possibly after
// other text, in which case the name it returns is empty. Fields are
// separated by tabs: the iterations end the field before the first
// "... ns/op" field.
func parseResult(line string) (name string, values []value, ok bool) {
	fields := strings.Split(line, "\t")
	first := -1
	for i, f := range fields {
		if strings.HasSuffix(strings.TrimSpace(f), " ns/op") {
			first = i
			break
		}
	}
	if first < 1 {
		return "", nil, false
	}
	iters := strings.Fields(fields[first-1])
	if len(iters) == 0 {
		return "", nil, false
	}
	if _, err := strconv.Atoi(iters[len(iters)-1]); err != nil {
		return "", nil, false
	}
	for _, f := range fields[first:] {
		num, unit, ok := strings.Cut(strings.TrimSpace(f), " ")
		if !ok {
			return "", nil, false
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return "", nil, false
		}
		values = append(values, value{v, strings.TrimSpace(unit)})
	}
	if first == 2 && strings.HasPrefix(fields[0], "Benchmark") {
		name = strings.TrimSpace(fields[0])
	}
	return name, values, true
}

// splitName turns "BenchmarkX/<lib>[/<variant>...][-N]" into
// ("X[/<variant>...]", lib).
func splitName(name string) (bench, lib string, ok bool) {
	name, ok = strings.CutPrefix(name, "Benchmark")
	if !ok {
		return "", "", false
	}
	if i := strings.LastIndexByte(name, '-'); i > strings.LastIndexByte(name, '/') {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i]
		}
	}
	parts := strings.Split(name, "/")
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return "", "", false
	}
	return strings.Join(append(parts[:1:1], parts[2:]...), "/"), parts[1], true
}

// FamilyOf returns the benchmark's family: "PathologicalScaling" for
// "PathologicalScaling/n=1250".
func FamilyOf(bench string) string {
	f, _, _ := strings.Cut(bench, "/")
	return f
}
