package fetch

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A crawler fetches what the web tells it to: a robots.txt at a name that
// resolves to 127.0.0.1, a redirect to http://[::1]:6379/, a page at
// http://169.254.169.254/. Left alone, it is a way into the network it
// runs in. The guard refuses such connections where nothing can get around
// it: in the Control function of the net.Dialer, which sees the IP address
// about to be connected to, after name resolution and at every redirect,
// before any packet is sent. A name that resolves to a private address, a
// DNS answer that changes between a check and the connection, or a
// redirect to another address are all judged by the address dialled.

// ErrRefusedAddress is wrapped by the error of every connection the guard
// refused; an *AddressError says which address and why.
var ErrRefusedAddress = errors.New("fetch: refused to connect to an address that is not public")

// AddressError is the error of a connection the guard refused. A Fetch it
// stops is a network failure (FullDisallow) whose Result.Err wraps it.
type AddressError struct {
	// Addr is the address refused, without its zone.
	Addr netip.Addr
	// Raw is the address as the dialer gave it, when it did not parse.
	Raw string
	// Kind is what NonPublicKind says of Addr, or "unparsable".
	Kind string
}

func (e *AddressError) Error() string {
	addr := e.Addr.String()
	if !e.Addr.IsValid() {
		addr = strconv.Quote(e.Raw)
	}
	article := "a"
	if e.Kind != "" && strings.ContainsRune("aeiou", rune(e.Kind[0])) {
		article = "an"
	}
	return fmt.Sprintf("refused to connect to %s: %s %s address is not public", addr, article, e.Kind)
}

// Unwrap returns ErrRefusedAddress.
func (e *AddressError) Unwrap() error { return ErrRefusedAddress }

// An AddressPolicy decides whether a connection may be made to an IP
// address and port: nil for yes. Its error is the connection's; the
// policies of this package return an *AddressError.
type AddressPolicy func(netip.AddrPort) error

// PublicOnly is the AddressPolicy that refuses every address that is not
// public (see NonPublicKind), with an *AddressError.
func PublicOnly(ap netip.AddrPort) error {
	if kind := NonPublicKind(ap.Addr()); kind != "" {
		return &AddressError{Addr: ap.Addr().WithZone(""), Kind: kind}
	}
	return nil
}

// NonPublicKind returns what kind of non-public address a is ("loopback",
// "private", "link-local", "multicast", "unspecified", "reserved", or
// "invalid" for the zero Addr), or "" when a is public. Public is what
// IANA's IPv4 and IPv6 special-purpose address registries call globally
// reachable, within IPv6's global unicast space 2000::/3; an IPv6 address
// that carries an IPv4 address (::ffff:127.0.0.1, 64:ff9b::7f00:1,
// 2002:7f00:1::, Teredo) is public only when that IPv4 address is too. A
// zone names an interface, not another address: it is set aside.
// docs/serve.md lists every range and what the guard does with it.
func NonPublicKind(a netip.Addr) string {
	a = a.WithZone("")
	if kind := commonKind(a); kind != "" {
		return kind
	}
	for _, v4 := range carriedIPv4(a) {
		if kind := NonPublicKind(v4); kind != "" {
			return kind
		}
	}
	if r, ok := specialRangeOf(a); ok {
		if r.Guard == guardRefuse {
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

// GuardControl returns a function for net.Dialer.Control that applies
// policy to every address the dialer connects to, which is an IP address:
// name resolution is done by then. An address that does not parse is
// refused. Put it on the dialer of a crawler's own transport to guard its
// page fetches as GuardTransport does:
//
//	d := &net.Dialer{Timeout: 10 * time.Second, Control: fetch.GuardControl(fetch.PublicOnly)}
//	t := &http.Transport{DialContext: d.DialContext} // and no Proxy
func GuardControl(policy AddressPolicy) func(network, address string, c syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		ap, err := dialedAddrPort(address)
		if err != nil {
			return &AddressError{Raw: address, Kind: "unparsable"}
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

// GuardTransport returns a copy of t (nil means http.DefaultTransport)
// whose connections are made only to the addresses policy accepts: its
// net.Dialer applies policy through GuardControl, on every connection,
// redirects included. The copy uses no proxy, since a proxy would connect
// for it where the guard cannot see.
//
// The guard needs the dialer, so t must not have a dial function of its
// own (Dial, DialContext, DialTLS, DialTLSContext), except
// http.DefaultTransport, whose dialer is replaced by one with the same
// settings; for any other, the error wraps ErrRefusedAddress. A transport
// with its own dialer is guarded by putting GuardControl on that dialer.
func GuardTransport(t *http.Transport, policy AddressPolicy) (*http.Transport, error) {
	d := &net.Dialer{Control: GuardControl(policy)}
	if t == nil {
		dt, ok := http.DefaultTransport.(*http.Transport)
		if !ok {
			return nil, fmt.Errorf("%w: the guard cannot see the addresses http.DefaultTransport, a %T, connects to", ErrRefusedAddress, http.DefaultTransport)
		}
		t = dt
	}
	if t == http.DefaultTransport {
		// The settings of net/http's DefaultTransport dialer.
		d.Timeout, d.KeepAlive = 30*time.Second, 30*time.Second
		//lint:ignore SA1019 the deprecated dial functions still dial, past the guard
	} else if t.Dial != nil || t.DialContext != nil || t.DialTLS != nil || t.DialTLSContext != nil {
		return nil, fmt.Errorf("%w: the guard cannot see the addresses a transport's own dial function connects to: put GuardControl on its net.Dialer instead", ErrRefusedAddress)
	}
	guarded := t.Clone()
	guarded.Proxy = nil
	// A program may have set these on http.DefaultTransport; they would
	// dial past the guard.
	//lint:ignore SA1019 the deprecated dial functions still dial, past the guard
	guarded.Dial, guarded.DialTLS, guarded.DialTLSContext = nil, nil, nil
	guarded.DialContext = d.DialContext
	return guarded, nil
}

// guardedClient is the client of a Fetcher with a Guard, made once, so
// that its fetches share one pool of connections.
type guardedClient struct {
	once   sync.Once
	client *http.Client
}

// client returns the client f's fetches are sent with: Client, with
// Guard on its transport when Guard is set.
func (f *Fetcher) client() *http.Client {
	if f.Guard == nil {
		return f.Client
	}
	f.guarded.once.Do(func() { f.guarded.client = guardClient(f.Client, f.Guard) })
	return f.guarded.client
}

// guardClient returns a copy of c (nil: http.DefaultClient) sending through
// GuardTransport. A transport the guard cannot be put on is replaced by
// one that refuses every request: a fetch that cannot be guarded is not
// made.
func guardClient(c *http.Client, policy AddressPolicy) *http.Client {
	if c == nil {
		c = http.DefaultClient
	}
	cp := *c
	var base *http.Transport
	switch rt := c.Transport.(type) {
	case nil:
	case *http.Transport:
		base = rt
	default:
		cp.Transport = refuseAll{fmt.Errorf("%w: Fetcher.Guard cannot see the addresses a %T connects to: give Client an *http.Transport, or guard its dialer with GuardControl and leave Guard nil", ErrRefusedAddress, rt)}
		return &cp
	}
	t, err := GuardTransport(base, policy)
	if err != nil {
		cp.Transport = refuseAll{err}
		return &cp
	}
	cp.Transport = t
	return &cp
}

// refuseAll is the transport of a Fetcher whose Guard could not be put on
// its client's transport.
type refuseAll struct{ err error }

func (r refuseAll) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close()
	}
	return nil, r.err
}
