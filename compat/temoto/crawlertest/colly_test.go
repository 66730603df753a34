package crawlertest

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gocolly/colly/v2"
)

// googlebot is the User-Agent header colly sends and hands to FindGroup
// whole; its product token is "Googlebot".
const googlebot = "Googlebot/2.1 (+http://www.google.com/bot.html)"

// mozilla is a User-Agent header whose product token is "Mozilla": Google's
// reference matches that token, not a name further on.
const mozilla = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"

// site serves a robots.txt answer and records the pages a crawler fetched.
type site struct {
	status int
	robots string

	mu      sync.Mutex
	fetched []string
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/robots.txt" {
		w.WriteHeader(s.status)
		w.Write([]byte(s.robots))
		return
	}
	s.mu.Lock()
	s.fetched = append(s.fetched, r.URL.RequestURI())
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/html")
	w.Write([]byte("<html><body>page</body></html>"))
}

// crawlCases are the files on which temoto v1.1.2 and Google disagree;
// want is Google's verdict for the page.
var crawlCases = []struct {
	name   string
	status int
	robots string
	agent  string
	page   string
	want   bool
}{
	{"wildcard is anchored", 200, "User-agent: *\nDisallow: /a*b\n", googlebot, "/x/a/b", true},
	{"wildcard matches from the start", 200, "User-agent: *\nDisallow: /a*b\n", googlebot, "/a/b", false},
	{"allow wins a tie", 200, "User-agent: *\nDisallow: /page\nAllow: /page\n", googlebot, "/page", true},
	{"agent is a token, not a prefix", 200, "User-agent: google\nDisallow: /\n", googlebot, "/", true},
	{"rule before any user-agent is ignored", 200, "Disallow: /\nUser-agent: *\nDisallow: /private\n", googlebot, "/public", true},
	{"rest of that file applies", 200, "Disallow: /\nUser-agent: *\nDisallow: /private\n", googlebot, "/private", false},
	{"crawl-delay with a unit rejects nothing", 200, "User-agent: *\nCrawl-delay: 1s\nDisallow: /private\n", googlebot, "/public", true},
	{"crawl-delay with a unit: rules apply", 200, "User-agent: *\nCrawl-delay: 1s\nDisallow: /private\n", googlebot, "/private", false},
	{"server error disallows", 503, "", googlebot, "/", false},
	{"not found allows", 404, "User-agent: *\nDisallow: /\n", googlebot, "/", true},
	{"groups merge across a blank line", 200, "User-agent: *\nCrawl-delay: 10\n\nUser-agent: badbot\nDisallow: /\n", googlebot, "/", false},
	{"header's leading token is the agent", 200, "User-agent: Googlebot\nDisallow: /\n", mozilla, "/", true},
	{"header's leading token decides", 200, "User-agent: Mozilla\nDisallow: /\n", mozilla, "/", false},
	{"query is matched as colly encodes it", 200, "User-agent: *\nDisallow: /*?q=\n", googlebot, "/find?q=a", false},
}

func TestCollyGetsGoogleVerdicts(t *testing.T) {
	for _, tc := range crawlCases {
		t.Run(tc.name, func(t *testing.T) {
			s := &site{status: tc.status, robots: tc.robots}
			srv := httptest.NewServer(s)
			defer srv.Close()
			c := colly.NewCollector(colly.UserAgent(tc.agent))
			c.IgnoreRobotsTxt = false
			err := c.Visit(srv.URL + tc.page)
			allowed := err == nil
			if err != nil && !errors.Is(err, colly.ErrRobotsTxtBlocked) {
				t.Fatalf("Visit: %v; want nil or ErrRobotsTxtBlocked", err)
			}
			if allowed != tc.want {
				t.Errorf("Visit(%s) allowed = %v (err %v), want %v", tc.page, allowed, err, tc.want)
			}
			fetched := strings.Join(s.fetched, " ")
			if tc.want != (fetched != "") {
				t.Errorf("pages fetched: %q; want fetched %v", fetched, tc.want)
			}
		})
	}
}
