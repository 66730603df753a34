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
