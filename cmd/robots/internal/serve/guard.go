package serve

import (
	"errors"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/fastrobots/robots/fetch"
)

// The serve command fetches robots.txt files for whoever asks it. Left
// alone it would be a proxy into the network it runs in: a request for
// http://10.0.0.5/robots.txt, for a public name that resolves to
// 127.0.0.1, or for a public URL that redirects to http://[::1]:6379/
// would make it connect inside. So by default its fetches connect only to
// public addresses, with package fetch's guard: fetch.PublicOnly judges
// the address actually dialled, after name resolution and at every
// redirect, in the Control function of the dialer (fetch.GuardControl).
// What is serve's own is the way out, --allow-private, which its refusals
// name, and the limits of its transport.

// Limits of the fetches serve makes, besides fetchTimeout.
const (
	// dialTimeout bounds one TCP connection attempt.
	dialTimeout = 5 * time.Second
	// tlsHandshakeTimeout bounds one TLS handshake.
	tlsHandshakeTimeout = 5 * time.Second
	// maxResponseHeaderBytes bounds the response headers of a fetch.
	maxResponseHeaderBytes = 64 << 10
)

// addrPolicy decides whether a fetch may connect to an address: nil
// error for yes.
type addrPolicy = fetch.AddressPolicy

// publicOnly is the default policy: it refuses every address that is not
// public.
var publicOnly addrPolicy = fetch.PublicOnly

// refusedError is a refusal of the guard, as serve answers it: with the
// flag that lifts the guard.
type refusedError struct{ *fetch.AddressError }

func (e *refusedError) Error() string {
	return e.AddressError.Error() + " (robots serve --allow-private allows it)"
}

func (e *refusedError) Unwrap() error { return e.AddressError }

// guardedTransport returns the transport of serve's fetches: connections
// only to the addresses policy accepts (nil: any), a time limit on each
// step, and no proxy, since a proxy would connect for it where the guard
// cannot see.
func guardedTransport(policy addrPolicy) *http.Transport {
	d := &net.Dialer{Timeout: dialTimeout}
	if policy != nil {
		d.Control = guardControl(policy)
	}
	return &http.Transport{
		Proxy:                  nil,
		DialContext:            d.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    tlsHandshakeTimeout,
		ResponseHeaderTimeout:  fetchTimeout,
		MaxResponseHeaderBytes: maxResponseHeaderBytes,
		MaxIdleConns:           64,
		IdleConnTimeout:        30 * time.Second,
	}
}

// guardControl is fetch.GuardControl(policy), its refusals made
// refusedErrors.
func guardControl(policy addrPolicy) func(network, address string, c syscall.RawConn) error {
	control := fetch.GuardControl(policy)
	return func(network, address string, c syscall.RawConn) error {
		err := control(network, address, c)
		if refused, ok := errors.AsType[*fetch.AddressError](err); ok {
			return &refusedError{refused}
		}
		return err
	}
}
