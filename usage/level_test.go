package usage

import "testing"

func TestParseLevel(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Level
		ok   bool
	}{
		{"immediate", LevelImmediate, true},
		{"reference", LevelReference, true},
		{"full", LevelFull, true},
		{"Reference", LevelReference, true},
		{"FULL", LevelFull, true},
		{"", LevelNone, false},
		{"partial", LevelNone, false},
		{"references", LevelNone, false},
		{"none", LevelNone, false},
	} {
		if got, ok := ParseLevel(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	for l := LevelImmediate; l < numLevels; l++ {
		if got, ok := ParseLevel(l.String()); got != l || !ok {
			t.Errorf("ParseLevel(%v.String()) = %v, %v", l, got, ok)
		}
	}
	if LevelNone.String() != "none" || Level(numLevels).String() != "none" {
		t.Error("LevelNone or a level past the table has a name")
	}
}

// TestLevelsOrdered checks the order Cloudflare's /crawl documentation
// gives, least permissive first.
func TestLevelsOrdered(t *testing.T) {
	if !(LevelNone < LevelImmediate && LevelImmediate < LevelReference && LevelReference < LevelFull) {
		t.Error("the levels are not ordered immediate < reference < full")
	}
}

func TestCombineLevels(t *testing.T) {
	all := []Level{LevelNone, LevelImmediate, LevelReference, LevelFull}
	for _, a := range all {
		for _, b := range all {
			got := CombineLevels(a, b)
			want := min(a, b)
			if a == LevelNone {
				want = b
			} else if b == LevelNone {
				want = a
			}
			if got != want || got != CombineLevels(b, a) {
				t.Errorf("CombineLevels(%v, %v) = %v, want %v", a, b, got, want)
			}
			for _, c := range all {
				if CombineLevels(CombineLevels(a, b), c) != CombineLevels(a, CombineLevels(b, c)) {
					t.Errorf("CombineLevels is not associative on %v %v %v", a, b, c)
				}
			}
		}
	}
	if CombineLevels(numLevels, LevelFull) != LevelFull {
		t.Error("a level past the table is a statement")
	}
}

// TestPermits checks "may I use this at level L?" for every site level
// and every asked level.
func TestPermits(t *testing.T) {
	for _, tc := range []struct {
		site                       Level
		immediate, reference, full Value
	}{
		{LevelNone, Unknown, Unknown, Unknown},
		{LevelImmediate, Yes, No, No},
		{LevelReference, Yes, Yes, No},
		{LevelFull, Yes, Yes, Yes},
		{numLevels, Unknown, Unknown, Unknown},
	} {
		got := [3]Value{tc.site.Permits(LevelImmediate), tc.site.Permits(LevelReference), tc.site.Permits(LevelFull)}
		if got != [3]Value{tc.immediate, tc.reference, tc.full} {
			t.Errorf("%v.Permits(immediate, reference, full) = %v", tc.site, got)
		}
		if tc.site.Permits(LevelNone) != Unknown || tc.site.Permits(numLevels) != Unknown {
			t.Errorf("%v permits a level that is none of the three", tc.site)
		}
	}
}

// TestRefusesCloudflareCases checks Level.Refuses against the three cases
// of "How /crawl enforces Content Signals" in Cloudflare's /crawl
// documentation, for the two levels the endpoint accepts and for a crawl
// that declares none (the endpoint's default, full).
func TestRefusesCloudflareCases(t *testing.T) {
	full, reference, none := LevelFull, LevelReference, LevelNone
	// 1. use=full, or no use: any contentUse value is allowed.
	for _, site := range []Level{LevelFull, LevelNone} {
		for _, declared := range []Level{reference, full, none} {
			if site.Refuses(declared) {
				t.Errorf("site %v refuses a crawl declaring %v", site, declared)
			}
		}
	}
	// 2. use=reference: reference is allowed, the default full refused.
	if LevelReference.Refuses(reference) || !LevelReference.Refuses(full) || !LevelReference.Refuses(none) {
		t.Error("use=reference: want reference allowed, full and the default refused")
	}
	// 3. use=immediate: every crawl is refused, both levels exceeding it.
	if !LevelImmediate.Refuses(reference) || !LevelImmediate.Refuses(full) || !LevelImmediate.Refuses(none) {
		t.Error("use=immediate: want every crawl refused")
	}
	if LevelImmediate.Refuses(LevelImmediate) {
		t.Error("use=immediate refuses a crawler declaring immediate")
	}
}

// TestUnknownLevelStatesNothing checks that a use value that is no level
// states nothing, is counted malformed, and neither permits nor refuses:
// the site is read as if the entry were absent.
func TestUnknownLevelStatesNothing(t *testing.T) {
	s := ParseContentSignal("search=yes, use=partial")
	if s.Use != LevelNone || s.Malformed != 1 || len(s.Other) != 0 || s.Get(SignalSearch) != Yes {
		t.Fatalf("ParseContentSignal = %+v", s)
	}
	if s.Use.Permits(LevelFull) != Unknown || s.Use.Refuses(LevelFull) {
		t.Error("an unknown level permits or refuses")
	}
	// Beside a level, it changes nothing: the level stands.
	if s := ParseContentSignal("use=partial, USE = Full"); s.Use != LevelFull || s.Malformed != 1 {
		t.Errorf("use=partial beside use=full: %+v", s)
	}
	if s := ParseContentSignal("use"); s.Use != LevelNone || s.Malformed != 1 {
		t.Errorf("use without a value: %+v", s)
	}
}
