package main

import (
	"fmt"
	"strings"
)

// MachineLine sums up results/machine.txt (as run.sh writes it: `go
// version`, "nproc: N", "cpu: ...", the start time) and the run: the
// machine, and how many runs each median is of. A line "updated T: CMD",
// which `run.sh --update` appends, says that some benchmarks were run
// again at T by CMD; each is named after the machine.
func MachineLine(machine string, r *Run) string {
	var goVersion, cores, started string
	var updates []string
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
		case strings.HasPrefix(line, "updated "):
			updates = append(updates, updateNote(strings.TrimPrefix(line, "updated ")))
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
	for _, u := range updates {
		s += " " + u
	}
	return s + " " + medianOf(r)
}

// updateNote words one "T: CMD" line of machine.txt.
func updateNote(line string) string {
	when, cmd, ok := strings.Cut(line, ": ")
	if !ok {
		return "Some benchmarks were run again: " + line + "."
	}
	return "The benchmarks `" + cmd + "` selects were run again, started " + when + "; their rows come from that run."
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
