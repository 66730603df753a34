package methods

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCCNotebookClasses: the rule sets classify_robotstxt_rules names
// (src/jupyter/metrics-top-k-sample.ipynb at 874a7e7, cell 8), each as a
// file's "*" group, get its classes: disallow-all (all) for the one rule
// "disallow: /", allow-all (none) for the one rule "allow: /", "allow: *",
// "allow: /*", "allow:" or "disallow:", and allow-part (some) for any
// other.
func TestCCNotebookClasses(t *testing.T) {
	cases := []struct {
		rules string
		want  Class
	}{
		{"Disallow: /", All},
		{"Allow: /", None},
		{"Allow: *", None},
		{"Allow: /*", None},
		{"Allow:", None},
		{"Disallow:", None},
		// allow-part: any other rule set, whatever its paths.
		{"Disallow: /private", Some},
		{"Disallow: /*", Some},
		{"Disallow: /\nAllow: /public", Some},
		{"Disallow: /\nDisallow: /", Some},
		{"Disallow:\nAllow: /", Some},
		{"Allow: /\nAllow: /", Some},
		{"Allow: /$", Some},
	}
	for _, c := range cases {
		body := "User-agent: *\n" + c.rules + "\n"
		assert.Equal(t, c.want, Classify(CC, []byte(body), "GPTBot"), "%q", body)
	}
}

// TestCCReading: how RobotstxtStatsJob.process_record
// (src/cc-pyspark/robotstxt_statistics.py at 874a7e7) gathers the rule
// sets, and how the notebook picks the one it counts for an agent, each
// case named by what decides it.
func TestCCReading(t *testing.T) {
	cases := []struct {
		name, body, agent string
		want              Class
	}{
		{"named rule set", "User-agent: GPTBot\nDisallow: /\n", "GPTBot", All},
		{"agent in any case", "user-agent: gptbot\nDISALLOW: /\n", "GPTBot", All},
		{"agent compared whole", "User-agent: GPTBot/1.0\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n", "GPTBot", Some},
		{"the * rule set when none names the agent", "User-agent: *\nDisallow: /\n", "GPTBot", All},
		{"no rule set for the agent nor *: uncounted", "User-agent: CCBot\nDisallow: /\n", "GPTBot", Uncounted},
		{"no rules at all: uncounted", "Sitemap: https://example.com/s.xml\n", "GPTBot", Uncounted},
		{"empty file: uncounted", "", "GPTBot", Uncounted},
		{"a named agent without rules falls to *", "User-agent: GPTBot\n\nUser-agent: *\nDisallow: /\n", "GPTBot", All},
		// Comment and blank lines are skipped: they end no group.
		{"a blank line does not end a group", "User-agent: GPTBot\n\nDisallow: /\n", "GPTBot", All},
		{"a comment line does not end a group", "User-agent: GPTBot\n# no\nDisallow: /\n", "GPTBot", All},
		// Consecutive user-agent lines share the rules until the first
		// rule of the file; after it (inblock is never cleared) each
		// user-agent line starts the agents anew.
		{"before any rule, consecutive agents share", "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n", "GPTBot", All},
		{"after a rule, only the last agent of a group", "User-agent: *\nDisallow: /x\n\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n", "GPTBot", Some},
		{"after a rule, the last agent gets them", "User-agent: *\nDisallow: /x\n\nUser-agent: CCBot\nUser-agent: GPTBot\nDisallow: /\n", "GPTBot", All},
		// Rule sets add up over the file's groups.
		{"groups of one agent add up", "User-agent: GPTBot\nDisallow: /a\n\nUser-agent: GPTBot\nDisallow: /\n", "GPTBot", Some},
		// The key line's pattern.
		{"space before the colon", "User-agent : GPTBot\nDisallow : /\n", "GPTBot", All},
		{"a comment after the value is cut", "User-agent: GPTBot # OpenAI\nDisallow: / # all\n", "GPTBot", All},
		{"white space runs in a value are one space", "User-agent: *\nDisallow:\t/\t\n", "GPTBot", All},
		{"an unknown key is skipped", "User-agent: GPTBot\nContent-Signal: ai-train=no\nDisallow: /\n", "GPTBot", All},
		{"a misspelt key is skipped", "User-agent: *\nDisalow: /x\nDisallow: /\n", "GPTBot", All},
		{"useragent is not user-agent", "Useragent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow:\n", "GPTBot", None},
		// Lines end at '\n' only; a value ends at '\r' or '#'.
		{"CRLF", "User-agent: GPTBot\r\nDisallow: /\r\n", "GPTBot", All},
		{"a bare CR ends no line", "User-agent: GPTBot\rDisallow: /\r", "GPTBot", Uncounted},
		{"a CR after the colon is white space", "User-agent: *\nDisallow: \r/\n", "GPTBot", All},
		// The first line.
		{"a BOM is stripped", "\ufeffUser-agent: GPTBot\nDisallow: /\n", "GPTBot", All},
		{"a first HTML line skips the file", "<html>\nUser-agent: *\nDisallow: /\n", "GPTBot", Uncounted},
		{"a first DOCTYPE line skips the file", "<!doctype html>\nUser-agent: *\nDisallow: /\n", "GPTBot", Uncounted},
		{"HTML on a later line does not", "User-agent: *\n<html>\nDisallow: /\n", "GPTBot", All},
		{"<htmlx is not HTML", "<htmlx\nUser-agent: *\nDisallow: /\n", "GPTBot", All},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, Classify(CC, []byte(c.body), c.agent), "%s: %q", c.name, c.body)
	}
}

// TestCCSpellings: where several spellings of an agent have rule sets,
// the first in byte order gives the class (the notebook counts the file
// once under each).
func TestCCSpellings(t *testing.T) {
	body := "User-agent: gptbot\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /x\n"
	assert.Equal(t, Some, Classify(CC, []byte(body), "GPTBot"), "GPTBot < gptbot")
}
