#!/usr/bin/env bash
# Counts the instructions a benchmark's op executes, at REV and in the
# working tree, for a machine whose load makes every timing unreadable:
# an instruction count does not move with what else the machine runs.
#
#   bench/instructions.sh REV 'BenchmarkX/lib BenchmarkY/lib' [N]
#
# builds both test binaries of bench/ (REV's in a temporary git worktree,
# as ab.sh does), then runs each named benchmark (anchored names, separated
# by spaces) under valgrind's cachegrind, without its cache simulation,
# once with N iterations (default 3) and once with two, with GOGC=off and
# GOMAXPROCS=1 so that the collector and the scheduler add nothing that
# varies; the difference over N - 2 is the instructions of one op, which
# the setup both runs share cancels from (perop.sh). Fewer instructions is not less
# time (a cache miss costs no instruction): read it beside ab.sh's times.
set -euo pipefail
cd "$(dirname "$0")"
rev=${1:?usage: bench/instructions.sh REV 'BenchmarkX/lib ...' [N]}
names=${2:?usage: bench/instructions.sh REV 'BenchmarkX/lib ...' [N]}
n=${3:-3}
. ./perop.sh
needIters "$n"
command -v valgrind >/dev/null || { echo "valgrind is not installed (Debian: apt-get install valgrind)" >&2; exit 1; }

. ./twobuilds.sh

count() { # dir binary name iterations -> instructions
	(cd "$1" && GOGC=off GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no \
		--cachegrind-out-file=/dev/null "$2" -test.run '^$' \
		-test.bench "^$(sed 's|/|$/^|g' <<<"$3")\$" -test.benchtime "$4x" 2>&1 >/dev/null |
		awk '/I *refs:/ { gsub(",", "", $NF); print $NF }')
}
for name in $names; do
	for side in old new; do
		dir=.
		[ "$side" = old ] && dir="$tree/bench"
		base=$(count "$dir" "$work/$side.test" "$name" "$baseIters")
		all=$(count "$dir" "$work/$side.test" "$name" "$n")
		printf '%-4s %s\t%.0f instructions/op\n' "$side" "$name" "$(perOp "$all" "$base" "$n" 1)"
	done
done
