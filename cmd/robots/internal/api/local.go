package api

import (
	"context"
	"fmt"
	"net/http"

	"github.com/fastrobots/robots"
)

// Endpoints are the API's endpoints that answer from the request alone,
// by path: robots serve routes them, and Local answers them.
var Endpoints = map[string]func(Call) (Answer, *Error){
	"/api/check":    Check,
	"/api/explain":  Explain,
	"/api/lint":     Lint,
	"/api/crawlers": Crawlers,
}

// FetchPath is the endpoint that fetches a robots.txt for a URL: the
// tester's Load. Only robots serve answers it.
const FetchPath = "/api/fetch"

// errNeedsServer is Local's answer to what needs the network.
func errNeedsServer(what string) *Error {
	return &Error{Status: http.StatusNotImplemented, Msg: what + " needs robots serve: this page has no server to fetch a robots.txt through"}
}

// Local answers a request to path whose body is body as robots serve
// answers it, byte for byte, when the request names no origin: the
// WebAssembly build of the tester answers so. A request that needs a
// fetch (Load, or an origin in place of a robots.txt) gets an Error
// instead, as does a body past MaxRequestBytes and a path that is no
// endpoint.
func Local(path string, body []byte) ([]byte, *Error) {
	endpoint, ok := Endpoints[path]
	switch {
	case path == FetchPath:
		return nil, errNeedsServer("Load")
	case !ok:
		return nil, &Error{Status: http.StatusNotFound, Msg: fmt.Sprintf("no API at %s: see docs/serve.md", path)}
	case len(body) > MaxRequestBytes:
		return nil, JSONError(&http.MaxBytesError{Limit: MaxRequestBytes})
	}
	c := &localCall{body: body}
	a, err := endpoint(c)
	if err != nil {
		return nil, err
	}
	return Encode(c.Context(), a, AnswerLimit(len(body)))
}

// localCall is a Call with its body at hand: nothing to wait for, and no
// network.
type localCall struct{ body []byte }

func (c *localCall) Context() context.Context { return context.Background() }

func (c *localCall) Decode(dst any) *Error { return DecodeBody(c.body, dst) }

func (c *localCall) Admit(int64) *Error { return nil }

func (c *localCall) FetchOrigin(string, []string, robots.Mode) (*Fetched, *Error) {
	return nil, errNeedsServer("origin")
}
