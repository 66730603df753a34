// Package api turns a request of the tester's JSON API into its answer:
// the request body, decoded and checked, becomes the verdicts,
// explanations or lint findings, encoded as JSON within a bound. Both
// "robots serve" and the WebAssembly build of the tester answer through
// it, so that a page gets the same answer from either.
//
// The package knows nothing of HTTP connections: a Call gives it the
// request body, a slot for heavy work, and the fetch of a robots.txt
// when a request names an origin. The server's Call reads the body
// within its limits, waits for admission and fetches through its guard;
// the WebAssembly Call has the body at hand, no one to wait for, and no
// network, so it refuses origins. An Error carries the HTTP status the
// server answers with; the WebAssembly build reports its message only.
package api

import (
	"context"

	"github.com/fastrobots/robots"
)

// Call is one API request under way, as an endpoint sees it.
type Call interface {
	// Context bounds the work of the request: encoding stops when it is
	// done.
	Context() context.Context
	// Decode reads the request body into dst, as DecodeBody does.
	Decode(dst any) *Error
	// Admit admits work units more of heavy work (robots.Work): the first
	// call waits for a slot of heavy work, which the call holds once it
	// returns nil, until its answer is encoded; each call may refuse the
	// request for the work it has been told of in all.
	Admit(work int64) *Error
	// FetchOrigin fetches the robots.txt that governs pageURL, for the
	// crawler agents, read in mode.
	FetchOrigin(pageURL string, agents []string, mode robots.Mode) (*Fetched, *Error)
}
