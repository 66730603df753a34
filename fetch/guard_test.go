package fetch

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests classify netip values, or connect to servers on loopback
// only: the guard refuses other addresses before any packet is sent, and
// no test resolves a name.

func TestNonPublicKind(t *testing.T) {
	for _, tt := range []struct {
		addr, kind string
	}{
		{"127.0.0.1", "loopback"},
		{"127.255.255.254", "loopback"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"}, // IPv4-mapped IPv6
		{"64:ff9b::7f00:1", "loopback"},  // NAT64 of 127.0.0.1
		{"10.1.2.3", "private"},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"192.168.1.1", "private"},
		{"::ffff:10.0.0.1", "private"},
		{"::ffff:192.168.0.1", "private"},
		{"fc00::1", "private"},
		{"fd12:3456::1", "private"},
		{"169.254.169.254", "link-local"}, // cloud metadata services
		{"::ffff:169.254.169.254", "link-local"},
		{"fe80::1", "link-local"},
		{"fe80::1%eth0", "link-local"},
		{"224.0.0.1", "multicast"},
		{"239.255.255.250", "multicast"},
		{"ff02::1", "multicast"},
		{"ff05::2", "multicast"},
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"::ffff:0.0.0.0", "unspecified"},
		{"0.1.2.3", "reserved"},
		{"100.64.0.1", "reserved"}, // carrier-grade NAT, RFC 6598
		{"100.127.255.255", "reserved"},
		{"192.0.0.8", "reserved"},
		{"198.18.0.1", "reserved"}, // benchmarking, RFC 2544
		{"198.19.255.255", "reserved"},
		{"240.0.0.1", "reserved"},
		{"255.255.255.255", "reserved"},
		{"fec0::1", "reserved"},
		{"::ffff:127.0.0.1%lo", "loopback"},
		{"64:ff9b:1::a00:5", "private"},          // local-use NAT64 of 10.0.0.5
		{"64:ff9b:1::808:808", "reserved"},       // local-use NAT64 is not globally reachable
		{"::a00:5", "private"},                   // IPv4-compatible ::10.0.0.5
		{"::808:808", "reserved"},                // IPv4-compatible, deprecated
		{"2002:7f00:1::1", "loopback"},           // 6to4 of 127.0.0.1
		{"2002:c0a8:101::1", "private"},          // 6to4 of 192.168.1.1
		{"::ffff:0:a00:5", "private"},            // SIIT of 10.0.0.5
		{"2001:0:808:808::f5ff:fffa", "private"}, // Teredo, client 10.0.0.5
		{"100::1", "reserved"},                   // discard-only
		{"100:0:0:1::1", "reserved"},             // dummy prefix
		{"2001:db8::1", "reserved"},              // documentation
		{"3fff::1", "reserved"},                  // documentation
		{"2001:2::1", "reserved"},                // benchmarking
		{"5f00::1", "reserved"},                  // SRv6 SIDs
		{"400::1", "reserved"},                   // outside 2000::/3
		{"192.88.99.1", "reserved"},              // deprecated 6to4 relay anycast
		{"192.0.2.1", "reserved"},                // documentation
		{"198.51.100.1", "reserved"},
		{"203.0.113.1", "reserved"},
		{"192.0.0.170", "reserved"},
		{"192.0.0.9", ""},                 // PCP anycast, globally reachable
		{"192.31.196.1", ""},              // AS112
		{"192.52.193.1", ""},              // AMT
		{"192.175.48.1", ""},              // AS112 direct delegation
		{"2002:808:808::1", ""},           // 6to4 of 8.8.8.8
		{"2001:0:808:808::f7f7:f7f7", ""}, // Teredo, client 8.8.8.8
		{"2001:1::1", ""},                 // PCP anycast
		{"2001:3::1", ""},                 // AMT
		{"2001:4:112::1", ""},             // AS112-v6
		{"2620:4f:8000::1", ""},           // AS112 direct delegation
		{"8.8.8.8", ""},
		{"1.1.1.1", ""},
		{"172.32.0.1", ""},
		{"100.128.0.1", ""},
		{"198.20.0.1", ""},
		{"::ffff:8.8.8.8", ""},
		{"64:ff9b::808:808", ""},
		{"2001:4860:4860::8888", ""},
		{"2606:4700::1111", ""},
	} {
		assert.Equal(t, tt.kind, NonPublicKind(netip.MustParseAddr(tt.addr)), tt.addr)
	}
	assert.Equal(t, "invalid", NonPublicKind(netip.Addr{}))
}

func TestGuardPublicOnly(t *testing.T) {
	err := PublicOnly(netip.MustParseAddrPort("[::ffff:127.0.0.1%lo]:80"))
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrRefusedAddress)
	refused, ok := errors.AsType[*AddressError](err)
	require.True(t, ok)
	assert.Equal(t, netip.MustParseAddr("::ffff:127.0.0.1"), refused.Addr, "the zone is dropped")
	assert.Equal(t, "loopback", refused.Kind)
	assert.Equal(t, "refused to connect to ::ffff:127.0.0.1: a loopback address is not public", err.Error())
	assert.NoError(t, PublicOnly(netip.MustParseAddrPort("8.8.8.8:443")))
	err = PublicOnly(netip.MustParseAddrPort("[::]:80"))
	assert.Equal(t, "refused to connect to ::: an unspecified address is not public", err.Error())
	err = PublicOnly(netip.MustParseAddrPort("100.64.0.1:80"))
	assert.Equal(t, "refused to connect to 100.64.0.1: a reserved address is not public", err.Error())
}

func TestGuardControlParsesZonedIPv4(t *testing.T) {
	control := GuardControl(PublicOnly)
	// What the dialer gives for [::ffff:127.0.0.1%lo]: the IPv4 address
	// with the zone kept.
	err := control("tcp4", "127.0.0.1%lo:80", nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrRefusedAddress)
	assert.Contains(t, err.Error(), "refused to connect to 127.0.0.1: a loopback address")
	assert.NoError(t, control("tcp4", "8.8.8.8%eth0:80", nil))
	assert.NoError(t, control("tcp6", "[2001:4860:4860::8888%eth0]:443", nil))

	err = control("tcp", "not an address", nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrRefusedAddress)
	assert.Equal(t, `refused to connect to "not an address": an unparsable address is not public`, err.Error())
}

// lastAddr returns the last address of p.
func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

func TestGuardLastAddr(t *testing.T) {
	assert.Equal(t, "10.255.255.255", lastAddr(pfx("10.0.0.0/8")).String())
	assert.Equal(t, "192.0.0.9", lastAddr(pfx("192.0.0.9/32")).String())
	assert.Equal(t, "2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff", lastAddr(pfx("2001::/23")).String())
}

// TestSpecialRangesRowByRow walks the table: the first and the last
// address of every row are refused or let through as the row says. The
// rows judged by the IPv4 address they carry hold 0.0.0.0 or
// 255.255.255.255 there at both ends (Teredo's client, inverted, is
// 0.0.0.0 in its last address), so they are refused; the addresses
// carrying a public IPv4 address are TestTransitionForms's.
func TestSpecialRangesRowByRow(t *testing.T) {
	for _, r := range specialRanges {
		for _, a := range []netip.Addr{r.Prefix.Addr(), lastAddr(r.Prefix)} {
			kind := NonPublicKind(a)
			if r.Guard == guardAllow {
				assert.Empty(t, kind, "%s in %s (%s) is globally reachable", a, r.Prefix, r.Name)
			} else {
				assert.NotEmpty(t, kind, "%s in %s (%s) is not public", a, r.Prefix, r.Name)
			}
		}
	}
}

// TestSpecialRangesFollowTheRegistry checks the table against itself: the
// guard refuses a row the registry calls not globally reachable (the
// IPv4-mapped row, which a dialer connects to as IPv4, is judged by its
// IPv4 address), lets through one it calls reachable, and judges by the
// IPv4 address exactly the rows of the transition forms; prefixes are
// written masked, once each.
func TestSpecialRangesFollowTheRegistry(t *testing.T) {
	forms := map[netip.Prefix]bool{}
	for _, f := range transitionForms {
		forms[f.Prefix] = true
	}
	seen := map[netip.Prefix]bool{}
	for _, r := range specialRanges {
		assert.Equal(t, r.Prefix.Masked(), r.Prefix, "%s is written masked", r.Prefix)
		assert.False(t, seen[r.Prefix], "%s is listed once", r.Prefix)
		seen[r.Prefix] = true
		assert.True(t, strings.HasPrefix(r.RFC, "RFC "), r.RFC)
		switch r.Global {
		case globalFalse:
			if r.Prefix != pfx("::ffff:0:0/96") {
				assert.Equal(t, guardRefuse, r.Guard, "%s is not globally reachable", r.Prefix)
			}
		case globalTrue:
			assert.NotEqual(t, guardRefuse, r.Guard, "%s is globally reachable", r.Prefix)
		case globalNA:
		default:
			t.Errorf("%s: Global %q is not the registry's True, False or N/A", r.Prefix, r.Global)
		}
		if r.Guard == guardByIPv4 {
			assert.True(t, forms[r.Prefix], "%s is judged by its IPv4 address: it needs a transition form", r.Prefix)
		}
	}
}

func TestGuardTakesTheMostSpecificRow(t *testing.T) {
	for addr, want := range map[string]string{
		"192.0.0.9":   "192.0.0.9/32",
		"192.0.0.8":   "192.0.0.8/32",
		"192.0.0.100": "192.0.0.0/24",
		"0.0.0.0":     "0.0.0.0/32",
		"2001:1::3":   "2001:1::3/128",
		"2001:1::4":   "2001::/23",
		"2001::1":     "2001::/32",
		"2001:3::1":   "2001:3::/32",
		"64:ff9b::1":  "64:ff9b::/96",
	} {
		r, ok := specialRangeOf(netip.MustParseAddr(addr))
		require.True(t, ok, addr)
		assert.Equal(t, want, r.Prefix.String(), addr)
	}
	_, ok := specialRangeOf(netip.MustParseAddr("8.8.8.8"))
	assert.False(t, ok)
}

// carrying returns the address of form f that carries v4 where f puts it;
// Teredo's carries it as the client, the server being 8.8.8.8.
func carrying(t *testing.T, f transitionForm, v4 string) netip.Addr {
	t.Helper()
	b := f.Prefix.Addr().As16()
	ip := netip.MustParseAddr(v4).As4()
	switch f.Prefix {
	case pfx("2002::/16"):
		copy(b[2:6], ip[:])
		b[15] = 1 // a host on the site's network
	case pfx("2001::/32"):
		copy(b[4:8], []byte{8, 8, 8, 8})
		for i := range ip {
			b[12+i] = ip[i] ^ 0xff
		}
	default:
		copy(b[12:], ip[:])
	}
	a := netip.AddrFrom16(b)
	require.True(t, f.Prefix.Contains(a), "%s in %s", a, f.Prefix)
	return a
}

// TestTransitionForms: every form carrying a loopback or private IPv4
// address is refused as that kind; carrying a public one, it is let
// through where its own range is globally reachable.
func TestTransitionForms(t *testing.T) {
	publicAllowed := map[netip.Prefix]bool{
		pfx("::ffff:0:0/96"):   true,  // dialled as the IPv4 address
		pfx("::ffff:0:0:0/96"): false, // outside 2000::/3
		pfx("::/96"):           false, // outside 2000::/3
		pfx("64:ff9b::/96"):    true,
		pfx("64:ff9b:1::/48"):  false, // not globally reachable
		pfx("2002::/16"):       true,
		pfx("2001::/32"):       true,
	}
	require.Len(t, publicAllowed, len(transitionForms))
	for _, f := range transitionForms {
		for v4, kind := range map[string]string{
			"127.0.0.1":   "loopback",
			"10.0.0.5":    "private",
			"192.168.1.1": "private",
			"169.254.1.1": "link-local",
			"0.0.0.0":     "unspecified",
			"192.0.2.1":   "reserved",
			"100.64.0.1":  "reserved",
			"198.18.0.1":  "reserved",
		} {
			a := carrying(t, f, v4)
			assert.Equal(t, kind, NonPublicKind(a), "%s (%s carrying %s)", a, f.Name, v4)
		}
		a := carrying(t, f, "8.8.8.8")
		want, ok := publicAllowed[f.Prefix]
		require.True(t, ok, f.Prefix)
		assert.Equal(t, want, NonPublicKind(a) == "", "%s (%s carrying 8.8.8.8)", a, f.Name)
	}
}

func TestGuardJudgesTheTeredoServerToo(t *testing.T) {
	// Server 10.0.0.5, client 8.8.8.8 (inverted: f7f7:f7f7).
	assert.Equal(t, "private", NonPublicKind(netip.MustParseAddr("2001:0:a00:5::f7f7:f7f7")))
	assert.Equal(t, "", NonPublicKind(netip.MustParseAddr("2001:0:808:808::f7f7:f7f7")))
	// Client 127.0.0.1, inverted.
	assert.Equal(t, "loopback", NonPublicKind(netip.MustParseAddr("2001:0:808:808::80ff:fffe")))
}

// countingServer serves body at every path on addr (a loopback
// host:port) and counts the requests it gets.
func countingServer(t *testing.T, addr string, h http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s, which the test needs as a second loopback address: %v", addr, err)
	}
	var n atomic.Int64
	s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h(w, r)
	}))
	s.Listener.Close()
	s.Listener = l
	s.Start()
	t.Cleanup(s.Close)
	return s, &n
}

// assertRefused checks that res is the network failure of a connection
// the guard refused to addr, an address of kind.
func assertRefused(t *testing.T, res *Result, addr, kind string) {
	t.Helper()
	assert.Equal(t, FullDisallow, res.Policy)
	assert.Equal(t, ReasonNetwork, res.Reason)
	require.ErrorIs(t, res.Err, ErrRefusedAddress)
	refused, ok := errors.AsType[*AddressError](res.Err)
	require.True(t, ok, "%v", res.Err)
	assert.Equal(t, addr, refused.Addr.String())
	assert.Equal(t, kind, refused.Kind)
	assert.Contains(t, res.Err.Error(), fmt.Sprintf("refused to connect to %s: ", addr))
	assert.Contains(t, res.Err.Error(), kind+" address is not public")
}

func TestGuardFetcherRefusesTheFirstDial(t *testing.T) {
	s, n := countingServer(t, "127.0.0.1:0", text(http.StatusOK, rules))
	port := s.Listener.Addr().(*net.TCPAddr).Port
	// Without the guard the fetch reaches the server: the count below
	// would see a guard that let one through.
	open := &Fetcher{Client: testClient(t), Timeout: 2 * time.Second}
	res, err := open.Fetch(t.Context(), s.URL+"/robots.txt")
	require.NoError(t, err)
	require.Equal(t, Conditional, res.Policy, res.Err)
	require.Equal(t, int64(1), n.Load())
	n.Store(0)

	for _, tt := range []struct{ host, addr, kind string }{
		{"127.0.0.1", "127.0.0.1", "loopback"},
		// Dialled as the IPv4 address it carries.
		{"[::ffff:127.0.0.1]", "127.0.0.1", "loopback"},
		// Linux connects 0.0.0.0 to the host itself.
		{"0.0.0.0", "0.0.0.0", "unspecified"},
	} {
		for _, client := range []*http.Client{nil, testClient(t)} {
			f := &Fetcher{Client: client, Timeout: 2 * time.Second, Guard: PublicOnly}
			res, err := f.Fetch(t.Context(), fmt.Sprintf("http://%s:%d/robots.txt", tt.host, port))
			require.NoError(t, err)
			assertRefused(t, res, tt.addr, tt.kind)
		}
	}
	assert.Zero(t, n.Load(), "no request reached the server")
}

// allowOnly returns a policy that lets connections to addr through,
// standing in for a public host, and applies PublicOnly to every other.
func allowOnly(addr string) AddressPolicy {
	exempt := netip.MustParseAddr(addr)
	return func(ap netip.AddrPort) error {
		if ap.Addr().Unmap() == exempt {
			return nil
		}
		return PublicOnly(ap)
	}
}

func TestGuardFetcherRefusesARedirectTarget(t *testing.T) {
	inside, in := countingServer(t, "127.0.0.2:0", text(http.StatusOK, "User-agent: *\nAllow: /\n"))
	public, out := countingServer(t, "127.0.0.1:0", func(w http.ResponseWriter, r *http.Request) {
		// Two hops: one to the same host, which the guard lets through,
		// then one to the inside address.
		if r.URL.Path == "/robots.txt" {
			http.Redirect(w, r, "/moved/robots.txt", http.StatusMovedPermanently)
			return
		}
		http.Redirect(w, r, inside.URL+"/robots.txt", http.StatusFound)
	})
	f := &Fetcher{Client: testClient(t), Timeout: 2 * time.Second, Guard: allowOnly("127.0.0.1")}
	res, err := f.Fetch(t.Context(), public.URL+"/robots.txt")
	require.NoError(t, err)
	assertRefused(t, res, "127.0.0.2", "loopback")
	assert.Equal(t, inside.URL+"/robots.txt", res.FinalURL)
	assert.Equal(t, 2, res.Redirects)
	assert.Equal(t, int64(2), out.Load(), "both hops on the allowed address were made")
	assert.Zero(t, in.Load(), "no request reached the redirect target")

	// Through a Cache and a Checker, which fetch with the Fetcher: the
	// page is disallowed, with the refusal as the reason.
	c := NewChecker(NewCache(&Fetcher{Client: testClient(t), Timeout: 2 * time.Second, Guard: allowOnly("127.0.0.1")}, CacheOptions{}))
	v, err := c.Decide(t.Context(), "ExampleBot", public.URL+"/page")
	require.NoError(t, err)
	assert.False(t, v.Allowed)
	require.NotNil(t, v.Result)
	assertRefused(t, v.Result, "127.0.0.2", "loopback")
	assert.Zero(t, in.Load(), "no request reached the redirect target")

	// The same chain without the guard reaches the target.
	open := &Fetcher{Client: testClient(t), Timeout: 2 * time.Second}
	res, err = open.Fetch(t.Context(), public.URL+"/robots.txt")
	require.NoError(t, err)
	assert.Equal(t, Conditional, res.Policy, res.Err)
	assert.Equal(t, int64(1), in.Load())
}

func TestGuardFetcherRefusesATransportItCannotGuard(t *testing.T) {
	s, n := countingServer(t, "127.0.0.1:0", text(http.StatusOK, rules))
	var used atomic.Int64
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		used.Add(1)
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	for name, rt := range map[string]http.RoundTripper{
		"a RoundTripper of its own": roundTripFunc(func(req *http.Request) (*http.Response, error) {
			used.Add(1)
			return http.DefaultTransport.RoundTrip(req)
		}),
		"an *http.Transport with its own DialContext": &http.Transport{DialContext: dial},
	} {
		f := &Fetcher{Client: &http.Client{Transport: rt}, Timeout: 2 * time.Second, Guard: allowOnly("127.0.0.1")}
		res, err := f.Fetch(t.Context(), s.URL+"/robots.txt")
		require.NoError(t, err)
		assert.Equal(t, FullDisallow, res.Policy, name)
		assert.Equal(t, ReasonNetwork, res.Reason, name)
		assert.ErrorIs(t, res.Err, ErrRefusedAddress, name)
		assert.Contains(t, res.Err.Error(), "cannot see the addresses", name)
	}
	assert.Zero(t, used.Load(), "the transports were not used")
	assert.Zero(t, n.Load(), "no request reached the server")
}

func TestGuardTransportGuardsPages(t *testing.T) {
	var inside counter
	in, _ := countingServer(t, "127.0.0.2:0", inside.wrap(text(http.StatusOK, "User-agent: *\nAllow: /\n")))
	public, _ := countingServer(t, "127.0.0.1:0", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = w.Write([]byte("User-agent: *\nAllow: /\n"))
			return
		}
		http.Redirect(w, r, in.URL+"/admin", http.StatusFound)
	})
	insideHost := in.Listener.Addr().String()
	base, err := GuardTransport(nil, allowOnly("127.0.0.1"))
	require.NoError(t, err)
	assert.Nil(t, base.Proxy, "a proxy would connect where the guard cannot see")
	t.Cleanup(base.CloseIdleConnections)

	// Pages: robots.txt fetched without a guard allows the redirect
	// target, and the page's own connection is refused.
	open := NewChecker(NewCache(&Fetcher{Client: testClient(t), Timeout: 2 * time.Second}, CacheOptions{}))
	client := &http.Client{Transport: NewTransport(base, TransportOptions{Agent: "ExampleBot", Checker: open})}
	resp, err := client.Get(public.URL + "/page")
	if resp != nil {
		resp.Body.Close()
	}
	require.ErrorIs(t, err, ErrRefusedAddress)
	assert.Contains(t, err.Error(), "refused to connect to 127.0.0.2: a loopback address is not public")
	assert.Equal(t, 1, inside.get(insideHost+"/robots.txt"), "the unguarded robots.txt fetch reached it")
	assert.Zero(t, inside.get(insideHost+"/admin"), "the page request did not")

	// A Transport's own Checker fetches robots.txt through base too: the
	// target's robots.txt is refused, so the page is disallowed unsent.
	tr := NewTransport(base, TransportOptions{Agent: "ExampleBot"})
	client = &http.Client{Transport: tr}
	resp, err = client.Get(public.URL + "/page")
	if resp != nil {
		resp.Body.Close()
	}
	require.ErrorIs(t, err, ErrDisallowed)
	v, err := tr.Checker().Decide(t.Context(), "ExampleBot", in.URL+"/admin")
	require.NoError(t, err)
	assertRefused(t, v.Result, "127.0.0.2", "loopback")
	assert.Equal(t, 1, inside.get(""), "nothing more reached the inside address")

	_, err = GuardTransport(&http.Transport{DialContext: (&net.Dialer{}).DialContext}, PublicOnly)
	assert.ErrorIs(t, err, ErrRefusedAddress, "a dial function of its own is not guarded")
	guarded, err := GuardTransport(&http.Transport{MaxIdleConns: 7, Proxy: http.ProxyFromEnvironment}, PublicOnly)
	require.NoError(t, err)
	assert.Equal(t, 7, guarded.MaxIdleConns, "the transport's settings are kept")
	assert.Nil(t, guarded.Proxy)
}

const (
	guardTableBegin = "<!-- guard-table:begin -->"
	guardTableEnd   = "<!-- guard-table:end -->"
)

var updateGuardDoc = flag.Bool("update-guard-doc", false, "rewrite the guard's tables in docs/serve.md from specialRanges and transitionForms")

// guardTablesMarkdown renders specialRanges and transitionForms as the
// tables of docs/serve.md.
func guardTablesMarkdown() string {
	var b strings.Builder
	b.WriteString("| Range | Name | RFC | Globally reachable | The guard |\n|---|---|---|---|---|\n")
	for _, r := range specialRanges {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", r.Prefix, r.Name, r.RFC, r.Global, r.Guard)
	}
	b.WriteString("\n| IPv6 range | Carries an IPv4 address | RFC | Where |\n|---|---|---|---|\n")
	for _, f := range transitionForms {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", f.Prefix, f.Name, f.RFC, f.Where)
	}
	return b.String()
}

// TestGuardTableIsInTheDocs fails when docs/serve.md's tables of the
// guard are not what the Go tables give.
func TestGuardTableIsInTheDocs(t *testing.T) {
	const path = "../docs/serve.md"
	doc, err := os.ReadFile(path)
	require.NoError(t, err)
	text := string(doc)
	before, rest, ok1 := strings.Cut(text, guardTableBegin+"\n")
	section, after, ok2 := strings.Cut(rest, guardTableEnd)
	require.True(t, ok1 && ok2, "docs/serve.md has no %s ... %s section", guardTableBegin, guardTableEnd)
	want := guardTablesMarkdown()
	if *updateGuardDoc {
		require.NoError(t, os.WriteFile(path, []byte(before+guardTableBegin+"\n"+want+guardTableEnd+after), 0o644))
		return
	}
	assert.Equal(t, want, section, "docs/serve.md's guard tables differ from specialRanges: go test ./fetch -run TestGuardTableIsInTheDocs -update-guard-doc")
}

// checkThenAllow runs PublicOnly's check on every address and lets each
// through, so that a fetch from loopback pays the guard's whole cost.
func checkThenAllow(ap netip.AddrPort) error {
	_ = PublicOnly(ap)
	return nil
}

// BenchmarkGuardFetch measures a Fetch from a loopback server over a new
// connection each time (keep-alives off, so the dialer's Control runs on
// every fetch), with and without Fetcher.Guard.
func BenchmarkGuardFetch(b *testing.B) {
	s := serve(b, text(http.StatusOK, rules))
	for _, bc := range []struct {
		name  string
		guard AddressPolicy
	}{{"off", nil}, {"on", checkThenAllow}} {
		b.Run(bc.name, func(b *testing.B) {
			tr := &http.Transport{DisableKeepAlives: true}
			f := &Fetcher{Client: &http.Client{Transport: tr}, Timeout: 5 * time.Second, Guard: bc.guard}
			b.ReportAllocs()
			for b.Loop() {
				res, err := f.Fetch(b.Context(), s.URL+"/robots.txt")
				if err != nil || res.Policy != Conditional {
					b.Fatal(err, res.Err)
				}
			}
		})
	}
}

// BenchmarkGuardCheck measures the check alone, on the kinds of address a
// crawler dials: public IPv4 and IPv6, and the refused ones.
func BenchmarkGuardCheck(b *testing.B) {
	for _, addr := range []string{"93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "127.0.0.1", "10.0.0.5", "::ffff:192.168.1.1"} {
		ap := netip.AddrPortFrom(netip.MustParseAddr(addr), 443)
		b.Run(addr, func(b *testing.B) {
			for b.Loop() {
				_ = PublicOnly(ap)
			}
		})
	}
}
