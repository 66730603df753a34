package lint

import "testing"

func TestRFCPatternFindings(t *testing.T) {
	const ua = "User-agent: *\n"
	runCases(t, []lintCase{
		{"relative pattern", ua + "Disallow: private/\n", []string{"2:11 pattern-no-slash"}},
		{"full URL as pattern", ua + "Disallow: https://example.com/a\n", []string{"2:11 pattern-no-slash"}},
		{"query as pattern", ua + "Disallow: ?id=\n", []string{"2:11 pattern-no-slash"}},
		{"star first is fine", ua + "Disallow: *.pdf$\n", nil},
		{"empty allow", ua + "Allow:\n", []string{"2:1 empty-allow"}},
		{"empty disallow is the usual allow-all", ua + "Disallow:\n", nil},
		{"dollar inside", ua + "Disallow: /a$b\n", []string{"2:13 dollar-inside"}},
		{"dollar at the end", ua + "Disallow: /a$\n", nil},
		{"two dollars", ua + "Disallow: /a$$\n", []string{"2:13 dollar-inside"}},
		{"trailing star", ua + "Disallow: /a*\n", []string{"2:13 trailing-star"}},
		{"star alone", ua + "Disallow: *\n", nil},
		{"slash star", ua + "Disallow: /*\n", []string{"2:12 trailing-star"}},
		{"inner star", ua + "Disallow: /a*b\n", nil},
		{"rule outside a group is only that", "Disallow: private*\n", []string{"1:1 rule-outside-group"}},
	})
}
