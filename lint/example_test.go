package lint_test

import (
	"fmt"

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
