package main

import (
	"fmt"
	"net/http"
	"reflect"
	"runtime"
	"strconv"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
)

// The work of an API request past reading its body (parsing the
// robots.txt, checking or explaining each URL, encoding the answer) uses
// a core and nothing else. Run all at once, n such requests each take n
// times as long; cut at a deadline, they are all lost together, the work
// done for nothing. So the work is bounded by its size, not by the clock:
// before any of it is done, a request's work is estimated from what it
// holds (below), and a request over maxWork is refused (413: it would be
// refused again). Then the request takes one of as many slots as there
// are cores, or, when every slot is taken, is told at once to come back
// later (503 with Retry-After). A request admitted runs to its end,
// however long its neighbours make it take: the server answers every
// request it starts. Fetching a robots.txt waits on the network, not on
// a core: it is done, within fetchTimeout, before the request asks for a
// slot.
//
// The unit of work is one URL checked against one byte of the robots.txt
// (under a nanosecond of a core for the worst shapes, on a 2-core
// machine of 2026). A request of u
// URLs, b bytes of URLs in all, and a robots.txt of r bytes, given or
// fetched, is worth r + u×(r+urlWork) + b units: parsing the file once,
// each URL against the whole file (the engine's checks are linear in
// the file and the URL, scan.go in package automaton), and each URL's own
// bytes. An explanation collects every rule that matches, and costs
// explainWorkFactor times a check. Linting costs r: package lint bounds
// its own checks (precedenceBudget).

// Limits of the admission of heavy work.
const (
	// maxWork bounds the work of one request, in units of one URL
	// checked against one byte of the robots.txt: two billion, under a
	// second of a core alone for the worst shapes the tests know
	// (TestServeWorkBound measures them): 3,900 URLs checked against a
	// 500 KiB file, 10,000 against 199 KiB; 30 explained against 500 KiB,
	// 1,500 against 9 KiB.
	maxWork = 2_000_000_000
	// urlWork is the work of one URL besides the bytes it is checked
	// against: decoding it, deciding and encoding its result.
	urlWork = 1_000
	// explainWorkFactor is what an explanation costs in checks: it
	// collects every rule that matches, in the worst case every rule of
	// the file (64,000 "Allow: /" lines, 21 ms a URL, where a check of the
	// worst star rules takes 0.2 ms against a file as large).
	explainWorkFactor = 128
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
}

// newAdmission returns an admission of n slots.
func newAdmission(n int) *admission {
	return &admission{slots: make(chan struct{}, max(n, 1))}
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

func (a *admission) release() { <-a.slots }

// requestShape is what the work of a request depends on: how many URLs
// it holds and their bytes, and the bytes of the robots.txt it gives.
type requestShape struct {
	urls, urlBytes, robotsBytes int
}

// shapeOf reads the shape of dst, a request as package api decodes it,
// by the names of its fields: URLs (or URL), RobotsTxt and RobotsTxtB64.
// TestServeWorkOfEachEndpoint keeps the names honest.
func shapeOf(dst any) requestShape {
	v := reflect.Indirect(reflect.ValueOf(dst))
	if v.Kind() != reflect.Struct {
		return requestShape{}
	}
	var sh requestShape
	if f := v.FieldByName("URLs"); f.IsValid() && f.Type() == reflect.TypeFor[[]string]() {
		for i := range f.Len() {
			sh.urls++
			sh.urlBytes += f.Index(i).Len()
		}
	}
	// /api/fetch's one URL, named url or origin; the origin of check and
	// explain, which have URLs, names a site, not a URL checked.
	if !v.FieldByName("URLs").IsValid() {
		for _, name := range []string{"URL", "Origin"} {
			if f := v.FieldByName(name); isStringPointer(f) && !f.IsNil() {
				sh.urls, sh.urlBytes = 1, f.Elem().Len()
			}
		}
	}
	if f := v.FieldByName("RobotsTxt"); isStringPointer(f) && !f.IsNil() {
		sh.robotsBytes = f.Elem().Len()
	}
	if f := v.FieldByName("RobotsTxtB64"); isStringPointer(f) && !f.IsNil() {
		sh.robotsBytes = f.Elem().Len() / 4 * 3
	}
	return sh
}

func isStringPointer(f reflect.Value) bool {
	return f.IsValid() && f.Type() == reflect.TypeFor[*string]()
}

// workOf returns the work of a request of shape sh, with fetched bytes
// of robots.txt fetched for it, each URL costing factor checks.
func workOf(sh requestShape, fetched, factor int) int {
	r := sh.robotsBytes + fetched
	return r + factor*(sh.urls*(r+urlWork)+sh.urlBytes)
}

// tooMuchWork is the answer to a request of more than maxWork.
func tooMuchWork(work int) *api.Error {
	return &api.Error{Status: http.StatusRequestEntityTooLarge, Msg: fmt.Sprintf(
		"the request is %d units of work, more than the %d one request may do (a unit is one URL checked against one byte of the robots.txt): send fewer URLs in one request",
		work, maxWork)}
}
