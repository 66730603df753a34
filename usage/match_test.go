package usage

import (
	"regexp"
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{"/", "/x", true},
		{"/a", "/abc", true},
		{"/a", "/b", false},
		{"/a$", "/a", true},
		{"/a$", "/ab", false},
		{"/*.pdf$", "/x.pdf", true},
		{"/*.pdf$", "/x.pdf?q", false},
		{"/*.pdf", "/x.pdf?q", true},
		{"/a*b", "/ab", true},
		{"/a*b*c", "/a_b_b_c", true},
		{"/a*b*c", "/a_b_b_", false},
		{"/a$b", "/a$bc", true}, // '$' is literal but at the end
		{"/a$b", "/ab", false},
		{"/**", "/", true},
		{"$", "/", false},
		{"", "/x", true},
		{"/a/", "/a", false},
	} {
		if got := Match(tc.pattern, tc.path); got != tc.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
}

// TestMatchAgreesWithRegexp compares Match with the same semantics
// written as a regular expression, on every pattern and path of up to
// four bytes over a small alphabet.
func TestMatchAgreesWithRegexp(t *testing.T) {
	alphabet := []string{"a", "b", "*", "$"}
	var words []string
	var grow func(string, int)
	grow = func(w string, n int) {
		words = append(words, w)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			grow(w+c, n-1)
		}
	}
	grow("", 4)
	for _, pattern := range words {
		re := regexpOf(pattern)
		for _, path := range words {
			if strings.ContainsAny(path, "*") {
				continue
			}
			if got, want := Match(pattern, path), re.MatchString(path); got != want {
				t.Fatalf("Match(%q, %q) = %v, the regexp %v says %v", pattern, path, got, re, want)
			}
		}
	}
}

func regexpOf(pattern string) *regexp.Regexp {
	anchored := strings.HasSuffix(pattern, "$")
	pattern = strings.TrimSuffix(pattern, "$")
	parts := strings.Split(pattern, "*")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	expr := "^" + strings.Join(parts, ".*")
	if anchored {
		expr += "$"
	}
	return regexp.MustCompile(expr)
}

func TestEscapePath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/plain", "/plain"},
		{"/é", "/%C3%A9"},
		{"/%c3%a9", "/%C3%A9"},
		{"/%zz%4", "/%zz%4"},
		{"/*.pdf$", "/*.pdf$"},
	} {
		if got := EscapePath(tc.in); got != tc.want {
			t.Errorf("EscapePath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
