package usage

import (
	"math/rand/v2"
	"testing"
)

// TestSetDecidesAsDecide checks Set.Decide against Decide on random
// groups of rules and signals and random paths, and DecideUnescaped of a
// raw path, and DecideBeforeFragment of it followed by a fragment or with
// a '#' at any byte, against Decide of the escaped path before the '#':
// the same Usage, lines and sources included.
func TestSetDecidesAsDecide(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	patterns := []string{"/", "/a", "/b", "/a/", "/ab", "/a*", "/*b", "/a$", "/a/b", "/*.pdf$", "*", "/a/*/c", "/%C3%A9", "/a%2F", "/a%2Fb", "/a#b"}
	prefs := []string{"train-ai=n", "train-ai=y", "search=y", "search=n, train-ai=y", "x=y", "(", ""}
	sigs := []string{"ai-train=no", "ai-train=yes", "search=yes, ai-input=no", "use=reference", "ai-train=maybe", "use=full", "use=immediate, search=no", "use=partial"}
	paths := []string{"/", "/a", "/ab", "/a/b", "/a/x/c", "/b", "/x.pdf", "/a/b.pdf", "/abc?q", "/é", "/%c3%a9", "/a%2fb", "/a%2Fb", "/a%2", "/ab%", "/é/a", "/aé", "/a/é", "/ab%c3%a9", "%", "é"}
	for n := range 2000 {
		var rules []Rule
		var signals []SignalLine
		line := 0
		for range rng.IntN(8) {
			line += 1 + rng.IntN(3)
			rules = append(rules, Rule{Line: line, Pattern: patterns[rng.IntN(len(patterns))], Pref: pref(prefs[rng.IntN(len(prefs))])})
		}
		for range rng.IntN(3) {
			line += 1 + rng.IntN(3)
			signals = append(signals, SignalLine{Line: line, Signal: ParseContentSignal(sigs[rng.IntN(len(sigs))])})
		}
		rng.Shuffle(len(rules), func(i, j int) { rules[i], rules[j] = rules[j], rules[i] })
		s := NewSet(rules, signals)
		for _, raw := range paths {
			path := EscapePath(raw)
			for _, allowed := range []bool{true, false} {
				want, got := Decide(rules, signals, path, allowed), s.Decide(path, allowed)
				if !got.Equal(want) {
					t.Fatalf("case %d, %s (allowed %v): Set.Decide = %+v, Decide = %+v\nrules %+v\nsignals %+v", n, path, allowed, got, want, rules, signals)
				}
				if got := s.DecideUnescaped(raw, allowed); !got.Equal(want) {
					t.Fatalf("case %d, %s (allowed %v): Set.DecideUnescaped = %+v, Decide of the escaped path = %+v\nrules %+v", n, raw, allowed, got, want, rules)
				}
				if got := s.DecideBeforeFragment(raw+"#frag/a%2Fb", allowed); !got.Equal(want) {
					t.Fatalf("case %d, %s#... (allowed %v): Set.DecideBeforeFragment = %+v, Decide of the escaped path = %+v\nrules %+v", n, raw, allowed, got, want, rules)
				}
			}
			// A '#' at any byte of the path ends it there.
			for k := range len(raw) + 1 {
				want := Decide(rules, signals, EscapePath(raw[:k]), true)
				if got := s.DecideBeforeFragment(raw[:k]+"#"+raw[k:], true); !got.Equal(want) {
					t.Fatalf("case %d, %s#%s: Set.DecideBeforeFragment = %+v, Decide of the path before '#' = %+v\nrules %+v", n, raw[:k], raw[k:], got, want, rules)
				}
			}
		}
	}
}

func TestSetEmpty(t *testing.T) {
	var nilSet *Set
	for _, s := range []*Set{nilSet, NewSet(nil, nil)} {
		if !s.Empty() || !s.Decide("/", true).Equal(Usage{Allowed: true}) {
			t.Errorf("an empty set states something: %+v", s.Decide("/", true))
		}
	}
	if NewSet([]Rule{{Line: 1, Pattern: "/", Pref: pref("x=y")}}, nil).Empty() {
		t.Error("a set with a rule stating nothing known is empty")
	}
}

// TestSetMemoryBytes checks that a set counts at least its patterns'
// bytes, and that folding rules of one pattern holds them once.
func TestSetMemoryBytes(t *testing.T) {
	long := "/" + string(make([]byte, 1000))
	one := NewSet([]Rule{{Line: 1, Pattern: long, Pref: pref("train-ai=n")}}, nil)
	if got := one.MemoryBytes(); got < len(long)+setBytes+setRuleBytes {
		t.Errorf("MemoryBytes = %d, below the %d bytes of the pattern and the set", got, len(long)+setBytes+setRuleBytes)
	}
	two := NewSet([]Rule{{Line: 1, Pattern: long, Pref: pref("train-ai=n")}, {Line: 2, Pattern: long, Pref: pref("search=y")}}, nil)
	if two.MemoryBytes() != one.MemoryBytes() {
		t.Errorf("two rules of one pattern hold %d bytes, one rule %d", two.MemoryBytes(), one.MemoryBytes())
	}
	if (*Set)(nil).MemoryBytes() != 0 {
		t.Error("the nil set holds memory")
	}
}

// TestSetMarksTies checks which patterns must look for a second winner of
// their length: only those sharing it with a pattern that is not literal.
func TestSetMarksTies(t *testing.T) {
	for _, c := range []struct {
		patterns []string
		tied     map[string]bool
	}{
		{[]string{"/ab", "/ac", "/a"}, map[string]bool{"/ab": false, "/ac": false, "/a": false}},
		{[]string{"/ab", "/a*", "/"}, map[string]bool{"/ab": true, "/a*": true, "/": false}},
		{[]string{"/a$", "/b$", "/abc"}, map[string]bool{"/a$": true, "/b$": true, "/abc": false}},
		{[]string{"/a*"}, map[string]bool{"/a*": false}},
	} {
		var rules []Rule
		for i, p := range c.patterns {
			rules = append(rules, Rule{Line: i + 1, Pattern: p, Pref: pref("train-ai=n")})
		}
		for _, r := range NewSet(rules, nil).rules {
			if r.tied != c.tied[r.pattern] {
				t.Errorf("%v: %s tied = %v, want %v", c.patterns, r.pattern, r.tied, c.tied[r.pattern])
			}
		}
	}
}
