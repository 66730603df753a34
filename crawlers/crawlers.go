package crawlers

import (
	"strings"

	"github.com/fastrobots/robots/usage"
)

// Checked is the date the rows were last checked against the operators'
// pages.
const Checked = "2026-12-07"

// Purpose is a set of what a crawler fetches for, as its operator states
// it.
type Purpose uint8

// The purposes of a crawler.
const (
	// Training: its fetches may train AI models.
	Training Purpose = 1 << iota
	// SearchIndex: it builds a search index, of a search engine or of an
	// AI assistant's search.
	SearchIndex
	// UserFetch: it fetches a page because a user asked for it.
	UserFetch
	// AIInput: it feeds pages to an AI model at answer time, no user
	// having named them.
	AIInput
	// UsageControl: a token that sends no request of its own; it says
	// what the operator's other crawlers' fetches may be used for (the
	// other bits of the row).
	UsageControl
	// Archive: it builds an open crawl archive that others use.
	Archive
	// Ads: it checks pages submitted as ads.
	Ads
	// General: a crawler for no product in particular.
	General
)

// purposeNames are the names of the purposes, by bit.
var purposeNames = []string{"training", "search index", "user-triggered fetch", "AI input", "usage control", "archive", "ads", "general"}

// String lists the purposes, comma separated ("training, search index");
// "not stated" for none.
func (p Purpose) String() string {
	var s []string
	for i, name := range purposeNames {
		if p&(1<<i) != 0 {
			s = append(s, name)
		}
	}
	if s == nil {
		return "not stated"
	}
	return strings.Join(s, ", ")
}

// Robots is what an operator says of its crawler and robots.txt.
type Robots uint8

// What an operator says. The zero Robots is NotStated.
const (
	// NotStated: the operator's page says nothing of robots.txt for it,
	// or no page of the operator was found.
	NotStated Robots = iota
	// Follows: the operator says the crawler follows robots.txt.
	Follows
	// MayIgnore: the operator says robots.txt may not apply to it, or that
	// it may bypass or generally ignores it.
	MayIgnore
)

// String returns "yes", "no" or "not stated".
func (r Robots) String() string {
	switch r {
	case Follows:
		return "yes"
	case MayIgnore:
		return "no"
	}
	return "not stated"
}

// Crawler is one row of the table.
type Crawler struct {
	// Token is the product token as written in a User-agent line.
	Token string
	// Operator is who runs the crawler.
	Operator string
	// Purpose is what it fetches for, by its operator's page.
	Purpose Purpose
	// AI is true for the crawlers a survey of AI use answers for: its
	// operator ties it to AI models or assistants, or, where the
	// operator's page does not say (CCBot, Bytespider), Cloudflare's bot
	// reference classes it as an AI crawler.
	AI bool
	// Robots is whether its operator says it follows robots.txt.
	Robots Robots
	// Says is the operator's words the row rests on, quoted from URL.
	Says string
	// URL is the operator's own page that says so; for a row whose
	// operator publishes none, the best page found, which Says names.
	URL string
}

// UsagePurposes returns the questions of package usage a crawler of this
// row asks of a URL (usage.Usage.For): training asks PurposeTrain, a
// search index PurposeSearch, a fetch at answer time PurposeAIUse. A page
// a user names may count as "directly provided by the user", which
// vocab-08 section 4.2 leaves out of AI Use; its issue 249 is open on
// that, and a user-triggered fetch asks PurposeAIUse until it is settled.
func (c Crawler) UsagePurposes() []usage.Purpose {
	var p []usage.Purpose
	if c.Purpose&Training != 0 {
		p = append(p, usage.PurposeTrain)
	}
	if c.Purpose&(UserFetch|AIInput) != 0 {
		p = append(p, usage.PurposeAIUse)
	}
	if c.Purpose&SearchIndex != 0 {
		p = append(p, usage.PurposeSearch)
	}
	return p
}

// The operators' pages.
const (
	openAI      = "https://developers.openai.com/api/docs/bots"
	anthropic   = "https://support.claude.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler"
	perplexity  = "https://docs.perplexity.ai/docs/resources/perplexity-crawlers"
	google      = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers"
	bing        = "https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0"
	apple       = "https://support.apple.com/en-us/119829"
	meta        = "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers/"
	amazon      = "https://developer.amazon.com/amazonbot"
	commonCrawl = "https://commoncrawl.org/faq"
	cloudflare  = "https://developers.cloudflare.com/ai-crawl-control/reference/bots/"
	mistral     = "https://docs.mistral.ai/robots"
	duckduckgo  = "https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot"
)

// table is the crawlers, grouped by operator. docs/crawlers.md prints it.
var table = []Crawler{
	{"OAI-SearchBot", "OpenAI", SearchIndex, true, Follows,
		"Sites that are opted out of OAI-SearchBot will not be shown in ChatGPT search answers", openAI},
	{"GPTBot", "OpenAI", Training, true, Follows,
		"Disallowing GPTBot indicates a site's content should not be used in training generative AI foundation models.", openAI},
	{"ChatGPT-User", "OpenAI", UserFetch, true, MayIgnore,
		"Because these actions are initiated by a user, robots.txt rules may not apply.", openAI},
	{"OAI-AdsBot", "OpenAI", Ads, false, NotStated,
		"OAI-AdsBot only visits pages submitted as ads (the page says nothing of robots.txt for it)", openAI},
	{"ClaudeBot", "Anthropic", Training, true, Follows,
		"Anthropic's Bots respect \"do not crawl\" signals by honoring industry standard directives in robots.txt.", anthropic},
	{"Claude-SearchBot", "Anthropic", SearchIndex, true, Follows,
		"Anthropic's Bots respect \"do not crawl\" signals by honoring industry standard directives in robots.txt.", anthropic},
	{"Claude-User", "Anthropic", UserFetch, true, Follows,
		"Claude-User allows site owners to control which sites can be accessed through these user-initiated requests.", anthropic},
	{"PerplexityBot", "Perplexity", SearchIndex, true, Follows,
		"we recommend allowing PerplexityBot in your site's robots.txt file", perplexity},
	{"Perplexity-User", "Perplexity", UserFetch, true, MayIgnore,
		"Since a user requested the fetch, this fetcher generally ignores robots.txt rules.", perplexity},
	{"Google-Extended", "Google", UsageControl | Training | AIInput, true, Follows,
		"a standalone product token that web publishers can use to manage whether content Google crawls from their sites may be used for training future generations of Gemini models ... and for grounding", google},
	{"GoogleOther", "Google", General, false, Follows,
		"Google's common crawlers ... always obey robots.txt rules when crawling automatically.", google},
	{"Google-CloudVertexBot", "Google", AIInput, true, Follows,
		"Crawling preferences addressed to the Google-CloudVertexBot user agent affect crawls requested by the site owners' for building Vertex AI Agents.", google},
	{"Googlebot", "Google", SearchIndex, false, Follows,
		"Google's common crawlers ... always obey robots.txt rules when crawling automatically.", google},
	{"Bingbot", "Microsoft", SearchIndex, false, Follows,
		"Robots.txt files can be configured to tell Bing crawlers how to interact with your website.", bing},
	{"Applebot", "Apple", SearchIndex | Training, true, Follows,
		"Applebot respects standard robots.txt directives in general search crawls that are targeted at Applebot.", apple},
	{"Applebot-Extended", "Apple", UsageControl | Training, true, Follows,
		"Applebot-Extended does not crawl webpages. ... is only used to determine how to use the data crawled by the Applebot user agent.", apple},
	{"meta-externalagent", "Meta", Training, true, Follows,
		"In order to block these crawlers, add a disallow for the relevant crawler to robots.txt.", meta},
	{"meta-externalfetcher", "Meta", UserFetch, true, MayIgnore,
		"The Meta-ExternalFetcher crawler may bypass robots.txt because it performs fetches that were requested by the user.", meta},
	{"meta-webindexer", "Meta", SearchIndex, true, Follows,
		"Allowing Meta-WebIndexer in your robots.txt file helps us cite and link to your content in Meta AI's responses.", meta},
	{"Amazonbot", "Amazon", Training, true, Follows,
		"Automated crawling from these listed user agents respects the Robots Exclusion Protocol", amazon},
	{"Amzn-SearchBot", "Amazon", SearchIndex, true, Follows,
		"Automated crawling from these listed user agents respects the Robots Exclusion Protocol", amazon},
	{"Amzn-User", "Amazon", UserFetch, true, MayIgnore,
		"Because actions taken by Amzn-User can be initiated by a user, it may not follow all robots.txt directives.", amazon},
	{"CCBot", "Common Crawl", Archive, true, Follows,
		"CCBot is an automated crawler, checking first the robots.txt", commonCrawl},
	{"Bytespider", "ByteDance", 0, true, NotStated,
		"no ByteDance page found; Cloudflare's bot reference, the page given, classes Bytespider as an AI Crawler", cloudflare},
	{"MistralAI-User", "Mistral AI", UserFetch, true, Follows,
		"MistralAI-User governs which sites these user requests can be made to.", mistral},
	{"DuckAssistBot", "DuckDuckGo", AIInput, true, Follows,
		"the change will take effect after 72 hours and DuckAssistBot will stop crawling your site", duckduckgo},
}

// All returns every row, in table order. The slice is the caller's.
func All() []Crawler { return append([]Crawler(nil), table...) }

// Lookup returns the row of token, compared without ASCII case.
func Lookup(token string) (Crawler, bool) {
	for _, c := range table {
		if strings.EqualFold(c.Token, token) {
			return c, true
		}
	}
	return Crawler{}, false
}

// Default returns the AI crawlers (Crawler.AI), in table order: the
// agents a survey of AI use answers for when given none.
func Default() []Crawler {
	var d []Crawler
	for _, c := range table {
		if c.AI {
			d = append(d, c)
		}
	}
	return d
}

// WithPurpose returns the rows whose purpose includes any of p, in table
// order.
func WithPurpose(p Purpose) []Crawler {
	var d []Crawler
	for _, c := range table {
		if c.Purpose&p != 0 {
			d = append(d, c)
		}
	}
	return d
}
