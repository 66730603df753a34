package methods

import (
	"testing"

	"github.com/fastrobots/robots"
	"github.com/stretchr/testify/assert"
)

// TestIMCRepositoryExamples: the cases robotstxt-parser/robots_analysis_final.py
// (ucsdsysnet/ai-crawler-imc-25, 7288024) names in its comments.
func TestIMCRepositoryExamples(t *testing.T) {
	// "append a dummy path for the edge case where everything is
	// disallowed except for "/$" (because just '/' would be allowed)":
	// with the dummy the file is partially disallowed, without it it
	// would be read as having no restrictions.
	body := []byte("User-agent: *\nDisallow: /\nAllow: /$\n")
	assert.Equal(t, Some, Classify(IMC, body, "GPTBot"))
	a := robots.Parse(body).Agent("GPTBot")
	paths := imcPaths(body)
	assert.Equal(t, imcDummy, paths[len(paths)-1])
	assert.Equal(t, None, imcClassify(a, paths[:len(paths)-1]), "without the dummy path")

	// "check if path has the ending marker ($) ... if yes, remove the
	// ending marker": "/*.php$" is probed as "/*.php", which the rule
	// matches, "*" and all.
	body = []byte("User-agent: *\nDisallow: /*.php$\n")
	assert.Contains(t, imcPaths(body), "/*.php$")
	assert.Equal(t, Some, Classify(IMC, body, "GPTBot"))

	// "add root path no matter what": "/" is probed first, so a file
	// without a rule line is read from "/" and the dummy path.
	assert.Equal(t, []string{imcDummy}, imcPaths([]byte("User-agent: *\n")))
	assert.Equal(t, None, Classify(IMC, []byte("User-agent: *\n"), "GPTBot"))
	assert.Equal(t, All, Classify(IMC, []byte("User-agent: GPTBot\nDisallow: /\n"), "GPTBot"))
}

// TestIMCPaths: the paths get_all_paths_from_robots finds, line by line.
func TestIMCPaths(t *testing.T) {
	cases := []struct {
		name, body string
		want       []string
	}{
		{"second word of a rule line", "Disallow: /a b\nAllow: /c", []string{"/a", "/c"}},
		{"any case, any group", "User-agent: CCBot\nDISALLOW: /cc\nUser-agent: GPTBot\nallow: /g", []string{"/cc", "/g"}},
		{"no value: nothing", "Disallow: \n", nil},
		{"no space after the colon: up to the next colon", "Disallow:/a:b\nAllow:\t/c\r\n", []string{"/a", "\t/c\r"}},
		{"no space and no value: empty", "Disallow:", []string{""}},
		{"the second word wherever the key stands", "# Disallow: /private\nUser-agent: x # no disallow: here", []string{"Disallow:", "x"}},
		{"\"/\" is probed first, once", "Disallow: /\nAllow: /", nil},
		{"each path once", "Disallow: /a\nDisallow: /a\n", []string{"/a"}},
		{"a bare CR ends no line", "Disallow: /a\rDisallow: /b", []string{"/a"}},
		{"words end at Unicode white space", "Disallow: /a\u00a0/b", []string{"/a"}},
		{"a no-break space is no space after the colon", "Disallow:\u00a0/a", []string{"\u00a0/a"}},
	}
	for _, c := range cases {
		got := imcPaths([]byte(c.body))
		assert.Equal(t, imcDummy, got[len(got)-1], c.name)
		assert.ElementsMatch(t, c.want, got[:len(got)-1], "%s: %q", c.name, c.body)
	}
}

// TestIMCReading: the classes the probes give, against the exact reading
// where they differ.
func TestIMCReading(t *testing.T) {
	cases := []struct {
		name, body  string
		want, exact Class
	}{
		{"a path probed allowed beside a disallowed /", "User-agent: *\nDisallow: /\nAllow: /public\n", Some, Some},
		{"a rule's own path", "User-agent: *\nDisallow: /private\n", Some, Some},
		{"the agent's own group, as Google picks it", "User-agent: *\nDisallow: /\n\nUser-agent: gptbot/1.1\nAllow: /\n", None, None},
		// A path not starting with '/' runs into the site's name: Google
		// reads "example.com*.php" as "/", which the rule does not match.
		{"a rule not starting with /", "User-agent: *\nDisallow: *.php\n", None, Some},
		// The probe is the rule's bytes; Google escapes the rule's UTF-8
		// and matches the URL as given.
		{"a rule in UTF-8", "User-agent: *\nDisallow: /über\n", None, Some},
		{"a wildcard allow, probed as written", "User-agent: *\nDisallow: /\nAllow: /*.css$\n", Some, Some},
		// The allowed paths lie where no probe goes: "*.js" probes "/",
		// and "Allow : /eng/" (a space before the colon) is no rule line
		// to the study, though Google reads it.
		{"allows not starting with /", "User-agent: *\nAllow: *.js\nAllow: *.css\nDisallow: /\n", All, Some},
		{"an allow line with a space before the colon", "User-agent: *\nAllow : /eng/\nDisallow: /\n", All, Some},
	}
	for _, c := range cases {
		body := []byte(c.body)
		assert.Equal(t, c.want, Classify(IMC, body, "GPTBot"), "%s: %q", c.name, c.body)
		assert.Equal(t, c.exact, Exact(robots.Parse(body), "GPTBot"), "%s: exact: %q", c.name, c.body)
	}
}

// TestRootReading: "/" alone, by Google's parser.
func TestRootReading(t *testing.T) {
	cases := []struct {
		body        string
		want, exact Class
	}{
		{"User-agent: *\nDisallow: /\n", All, All},
		{"User-agent: *\nDisallow: /private\n", None, Some},
		{"User-agent: *\nDisallow: /$\n", All, Some},
		{"User-agent: *\nDisallow: /\nAllow: /$\n", None, Some},
		{"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow:\n", All, All},
		{"", None, None},
	}
	for _, c := range cases {
		body := []byte(c.body)
		assert.Equal(t, c.want, Classify(Root, body, "GPTBot"), "%q", c.body)
		assert.Equal(t, c.exact, Exact(robots.Parse(body), "GPTBot"), "exact: %q", c.body)
	}
}
