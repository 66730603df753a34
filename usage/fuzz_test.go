package usage

import (
	"strings"
	"testing"
)

// FuzzDictionary checks that no value makes the parser panic or take
// more than linear work, and that what it accepts is well formed:
// keys follow the key grammar, tokens are substrings of the value, and
// ParsePreference agrees with the dictionary it reads.
func FuzzDictionary(f *testing.F) {
	for _, tc := range dictionaryCases {
		f.Add(tc.in)
	}
	for _, s := range []string{
		"train-ai=y, search=n", "train-ai=y, train-ai, search=n, search=\"n\"",
		"train-ai;allow=n, train-ai=y", "train-ai;has;parameters=\"?\";",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDictionary(s)
		p, ok := ParsePreference(s)
		if ok != (err == nil) {
			t.Fatalf("ParsePreference ok = %v, ParseDictionary err = %v", ok, err)
		}
		if err != nil {
			if p != (Preference{}) {
				t.Fatalf("a value that does not parse states %v", p)
			}
			return
		}
		for _, m := range d {
			if m.Key == "" || !(isLower(m.Key[0]) || m.Key[0] == '*') || strings.IndexFunc(m.Key, func(r rune) bool { return r > 0x7f || !isKeyChar(byte(r)) }) >= 0 {
				t.Fatalf("key %q is not a key", m.Key)
			}
			if m.Kind == KindToken && !strings.Contains(s, m.Token) {
				t.Fatalf("token %q is not in the value", m.Token)
			}
		}
		for _, c := range Categories() {
			want := Unknown
			if m, found := d.Lookup(c.Label()); found {
				want = valueOf(m)
			}
			if p.Get(c) != want {
				t.Fatalf("%s = %v, the dictionary says %v", c, p.Get(c), want)
			}
		}
	})
}

// FuzzLines reads any value as a Content-Usage and a Content-Signal line
// and checks what the readers promise: a path that starts with '/' and is
// "/" or a part of the value, nothing stated when the value is refused,
// and the Content-Signal bounds.
func FuzzLines(f *testing.F) {
	for _, s := range []string{
		"train-ai=n", "/ai-ok/ train-ai=y", "/a#b train-ai=y", "",
		"search=yes, ai-train=no", "search=yes,ai-train=no,use=reference",
		"ai-train=maybe, search", strings.Repeat("k=v,", 80),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		path, p, ok := ParseContentUsage(s)
		if !strings.HasPrefix(path, "/") || (path != "/" && !strings.Contains(s, path)) {
			t.Fatalf("path %q from %q", path, s)
		}
		if !ok && p != (Preference{}) {
			t.Fatalf("a refused value states %v", p)
		}
		sig := ParseContentSignal(s)
		if len(sig.Other) > MaxSignalOther || sig.Malformed < 0 || sig.Use >= numLevels {
			t.Fatalf("signal past its bounds: %d other, %d malformed", len(sig.Other), sig.Malformed)
		}
		for _, e := range sig.Other {
			if e.Key == "" || !strings.Contains(s, e.Key) || strings.EqualFold(e.Key, UseKey) {
				t.Fatalf("other key %q is not in the value, or is the use key", e.Key)
			}
		}
		if sig.Use != LevelNone && !strings.Contains(strings.ToLower(s), sig.Use.String()) {
			t.Fatalf("level %v is not in the value", sig.Use)
		}
	})
}
