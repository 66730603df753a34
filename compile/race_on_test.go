//go:build race

package compile

// raceEnabled reports whether the tests are built with the race detector,
// under which sync.Pool drops what it is given at random: a count of
// allocations that a pooled builder saves is then no count of the code's.
const raceEnabled = true
