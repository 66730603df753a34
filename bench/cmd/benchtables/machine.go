package main

import (
	"fmt"
	"strings"
)

// MachineLine sums up results/machine.txt (as run.sh writes it: `go
// version`, "nproc: N", "cpu: ...", the start time) and the run: the
// machine, and how many runs each median is of.
func MachineLine(machine string, r *Run) string {
	var goVersion, cores, started string
	cpu := r.CPU
	for _, line := range strings.Split(machine, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
		case strings.HasPrefix(line, "go version "):
			goVersion = "`" + line + "`"
		case strings.HasPrefix(line, "nproc: "):
			cores = strings.TrimPrefix(line, "nproc: ") + " cores"
		case strings.HasPrefix(line, "cpu: "):
			cpu = strings.TrimPrefix(line, "cpu: ")
		default:
			started = "run started " + line
		}
	}
	if cpu != "" {
		cpu = "CPU `" + cpu + "`"
	}
	var parts []string
	for _, s := range []string{goVersion, cores, cpu, started} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	s := "Machine: " + strings.Join(parts, ", ") + "."
	if len(parts) == 0 {
		s = "Machine: not recorded."
	}
	return s + " " + medianOf(r)
}

// medianOf says how many runs each median is of.
func medianOf(r *Run) string {
	fewest, most, someEven := r.Runs()
	runs := fmt.Sprintf("%d runs", most)
	if fewest != most {
		runs = fmt.Sprintf("%d to %d runs", fewest, most)
	}
	s := "Every figure is the median of the " + runs + " in `bench/results/bench.txt`"
	if someEven {
		s += " (of an even number of runs, the mean of the middle two)"
	}
	return s + "."
}
