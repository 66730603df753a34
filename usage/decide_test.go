package usage

import (
	"testing"
)

func pref(s string) Preference {
	p, _ := ParsePreference(s)
	return p
}

func TestDecideLongestAndCombined(t *testing.T) {
	rules := []Rule{
		{Line: 1, Pattern: "/", Pref: pref("train-ai=n, search=y")},
		{Line: 2, Pattern: "/a/", Pref: pref("train-ai=y")},
		{Line: 3, Pattern: "/a/", Pref: pref("train-ai=n")},
		{Line: 4, Pattern: "/a/b/", Pref: pref("garbage=(")},
	}
	for _, tc := range []struct {
		path     string
		train    Decision
		search   Decision
		allowed  bool
		mayTrain Decision
	}{
		{"/x", Decision{No, SourceContentUsage, 1}, Decision{Yes, SourceContentUsage, 1}, true, Decision{No, SourceContentUsage, 1}},
		{"/a/x", Decision{No, SourceContentUsage, 3}, Decision{Unknown, SourceContentUsage, 2}, true, Decision{No, SourceContentUsage, 3}},
		{"/a/b/x", Decision{Unknown, SourceContentUsage, 4}, Decision{Unknown, SourceContentUsage, 4}, true, Decision{}},
		{"/x", Decision{}, Decision{}, false, Decision{}},
	} {
		u := Decide(rules, nil, tc.path, tc.allowed)
		if got := u.Category(TrainAI); got != tc.train {
			t.Errorf("%s: train-ai = %+v, want %+v", tc.path, got, tc.train)
		}
		if got := u.Category(Search); got != tc.search {
			t.Errorf("%s: search = %+v, want %+v", tc.path, got, tc.search)
		}
		if got := u.MayTrain(); got != tc.mayTrain {
			t.Errorf("%s: MayTrain = %+v, want %+v", tc.path, got, tc.mayTrain)
		}
	}
}

// TestDecideOrderIsIrrelevant checks every order of a set of rules and
// signals gives the same Usage, lines included.
func TestDecideOrderIsIrrelevant(t *testing.T) {
	rules := []Rule{
		{Line: 1, Pattern: "/a", Pref: pref("train-ai=y, search=n")},
		{Line: 2, Pattern: "/a", Pref: pref("train-ai=n")},
		{Line: 3, Pattern: "/b", Pref: pref("train-ai=n")},
		{Line: 4, Pattern: "/a", Pref: pref("train-ai=n, search=y")},
	}
	signals := []SignalLine{
		{Line: 5, Signal: ParseContentSignal("ai-train=yes, search=yes")},
		{Line: 6, Signal: ParseContentSignal("ai-train=no")},
		{Line: 7, Signal: ParseContentSignal("ai-train=no, ai-input=yes, use=reference")},
		{Line: 8, Signal: ParseContentSignal("use=full")},
		{Line: 9, Signal: ParseContentSignal("use=reference")},
	}
	want := Decide(rules, signals, "/a", true)
	if want.Category(TrainAI) != (Decision{No, SourceContentUsage, 2}) || want.Signal(SignalAITrain) != (Decision{No, SourceContentSignal, 6}) ||
		want.Use() != (LevelDecision{LevelReference, SourceContentSignal, 7}) {
		t.Fatalf("file order: %+v", want)
	}
	permute(len(rules), func(ri []int) {
		permute(len(signals), func(si []int) {
			r := make([]Rule, len(ri))
			for i, j := range ri {
				r[i] = rules[j]
			}
			s := make([]SignalLine, len(si))
			for i, j := range si {
				s[i] = signals[j]
			}
			if got := Decide(r, s, "/a", true); !got.Equal(want) {
				t.Fatalf("order %v %v: %+v, want %+v", ri, si, got, want)
			}
		})
	})
}

// permute calls f with every permutation of 0..n-1.
func permute(n int, f func([]int)) {
	a := make([]int, n)
	for i := range a {
		a[i] = i
	}
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			f(a)
			return
		}
		for i := k; i < n; i++ {
			a[k], a[i] = a[i], a[k]
			rec(k + 1)
			a[k], a[i] = a[i], a[k]
		}
	}
	rec(0)
}

func TestMayTrain(t *testing.T) {
	cu := map[Value]Preference{Unknown: {}, Yes: pref("train-ai=y"), No: pref("train-ai=n")}
	cs := map[Value]string{Unknown: "search=yes", Yes: "ai-train=yes", No: "ai-train=no"}
	for _, u := range []Value{Unknown, Yes, No} {
		for _, s := range []Value{Unknown, Yes, No} {
			got := Decide([]Rule{{Line: 1, Pattern: "/", Pref: cu[u]}}, []SignalLine{{Line: 2, Signal: ParseContentSignal(cs[s])}}, "/x", true).MayTrain()
			want := Decision{}
			switch {
			case u != Unknown:
				want = Decision{u, SourceContentUsage, 1}
			case s != Unknown:
				want = Decision{s, SourceContentSignal, 2}
			}
			if got != want {
				t.Errorf("Content-Usage %v, Content-Signal %v: MayTrain = %+v, want %+v", u, s, got, want)
			}
		}
	}
}

func TestWithHeader(t *testing.T) {
	rules := []Rule{{Line: 1, Pattern: "/", Pref: pref("train-ai=y, search=n")}}
	u := Decide(rules, nil, "/x", true).WithHeader(pref("train-ai=n, search=y"))
	if got, want := u.Category(TrainAI), (Decision{No, SourceHeader, 0}); got != want {
		t.Errorf("train-ai = %+v, want %+v: the header's n wins", got, want)
	}
	if got, want := u.Category(Search), (Decision{No, SourceContentUsage, 1}); got != want {
		t.Errorf("search = %+v, want %+v: the file's n stays", got, want)
	}
	if got := Decide(rules, nil, "/x", false).WithHeader(pref("train-ai=n")); !got.Equal(Usage{}) {
		t.Errorf("a URL that may not be fetched took a header's preference: %+v", got)
	}
}

func TestCombine(t *testing.T) {
	vs := []Value{Unknown, Yes, No}
	for _, a := range vs {
		for _, b := range vs {
			want := Unknown
			switch {
			case a == No || b == No:
				want = No
			case a == Yes || b == Yes:
				want = Yes
			}
			if got := Combine(a, b); got != want {
				t.Errorf("Combine(%v, %v) = %v, want %v", a, b, got, want)
			}
		}
	}
}

// TestUsageEqualAndDecided checks Equal, which compares decisions wherever
// they are kept, and Decided, against the decisions themselves.
func TestUsageEqualAndDecided(t *testing.T) {
	rules := []Rule{{Line: 1, Pattern: "/a", Pref: pref("train-ai=n")}, {Line: 2, Pattern: "/b", Pref: pref("train-ai=n")}}
	signals := []SignalLine{{Line: 3, Signal: ParseContentSignal("search=yes")}}
	s := NewSet(rules, signals)
	for _, c := range []struct {
		name    string
		u, v    Usage
		equal   bool
		decided bool
	}{
		{"set and Decide", s.Decide("/a", true), Decide(rules, signals, "/a", true), true, true},
		{"another line", s.Decide("/a", true), s.Decide("/b", true), false, true},
		{"signals alone", s.Decide("/c", true), Decide(nil, signals, "/c", true), true, true},
		{"no line", NewSet(nil, nil).Decide("/a", true), Usage{Allowed: true}, true, false},
		{"verdict", Usage{Allowed: true}, Usage{}, false, false},
		{"header", Usage{Allowed: true}.WithHeader(pref("search=y")), Usage{Allowed: true}, false, true},
		{"header on a line", s.Decide("/a", true).WithHeader(pref("train-ai=n")), s.Decide("/a", true), true, true},
	} {
		if got := c.u.Equal(c.v); got != c.equal {
			t.Errorf("%s: Equal = %v, want %v (%+v, %+v)", c.name, got, c.equal, c.u, c.v)
		}
		if got := c.u.Decided(); got != c.decided {
			t.Errorf("%s: Decided = %v, want %v", c.name, got, c.decided)
		}
	}
}

// TestWithHeaderTwice checks that a second field replaces what a first
// decided, category by category, as combining the two would.
func TestWithHeaderTwice(t *testing.T) {
	u := Usage{Allowed: true}.WithHeader(pref("train-ai=y, search=y")).WithHeader(pref("train-ai=n"))
	if got := u.Category(TrainAI); got != (Decision{No, SourceHeader, 0}) {
		t.Errorf("train-ai = %+v, want the second field's n", got)
	}
	if got := u.Category(Search); got != (Decision{Yes, SourceHeader, 0}) {
		t.Errorf("search = %+v, want the first field's y", got)
	}
}
