package main

import (
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/stretchr/testify/assert"
)

func TestServeExplainGivesTheGroupsDirectives(t *testing.T) {
	s := localAPI(t)
	body := "Sitemap: https://example.com/a.xml\nUser-agent: Bingbot\nCrawl-delay: 5\nRequest-rate: 1/10s\nDisallow: /x\nCrawl-delay: 2.5\n\nUser-agent: *\nCrawl-delay: 30\nSitemap: https://example.com/b.xml\n"
	tests := []struct {
		agent string
		want  map[string]any
	}{
		{"Bingbot", map[string]any{
			"crawl_delay":  2.5, // the last valid value of the group
			"request_rate": map[string]any{"requests": 1.0, "per_seconds": 10.0},
			"extras": []any{
				map[string]any{"line": 3.0, "key": "Crawl-delay", "value": "5"},
				map[string]any{"line": 4.0, "key": "Request-rate", "value": "1/10s"},
				map[string]any{"line": 6.0, "key": "Crawl-delay", "value": "2.5"},
			},
			"sitemaps": []any{"https://example.com/a.xml", "https://example.com/b.xml"},
		}},
		{"Googlebot", map[string]any{
			"crawl_delay": 30.0,
			"extras":      []any{map[string]any{"line": 9.0, "key": "Crawl-delay", "value": "30"}},
			"sitemaps":    []any{"https://example.com/a.xml", "https://example.com/b.xml"},
		}},
	}
	for _, tt := range tests {
		got := clitest.PostOK(t, s, "/api/explain", clitest.JSON(t, map[string]any{"robotstxt": body, "agents": []string{tt.agent}, "urls": []string{"/"}}))
		assert.Equal(t, tt.want, got["directives"], tt.agent)
	}
	got := clitest.PostOK(t, s, "/api/explain", clitest.JSON(t, map[string]any{"robotstxt": "User-agent: *\nDisallow: /\n", "urls": []string{"/"}}))
	assert.Equal(t, map[string]any{"extras": []any{}, "sitemaps": []any{}}, got["directives"], "none: empty lists, no values")
}
