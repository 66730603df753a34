//go:build !race

package robots_test

// raceEnabled reports whether the tests are built with the race detector;
// see acceptance_race_on_test.go.
const raceEnabled = false
