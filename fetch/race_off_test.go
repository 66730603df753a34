//go:build !race

package fetch

// raceEnabled reports whether the tests are built with the race detector;
// see race_on_test.go.
const raceEnabled = false
