#!/usr/bin/env bash
# Runs every benchmark COUNT times (default 6: medians of six, the least a
# comparison on a noisy machine should rest on), in COUNT rounds of one run
# of each, then summarises the results
# with benchstat, draws the chart and writes the tables of docs/benchmarks.md:
#
#   results/machine.txt    go version, cores, CPU model
#   results/bench.txt      raw `go test -bench` output
#   results/benchstat.txt  benchstat's summary (medians, ± 95% intervals)
#   results/conformance.txt verdicts that differ from Google's reference, per
#                          library and conformance set (./cmd/peerconformance)
#   ../docs/benchmarks.svg time per op per library and benchmark ($CHART)
#   ../docs/benchmarks.md  its generated section (./cmd/benchtables): medians,
#                          the fastest peer and the ratio to it, the targets
#
#   ./run.sh [--write | --update] [go test arguments]
#
# Extra arguments go to `go test` (e.g. ./run.sh -bench 'Check' -count 1 to
# run a subset). Only a full run (no arguments, COUNT unset) writes the
# files above, which the repository tracks; any other run writes
# machine.txt, bench.txt and benchstat.txt into a temporary directory and
# prints benchstat's summary, unless --write asks for the full set of
# files from it. --update runs the benchmarks the arguments select (e.g.
# ./run.sh --update -bench Frontier) and puts their lines in place of the
# same benchmarks' lines in results/bench.txt, keeping every other
# benchmark's lines as the last full run left them, then redraws the
# files above from the merged set; machine.txt gains a line saying when
# and which benchmarks were run again, and the docs name it. Each table
# compares libraries within one benchmark, so within one run. The real-world corpus is read from ../../shared/corpus;
# without it the corpus benchmarks are skipped.
set -euo pipefail
cd "$(dirname "$0")"

write=false
update=false
case "${1:-}" in
--write)
	write=true
	shift
	;;
--update)
	update=true
	shift
	;;
esac
if [ $# -eq 0 ] && [ -z "${COUNT:-}" ]; then
	write=true
fi
count=${COUNT:-6}
chart=${CHART:-../docs/benchmarks.svg}

if $update; then
	[ $# -gt 0 ] || { echo "--update needs go test arguments that select benchmarks (e.g. -bench Frontier)" >&2; exit 2; }
	[ -f results/bench.txt ] || { echo "--update needs results/bench.txt from a full run" >&2; exit 2; }
	out=$(mktemp -d)
	echo "an update: the benchmarks selected by '$*' are run again and replace their lines in results/bench.txt"
elif $write; then
	out=results
	mkdir -p "$out"
else
	out=$(mktemp -d)
	echo "a partial run: its results go to $out; bench/results and docs are left as they are (./run.sh --write ... to update them)"
fi

# benchstat is run from the module proxy when it is not on PATH: go run
# builds it into the build cache and installs nothing.
benchstat_pkg=golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
benchstat() {
	if type -P benchstat >/dev/null; then
		command benchstat "$@"
	else
		go run "$benchstat_pkg" "$@"
	fi
}
type -P benchstat >/dev/null ||
	echo "benchstat is not on PATH: running $benchstat_pkg with go run (nothing is installed)"

# benjaminestes/robots prints "oh no! error parsing regexp: ..." on stdout
# for every pattern it cannot compile (over a thousand lines on the
# conformance sets); its verdicts are counted all the same, so the lines
# are dropped here, and their number is said.
quiet_peers() {
	awk '/^oh no! error parsing regexp/ { n++; next }
		{ print; fflush() }
		END { if (n) printf "(%d lines of benjaminestes/robots about patterns it cannot compile left out)\n", n > "/dev/stderr" }'
}

{
	go version
	echo "nproc: $(nproc)"
	grep -m1 'model name' /proc/cpuinfo | sed 's/^model name[[:space:]]*: /cpu: /'
	date -u +%Y-%m-%dT%H:%M:%SZ
} >"$out/machine.txt"
if $update; then
	# An earlier update by the same command is superseded: its rows are
	# all replaced, so its line would name a run no row comes from.
	cmd="./run.sh --update $*"
	{ grep -v '^updated ' results/machine.txt
	  { grep '^updated ' results/machine.txt || true; } | CMD="$cmd" awk '{ i = index($0, ": "); if (substr($0, i + 2) != ENVIRON["CMD"]) print }'
	  echo "updated $(date -u +%Y-%m-%dT%H:%M:%SZ): $cmd"; } >"$out/machine.merged"
fi
cat "$out/machine.txt"

# The count runs are rounds: each round runs every selected benchmark once,
# in a go test process of its own, so that a library's runs are spread over
# the whole sitting as its peers' are, and the machine's drift over minutes
# (the other work it shares the cores with) falls on every library alike;
# go test -count would run each benchmark's runs back to back, minutes
# apart from its peers'. Arguments that set -count themselves run once.
rounds=$count
case " $* " in
*" -count"*) rounds=1 ;;
*) set -- -count 1 "$@" ;;
esac
for round in $(seq "$rounds"); do
	[ "$rounds" -eq 1 ] || echo "round $round of $rounds" >&2
	go test -run '^$' -bench . -benchmem -timeout 60m "$@"
done | quiet_peers | tee "$out/bench.txt"
benchstat "$out/bench.txt" >"$out/benchstat.txt"

if $update; then
	# The top-level names (BenchmarkX of BenchmarkX/lib/variant-N) run
	# again; their old lines go, the new ones are added at the end.
	awk 'FNR == NR { if (match($1, /^Benchmark[A-Za-z0-9_]+/)) fresh[substr($1, 1, RLENGTH)] = 1; next }
		/^Benchmark/ && match($1, /^Benchmark[A-Za-z0-9_]+/) && (substr($1, 1, RLENGTH) in fresh) { next }
		/^(PASS|ok  )/ { next }
		{ print }' "$out/bench.txt" results/bench.txt >"$out/bench.merged"
	grep '^Benchmark' "$out/bench.txt" >>"$out/bench.merged"
	mv "$out/bench.merged" results/bench.txt
	mv "$out/machine.merged" results/machine.txt
	out=results
	benchstat "$out/bench.txt" >"$out/benchstat.txt"
	go run ./cmd/benchchart -exclude Memory,OriginCacheMemory -o "$chart" "$out/bench.txt"
	go run ./cmd/benchtables -dir "$out" -docs ../docs/benchmarks.md
	echo "updated $out/bench.txt, $out/machine.txt, $out/benchstat.txt, $chart, ../docs/benchmarks.md"
	exit 0
fi
if ! $write; then
	cat "$out/benchstat.txt"
	echo "wrote $out/machine.txt, $out/bench.txt, $out/benchstat.txt"
	exit 0
fi
go run ./cmd/benchchart -exclude Memory,OriginCacheMemory -o "$chart" "$out/bench.txt"
go run ./cmd/peerconformance -o "$out/conformance.txt" | quiet_peers
go run ./cmd/benchtables -dir "$out" -docs ../docs/benchmarks.md
echo "wrote $out/machine.txt, $out/bench.txt, $out/benchstat.txt, $out/conformance.txt, $chart, ../docs/benchmarks.md"
