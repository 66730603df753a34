package serve

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
)

// The work of an API request past reading its body (parsing the
// robots.txt, checking or explaining each URL, encoding the answer) uses
// a core and nothing else. Run all at once, n such requests each take n
// times as long; cut at a deadline, they are all lost together, the work
// done for nothing. So the work is bounded by its size, not by the clock:
// before any of it is done, a request's work is counted, in the work
// units of robots.Work, from what it holds and from the robots.txt it
// names once parsed (package api counts it: the parse first, then the
// checks from the parsed file's rules), and a request over maxWork is
// refused (413: it would be refused again). The robots.txt is parsed so
// that every check runs on the automaton's segment scanner
// (robots.ScannerBudget), whose work the count bounds.
//
// The request takes one of as many slots as there are cores. When every
// slot is taken, a small request (at most queueWork) waits for one, in
// turn, for slotWait at most and behind at most maxWaiting others; a
// larger one, or one that waited in vain, is told to come back later (503
// with Retry-After). A request admitted runs to its end, however long its
// neighbours make it take: the server answers every request it starts.
// Fetching a robots.txt waits on the network, not on a core: it is done,
// within fetchTimeout, before the request asks for a slot.

// Limits of the admission of heavy work.
const (
	// maxWork bounds the work of one request, in the work units of
	// robots.Work: 10⁹, a second of a core alone at most on the worst
	// files the benchmarks know (BenchmarkServeWorstAdmitted). It admits
	// a real robots.txt of 500 KiB with 10,000 URLs.
	maxWork int64 = 1_000_000_000
	// queueWork is the most work of a request that waits for a slot
	// rather than be told at once to come back: a twentieth of maxWork,
	// what a check of some hundreds of URLs against a file of some
	// kilobytes costs, or a fetch of the largest robots.txt.
	queueWork = maxWork / 20
	// slotWait bounds how long a request waits for a slot: a few of the
	// small requests ahead of it, not a large one.
	slotWait = 250 * time.Millisecond
	// maxWaiting bounds the requests waiting for a slot at once: past it
	// a request is told at once to come back, as the wait ahead of it
	// would pass slotWait.
	maxWaiting = 256
	// retryAfterSeconds is the Retry-After of every 503: long enough for
	// the requests under way to make room.
	retryAfterSeconds = 2
)

// heavySlots returns how many requests may do heavy work at once when
// the configuration does not say: one per core Go runs on (GOMAXPROCS).
func heavySlots() int { return runtime.GOMAXPROCS(0) }

// admission bounds how many requests do heavy work at once.
type admission struct {
	slots   chan struct{}
	wait    time.Duration
	waiting atomic.Int32
}

// newAdmission returns an admission of n slots, on which a small request
// waits at most wait.
func newAdmission(n int, wait time.Duration) *admission {
	return &admission{slots: make(chan struct{}, max(n, 1)), wait: wait}
}

// errBusy is the answer to a request that found every slot taken.
var errBusy = &api.Error{Status: http.StatusServiceUnavailable,
	Msg: "the server is busy with other requests: retry after " + strconv.Itoa(retryAfterSeconds) + " s"}

// acquire takes a slot, or answers errBusy at once, and returns the
// function that gives it back.
func (a *admission) acquire() (release func(), err *api.Error) {
	select {
	case a.slots <- struct{}{}:
		return a.release, nil
	default:
		return nil, errBusy
	}
}

// admit takes a slot for a request of work units: at once when one is
// free; when none is, a request of at most queueWork waits for one, in
// turn, for a.wait at most, while fewer than maxWaiting wait; otherwise,
// or when ctx ends, it answers errBusy.
func (a *admission) admit(ctx context.Context, work int64) (release func(), err *api.Error) {
	if release, err := a.acquire(); err == nil {
		return release, nil
	}
	if work > queueWork {
		return nil, errBusy
	}
	if a.waiting.Add(1) > maxWaiting {
		a.waiting.Add(-1)
		return nil, errBusy
	}
	defer a.waiting.Add(-1)
	timer := time.NewTimer(a.wait)
	defer timer.Stop()
	select {
	case a.slots <- struct{}{}: // blocked senders are served in turn
		return a.release, nil
	case <-timer.C:
	case <-ctx.Done():
	}
	return nil, errBusy
}

func (a *admission) release() { <-a.slots }

// tooMuchWork is the answer to a request of more than maxWork.
func tooMuchWork(work int64) *api.Error {
	shown := strconv.FormatInt(work, 10)
	if work == math.MaxInt64 {
		shown = "more than " + shown
	}
	return &api.Error{Status: http.StatusRequestEntityTooLarge, Msg: fmt.Sprintf(
		"the request is %s units of work, more than the %d one request may do (docs/serve.md): send fewer or shorter URLs in one request",
		shown, maxWork)}
}
