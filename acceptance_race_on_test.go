//go:build race

package robots_test

// raceEnabled reports whether the tests are built with the race detector,
// which slows them down several times: hangGuard allows for it, and
// TestCorpusShared, too slow under it, is skipped.
const raceEnabled = true
