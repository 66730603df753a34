package main

import (
	"flag"
	"fmt"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests classify netip values: none connects anywhere but to a
// loopback test server, which the guard refuses before dialling.

// lastAddr returns the last address of p.
func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

func TestLastAddr(t *testing.T) {
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
			kind := nonPublicKind(a)
			if r.Guard == allow {
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
				assert.Equal(t, refuse, r.Guard, "%s is not globally reachable", r.Prefix)
			}
		case globalTrue:
			assert.NotEqual(t, refuse, r.Guard, "%s is globally reachable", r.Prefix)
		case globalNA:
		default:
			t.Errorf("%s: Global %q is not the registry's True, False or N/A", r.Prefix, r.Global)
		}
		if r.Guard == byIPv4 {
			assert.True(t, forms[r.Prefix], "%s is judged by its IPv4 address: it needs a transition form", r.Prefix)
		}
	}
}

func TestSpecialRangeOfTakesTheMostSpecificRow(t *testing.T) {
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
		} {
			a := carrying(t, f, v4)
			assert.Equal(t, kind, nonPublicKind(a), "%s (%s carrying %s)", a, f.Name, v4)
		}
		a := carrying(t, f, "8.8.8.8")
		want, ok := publicAllowed[f.Prefix]
		require.True(t, ok, f.Prefix)
		assert.Equal(t, want, nonPublicKind(a) == "", "%s (%s carrying 8.8.8.8)", a, f.Name)
	}
}

func TestTeredoServerIsJudgedToo(t *testing.T) {
	// Server 10.0.0.5, client 8.8.8.8 (inverted: f7f7:f7f7).
	assert.Equal(t, "private", nonPublicKind(netip.MustParseAddr("2001:0:a00:5::f7f7:f7f7")))
	assert.Equal(t, "", nonPublicKind(netip.MustParseAddr("2001:0:808:808::f7f7:f7f7")))
	// Client 127.0.0.1, inverted.
	assert.Equal(t, "loopback", nonPublicKind(netip.MustParseAddr("2001:0:808:808::80ff:fffe")))
}

func TestControlForParsesZonedIPv4(t *testing.T) {
	control := controlFor(publicOnly)
	// What the dialer gives for [::ffff:127.0.0.1%lo]: the IPv4 address
	// with the zone kept.
	err := control("tcp4", "127.0.0.1%lo:80", nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, errRefusedAddress)
	assert.Contains(t, err.Error(), "refused to connect to 127.0.0.1: a loopback address")
	assert.NoError(t, control("tcp4", "8.8.8.8%eth0:80", nil))
	assert.NoError(t, control("tcp6", "[2001:4860:4860::8888%eth0]:443", nil))

	err = control("tcp", "not an address", nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, errRefusedAddress)
	assert.Equal(t, `refused to connect to "not an address": an unparsable address is not public (robots serve --allow-private allows it)`, err.Error())
}

func TestServeGuardRefusesZonedAddresses(t *testing.T) {
	s := apiServer(t, serverConfig{})
	origin, n := countingOrigin(t, "User-agent: *\nDisallow: /\n")
	port := origin.URL[strings.LastIndexByte(origin.URL, ':')+1:]
	for _, host := range []string{
		"[::ffff:127.0.0.1%25lo]",
		"[::ffff:127.0.0.1%25eth0]",
		"[::ffff:7f00:1%25lo]",
		"[::1%25lo]",
	} {
		status, out := post(t, s, "/api/fetch", request(t, map[string]any{"url": "http://" + host + ":" + port + "/a"}))
		assert.Equal(t, http.StatusForbidden, status, "%s: %s", host, out)
		assert.Contains(t, out, "a loopback address is not public", host)
	}
	assert.Zero(t, n.Load(), "no request reached the origin")
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
	const path = "../../docs/serve.md"
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
	assert.Equal(t, want, section, "docs/serve.md's guard tables differ from specialRanges: go test ./cmd/robots -run TestGuardTableIsInTheDocs -update-guard-doc")
}
