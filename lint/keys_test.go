package lint

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestGoogleKeyFindings(t *testing.T) {
	const ua = "User-agent: *\n"
	runCases(t, []lintCase{
		{"unknown key", ua + "Foo: bar\n", []string{"2:1 unknown-directive"}},
		{"unknown key near a known one", ua + "Disallop: /x\n", []string{"2:1 unknown-directive"}},
		{"bare URL", ua + "https://example.com/sitemap.xml\n", []string{"2:1 unknown-directive"}},
		{"typo Google accepts", ua + "Dissallow: /x\n", []string{"2:1 accepted-typo"}},
		{"key longer than the field name", "User-agents: *\nDisallowed: /x\n", []string{"1:1 accepted-typo", "2:1 accepted-typo"}},
		{"case is no typo", "USER-AGENT: *\ndisallow: /x\n", nil},
		{"missing colon", ua + "Disallow /x\n", []string{"2:9 missing-colon"}},
		{"typo and missing colon", ua + "Dissallow /x\n", []string{"2:1 accepted-typo", "2:10 missing-colon"}},
		{"missing colon before a colon in the value", ua + "Disallow /a:b\n", []string{"2:9 missing-colon", "2:13 pattern-no-slash"}},
		{"misspelling with a space", "User agent: *\nDisallow: /\n", []string{"1:1 accepted-typo"}},
		{"one word", ua + "Disallow\n", []string{"2:1 unparsed-line"}},
		{"three words", ua + "Disallow /a /b\n", []string{"2:1 unparsed-line"}},
		{"empty key", ua + "  : /x\n", []string{"2:3 unparsed-line"}},
		{"comments and blanks", "# c\n\n   \t\n" + ua + "# Disallow /x\n", nil},
		{"crawl-delay", ua + "Crawl-delay: 5\n", []string{"2:1 ignored-by-google"}},
		{"crawl-delay without colon", ua + "Crawl-delay 5\n", []string{"2:1 ignored-by-google"}},
		{"every ignored directive", ua + "Host: example.com\nClean-param: ref /x\nNoindex: /a\nRequest-rate: 1/5\n" +
			"Visit-time: 0600-0845\nContent-Signal: search=yes, ai-train=no\n",
			[]string{"2:1 ignored-by-google", "3:1 ignored-by-google", "4:1 ignored-by-google", "5:1 ignored-by-google",
				"6:1 ignored-by-google", "7:1 ignored-by-google"}},
		{"invalid values", ua + "Crawl-delay: soon\nRequest-rate: 5\nVisit-time: 6am\nHost: /x\nClean-param:   &\n",
			[]string{"2:14 invalid-value", "3:15 invalid-value", "4:13 invalid-value", "5:7 invalid-value", "6:16 invalid-value"}},
		{"a stray mark is not also an unknown key", ua + "Disallow: /\n" + utf8BOM + "Foo: x\n", []string{"3:1 stray-bom"}},
	})
}

func TestSuggest(t *testing.T) {
	tests := map[string]string{"disallop": "Disallow", "user_agent": "User-agent", "alow": "Allow", "crawldelay": "Crawl-delay", "noarchive": "", "foo": ""}
	for key, want := range tests {
		assert.Equal(t, want, suggest(key), key)
	}
}

func TestEditDistance(t *testing.T) {
	assert.Equal(t, 0, editDistance("abc", "abc", 2))
	assert.Equal(t, 1, editDistance("abc", "abd", 2))
	assert.Equal(t, 2, editDistance("ab", "ba", 2))
	assert.Equal(t, 3, editDistance("abcdef", "a", 2))
	assert.Equal(t, 3, editDistance("kitten", "sitting", 2))
}
