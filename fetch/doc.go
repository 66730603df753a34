// Package fetch fetches, caches and applies robots.txt files the way
// Google's crawlers do, for crawlers that check many URLs on many hosts.
//
// Four layers, each usable alone:
//
//   - Fetcher fetches one robots.txt and says which policy applies:
//     Conditional (the parsed rules), FullAllow (4xx except 429, or
//     redirects that lead nowhere) or FullDisallow (5xx, 429, or a network
//     failure), with how long the answer holds.
//   - Cache keeps one answer per origin, shares one fetch among concurrent
//     callers, serves the last good copy while an origin fails, applies
//     the 30-day rule for long-unreachable origins, and bounds its memory.
//   - Checker answers "may this agent fetch this URL?", with the deciding
//     rule and the pacing the crawler's groups ask for.
//   - Transport, an http.RoundTripper, fails requests robots.txt disallows
//     with ErrDisallowed before they are sent and, with CrawlDelay, spaces
//     the rest by Crawl-delay or Request-rate.
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
// A fleet of crawlers shares one fetch per origin through a Store
// (CacheOptions.Store, docs/fleet.md); package redisstore implements it on
// Redis. docs/crawling.md lists every situation and its policy.
//
// Configuration follows net/http's convention: exported Fetcher fields,
// CacheOptions and TransportOptions, all set before first use. For every
// limit, zero means the default and a negative value means no limit.
package fetch
