package main

import (
	"fmt"
	"io"
)

// Generated is the first line of the output: what made it.
const Generated = "<!-- Made by `cd bench && go run ./cmd/benchtables` from bench/results/: regenerate, do not edit. -->"

// Write writes every table of the run: the machine, the targets, a table
// per family, and the conformance table (left out when conf is nil).
func Write(w io.Writer, r *Run, machine string, conf *Conformance) {
	fmt.Fprintln(w, Generated)
	fmt.Fprintln(w)
	fmt.Fprintln(w, MachineLine(machine, r))
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%s: no result (the library is not in the run, skipped the benchmark or is left out of it). "+
		"The last two columns compare fastrobots with the fastest of the other libraries, on every time.\n\n", Missing)
	WriteTargets(w, r)
	WriteFamilies(w, r)
	if conf != nil {
		WriteConformance(w, conf)
	}
}
