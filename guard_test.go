package robots_test

import "time"

// HangGuard is how long one input of the corpus and hostile tests may take
// before it is taken for a hang. It is no speed target: every input takes
// orders of magnitude less, so that a loaded machine never trips it. Speed
// is measured by the benchmarks in bench/, never by go test.
const HangGuard = 10 * time.Second

// hangGuard is HangGuard, tripled under the race detector.
func hangGuard() time.Duration {
	if raceEnabled {
		return 3 * HangGuard
	}
	return HangGuard
}

// finishes runs fn on a goroutine of its own and reports whether it
// returned within hangGuard. When it did not, fn is still running: the
// caller stops the test. A panic in fn is fn's to recover.
func finishes(fn func()) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	timer := time.NewTimer(hangGuard())
	defer timer.Stop()
	select {
	case <-done:
		return true
	case <-timer.C:
		return false
	}
}
