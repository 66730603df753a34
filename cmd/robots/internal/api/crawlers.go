package api

import (
	"fmt"

	"github.com/fastrobots/robots/crawlers"
)

// CrawlerJSON is one row of the crawler table (package crawlers), as
// robots agents --json, /api/crawlers and explain --json give it.
type CrawlerJSON struct {
	Token    string `json:"token"`
	Operator string `json:"operator"`
	// Purpose is what it fetches for, by its operator ("training, search
	// index"; "not stated").
	Purpose string `json:"purpose"`
	// AI marks the crawlers a survey of AI use answers for (crawlers.Default).
	AI bool `json:"ai"`
	// Robots is whether its operator says it follows robots.txt: "yes",
	// "no" or "not stated".
	Robots string `json:"robots"`
	Says   string `json:"says"`
	URL    string `json:"url"`
	// UsagePurposes are the questions of package usage it asks of a URL
	// (usage.Purposes: "train", "ai-use", "search"), in table order.
	UsagePurposes []string `json:"usage_purposes"`
	// Note says the above in a sentence (CrawlerNote).
	Note string `json:"note"`
}

// NewCrawlerJSON returns the JSON form of c.
func NewCrawlerJSON(c crawlers.Crawler) CrawlerJSON {
	j := CrawlerJSON{Token: c.Token, Operator: c.Operator, Purpose: c.Purpose.String(), AI: c.AI,
		Robots: c.Robots.String(), Says: c.Says, URL: c.URL, UsagePurposes: []string{}, Note: CrawlerNote(c)}
	for _, p := range c.UsagePurposes() {
		j.UsagePurposes = append(j.UsagePurposes, p.String())
	}
	return j
}

// CrawlerNote says who operates c, what for, and what its operator says of
// robots.txt, with the operator's words when they are not a plain yes:
// "OpenAI, training; OpenAI says it follows robots.txt (https://...)". A
// crawler that may not follow robots.txt gets the reminder that a verdict
// is what the file asks of it, not what it does.
func CrawlerNote(c crawlers.Crawler) string {
	head := fmt.Sprintf("%s, %s; ", c.Operator, c.Purpose)
	switch c.Robots {
	case crawlers.Follows:
		return head + fmt.Sprintf("%s says it follows robots.txt (%s)", c.Operator, c.URL)
	case crawlers.MayIgnore:
		return head + fmt.Sprintf("%s says it may not follow robots.txt: %q (%s); the verdict is what the file asks of it, not what it does",
			c.Operator, c.Says, c.URL)
	}
	return head + fmt.Sprintf("no page of %s found says whether it follows robots.txt: %q (%s)", c.Operator, c.Says, c.URL)
}

// CrawlerOf returns the row of the crawler a fallback list of agents
// names first, and whether the table has one.
func CrawlerOf(agents []string) (CrawlerJSON, bool) {
	if len(agents) == 0 {
		return CrawlerJSON{}, false
	}
	c, ok := crawlers.Lookup(agents[0])
	if !ok {
		return CrawlerJSON{}, false
	}
	return NewCrawlerJSON(c), true
}

// GoogleCrawler is one of Google's crawlers and fetchers as the tester
// reads a file for it: the fallback list of agents it reads (most
// specific first) and whether Google says it ignores the '*' group. It
// holds what package crawlers does not: how Google's crawlers choose
// their groups. A token both name (Googlebot, GoogleOther,
// Google-CloudVertexBot, Google-Extended) takes its operator and
// robots.txt stance from the table.
type GoogleCrawler struct {
	Token       string   `json:"token"`
	Kind        string   `json:"kind"` // a GoogleKind's
	Agents      []string `json:"agents"`
	IgnoresStar bool     `json:"ignores_star,omitempty"`
	Note        string   `json:"note"`
}

// GoogleKind is a kind of Google's crawlers, as Google's crawler overview
// sorts them, with what Google says of their reading of robots.txt.
type GoogleKind struct {
	Kind  string `json:"kind"`
	Label string `json:"label"`
	Rule  string `json:"rule,omitempty"`
}

// GoogleKinds are the kinds of GoogleCrawlers, in their order.
var GoogleKinds = []GoogleKind{
	{"common", "Google: common crawlers", "Obeys robots.txt on every automatic crawl."},
	{"special", "Google: special-case crawlers", ""},
	{"fetcher", "Google: user-triggered fetchers", "A person asked for the fetch, so Google says these fetchers generally ignore robots.txt: the verdicts below are what the file asks of it, not what it does."},
	{"usage", "Google: usage tokens", ""},
}

// GoogleIgnoresStarRule is what Google documents for its special-case
// crawlers that ignore the '*' group.
const GoogleIgnoresStarRule = "Google documents that it ignores the \u2019*\u2019 group: only a group that names it applies, and without one it may fetch every URL."

// GoogleCrawlers are the robots.txt tokens of Google's crawlers and
// fetchers, as Google's crawler overview lists them (common crawlers,
// special-case crawlers, user-triggered fetchers, and the usage token
// Google-Extended).
var GoogleCrawlers = []GoogleCrawler{
	{"Googlebot", "common", []string{"Googlebot"}, false,
		"Google Search, Discover, Images, Video and News: the smartphone and desktop crawlers read this one token."},
	{"Googlebot-Image", "common", []string{"Googlebot-Image", "Googlebot"}, false,
		"Images in Google Search and Discover. Reads the group that names Googlebot-Image if there is one, else Googlebot\u2019s."},
	{"Googlebot-News", "common", []string{"Googlebot-News", "Googlebot"}, false,
		"Google News. Reads the group that names Googlebot-News if there is one, else Googlebot\u2019s."},
	{"Googlebot-Video", "common", []string{"Googlebot-Video", "Googlebot"}, false,
		"Video in Google Search. Reads the group that names Googlebot-Video if there is one, else Googlebot\u2019s."},
	{"Storebot-Google", "common", []string{"Storebot-Google"}, false, "Google Shopping."},
	{"Google-InspectionTool", "common", []string{"Google-InspectionTool", "Googlebot"}, false,
		"Search Console\u2019s URL Inspection and the Rich Results Test. Reads its own group, else Googlebot\u2019s."},
	{"GoogleOther", "common", []string{"GoogleOther"}, false, "One-off crawls of Google teams, for research and development."},
	{"GoogleOther-Image", "common", []string{"GoogleOther-Image", "GoogleOther"}, false,
		"Images for GoogleOther\u2019s uses. Reads its own group, else GoogleOther\u2019s."},
	{"GoogleOther-Video", "common", []string{"GoogleOther-Video", "GoogleOther"}, false,
		"Video for GoogleOther\u2019s uses. Reads its own group, else GoogleOther\u2019s."},
	{"Google-CloudVertexBot", "common", []string{"Google-CloudVertexBot"}, false,
		"Crawls a site\u2019s owner asks for, to build Vertex AI agents."},
	{"Google-Extended", "usage", []string{"Google-Extended"}, false,
		"A usage token, not a crawler: no request is ever made as Google-Extended. Its group says whether what Google\u2019s other crawlers fetch may train Gemini models and ground their answers: DISALLOWED here refuses that use, and stops no crawl."},
	{"APIs-Google", "special", []string{"APIs-Google"}, true, "Delivers the push notifications of Google APIs."},
	{"AdsBot-Google", "special", []string{"AdsBot-Google"}, true, "Checks the quality of ad landing pages on the desktop web."},
	{"AdsBot-Google-Mobile", "special", []string{"AdsBot-Google-Mobile"}, true, "Checks the quality of ad landing pages on the mobile web."},
	{"Mediapartners-Google", "special", []string{"Mediapartners-Google"}, true, "AdSense: visits pages to choose their ads."},
	{"FeedFetcher-Google", "fetcher", []string{"FeedFetcher-Google"}, false, "Fetches RSS and Atom feeds for Google News and WebSub."},
	{"Google-Read-Aloud", "fetcher", []string{"Google-Read-Aloud"}, false, "Reads a page aloud when a person asks for it."},
	{"Google-Site-Verification", "fetcher", []string{"Google-Site-Verification"}, false,
		"Fetches the Search Console verification token a site owner put up."},
	{"GoogleProducer", "fetcher", []string{"GoogleProducer"}, false, "Fetches the feeds publishers give Google Publisher Center."},
}

// crawlersJSON is the answer of /api/crawlers.
type crawlersJSON struct {
	// Checked is the date the table's rows were checked (crawlers.Checked).
	Checked     string          `json:"checked"`
	Crawlers    []CrawlerJSON   `json:"crawlers"`
	Google      []GoogleCrawler `json:"google"`
	GoogleKinds []GoogleKind    `json:"google_kinds"`
	// IgnoresStarRule is GoogleIgnoresStarRule.
	IgnoresStarRule string `json:"ignores_star_rule"`
}

// crawlersRequest is the body of /api/crawlers: an empty object.
type crawlersRequest struct{}

// Crawlers answers POST /api/crawlers, whose body is {}: the crawler
// table (package crawlers) and Google's crawlers as the tester reads a
// file for them, from which the page builds its list of crawlers and says
// what each is. The page holds no list of its own.
func Crawlers(c Call) (Answer, *Error) {
	var req crawlersRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	all := crawlers.All()
	out := crawlersJSON{Checked: crawlers.Checked, Crawlers: make([]CrawlerJSON, len(all)),
		Google: GoogleCrawlers, GoogleKinds: GoogleKinds, IgnoresStarRule: GoogleIgnoresStarRule}
	for i, cr := range all {
		out.Crawlers[i] = NewCrawlerJSON(cr)
	}
	return PlainAnswer{out}, nil
}
