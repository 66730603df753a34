package lint

import "testing"

func TestGoogleGroupFindings(t *testing.T) {
	runCases(t, []lintCase{
		{"rule before any group", "Disallow: /a\nUser-agent: *\nDisallow: /b\n", []string{"1:1 rule-outside-group"}},
		{"sitemap before any group is fine", "Sitemap: https://example.com/s.xml\nUser-agent: *\nDisallow: /b\n", nil},
		{"agents sharing a group", "User-agent: a\nUser-agent: b\nDisallow: /\n", nil},
		{"agents sharing a group across a comment", "User-agent: a\n# and b\nUser-agent: b\nDisallow: /\n", nil},
		{"crawl-delay does not end a group", "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n",
			[]string{"1:1 agent-without-rules", "2:1 ignored-by-google"}},
		{"blank line does not end a group", "User-agent: a\n\nUser-agent: b\nUser-agent: c\nDisallow: /\n",
			[]string{"1:1 agent-without-rules"}},
		{"several agents without rules", "User-agent: a\nUser-agent: b\n\nUser-agent: c\n\nUser-agent: d\nDisallow: /\n",
			[]string{"1:1 agent-without-rules", "4:1 agent-without-rules"}},
		{"the same agent again changes nothing", "User-agent: *\n\nUser-agent: *\nDisallow: /\n", nil},
		{"last group without rules", "User-agent: a\nDisallow: /\n\nUser-agent: b\nCrawl-delay: 1\n", []string{"5:1 ignored-by-google"}},
		{"version cut", "User-agent: Googlebot/2.1\nDisallow: /\n", []string{"1:22 agent-token-cut"}},
		{"two words cut", "User-agent: Foo Bar\nDisallow: /\n", []string{"1:16 agent-token-cut"}},
		{"list cut", "User-agent: Googlebot, Bingbot\nDisallow: /\n", []string{"1:22 agent-token-cut"}},
		{"digits cut", "User-agent: MJ12bot\nDisallow: /\n", []string{"1:15 agent-token-cut"}},
		{"global with a comment-like tail", "User-agent: * all\nDisallow: /\n", nil},
		{"empty agent", "User-agent:\nDisallow: /\n", []string{"1:1 empty-agent"}},
		{"agent starting with a digit", "User-agent: 360Spider\nDisallow: /\n", []string{"1:13 empty-agent"}},
		{"star glued to a name", "User-agent: *bot\nDisallow: /\n", []string{"1:13 empty-agent"}},
	})
}
