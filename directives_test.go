package robots_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots"
)

const nonStandardBody = "Host: example.com\n" +
	"User-agent: Yandex\n" +
	"Crawl-delay: 0.5\n" +
	"Clean-param: ref /books/\n" +
	"Disallow: /private\n" +
	"\n" +
	"User-agent: Yandex\n" +
	"Request-rate: 1/10s\n" +
	"Visit-time: 0600-0845\n" +
	"Allow: /\n" +
	"\n" +
	"User-agent: *\n" +
	"Crawl-delay: 10\n" +
	"Crawl-delay: 20\n" +
	"Disallow: /tmp/\n"

func TestAgentNonStandardDirectives(t *testing.T) {
	r := robots.Parse([]byte(nonStandardBody))
	tests := []struct {
		agent  string
		delay  time.Duration
		rate   robots.RequestRate
		window robots.VisitTime
		ok     [3]bool
	}{
		{"Yandex", 500 * time.Millisecond, robots.RequestRate{Requests: 1, Per: 10 * time.Second},
			robots.VisitTime{Start: 6 * time.Hour, End: 8*time.Hour + 45*time.Minute}, [3]bool{true, true, true}},
		{"Bingbot", 20 * time.Second, robots.RequestRate{}, robots.VisitTime{}, [3]bool{true, false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.agent, func(t *testing.T) {
			a := r.Agent(tt.agent)
			d, ok := a.CrawlDelay()
			assert.Equal(t, tt.ok[0], ok)
			assert.Equal(t, tt.delay, d)
			rate, ok := a.RequestRate()
			assert.Equal(t, tt.ok[1], ok)
			assert.Equal(t, tt.rate, rate)
			w, ok := a.VisitTime()
			assert.Equal(t, tt.ok[2], ok)
			assert.Equal(t, tt.window, w)
		})
	}
}

func TestAgentExtrasAreTheSelectedGroupsOthers(t *testing.T) {
	r := robots.Parse([]byte(nonStandardBody))
	assert.Equal(t, []robots.Directive{
		{Line: 3, Key: "Crawl-delay", Value: "0.5"},
		{Line: 4, Key: "Clean-param", Value: "ref /books/"},
		{Line: 8, Key: "Request-rate", Value: "1/10s"},
		{Line: 9, Key: "Visit-time", Value: "0600-0845"},
	}, r.Agent("Yandex").Extras())
	assert.Empty(t, robots.Parse([]byte("User-agent: *\nDisallow: /\n")).Agent("x").Extras())
}

func TestNonStandardDirectivesChangeNoVerdict(t *testing.T) {
	with := robots.Parse([]byte(nonStandardBody))
	without := robots.Parse([]byte("User-agent: Yandex\nDisallow: /private\nUser-agent: Yandex\nAllow: /\n" +
		"User-agent: *\nDisallow: /tmp/\n"))
	for _, agent := range []string{"Yandex", "Bingbot"} {
		for _, u := range []string{"/", "/private/a", "/tmp/x", "/books/?ref=1"} {
			assert.Equal(t, without.Agent(agent).AllowedPath(u), with.Agent(agent).AllowedPath(u), "%s %s", agent, u)
		}
	}
}

func TestFileLevelHostAndCleanParam(t *testing.T) {
	r := robots.Parse([]byte(nonStandardBody))
	assert.Equal(t, []robots.Host{{Line: 1, Host: "example.com"}}, r.Hosts())
	assert.Equal(t, []robots.CleanParam{{Line: 4, Params: []string{"ref"}, Path: "/books/"}}, r.CleanParams())
}
