# Sourced by cputime.sh, ab.sh and instructions.sh: what one op of a
# benchmark costs, from two runs of its binary at fixed counts.
#
# A run with -test.benchtime Nx calls a benchmark function that loops
# over b.N twice, first with b.N = 1 (the testing package's probe), then
# with b.N = N, unless N is 1: its setup (the function's code before its
# loop) runs twice and its op N + 1 times, where a run of 1x runs each
# once. So the difference between runs of N and of 1x holds a setup
# besides N ops; between runs of N and of baseIters (both over 1), exactly
# N - baseIters ops. A function that loops with b.Loop is called once at
# any count, its N ops in that call: runs of N and of baseIters differ by
# N - baseIters ops there too (and runs of N and of 1x by N - 1).
baseIters=2

# needIters exits unless n leaves at least one op between the two runs.
needIters() {
	if ! [ "$1" -gt "$baseIters" ] 2>/dev/null; then
		echo "the iteration count must be above $baseIters, not '$1'" >&2
		exit 2
	fi
}

# perOp prints (all - base) / (n - baseIters) times scale, all and base
# being a cost of runs of n and of baseIters iterations.
perOp() { # all base n scale
	awk -v all="$1" -v base="$2" -v n="$3" -v scale="$4" -v b="$baseIters" \
		'BEGIN { printf "%.2f", (all - base) * scale / (n - b) }'
}
