package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTargetsOnFixture evaluates every target on testdata/bench.txt, whose
// medians were chosen to meet some, miss others and leave some without a
// figure.
func TestTargetsOnFixture(t *testing.T) {
	r := fixture(t)
	want := map[string]Verdict{
		"`ShopCold` ns/op ≤ 0.25 × slyrz's":                     {"45 µs", "slyrz: 200 µs", "0.23×", "met"},
		"`ShopResolve` B/op ≤ 32 KiB":                           {"39.1 KiB", "32 KiB", "1.2×", "not met"},
		"`ShopParse` MB/s ≥ 450":                                {"420", "450", "0.93×", "not met"},
		"`ShopParse` MB/s ≥ 2.2 × slyrz's":                      {"420", "slyrz: 160", "2.6×", "met"},
		"`CorpusParse` MB/s ≥ 450":                              {Missing, "450", Missing, "no result"},
		"`Crawl` ns/op ≤ 0.5 × the fastest peer's":              {"100 ms", "benjaminestes: 180 ms", "0.56×", "not met"},
		"`LongTail` ns/op ≤ 0.5 × the fastest peer's":           {Missing, Missing, Missing, "no result"},
		"`Frontier` ns/op ≤ 0.25 × the fastest peer's":          {"400 ms", "slyrz: 1 s", "0.4×", "not met"},
		"`Frontier/parallel` ns/op ≤ 0.25 × the fastest peer's": {"200 ms", "slyrz: 1.1 s", "0.18×", "met"}, // a variant's target
		"`CheckNamed` ns/op ≤ 55 ns":                            {"55 ns", "55 ns", "1×", "met"},            // on the bound
		"`CheckStar` ns/op ≤ 70 ns":                             {Missing, "70 ns", Missing, "no result"},
		"`CheckNamed` allocs/op = 0":                            {"0", "0", "", "met"},
		"`Memory` B/automaton-star ≤ 96 KiB":                    {"87.9 KiB", "96 KiB", "0.92×", "met"},
		"`Crawl` panics = 0":                                    {"0", "0", "", "met"},
	}
	seen := 0
	for _, tg := range Targets {
		w, ok := want[tg.String()]
		if !ok {
			continue
		}
		seen++
		assert.Equal(t, w, tg.Evaluate(r), tg.String())
	}
	assert.Equal(t, len(want), seen, "targets named in the test but not in Targets")
}

// TestTargetBestPeerOfRate checks that the best peer of a rate is the
// highest, and that a missing peer leaves the target without a result.
func TestTargetBestPeerOfRate(t *testing.T) {
	r := fixture(t)
	v := Target{Bench: "ShopParse", Unit: "MB/s", Factor: 2, Peer: fastestPeer}.Evaluate(r)
	assert.Equal(t, Verdict{"420", "slyrz: 160", "2.6×", "met"}, v)
	v = Target{Bench: "ShopParse", Unit: "MB/s", Factor: 2, Peer: "temoto"}.Evaluate(r)
	assert.Equal(t, "no result", v.Result)
}
