package crawlertest

import (
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/fastrobots/robots/fetch"
	"github.com/gocolly/colly/v2"
)

// TestCollyWithTransport is the other way to give colly Google's verdicts
// (docs/crawling.md): colly's own robots.txt check off, the fetch
// package's transport deciding each request, its error seen in OnError.
func TestCollyWithTransport(t *testing.T) {
	s := &site{status: 200, robots: "User-agent: *\nDisallow: /private\nDisallow: /page\nAllow: /page\n"}
	srv := httptest.NewServer(s)
	defer srv.Close()
	tests := []struct {
		page string
		want bool
	}{
		{"/page", true},
		{"/private/a", false},
	}
	for _, tc := range tests {
		c := colly.NewCollector(colly.IgnoreRobotsTxt(), colly.UserAgent(googlebot))
		c.WithTransport(fetch.NewTransport(nil, fetch.TransportOptions{Agent: "Googlebot"}))
		blocked := false
		c.OnError(func(_ *colly.Response, err error) {
			if errors.Is(err, fetch.ErrDisallowed) {
				blocked = true
			}
		})
		err := c.Visit(srv.URL + tc.page)
		if err != nil && !errors.Is(err, fetch.ErrDisallowed) {
			t.Fatalf("Visit(%s): %v", tc.page, err)
		}
		if blocked == tc.want {
			t.Errorf("Visit(%s): blocked = %v, want allowed %v", tc.page, blocked, tc.want)
		}
	}
}
