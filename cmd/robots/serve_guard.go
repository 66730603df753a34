package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The serve command fetches robots.txt files for whoever asks it. Left
// alone it would be a proxy into the network it runs in: a request for
// http://10.0.0.5/robots.txt, for a public name that resolves to
// 127.0.0.1, or for a public URL that redirects to http://[::1]:6379/
// would make it connect inside. So by default its fetches connect only to
// public addresses. The check runs on the address actually dialled, after
// name resolution and at every redirect, in the Control function of the
// dialer: no name, redirect or DNS answer that changes between a check and
// the connection gets around it, and a refused connection sends no packet.

// Limits of the fetches serve makes, besides fetchTimeout.
const (
	// dialTimeout bounds one TCP connection attempt.
	dialTimeout = 5 * time.Second
	// tlsHandshakeTimeout bounds one TLS handshake.
	tlsHandshakeTimeout = 5 * time.Second
	// maxResponseHeaderBytes bounds the response headers of a fetch.
	maxResponseHeaderBytes = 64 << 10
)

// errRefusedAddress is wrapped by the error of a fetch the guard stopped.
var errRefusedAddress = errors.New("not a public address")

// refusedError says which address a fetch was stopped from connecting to,
// and why.
type refusedError struct {
	Addr netip.Addr
	// Raw is the address as the dialer gave it, when it did not parse.
	Raw  string
	Kind string // "loopback", "private", ...
}

func (e *refusedError) Error() string {
	addr := e.Addr.String()
	if !e.Addr.IsValid() {
		addr = strconv.Quote(e.Raw)
	}
	article := "a"
	if e.Kind != "" && strings.ContainsRune("aeiou", rune(e.Kind[0])) {
		article = "an"
	}
	return fmt.Sprintf("refused to connect to %s: %s %s address is not public (robots serve --allow-private allows it)", addr, article, e.Kind)
}

func (e *refusedError) Unwrap() error { return errRefusedAddress }

// addrPolicy decides whether a fetch may connect to an address: nil
// error for yes.
type addrPolicy func(netip.AddrPort) error

// publicOnly is the default policy: it refuses every address that is not
// public (see nonPublicKind).
func publicOnly(ap netip.AddrPort) error {
	if kind := nonPublicKind(ap.Addr()); kind != "" {
		return &refusedError{Addr: ap.Addr(), Kind: kind}
	}
	return nil
}

// nonPublicKind returns what kind of non-public address a is ("loopback",
// "private", "link-local", "multicast", "unspecified", "reserved"), or ""
// when a is public. Public is what IANA's special-purpose registries call
// globally reachable (specialRanges), in IPv6's global unicast space, and,
// for an IPv6 address that carries an IPv4 address (::ffff:127.0.0.1,
// 64:ff9b::7f00:1, 2002:7f00:1::), carrying a public one
// (transitionForms). A zone names an interface, not another address: it
// is set aside.
func nonPublicKind(a netip.Addr) string {
	a = a.WithZone("")
	if kind := commonKind(a); kind != "" {
		return kind
	}
	for _, v4 := range carriedIPv4(a) {
		if kind := nonPublicKind(v4); kind != "" {
			return kind
		}
	}
	if r, ok := specialRangeOf(a); ok {
		if r.Guard == refuse {
			return "reserved"
		}
		return ""
	}
	if a.Is6() && !globalUnicast.Contains(a) {
		return "reserved"
	}
	return ""
}

// commonKind returns the kinds netip names ("invalid" for the zero Addr),
// or "".
func commonKind(a netip.Addr) string {
	switch {
	case !a.IsValid():
		return "invalid"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsLoopback():
		return "loopback"
	case a.IsPrivate():
		return "private"
	case a.IsLinkLocalUnicast():
		return "link-local"
	case a.IsMulticast():
		return "multicast"
	}
	return ""
}

// guardedTransport returns the transport of serve's fetches: connections
// only to the addresses policy accepts (nil: any), a time limit on each
// step, and no proxy, since a proxy would connect for it where the guard
// cannot see.
func guardedTransport(policy addrPolicy) *http.Transport {
	d := &net.Dialer{Timeout: dialTimeout}
	if policy != nil {
		d.Control = controlFor(policy)
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

// controlFor returns a net.Dialer Control function that applies policy to
// the address about to be connected to, which is an IP address: name
// resolution is done by then.
func controlFor(policy addrPolicy) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		ap, err := dialedAddrPort(address)
		if err != nil {
			return &refusedError{Raw: address, Kind: "unparsable"}
		}
		return policy(ap)
	}
}

// dialedAddrPort parses the address a dialer is about to connect to. The
// zone of an IPv4-mapped address stays on the IPv4 address the dialer
// connects to ("127.0.0.1%lo:80"), which netip refuses to parse: a zone
// names an interface, not another address, so it is dropped there.
func dialedAddrPort(address string) (netip.AddrPort, error) {
	ap, err := netip.ParseAddrPort(address)
	if err == nil {
		return ap, nil
	}
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return netip.AddrPort{}, err
	}
	host, _, _ = strings.Cut(host, "%")
	return netip.ParseAddrPort(net.JoinHostPort(host, port))
}
