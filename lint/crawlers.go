package lint

import (
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/crawlers"
)

// checkCrawler notes a user-agent line naming a crawler whose operator
// says it may not follow robots.txt (package crawlers): the group states
// what the site asks, and the note says, with the operator's own words
// and page, that the crawler may not do it. The token is the one Google
// reads in the value, so "ChatGPT-User/1.0" names ChatGPT-User.
func (l *linter) checkCrawler(num int, tok compile.Token, f fields) {
	if compile.IsGlobalAgent(tok.Value, compile.Google) {
		return
	}
	c, ok := crawlers.Lookup(compile.ExtractAgent(tok.Value))
	if !ok || c.Robots != crawlers.MayIgnore {
		return
	}
	l.report(num, f.value+1, CodeCrawlerIgnoresRobots,
		"%s (%s, %s): %s says it may not follow robots.txt (%q, %s); this group says what the site asks of it, which it may not do",
		c.Token, c.Operator, c.Purpose, c.Operator, c.Says, c.URL)
}
