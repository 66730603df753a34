package lint

import (
	"strings"

	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/crawlers"
)

// mayIgnore are the rows of the crawler table whose operator says the
// crawler may not follow robots.txt: a user-agent line is compared with
// these few, by length first, with nothing allocated.
var mayIgnore = func() []crawlers.Crawler {
	var out []crawlers.Crawler
	for _, c := range crawlers.All() {
		if c.Robots == crawlers.MayIgnore {
			out = append(out, c)
		}
	}
	return out
}()

// checkCrawler notes a user-agent line naming a crawler whose operator
// says it may not follow robots.txt (package crawlers): the group states
// what the site asks, and the note says, with the operator's own words
// and page, that the crawler may not do it. The token is the one Google
// reads in the value, so "ChatGPT-User/1.0" names ChatGPT-User.
func (l *linter) checkCrawler(num int, tok compile.Token, f fields) {
	if compile.IsGlobalAgent(tok.Value, compile.Google) {
		return
	}
	token := compile.ExtractAgent(tok.Value)
	for i := range mayIgnore {
		if c := &mayIgnore[i]; len(c.Token) == len(token) && strings.EqualFold(c.Token, token) {
			l.reportIgnoring(num, f, c)
			return
		}
	}
}

// reportIgnoring notes that c, named at line num, may not follow
// robots.txt.
func (l *linter) reportIgnoring(num int, f fields, c *crawlers.Crawler) {
	l.report(num, f.value+1, CodeCrawlerIgnoresRobots,
		"%s (%s, %s): %s says it may not follow robots.txt (%q, %s); this group says what the site asks of it, which it may not do",
		c.Token, c.Operator, c.Purpose, c.Operator, c.Says, c.URL)
}
