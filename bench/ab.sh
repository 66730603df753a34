#!/usr/bin/env bash
# Compares the benchmarks of a past revision with the working tree's, in one
# sitting: both benchmark binaries are built first, then run in turn COUNT
# times (default 8), so that the machine's drift over the sitting falls on
# both alike, and benchstat compares the two.
#
#   ./ab.sh REV [BENCH]
#
# REV is any revision git knows (a commit, a tag, HEAD~3); BENCH is the
# -bench pattern (default 'Check(Star|Named)/fastrobots$'). REV's own bench/
# module and testdata are used for REV, so each side runs the workload it
# had: compare revisions whose workload files agree (git diff REV --
# bench/testdata) or read the difference as the workload's too.
#
#   ITERS=N ./ab.sh REV 'BenchmarkX/lib BenchmarkY/lib'
#
# times each named benchmark (anchored names, separated by spaces) by the
# CPU time of its process instead, as cputime.sh does: once with N
# iterations and once with two, ns/op the difference over N - 2 (perop.sh).
# A machine
# that other work loads stretches wall-clock times far more than CPU times.
set -euo pipefail
cd "$(dirname "$0")"
rev=${1:?usage: ./ab.sh REV [BENCH]}
pattern=${2:-'Check(Star|Named)/fastrobots$'}
count=${COUNT:-8}
iters=${ITERS:-}
. ./perop.sh
[ -z "$iters" ] || needIters "$iters"

. ./twobuilds.sh

cputime() { # dir binary name iterations -> seconds of user and system time
	(cd "$1" && /usr/bin/time -f '%U %S' -o "$work/time" "$2" \
		-test.run '^$' -test.bench "^$(sed 's|/|$/^|g' <<<"$3")\$" -test.benchtime "$4x" >/dev/null)
	awk '{ print $1 + $2 }' "$work/time"
}
cpurun() { # dir binary name -> a line in the format of go test -bench
	local base all
	base=$(cputime "$1" "$2" "$3" "$baseIters")
	all=$(cputime "$1" "$2" "$3" "$iters")
	printf '%s-%d\t%d\t%s ns/op\n' "$3" "$(nproc)" "$iters" "$(perOp "$all" "$base" "$iters" 1e9)"
}
for _ in $(seq "$count"); do
	if [ -n "$iters" ]; then
		for name in $pattern; do
			cpurun "$tree/bench" "$work/old.test" "$name" >>"$work/old.txt"
			cpurun . "$work/new.test" "$name" >>"$work/new.txt"
		done
		continue
	fi
	(cd "$tree/bench" && "$work/old.test" -test.run '^$' -test.bench "$pattern" -test.benchmem) >>"$work/old.txt"
	"$work/new.test" -test.run '^$' -test.bench "$pattern" -test.benchmem >>"$work/new.txt"
done

# benchstat is run from the module proxy when it is not on PATH, as in
# run.sh: go run builds it into the build cache and installs nothing.
benchstat=(benchstat)
if ! type -P benchstat >/dev/null; then
	benchstat=(go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da)
	echo "benchstat is not on PATH: running ${benchstat[*]:2} with go run (nothing is installed)"
fi
echo "before: $rev ($(git rev-parse --short "$rev")); after: the working tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- .. || echo ', with changes'))"
(cd "$work" && mv old.txt before.txt && mv new.txt after.txt && "${benchstat[@]}" before.txt after.txt)
