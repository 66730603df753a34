package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/fastrobots/robots/fetch"
)

// exampleSite starts a server for an example: its robots.txt, cached for
// an hour, has a group for ExampleBot with a Crawl-delay, and every other
// path is a page.
func exampleSite() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Header().Set("Cache-Control", "max-age=3600")
			_, _ = io.WriteString(w, "User-agent: *\nDisallow: /private/\n\nUser-agent: ExampleBot\nDisallow: /drafts/\nCrawl-delay: 1.5\n")
		default:
			_, _ = io.WriteString(w, "a page")
		}
	}))
}

// brokenSite starts a server whose robots.txt answers 503.
func brokenSite() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
}

// A Fetcher fetches one robots.txt and says which policy applies, why,
// and for how long.
func ExampleFetcher() {
	site, down := exampleSite(), brokenSite()
	defer site.Close()
	defer down.Close()
	f := &fetch.Fetcher{Client: site.Client(), UserAgent: "ExampleBot/1.0"}

	for _, u := range []string{site.URL + "/robots.txt", down.URL + "/robots.txt"} {
		res, err := f.Fetch(context.Background(), u)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%d: %s (%s), holds %v\n", res.Status, res.Policy, res.Reason, res.Lifetime())
		fmt.Println("  /drafts/a allowed:", res.Agent("ExampleBot").AllowedPath("/drafts/a"))
	}
	// Output:
	// 200: conditional (fetched), holds 1h0m0s
	//   /drafts/a allowed: false
	// 503: full disallow (server error (5xx)), holds 1m0s
	//   /drafts/a allowed: false
}

// A Cache keeps one answer per origin: asking again for any page of the
// origin fetches nothing.
func ExampleCache() {
	site := exampleSite()
	defer site.Close()
	c := fetch.NewCache(&fetch.Fetcher{Client: site.Client()}, fetch.CacheOptions{})

	ctx := context.Background()
	for _, page := range []string{"/a", "/b/c", "/robots.txt"} {
		res, err := c.Get(ctx, site.URL+page)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(page, res.Policy)
	}
	s := c.Stats()
	fmt.Printf("%d entry, %d fetch, %d hits\n", s.Entries, s.Fetches, s.Hits)
	// Output:
	// /a conditional
	// /b/c conditional
	// /robots.txt conditional
	// 1 entry, 1 fetch, 2 hits
}

// A Checker answers in one call, with the rule that decided and the
// pacing the crawler's group asks for.
func ExampleChecker() {
	site := exampleSite()
	defer site.Close()
	checker := fetch.NewChecker(fetch.NewCache(&fetch.Fetcher{Client: site.Client()}, fetch.CacheOptions{}))

	for _, path := range []string{"/drafts/post", "/private/x", "/blog/"} {
		v, err := checker.Decide(context.Background(), "ExampleBot", site.URL+path)
		if err != nil {
			fmt.Println(err)
			return
		}
		why := "no rule matched"
		if v.Rule != nil {
			why = fmt.Sprintf("line %d: Disallow: %s", v.Line, v.Rule.Value)
		}
		fmt.Printf("%s: allowed %v (%s), wait %v between requests\n", path, v.Allowed, why, v.Delay())
	}
	// Output:
	// /drafts/post: allowed false (line 5: Disallow: /drafts/), wait 1.5s between requests
	// /private/x: allowed true (no rule matched), wait 1.5s between requests
	// /blog/: allowed true (no rule matched), wait 1.5s between requests
}

// A Transport makes any http.Client obey robots.txt: a disallowed request
// never leaves the client, and its error says which rule refused it.
func ExampleNewTransport() {
	site := exampleSite()
	defer site.Close()
	client := &http.Client{Transport: fetch.NewTransport(http.DefaultTransport,
		fetch.TransportOptions{Agent: "ExampleBot"})}

	for _, path := range []string{"/blog/", "/drafts/post"} {
		resp, err := client.Get(site.URL + path)
		if errors.Is(err, fetch.ErrDisallowed) {
			var refused *fetch.DisallowedError
			errors.As(err, &refused)
			fmt.Printf("%s: refused by line %d (%s)\n", path, refused.Rule.Line, refused.Policy)
			continue
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("%s: %d %s\n", path, resp.StatusCode, body)
	}

	_, err := client.Get(site.URL + "/drafts/post")
	fmt.Println(strings.Replace(err.Error(), site.URL, "http://example.test", -1))
	// Output:
	// /blog/: 200 a page
	// /drafts/post: refused by line 5 (conditional)
	// Get "http://example.test/drafts/post": fetch: robots.txt disallows "http://example.test/drafts/post" for ExampleBot (line 5: Disallow: /drafts/)
}
