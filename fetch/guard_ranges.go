package fetch

import "net/netip"

// specialRanges are the rows of IANA's "IPv4 Special-Purpose Address
// Registry" and "IPv6 Special-Purpose Address Registry"
// (iana.org/assignments/iana-ipv4-special-registry and
// iana-ipv6-special-registry), transcribed in November 2026; the newest
// rows are RFC 9665's 2001:1::3/128 and RFC 9780's 100:0:0:1::/64. Each
// row keeps the registry's "Globally Reachable" column as written, and
// says what the guard does with the range's addresses. A registry row
// added later is a row added here; TestSpecialRangesRowByRow then checks
// it, and TestGuardTableIsInTheDocs puts it in docs/serve.md.
//
// The guard takes the most specific row that holds an address, so the
// reachable exceptions inside a refused block (192.0.0.9/32 in
// 192.0.0.0/24, 2001:3::/32 in 2001::/23) are let through.
var specialRanges = []specialRange{
	// IPv4.
	{pfx("0.0.0.0/8"), `"This network"`, "RFC 791", globalFalse, guardRefuse},
	{pfx("0.0.0.0/32"), `"This host on this network"`, "RFC 1122", globalFalse, guardRefuse},
	{pfx("10.0.0.0/8"), "Private-Use", "RFC 1918", globalFalse, guardRefuse},
	{pfx("100.64.0.0/10"), "Shared Address Space", "RFC 6598", globalFalse, guardRefuse},
	{pfx("127.0.0.0/8"), "Loopback", "RFC 1122", globalFalse, guardRefuse},
	{pfx("169.254.0.0/16"), "Link Local", "RFC 3927", globalFalse, guardRefuse},
	{pfx("172.16.0.0/12"), "Private-Use", "RFC 1918", globalFalse, guardRefuse},
	{pfx("192.0.0.0/24"), "IETF Protocol Assignments", "RFC 6890", globalFalse, guardRefuse},
	{pfx("192.0.0.0/29"), "IPv4 Service Continuity Prefix", "RFC 7335", globalFalse, guardRefuse},
	{pfx("192.0.0.8/32"), "IPv4 dummy address", "RFC 7600", globalFalse, guardRefuse},
	{pfx("192.0.0.9/32"), "Port Control Protocol Anycast", "RFC 7723", globalTrue, guardAllow},
	{pfx("192.0.0.10/32"), "Traversal Using Relays around NAT Anycast", "RFC 8155", globalTrue, guardAllow},
	{pfx("192.0.0.170/32"), "NAT64/DNS64 Discovery", "RFC 8880", globalFalse, guardRefuse},
	{pfx("192.0.0.171/32"), "NAT64/DNS64 Discovery", "RFC 8880", globalFalse, guardRefuse},
	{pfx("192.0.2.0/24"), "Documentation (TEST-NET-1)", "RFC 5737", globalFalse, guardRefuse},
	{pfx("192.31.196.0/24"), "AS112-v4", "RFC 7535", globalTrue, guardAllow},
	{pfx("192.52.193.0/24"), "AMT", "RFC 7450", globalTrue, guardAllow},
	// Deprecated: no relay is bound to answer, and one that does hands
	// the connection to an IPv6 network the guard cannot see.
	{pfx("192.88.99.0/24"), "Deprecated (6to4 Relay Anycast)", "RFC 7526", globalNA, guardRefuse},
	{pfx("192.88.99.2/32"), "6a44-relay anycast address", "RFC 6751", globalTrue, guardAllow},
	{pfx("192.168.0.0/16"), "Private-Use", "RFC 1918", globalFalse, guardRefuse},
	{pfx("192.175.48.0/24"), "Direct Delegation AS112 Service", "RFC 7534", globalTrue, guardAllow},
	{pfx("198.18.0.0/15"), "Benchmarking", "RFC 2544", globalFalse, guardRefuse},
	{pfx("198.51.100.0/24"), "Documentation (TEST-NET-2)", "RFC 5737", globalFalse, guardRefuse},
	{pfx("203.0.113.0/24"), "Documentation (TEST-NET-3)", "RFC 5737", globalFalse, guardRefuse},
	{pfx("240.0.0.0/4"), "Reserved", "RFC 1112", globalFalse, guardRefuse},
	{pfx("255.255.255.255/32"), "Limited Broadcast", "RFC 8190", globalFalse, guardRefuse},

	// IPv6.
	{pfx("::1/128"), "Loopback Address", "RFC 4291", globalFalse, guardRefuse},
	{pfx("::/128"), "Unspecified Address", "RFC 4291", globalFalse, guardRefuse},
	// Not reachable as an IPv6 destination, but a dialer given one
	// connects to the IPv4 address it carries: it is judged as that.
	{pfx("::ffff:0:0/96"), "IPv4-mapped Address", "RFC 4291", globalFalse, guardByIPv4},
	{pfx("64:ff9b::/96"), "IPv4-IPv6 Translat.", "RFC 6052", globalTrue, guardByIPv4},
	{pfx("64:ff9b:1::/48"), "IPv4-IPv6 Translat.", "RFC 8215", globalFalse, guardRefuse},
	{pfx("100::/64"), "Discard-Only Address Block", "RFC 6666", globalFalse, guardRefuse},
	{pfx("100:0:0:1::/64"), "Dummy IPv6 Prefix", "RFC 9780", globalFalse, guardRefuse},
	{pfx("2001::/23"), "IETF Protocol Assignments", "RFC 2928", globalFalse, guardRefuse},
	// A Teredo address reaches a host behind the NAT at its client
	// address, through the relay at its server address: judged by both.
	{pfx("2001::/32"), "TEREDO", "RFC 4380", globalNA, guardByIPv4},
	{pfx("2001:1::1/128"), "Port Control Protocol Anycast", "RFC 7723", globalTrue, guardAllow},
	{pfx("2001:1::2/128"), "Traversal Using Relays around NAT Anycast", "RFC 8155", globalTrue, guardAllow},
	{pfx("2001:1::3/128"), "DNS-SD Service Registration Protocol Anycast", "RFC 9665", globalTrue, guardAllow},
	{pfx("2001:2::/48"), "Benchmarking", "RFC 5180", globalFalse, guardRefuse},
	{pfx("2001:3::/32"), "AMT", "RFC 7450", globalTrue, guardAllow},
	{pfx("2001:4:112::/48"), "AS112-v6", "RFC 7535", globalTrue, guardAllow},
	// Deprecated, its identifiers were never routed.
	{pfx("2001:10::/28"), "Deprecated (previously ORCHID)", "RFC 4843", globalNA, guardRefuse},
	{pfx("2001:20::/28"), "ORCHIDv2", "RFC 7343", globalTrue, guardAllow},
	{pfx("2001:30::/28"), "Drone Remote ID Protocol Entity Tags (DETs) Prefix", "RFC 9374", globalTrue, guardAllow},
	{pfx("2001:db8::/32"), "Documentation", "RFC 3849", globalFalse, guardRefuse},
	// A 6to4 address reaches the site behind the IPv4 address it carries.
	{pfx("2002::/16"), "6to4", "RFC 3056", globalNA, guardByIPv4},
	{pfx("2620:4f:8000::/48"), "Direct Delegation AS112 Service", "RFC 7534", globalTrue, guardAllow},
	{pfx("3fff::/20"), "Documentation", "RFC 9637", globalFalse, guardRefuse},
	{pfx("5f00::/16"), "Segment Routing (SRv6) SIDs", "RFC 9602", globalFalse, guardRefuse},
	{pfx("fc00::/7"), "Unique-Local", "RFC 4193", globalFalse, guardRefuse},
	{pfx("fe80::/10"), "Link-Local Unicast", "RFC 4291", globalFalse, guardRefuse},
}

// globalUnicast is the IPv6 global unicast space, 2000::/3, in IANA's
// "Internet Protocol Version 6 Address Space". The rest of IPv6 is
// reserved by the IETF, unique-local, link-local, the deprecated
// site-local fec0::/10 or multicast: the guard refuses an IPv6 address
// outside it that no row lets through.
var globalUnicast = pfx("2000::/3")

// transitionForms are the IPv6 addresses that carry an IPv4 address, and
// where: an address of one of them leads to that IPv4 address, so the
// guard refuses it when the IPv4 address is not public, whatever its
// own row says.
var transitionForms = []transitionForm{
	{pfx("::ffff:0:0/96"), "IPv4-mapped", "RFC 4291", "the last 32 bits", last32},
	{pfx("::ffff:0:0:0/96"), "IPv4-translated (SIIT)", "RFC 2765", "the last 32 bits", last32},
	{pfx("::/96"), "IPv4-compatible (deprecated)", "RFC 4291", "the last 32 bits", last32},
	{pfx("64:ff9b::/96"), "NAT64, well-known prefix", "RFC 6052", "the last 32 bits", last32},
	// RFC 8215 lets a network embed the IPv4 address anywhere RFC 6052
	// allows; the range is refused whatever it carries, so the embedded
	// address only names the kind of refusal, read where a /96 puts it.
	{pfx("64:ff9b:1::/48"), "NAT64, local-use prefix", "RFC 8215", "the last 32 bits", last32},
	{pfx("2002::/16"), "6to4", "RFC 3056", "bits 16 to 47", sixToFour},
	{pfx("2001::/32"), "Teredo", "RFC 4380", "the server in bits 32 to 63, the client inverted in the last 32", teredo},
}

// globalReach is a registry's "Globally Reachable" column.
type globalReach string

const (
	globalTrue  globalReach = "True"
	globalFalse globalReach = "False"
	globalNA    globalReach = "N/A"
)

// guardAction is what the guard does with the addresses of a row.
type guardAction string

const (
	guardRefuse guardAction = "refused"
	guardAllow  guardAction = "allowed"
	// guardByIPv4 judges an address by the IPv4 address it carries (see
	// transitionForms): allowed when that is public.
	guardByIPv4 guardAction = "judged by the IPv4 address it carries"
)

// specialRange is one row of a special-purpose address registry.
type specialRange struct {
	Prefix netip.Prefix
	Name   string
	RFC    string
	Global globalReach // as the registry says
	Guard  guardAction // guardRefuse when Global is False, except for the IPv4-mapped row
}

// transitionForm is an IPv6 range whose addresses carry IPv4 addresses.
type transitionForm struct {
	Prefix netip.Prefix
	Name   string
	RFC    string
	Where  string                        // where the IPv4 address sits, in words
	IPv4   func(a [16]byte) []netip.Addr // the IPv4 addresses carried
}

func pfx(s string) netip.Prefix { return netip.MustParsePrefix(s) }

func last32(a [16]byte) []netip.Addr { return []netip.Addr{netip.AddrFrom4([4]byte(a[12:]))} }

func sixToFour(a [16]byte) []netip.Addr { return []netip.Addr{netip.AddrFrom4([4]byte(a[2:6]))} }

func teredo(a [16]byte) []netip.Addr {
	client := [4]byte(a[12:])
	for i := range client {
		client[i] ^= 0xff
	}
	return []netip.Addr{netip.AddrFrom4([4]byte(a[4:8])), netip.AddrFrom4(client)}
}

// specialRangeOf returns the most specific row that holds a, which has no
// zone; ok is false when none does.
func specialRangeOf(a netip.Addr) (r specialRange, ok bool) {
	for _, row := range specialRanges {
		if row.Prefix.Contains(a) && (!ok || row.Prefix.Bits() > r.Prefix.Bits()) {
			r, ok = row, true
		}
	}
	return r, ok
}

// carriedIPv4 returns the IPv4 addresses a, which has no zone, carries in
// the transition forms that hold it.
func carriedIPv4(a netip.Addr) []netip.Addr {
	if !a.Is6() {
		return nil
	}
	var out []netip.Addr
	for _, f := range transitionForms {
		if f.Prefix.Contains(a) {
			out = append(out, f.IPv4(a.As16())...)
		}
	}
	return out
}
