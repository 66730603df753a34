package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
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
	Kind string // "loopback", "private", ...
}

func (e *refusedError) Error() string {
	return fmt.Sprintf("refused to connect to %s: a %s address is not public (robots serve --allow-private allows it)", e.Addr, e.Kind)
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

// nonPublicRanges are the ranges, besides those netip classifies, that
// lead into a private network or nowhere: 0.0.0.0/8 ("this network"; Linux
// connects 0.0.0.0 to the host itself), the shared address space of
// carrier-grade NAT, the benchmarking range, the reserved 240.0.0.0/4
// (with the broadcast address), the IETF protocol assignments, and the
// deprecated IPv6 site-local range.
var nonPublicRanges = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("fec0::/10"),
}

// nat64 is the well-known NAT64 prefix: its addresses end in the IPv4
// address a NAT64 gateway connects to.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// nonPublicKind returns what kind of non-public address a is ("loopback",
// "private", "link-local", "multicast", "unspecified", "reserved"), or ""
// when a is public. An IPv4-mapped IPv6 address (::ffff:127.0.0.1) and a
// NAT64 one (64:ff9b::7f00:1) are judged by the IPv4 address they carry.
func nonPublicKind(a netip.Addr) string {
	a = a.Unmap()
	if nat64.Contains(a) {
		b := a.As16()
		a = netip.AddrFrom4([4]byte(b[12:]))
	}
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
	for _, p := range nonPublicRanges {
		if p.Contains(a) {
			return "reserved"
		}
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
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("refused to connect to %q: %w", address, errRefusedAddress)
		}
		return policy(ap)
	}
}
