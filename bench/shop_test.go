package bench

import "testing"

// The Shop benchmarks measure the cold path on testdata/shop.txt (17 KB,
// 599 rules, two thirds of them with '*'), for ShopAgent, which falls to
// the '*' group (260 rules in two blocks that merge): what a crawler pays
// for a robots.txt it has just fetched, step by step.

func shopWorkload(b *testing.B) (body []byte, paths []string) {
	b.Helper()
	body, err := Shop()
	if err != nil {
		b.Fatal(err)
	}
	paths, err = ShopPaths()
	if err != nil {
		b.Fatal(err)
	}
	return body, paths
}

// shopParsed parses and resolves shop.txt once before the timer starts,
// and skips the library if it refuses the file or panics on it: the timed
// loops then run the same steps without recovery.
func shopParsed(b *testing.B, lib Lib, body []byte) Checker {
	b.Helper()
	var st Stats
	c, ok := parseCompile(lib, "shop.txt", body, ShopAgent, &st)
	if !ok {
		b.Skipf("%s cannot parse and resolve shop.txt: %+v", lib.Name(), st)
	}
	return c
}

// BenchmarkShopParse parses shop.txt once per op.
func BenchmarkShopParse(b *testing.B) {
	body, _ := shopWorkload(b)
	benchParse(b, body, func(b *testing.B, lib Lib) { shopParsed(b, lib, body) })
}

// BenchmarkShopResolve parses shop.txt and resolves ShopAgent once per op.
func BenchmarkShopResolve(b *testing.B) {
	body, _ := shopWorkload(b)
	benchResolve(b, body, ShopAgent, func(b *testing.B, lib Lib) { shopParsed(b, lib, body) })
}

// BenchmarkShopCold answers one question about shop.txt as if it had just
// been fetched, per op: parse, resolve ShopAgent, check one of the 64 paths
// (a different one each op), with OneShot, the cheapest way each library
// offers (for grobotstxt one AgentAllowed call, which parses as it
// matches). Panics are recovered and reported per op.
func BenchmarkShopCold(b *testing.B) {
	body, paths := shopWorkload(b)
	for _, lib := range Libs() {
		b.Run(lib.Name(), func(b *testing.B) {
			shopParsed(b, lib, body)
			in := Prepare(lib, paths)
			b.ReportAllocs()
			b.ResetTimer()
			var st Stats
			for i := range b.N {
				RunOneShot(lib, "shop.txt", body, ShopAgent, in[i&63], &st)
			}
			b.StopTimer()
			b.ReportMetric(float64(st.Panics)/float64(b.N), "panics")
		})
	}
}

// BenchmarkShopCheck checks one of the 64 shop paths per op for ShopAgent,
// cycling through them. Parsing, resolving and one pass over the 64 paths
// are done before the timer starts, so a matcher built lazily is measured
// in its steady state (its building shows in ShopCold). Panics are
// recovered and reported per op.
func BenchmarkShopCheck(b *testing.B) {
	body, paths := shopWorkload(b)
	for _, lib := range Libs() {
		b.Run(lib.Name(), func(b *testing.B) {
			c := shopParsed(b, lib, body)
			in := Prepare(lib, paths)
			var st Stats
			CheckCycle(c, in, len(in), &st) // warm-up: see the doc comment
			st = Stats{}
			b.ReportAllocs()
			b.ResetTimer()
			CheckCycle(c, in, b.N, &st)
			b.StopTimer()
			sink += st.Disallowed
			b.ReportMetric(float64(st.Panics)/float64(b.N), "panics")
		})
	}
}
