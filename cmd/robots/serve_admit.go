package main

import (
	"context"
	"net/http"
	"runtime"
	"strconv"
	"time"
)

// The work of an API request past reading its body (parsing the
// robots.txt, checking or explaining each URL, encoding the answer) uses
// a core and nothing else. Run all at once, n such requests each take n
// times as long: under a burst, every one of them runs past the deadline
// and none is answered. So the heavy work is admitted a few requests at a
// time, as many as there are cores, and a request that finds every slot
// taken waits a short while for one, then is told to come back later
// (503 with Retry-After). An admitted request has the cores to itself and
// finishes within its deadline whenever it would alone. Fetching a
// robots.txt waits on the network, not on a core: it is done before the
// request asks for a slot.

// Limits of the admission of heavy work.
const (
	// admissionWait is how long a request waits for a slot before it is
	// answered 503.
	admissionWait = 2 * time.Second
	// retryAfterSeconds is the Retry-After of every 503: long enough for
	// the requests under way to make room.
	retryAfterSeconds = 2
)

// heavySlots returns how many requests may do heavy work at once when
// the configuration does not say: one per core Go runs on (GOMAXPROCS).
func heavySlots() int { return runtime.GOMAXPROCS(0) }

// admission bounds how many requests do heavy work at once.
type admission struct {
	slots chan struct{}
	wait  time.Duration
}

// newAdmission returns an admission of n slots, each request waiting at
// most wait for one.
func newAdmission(n int, wait time.Duration) *admission {
	return &admission{slots: make(chan struct{}, max(n, 1)), wait: wait}
}

// errBusy is the answer to a request that got no slot in time.
var errBusy = &apiError{Status: http.StatusServiceUnavailable,
	Msg: "the server is busy with other requests: retry after " + strconv.Itoa(retryAfterSeconds) + " s"}

// acquire waits for a slot, for a.wait at most and while ctx lasts, and
// returns the function that gives it back.
func (a *admission) acquire(ctx context.Context) (release func(), err *apiError) {
	select {
	case a.slots <- struct{}{}:
		return a.release, nil
	default:
	}
	t := time.NewTimer(a.wait)
	defer t.Stop()
	select {
	case a.slots <- struct{}{}:
		return a.release, nil
	case <-t.C:
		return nil, errBusy
	case <-ctx.Done():
		return nil, deadlineOr(ctx, nil)
	}
}

func (a *admission) release() { <-a.slots }
