# Sourced by ab.sh and instructions.sh, from bench/ with $rev set: builds
# the benchmarks of REV (in a temporary git worktree, with REV's own
# bench/ module and workload files) as $work/old.test and the working
# tree's as $work/new.test; $tree is REV's checkout, and both go when the
# script exits.
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
