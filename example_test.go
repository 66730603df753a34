package robots_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/fastrobots/robots"
)

// exampleRobots is the robots.txt of the examples.
const exampleRobots = `User-agent: *
Disallow: /private/
Allow: /private/press/
Crawl-delay: 2

User-agent: Googlebot
Disallow: /nogooglebot/

User-agent: Googlebot-Image
Disallow: /photos/
Request-rate: 1/5s

Sitemap: https://example.com/sitemap.xml
Sitemap: https://example.com/news-sitemap.xml
`

func ExampleParse() {
	r := robots.Parse([]byte(exampleRobots))
	fmt.Println(r.Agent("Googlebot").Allowed("https://example.com/nogooglebot/page.html"))
	fmt.Println(r.Agent("OtherBot").Allowed("https://example.com/private/report.pdf"))
	fmt.Println(r.Agent("OtherBot").Allowed("https://example.com/private/press/release.html"))
	fmt.Println(len(r.Groups()), "groups,", r.Lines(), "lines")
	// Output:
	// false
	// false
	// true
	// 3 groups, 15 lines
}

// Agent takes a fallback list, most specific first: the first agent a
// group names decides, and only its groups apply.
func ExampleRobots_Agent() {
	r := robots.Parse([]byte(exampleRobots))
	for _, agents := range [][]string{
		{"Googlebot-Image", "Googlebot"},
		{"Googlebot-News", "Googlebot"},
		{"OtherBot"},
	} {
		a := r.Agent(agents...)
		fmt.Printf("%v: groups %v, name %q\n", agents, a.Groups(), a.Name())
	}
	// Output:
	// [Googlebot-Image Googlebot]: groups [2], name "Googlebot-Image"
	// [Googlebot-News Googlebot]: groups [1], name "Googlebot"
	// [OtherBot]: groups [0], name ""
}

func ExampleAgent_Allowed() {
	bot := robots.Parse([]byte(exampleRobots)).Agent("ExampleBot")
	for _, u := range []string{
		"https://example.com/",
		"https://example.com/private/",
		"https://example.com/private/press/2024.html",
		"https://example.com/PRIVATE/", // paths are case-sensitive
	} {
		fmt.Println(bot.Allowed(u), u)
	}
	// Output:
	// true https://example.com/
	// false https://example.com/private/
	// true https://example.com/private/press/2024.html
	// true https://example.com/PRIVATE/
}

func ExampleAgent_Decide() {
	bot := robots.Parse([]byte(exampleRobots)).Agent("ExampleBot")
	for _, u := range []string{"https://example.com/private/a", "https://example.com/private/press/a", "https://example.com/a"} {
		d := bot.Decide(u)
		if d.Rule == nil {
			fmt.Printf("%s: %v, no rule matched\n", u, d.Allowed)
			continue
		}
		kind := "Disallow"
		if d.Rule.Allow {
			kind = "Allow"
		}
		fmt.Printf("%s: %v, line %d: %s: %s\n", u, d.Allowed, d.Rule.Line, kind, d.Rule.Value)
	}
	// Output:
	// https://example.com/private/a: false, line 2: Disallow: /private/
	// https://example.com/private/press/a: true, line 3: Allow: /private/press/
	// https://example.com/a: true, no rule matched
}

func ExampleRobots_Explain() {
	r := robots.Parse([]byte(exampleRobots))
	e := r.Explain([]string{"Googlebot-News", "Googlebot"}, "https://example.com/nogooglebot/x")
	fmt.Println("allowed:", e.Allowed)
	fmt.Println("groups:", e.Selection.Why)
	fmt.Println("winner:", e.TieBreak)

	e = r.Explain([]string{"ExampleBot"}, "https://example.com/private/press/x")
	fmt.Println("allowed:", e.Allowed)
	fmt.Println("winner:", e.TieBreak)
	// Output:
	// allowed: false
	// groups: no group names "Googlebot-News"; the fallback "Googlebot" is named by line 6
	// winner: the only rule that matched
	// allowed: true
	// winner: the longest match wins: 15 bytes against 9 bytes for line 2 (Disallow)
}

func ExampleRobots_Sitemaps() {
	r := robots.Parse([]byte(exampleRobots))
	for _, s := range r.Sitemaps() {
		fmt.Println(s)
	}
	// Output:
	// https://example.com/sitemap.xml
	// https://example.com/news-sitemap.xml
}

// CrawlDelay and RequestRate read the pacing directives of the groups that
// apply. Google ignores both; Bing, Yandex and others read them.
func ExampleAgent_CrawlDelay() {
	r := robots.Parse([]byte(exampleRobots))
	for _, agent := range []string{"ExampleBot", "Googlebot", "Googlebot-Image"} {
		a := r.Agent(agent)
		d, ok := a.CrawlDelay()
		rate, hasRate := a.RequestRate()
		fmt.Printf("%s: crawl-delay %v (%v), request-rate %d per %v (%v)\n", agent, d, ok, rate.Requests, rate.Per, hasRate)
	}
	// Output:
	// ExampleBot: crawl-delay 2s (true), request-rate 0 per 0s (false)
	// Googlebot: crawl-delay 0s (false), request-rate 0 per 0s (false)
	// Googlebot-Image: crawl-delay 0s (false), request-rate 1 per 5s (true)
}

func ExampleURLFor() {
	for _, page := range []string{
		"https://www.example.com/folder/page.html?q=1#top",
		"HTTP://Example.COM:80/a",
		"https://www.müller.eu/",
		"https://example.com:8181/a",
		"/relative",
	} {
		u, err := robots.URLFor(page)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println(u)
	}
	// Output:
	// https://www.example.com/robots.txt
	// http://example.com/robots.txt
	// https://www.xn--mller-kva.eu/robots.txt
	// https://example.com:8181/robots.txt
	// error: robots: "/relative": URL has no scheme
}

// A crawler that fetches robots.txt itself hands the response over:
// FromResponse applies the status table (a 503 disallows everything, a 404
// allows everything) and parses the body of a 2xx.
func ExampleFromResponse() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer srv.Close()
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer down.Close()

	for _, site := range []*httptest.Server{srv, down} {
		resp, err := site.Client().Get(site.URL + "/robots.txt")
		if err != nil {
			fmt.Println(err)
			return
		}
		r, err := robots.FromResponse(resp)
		resp.Body.Close() // the caller owns the body
		if err != nil {
			fmt.Println("network failure:", err)
		}
		bot := r.Agent("ExampleBot")
		fmt.Printf("%d %s (%s): /public %v, /private/x %v\n", resp.StatusCode, r.Policy(), r.Reason(),
			bot.AllowedPath("/public"), bot.AllowedPath("/private/x"))
	}
	// Output:
	// 200 conditional (fetched): /public true, /private/x false
	// 503 full disallow (server error (5xx)): /public false, /private/x false
}

// FromStatus is FromResponse for a crawler with the status and body in
// hand.
func ExampleFromStatus() {
	body := []byte("User-agent: *\nDisallow: /\n")
	for _, code := range []int{200, 301, 404, 429, 500} {
		r := robots.FromStatus(code, body)
		fmt.Printf("%d: %s, /a allowed: %v\n", code, r.Policy(), r.Allowed("ExampleBot", "/a"))
	}
	// Output:
	// 200: conditional, /a allowed: false
	// 301: full allow, /a allowed: true
	// 404: full allow, /a allowed: true
	// 429: full disallow, /a allowed: false
	// 500: full disallow, /a allowed: false
}

func ExampleStatusPolicy() {
	for _, code := range []int{200, 304, 403, 429, 503, 0} {
		p, why := robots.StatusPolicy(code)
		fmt.Printf("%d: %s (%s)\n", code, p, why)
	}
	// Output:
	// 200: conditional (fetched)
	// 304: full allow (too many or broken redirects)
	// 403: full allow (unavailable (4xx))
	// 429: full disallow (too many requests (429))
	// 503: full disallow (server error (5xx))
	// 0: full disallow (network failure)
}

func ExampleProductToken() {
	fmt.Println(robots.ProductToken("Googlebot/2.1 (+http://www.google.com/bot.html)"))
	// Output: Googlebot
}
