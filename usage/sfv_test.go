package usage

import (
	"errors"
	"strings"
	"testing"
)

// dictionaryCases are values RFC 9651 section 4.2 accepts (ok) or refuses,
// one feature per case.
var dictionaryCases = []struct {
	in string
	ok bool
}{
	{"", true},
	{"   ", true},
	{"a=1", true},
	{"a=-1", true},
	{"a=123456789012345", true},
	{"a=1234567890123456", false}, // 16 integer digits
	{"a=1.5", true},
	{"a=123456789012.123", true},
	{"a=1234567890123.1", false}, // 13 digits before the point
	{"a=1.1234", false},          // 4 digits after the point
	{"a=1.", false},
	{"a=-", false},
	{"a=--1", false},
	{"a=1.2.3", false},
	{`a="x\"y\\z"`, true},
	{`a="\n"`, false},
	{"a=\"\x7f\"", false},
	{`a="é"`, false},
	{`a="open`, false},
	{"a=*foo", true},
	{"a=foo/bar:baz!#$%&'*+-.^_`|~9", true},
	{"a=Foo", true},
	{"a=y n", false},
	{"a=:aGVsbG8=:", true},
	{"a=:a b:", false},
	{"a=:aGVs", false},
	{"a=?1", true},
	{"a=?0", true},
	{"a=?2", false},
	{"a=?", false},
	{"a", true},
	{"a=@1659578233", true},
	{"a=@-1", true},
	{"a=@1.5", false},
	{"a=@", false},
	{"a=@x", false},
	{`a=%"caf%c3%a9"`, true},
	{`a=%"%ef%bf%bd"`, true}, // U+FFFD itself is valid UTF-8
	{`a=%"%C3%A9"`, false},   // escapes are lower case
	{`a=%"%ff"`, false},
	{`a=%"%c3"`, false},
	{`a=%"%c3x"`, false},
	{`a=%"x`, false},
	{`a=%x`, false},
	{"a=(1 2);p, b=()", true},
	{"a=(  1  2  )", true},
	{"a=(1,2)", false},
	{"a=(1", false},
	{"a=(1 (2))", false},
	{"a;b=1;c", true},
	{"a; b", true},
	{"a;B=1", false},
	{"a;", false},
	{"a;b=", false},
	{"*a=1", true},
	{"a_b-c.d*9=1", true},
	{"1a=1", false},
	{"A=1", false},
	{"a=1 , b=2", true},
	{"a=1,\tb=2", true},
	{"a=1,b=2", true},
	{" a=1", true},
	{"\ta=1", false},
	{"a=1 ", true},
	{"a=1,", false},
	{",a=1", false},
	{"a=1,,b=2", false},
	{"a=1;", false},
	{"a==1", false},
	{"a=", false},
	{"a=,", false},
	{"a=#", false},
}

func TestParseDictionary(t *testing.T) {
	for _, tc := range dictionaryCases {
		_, err := ParseDictionary(tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("ParseDictionary(%q): err = %v, want ok %v", tc.in, err, tc.ok)
		}
		if _, ok := ParsePreference(tc.in); ok != tc.ok {
			t.Errorf("ParsePreference(%q): ok = %v, want %v", tc.in, ok, tc.ok)
		}
	}
}

func TestParseDictionaryMembers(t *testing.T) {
	d, err := ParseDictionary(`a=1, b, c=tok;p="x", a=y, d=(x y), e=?0`)
	if err != nil {
		t.Fatal(err)
	}
	want := Dictionary{
		{Key: "a", Kind: KindInteger},
		{Key: "b", Kind: KindBoolean, Bool: true},
		{Key: "c", Kind: KindToken, Token: "tok"},
		{Key: "a", Kind: KindToken, Token: "y"},
		{Key: "d", Kind: KindInnerList},
		{Key: "e", Kind: KindBoolean},
	}
	if len(d) != len(want) {
		t.Fatalf("got %d members %+v, want %+v", len(d), d, want)
	}
	for i := range want {
		if d[i] != want[i] {
			t.Errorf("member %d = %+v, want %+v", i, d[i], want[i])
		}
	}
	if m, ok := d.Lookup("a"); !ok || m.Token != "y" {
		t.Errorf(`Lookup("a") = %+v, %v; want the last member, token y`, m, ok)
	}
	if _, ok := d.Lookup("z"); ok {
		t.Error(`Lookup("z") found a member that is not there`)
	}
}

// TestLimits holds each limit of limits.go: a value at the limit parses,
// one past it does not.
func TestLimits(t *testing.T) {
	str := func(n int) string { return `a="` + strings.Repeat("x", n-4) + `"` }
	members := func(n int) string { return strings.Repeat("a, ", n-1) + "a" }
	inner := func(n int) string { return "a=(" + strings.Repeat("1 ", n) + ")" }
	params := func(n int) string { return "a" + strings.Repeat(";b", n) }
	innerParams := func(n int) string { return "a=(1" + strings.Repeat(";b", n) + ")" }
	for _, tc := range []struct {
		name  string
		value func(int) string
		limit int
	}{
		{"MaxValueBytes", str, MaxValueBytes},
		{"MaxMembers", members, MaxMembers},
		{"MaxInnerListMembers", inner, MaxInnerListMembers},
		{"MaxParams", params, MaxParams},
		{"MaxParams in an inner list", innerParams, MaxParams},
	} {
		if _, err := ParseDictionary(tc.value(tc.limit)); err != nil {
			t.Errorf("%s: a value at the limit: %v", tc.name, err)
		}
		if _, err := ParseDictionary(tc.value(tc.limit + 1)); !errors.Is(err, ErrLimit) {
			t.Errorf("%s: a value past the limit: err = %v, want ErrLimit", tc.name, err)
		}
		if p, ok := ParsePreference("train-ai=n, " + tc.value(tc.limit+1)); ok || p != (Preference{}) {
			t.Errorf("%s: ParsePreference past the limit = %v, %v; want nothing, false", tc.name, p, ok)
		}
	}
}
