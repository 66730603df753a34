package lint_test

import (
	"fmt"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/lint"
)

func ExampleLint() {
	body := []byte("User-agent: *\nDisalow: /tmp/\nCrawl-delay: 10\nDisallow: /private\n")
	for _, d := range lint.Lint(body) {
		fmt.Println(d)
	}
	// Output:
	// 2:1: warning: Google reads "Disalow" as "Disallow"; RFC 9309 and other crawlers may not: write "Disallow" [accepted-typo]
	// 3:1: warning: Google ignores Crawl-delay; Bing and other crawlers read it [ignored-by-google]
}

// A file parsed with robots.WithReport is linted without being read again.
func ExampleParsed() {
	body := []byte("User-agent: *\nDisallow: /private\nAllow: /private\nSitemap: /sitemap.xml\n")
	r := robots.Parse(body, robots.WithReport())
	findings, report := lint.Parsed(r, body)
	fmt.Println(r.Agent("Googlebot").AllowedPath("/private"), report.Valid, "valid lines")
	for _, d := range findings {
		fmt.Println(d)
	}
	// Output:
	// true 4 valid lines
	// 2:1: error: Disallow "/private" and Allow "/private" (line 3) are as long and match the same paths: Allow wins the tie, so this line never disallows anything [equal-priority]
	// 4:10: error: "/sitemap.xml" is not absolute: a sitemap URL must name its scheme and host, such as https://www.example.com/sitemap.xml [sitemap-relative]
}
