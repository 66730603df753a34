#!/usr/bin/env bash
# Measures benchmarks by the CPU time their process uses, for a machine
# whose load makes wall-clock times unreadable: a CPU-time measure does not
# count the time the process waits for a core, which is most of the noise
# of a shared machine (it still feels the caches other work shares).
#
#   bench/cputime.sh PKG BENCH N [COUNT]
#
# builds the test binary of package PKG (a directory, relative to the
# repository's root), then COUNT times (default 6) runs each benchmark
# that BENCH names (an anchored -test.bench pattern per name, separated by
# spaces) once with N iterations and once with two, and prints a line in
# the format of go test -bench whose ns/op is the difference of their user
# and system CPU time divided by N - 2: the setup both runs share cancels
# (perop.sh says why two). N must be 3 or more.
# Benchstat reads the output. Runs of the different benchmarks interleave.
#
#   bench/cputime.sh . 'BenchmarkUsage/Usage BenchmarkUsage/Allowed' 20000000 > new.txt
set -euo pipefail
cd "$(dirname "$0")/.."
pkg=${1:?usage: bench/cputime.sh PKG BENCH N [COUNT]}
names=${2:?usage: bench/cputime.sh PKG BENCH N [COUNT]}
n=${3:?usage: bench/cputime.sh PKG BENCH N [COUNT]}
count=${4:-6}
. bench/perop.sh
needIters "$n"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go test -c -o "$work/pkg.test" "./$pkg"
cputime() { # name iterations -> seconds of user and system time
	(cd "$pkg" && /usr/bin/time -f '%U %S' -o "$work/time" "$work/pkg.test" \
		-test.run '^$' -test.bench "^$(sed 's|/|$/^|g' <<<"$1")\$" -test.benchtime "$2x" >/dev/null)
	awk '{ print $1 + $2 }' "$work/time"
}
for _ in $(seq "$count"); do
	for name in $names; do
		base=$(cputime "$name" "$baseIters")
		all=$(cputime "$name" "$n")
		printf '%s-%d\t%d\t%s ns/op\n' "$name" "$(nproc)" "$n" "$(perOp "$all" "$base" "$n" 1e9)"
	done
done
