package usage

import (
	"strconv"
	"testing"
)

// BenchmarkParsePreference reads a statement with parameters and an
// unknown key, as a robots.txt line or a header would carry it.
func BenchmarkParsePreference(b *testing.B) {
	const s = `train-ai=n;src="site", search=y, future-use=(a b);q=0.5`
	b.ReportAllocs()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if _, ok := ParsePreference(s); !ok {
			b.Fatal("not parsed")
		}
	}
}

// BenchmarkParseDictionary is the same value kept as a Dictionary.
func BenchmarkParseDictionary(b *testing.B) {
	const s = `train-ai=n;src="site", search=y, future-use=(a b);q=0.5`
	b.ReportAllocs()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if _, err := ParseDictionary(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecide decides one URL against a group of 32 Content-Usage
// rules (plain prefixes and patterns) and two Content-Signal lines.
func BenchmarkDecide(b *testing.B) {
	var rules []Rule
	for i := range 32 {
		pattern := "/section" + strconv.Itoa(i) + "/"
		if i%4 == 0 {
			pattern += "*.pdf$"
		}
		rules = append(rules, Rule{Line: i + 1, Pattern: pattern, Pref: pref("train-ai=n, search=y")})
	}
	rules = append(rules, Rule{Line: 33, Pattern: "/", Pref: pref("train-ai=y")})
	signals := []SignalLine{
		{Line: 34, Signal: ParseContentSignal("search=yes, ai-train=no")},
		{Line: 35, Signal: ParseContentSignal("ai-input=no")},
	}
	const path = "/section17/articles/2026/11/a-long-title-of-some-length.html?ref=home"
	b.ReportAllocs()
	for b.Loop() {
		if u := Decide(rules, signals, path, true); u.MayTrain().Value != No {
			b.Fatal(u)
		}
	}
}

// BenchmarkSetDecide is BenchmarkDecide with the lines prepared once
// (NewSet), as an Agent holds them.
func BenchmarkSetDecide(b *testing.B) {
	var rules []Rule
	for i := range 32 {
		pattern := "/section" + strconv.Itoa(i) + "/"
		if i%4 == 0 {
			pattern += "*.pdf$"
		}
		rules = append(rules, Rule{Line: i + 1, Pattern: pattern, Pref: pref("train-ai=n, search=y")})
	}
	rules = append(rules, Rule{Line: 33, Pattern: "/", Pref: pref("train-ai=y")})
	s := NewSet(rules, []SignalLine{
		{Line: 34, Signal: ParseContentSignal("search=yes, ai-train=no")},
		{Line: 35, Signal: ParseContentSignal("ai-input=no")},
	})
	const path = "/section17/articles/2026/11/a-long-title-of-some-length.html?ref=home"
	b.ReportAllocs()
	for b.Loop() {
		if u := s.Decide(path, true); u.MayTrain().Value != No {
			b.Fatal(u)
		}
	}
}
