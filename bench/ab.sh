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
set -euo pipefail
cd "$(dirname "$0")"
rev=${1:?usage: ./ab.sh REV [BENCH]}
pattern=${2:-'Check(Star|Named)/fastrobots$'}
count=${COUNT:-8}

work=$(mktemp -d)
tree="$work/tree"
trap 'git worktree remove --force "$tree" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --quiet --detach "$tree" "$rev"
# REV's benchmarks read the corpus where the working tree's do: beside the
# repository (see corpus.go).
if [ -d ../../shared ]; then
	ln -s "$(cd ../../shared && pwd)" "$work/shared"
fi
(cd "$tree/bench" && go test -c -o "$work/old.test" .)
go test -c -o "$work/new.test" .

for _ in $(seq "$count"); do
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
