package main

import (
	"fmt"
	"io"
	"strings"
)

// event is one line of `go test -json`: a test's or a package's action or
// output, or (ImportPath set) the output of a build.
type event struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
	Elapsed    float64
}

// tally counts what a run reported.
type tally struct {
	packages, skipped, failed int
}

func (t *tally) addTally(u tally) {
	t.packages += u.packages
	t.skipped += u.skipped
	t.failed += u.failed
}

// summary is the last line of a run.
func (t tally) summary() string {
	verdict := "ok"
	if t.failed > 0 {
		verdict = "FAIL"
	}
	return fmt.Sprintf("%s: %d packages tested, %d tests skipped, %d failed", verdict, t.packages, t.skipped, t.failed)
}

// report turns events into go test's summary lines, each package's SKIP
// lines under it, and the output of what failed. Packages are tested in
// parallel, so a package's skips wait for its summary line.
type report struct {
	w      io.Writer
	output map[string][]string // by package and test: the output so far
	skips  map[string][]string // by package: its SKIP lines so far
	tally
}

func newReport(w io.Writer) *report {
	return &report{w: w, output: map[string][]string{}, skips: map[string][]string{}}
}

func (r *report) add(e event) {
	if e.Test != "" {
		r.addTest(e)
		return
	}
	switch e.Action {
	case "build-output":
		fmt.Fprint(r.w, e.Output)
	case "output":
		r.output[e.Package] = append(r.output[e.Package], e.Output)
	case "pass":
		r.packages++
		fmt.Fprintf(r.w, "ok   %s %s\n", e.Package, r.timing(e))
		r.flushSkips(e.Package)
	case "fail":
		r.failed++
		fmt.Fprintf(r.w, "FAIL %s %s\n%s", e.Package, r.timing(e), packageOutput(r.output[e.Package]))
		r.flushSkips(e.Package)
	case "skip": // no test files
	}
	if e.Action != "output" {
		delete(r.output, e.Package)
	}
}

// addTest handles an event of one test.
func (r *report) addTest(e event) {
	key := e.Package + " " + e.Test
	switch e.Action {
	case "output":
		r.output[key] = append(r.output[key], e.Output)
		return
	case "skip":
		r.skipped++
		r.skips[e.Package] = append(r.skips[e.Package], fmt.Sprintf("     SKIP %s: %s\n", e.Test, skipReason(r.output[key])))
	case "fail":
		fmt.Fprintf(r.w, "--- FAIL %s %s\n%s", e.Package, e.Test, strings.Join(r.output[key], ""))
	}
	delete(r.output, key)
}

// flushSkips writes the SKIP lines of pkg.
func (r *report) flushSkips(pkg string) {
	fmt.Fprint(r.w, strings.Join(r.skips[pkg], ""))
	delete(r.skips, pkg)
}

// timing is what go test's own summary line of the package says after
// its name: the time, or "(cached)" when go test reused a result, and any
// note such as "[no tests to run]"; the elapsed time when there is no
// such line.
func (r *report) timing(e event) string {
	for _, l := range r.output[e.Package] {
		for _, head := range []string{"ok  \t", "FAIL\t"} {
			if rest, ok := strings.CutPrefix(l, head+e.Package+"\t"); ok {
				return strings.TrimSpace(rest)
			}
		}
	}
	return fmt.Sprintf("%.1fs", e.Elapsed)
}

// packageOutput returns what a failed package printed outside its tests
// (a panic, a timeout, an exit in TestMain), without go test's own
// PASS, FAIL and summary lines.
func packageOutput(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "PASS" || t == "FAIL" || strings.HasPrefix(t, "FAIL\t") || strings.HasPrefix(t, "ok  \t") {
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

// skipReason returns the message a skipped test gave: its output without
// the RUN and SKIP lines.
func skipReason(lines []string) string {
	var msg []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		msg = append(msg, t)
	}
	return strings.Join(msg, " ")
}
