#!/usr/bin/env bash
# Runs every benchmark COUNT times (default 6: medians of six, the least a
# comparison on a noisy machine should rest on), then summarises the results
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
# Extra arguments go to `go test` (e.g. ./run.sh -bench 'Check' to run a
# subset). The real-world corpus is read from ../../shared/corpus; without
# it the corpus benchmarks are skipped.
set -euo pipefail
cd "$(dirname "$0")"
count=${COUNT:-6}
chart=${CHART:-../docs/benchmarks.svg}
mkdir -p results
{
	go version
	echo "nproc: $(nproc)"
	grep -m1 'model name' /proc/cpuinfo | sed 's/^model name[[:space:]]*: /cpu: /'
	date -u +%Y-%m-%dT%H:%M:%SZ
} >results/machine.txt
cat results/machine.txt

go test -run '^$' -bench . -benchmem -count "$count" -timeout 60m "$@" | tee results/bench.txt

benchstat=$(command -v benchstat || true)
if [ -z "$benchstat" ]; then
	benchstat="$(go env GOPATH)/bin/benchstat"
	if [ ! -x "$benchstat" ]; then
		go install golang.org/x/perf/cmd/benchstat@latest
	fi
fi
"$benchstat" results/bench.txt >results/benchstat.txt
go run ./cmd/benchchart -exclude Memory -o "$chart" results/bench.txt
go run ./cmd/peerconformance -o results/conformance.txt
go run ./cmd/benchtables -dir results -docs ../docs/benchmarks.md
echo "wrote results/machine.txt, results/bench.txt, results/benchstat.txt, results/conformance.txt, $chart, ../docs/benchmarks.md"
