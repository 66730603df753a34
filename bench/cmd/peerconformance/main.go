// Command peerconformance scores every library of the benchmarks against
// Google's reference parser: for each library and conformance set, how many
// of the reference's verdicts it does not reach, and how many cases made it
// panic or refuse the body (see bench.Conform for how a case is asked).
//
//	cd bench && go run ./cmd/peerconformance [-o results/conformance.txt]
//
// The sets are the three committed with the repository and, when
// ../../shared/conformance holds it, the real-world set; an absent set is
// left out of the table and named in its header. Output depends only on
// the libraries and the sets: two runs write the same bytes.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/fastrobots/robots/bench"
)

func main() {
	out := flag.String("o", "", "write the table to this file (default: standard output)")
	flag.Parse()
	var sets []bench.ConformanceSet
	var cases [][]bench.Case
	var absent []string
	for _, set := range bench.ConformanceSets() {
		cs, err := bench.LoadCases(set)
		if set.Shared && bench.Absent(err) {
			absent = append(absent, set.Path)
			continue
		}
		if err != nil {
			log.Fatal(err)
		}
		sets = append(sets, set)
		cases = append(cases, cs)
	}
	libs := bench.Libs()
	tallies := make([][]bench.Tally, len(libs))
	for i, lib := range libs {
		start := time.Now()
		for _, cs := range cases {
			tallies[i] = append(tallies[i], bench.Conform(lib, cs))
		}
		log.Printf("%s: %v", lib.Name(), time.Since(start).Round(time.Millisecond))
		for j, t := range tallies[i] {
			if len(t.First) > 0 {
				log.Printf("  %s: first disagreements %s", sets[j].Name, strings.Join(t.First, ", "))
			}
		}
	}
	var w io.Writer = os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		w = f
	}
	names := make([]string, len(libs))
	for i, lib := range libs {
		names[i] = lib.Name()
	}
	if err := writeTable(w, names, sets, absent, tallies); err != nil {
		log.Fatal(err)
	}
}

// writeTable writes one row per library (tallies[i] is libs[i]'s, one per
// set): "disagreements / cases" per set, then the panics and refusals over
// all sets.
func writeTable(w io.Writer, libs []string, sets []bench.ConformanceSet, absent []string, tallies [][]bench.Tally) error {
	fmt.Fprintln(w, "# Verdicts that differ from Google's reference parser (google/robotstxt):")
	fmt.Fprintln(w, "# disagreements / cases, per library and conformance set. Each case is asked")
	fmt.Fprintln(w, "# as a crawler does for repeated checks: parse, resolve the agent, check the URL")
	fmt.Fprintln(w, "# in the form the library takes. A panic counts as a disagreement and under")
	fmt.Fprintln(w, "# \"panics\"; a body the library refuses to parse counts as allowing everything")
	fmt.Fprintln(w, "# and under \"refused\" (panics and refusals over all sets).")
	fmt.Fprintln(w, "# Made by: cd bench && go run ./cmd/peerconformance -o results/conformance.txt")
	for _, p := range absent {
		fmt.Fprintf(w, "# Left out, absent: %s\n", p)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "library")
	for _, s := range sets {
		fmt.Fprintf(tw, "\t%s", s.Name)
	}
	fmt.Fprintln(tw, "\tpanics\trefused")
	for i, name := range libs {
		fmt.Fprint(tw, name)
		panics, refused := 0, 0
		for _, t := range tallies[i] {
			fmt.Fprintf(tw, "\t%d / %d", t.Disagreements, t.Cases)
			panics += t.Panics
			refused += t.Refused
		}
		fmt.Fprintf(tw, "\t%d\t%d\n", panics, refused)
	}
	return tw.Flush()
}
