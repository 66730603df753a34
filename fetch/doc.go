// Package fetch fetches, caches and applies robots.txt files the way
// Google's crawlers do, for crawlers that check many URLs on many hosts.
//
// Four layers, each usable alone:
//
//   - Fetcher fetches one robots.txt over an *http.Client and says which
//     policy applies: Conditional (the parsed rules), FullAllow (no
//     restrictions: 4xx except 429, or redirects that lead nowhere) or
//     FullDisallow (5xx, 429, or a network failure: timeouts, resets,
//     truncated or invalid responses), with how long the answer holds.
//   - Cache keeps one answer per origin, refreshes it when it expires,
//     shares one fetch among all callers asking for the same origin, keeps
//     serving the last good copy while an origin fails, applies the 30-day
//     rule for origins unreachable for long, and bounds its memory.
//   - Checker answers "may this agent fetch this URL?" in one call, with
//     the rule that decided and the pacing the crawler's groups ask for.
//   - Transport, an http.RoundTripper, puts a Checker under an
//     http.Client: requests robots.txt disallows fail with ErrDisallowed
//     before they are sent, and with CrawlDelay the rest are spaced by the
//     crawler's Crawl-delay or Request-rate.
//
// A crawler needs only the Checker:
//
//	f := &fetch.Fetcher{Client: client, UserAgent: "ExampleBot/1.0"}
//	c := fetch.NewChecker(fetch.NewCache(f, fetch.CacheOptions{}))
//	ok, err := c.Allowed(ctx, "ExampleBot", "https://example.com/a/page.html")
//
// or, for a crawler built on net/http, the Transport:
//
//	client := &http.Client{Transport: fetch.NewTransport(http.DefaultTransport,
//		fetch.TransportOptions{Agent: "ExampleBot"})}
//	_, err := client.Get(u) // errors.Is(err, fetch.ErrDisallowed) when robots.txt says no
//
// A fleet of crawlers shares one fetch per origin through a Store, the
// Cache's second level (CacheOptions.Store): package
// github.com/fastrobots/robots/fetch/redisstore, a module of its own, keeps
// it on Redis; docs/fleet.md describes the design and its failure modes.
//
// The policy of an HTTP status is robots.StatusPolicy's, one table for
// both packages. docs/crawling.md lists every situation, the policy it
// leads to, how long it is cached, and the test that pins it.
//
// Configuration follows net/http's convention: a Fetcher is configured by
// its exported fields, a Cache by a CacheOptions struct and a Transport by
// TransportOptions, all set before first use. For every limit, zero means
// the default and a negative value means no limit.
package fetch
