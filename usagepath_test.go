package robots

import (
	"bufio"
	"os"
	"testing"

	"github.com/fastrobots/robots/runtime"
)

// usagePathCases are URLs whose path is found the fast way (PathStart)
// and the other way (PathParts): fragments, queries, parameters, no path,
// authority-only, IPv6 hosts, userinfo, escapes, bytes past ASCII and
// strings that are not URLs.
var usagePathCases = []string{
	"https://example.com/a/b?c=d#frag",
	"https://example.com/#",
	"https://example.com#x/y",
	"https://example.com?q=1",
	"https://example.com;p=1/x",
	"https://example.com",
	"http://example.com/",
	"HTTP://EXAMPLE.COM/A",
	"//example.com/a#b",
	"//example.com",
	"https://[2001:db8::1]:8080/x?y#z",
	"https://user:pw@example.com/a",
	"https://example.com/%E2%82%AC/caf\xc3\xa9",
	"https://example.com/a\x00b#c",
	"example.com/a/b",
	"/just/a/path?x#y",
	"?only=query",
	"",
	"#",
	"not a url",
	"ftp://example.com/a",
}

// TestUsagePathIsPath: the path Usage decides on is the one Allowed
// checks, runtime.Path of the URL, on every case above and every URL of
// testdata/urls.txt.
func TestUsagePathIsPath(t *testing.T) {
	cases := append([]string(nil), usagePathCases...)
	f, err := os.Open("testdata/urls.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for sc := bufio.NewScanner(f); sc.Scan(); {
		cases = append(cases, sc.Text())
	}
	for _, u := range cases {
		if got, want := usagePath(u), runtime.Path(u); got != want {
			t.Errorf("usagePath(%q) = %q, want %q", u, got, want)
		}
	}
}

func FuzzUsagePath(f *testing.F) {
	for _, u := range usagePathCases {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, u string) {
		if got, want := usagePath(u), runtime.Path(u); got != want {
			t.Errorf("usagePath(%q) = %q, want %q", u, got, want)
		}
	})
}
