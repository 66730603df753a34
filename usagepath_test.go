package robots

import (
	"bufio"
	"os"
	"testing"

	"github.com/fastrobots/robots/runtime"
)

// usagePathCases are URLs of every shape a path is found in: fragments,
// queries, parameters, no path, authority-only, IPv6 hosts, userinfo,
// escapes, bytes past ASCII and strings that are not URLs.
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
	"https://example.com/a/b.pdf",
	"https://example.com/a/b.pdf#x",
	"https://example.com/private/x?only=1",
	"",
	"#",
	"not a url",
	"ftp://example.com/a",
}

// usagePathFile has Content-Usage lines on paths the cases reach: the
// root, a literal path, a pattern with '*' and one ending in '$', a query.
const usagePathFile = `User-agent: *
Content-Signal: search=yes, ai-train=no
Content-Usage: train-ai=n
Content-Usage: /a/ train-ai=y
Content-Usage: /*.pdf$ search=n
Content-Usage: /?only= train-ai=y, search=y
Disallow: /private
`

// TestUsageDecidesOnThePathAllowedChecks: Usage of a URL is UsagePath of
// runtime.Path of it, the path Allowed checks, on every case above and
// every URL of testdata/urls.txt.
func TestUsageDecidesOnThePathAllowedChecks(t *testing.T) {
	cases := append([]string(nil), usagePathCases...)
	f, err := os.Open("testdata/urls.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for sc := bufio.NewScanner(f); sc.Scan(); {
		cases = append(cases, sc.Text())
	}
	for _, a := range usagePathAgents() {
		for _, u := range cases {
			if got, want := a.Usage(u), a.UsagePath(runtime.Path(u)); !got.Equal(want) {
				t.Errorf("Usage(%q) = %+v, UsagePath(%q) = %+v", u, got, runtime.Path(u), want)
			}
		}
	}
}

// usagePathAgents returns the agent of usagePathFile cold and compiled,
// which read a URL each their own way.
func usagePathAgents() []*Agent {
	return []*Agent{Parse([]byte(usagePathFile)).Agent("bot"), Parse([]byte(usagePathFile)).Agent("bot").Compile()}
}

func FuzzUsagePath(f *testing.F) {
	for _, u := range usagePathCases {
		f.Add(u)
	}
	agents := usagePathAgents()
	f.Fuzz(func(t *testing.T, u string) {
		for _, a := range agents {
			if got, want := a.Usage(u), a.UsagePath(runtime.Path(u)); !got.Equal(want) {
				t.Errorf("Usage(%q) = %+v, UsagePath(%q) = %+v", u, got, runtime.Path(u), want)
			}
		}
	})
}
