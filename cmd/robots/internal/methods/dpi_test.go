package methods

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// dpiExample is the rules one agent holds in an example of
// test_robots.py: its Allow, Disallow and Crawl-delay values.
type dpiExample struct {
	allow, disallow, delay []string
}

// dpiAgentExample is one key of an example's agent_rules, in its order.
type dpiAgentExample struct {
	agent string
	rules dpiExample
}

// dpiExamples are the 75 tests of src/web_analysis/test_robots.py in
// Data-Provenance-Initiative/Data-Provenance-Collection at 257a063 (each
// named by its test function; where the file defines a name twice, the
// definition unittest runs, the last): agent_rules, read by
// interpret_robots, and the class expected of each agent. The file's
// code passes all 75.
var dpiExamples = []struct {
	name     string
	rules    []dpiAgentExample
	expected map[string]Class
}{
	{"test_complete_block_all_agents", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/"}}}}, map[string]Class{"*": All, "GoogleBot": All, "BingBot": All, "CustomBot": All}},
	{"test_no_block_all_agents", []dpiAgentExample{{"*", dpiExample{disallow: []string{""}}}}, map[string]Class{"*": None, "GoogleBot": None, "BingBot": None, "CustomBot": None}},
	{"test_partial_block_specific_directories", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/private", "/tmp", "/config"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some, "CustomBot": Some}},
	{"test_agent_specific_allowance", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/"}}}, {"GoogleBot", dpiExample{allow: []string{"/public"}, disallow: []string{"/"}}}, {"BingBot", dpiExample{allow: []string{"/public/data"}, disallow: []string{"/private"}}}}, map[string]Class{"*": All, "GoogleBot": Some, "BingBot": Some, "YahooBot": All}},
	{"test_empty_and_missing_rules", []dpiAgentExample{{"*", dpiExample{allow: []string{}, disallow: []string{}}}, {"BingBot", dpiExample{}}}, map[string]Class{"*": None, "GoogleBot": None, "BingBot": None, "CustomBot": None}},
	{"test_malformed_rules_handling", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/*.php", "/?id=123"}}}, {"GoogleBot", dpiExample{disallow: []string{"*.html", "/test/*/index"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_conflicting_rules", []dpiAgentExample{{"GoogleBot", dpiExample{allow: []string{"/private/stats"}, disallow: []string{"/private"}}}}, map[string]Class{"*": None, "GoogleBot": Some}},
	{"test_specific_vs_general_agent_rules", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/private"}}}, {"GoogleBot", dpiExample{disallow: []string{""}}}, {"CustomBot", dpiExample{disallow: []string{"/"}}}}, map[string]Class{"*": Some, "GoogleBot": None, "BingBot": Some, "CustomBot": All}},
	{"test_non_standard_paths", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/dev/*", "/staging/env"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_complete_access_vs_explicit_disallow", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/"}}}, {"GoogleBot", dpiExample{disallow: []string{}}}}, map[string]Class{"*": All, "GoogleBot": None, "BingBot": All}},
	{"test_multiple_agents_with_varying_rules", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/private"}}}, {"GoogleBot", dpiExample{allow: []string{"/secret/info"}, disallow: []string{"/secret"}}}, {"BingBot", dpiExample{disallow: []string{"/private", "/confidential"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some, "YahooBot": Some}},
	{"test_complex_allow_disallow_combinations", []dpiAgentExample{{"*", dpiExample{allow: []string{"/public", "/public_html"}, disallow: []string{"/"}}}, {"GoogleBot", dpiExample{allow: []string{"/private/stats"}, disallow: []string{"/private"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_overlapping_agent_rules", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/tmp"}}}, {"GoogleBot", dpiExample{allow: []string{"/tmp/readme"}, disallow: []string{"/tmp", "/test"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_disallow_empty_path", []dpiAgentExample{{"*", dpiExample{disallow: []string{""}}}, {"GoogleBot", dpiExample{disallow: []string{}}}}, map[string]Class{"*": None, "GoogleBot": None, "BingBot": None}},
	{"test_invalid_and_nonexistent_agents", []dpiAgentExample{{"GoogleBot", dpiExample{allow: []string{"/api/read"}, disallow: []string{"/api"}}}}, map[string]Class{"*": None, "GoogleBot": Some, "NonExistentBot": None}},
	{"test_edge_cases_with_special_characters", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/a*b", "/c?d", "/e(f)g"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_allow_all_except_one", []dpiAgentExample{{"*", dpiExample{allow: []string{"/"}, disallow: []string{"/private"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_explicit_exception", []dpiAgentExample{{"*", dpiExample{allow: []string{"/public", "/public/api"}, disallow: []string{"/"}}}, {"GoogleBot", dpiExample{allow: []string{"/public/stats"}, disallow: []string{"/private", "/private/data"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_detailed_directory_structure", []dpiAgentExample{{"*", dpiExample{allow: []string{"/users/public"}, disallow: []string{"/users", "/users/private/"}}}, {"GoogleBot", dpiExample{allow: []string{"/users/public/images"}, disallow: []string{"/users/private/documents"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_partial_path_allowances", []dpiAgentExample{{"GoogleBot", dpiExample{allow: []string{"/data/public"}, disallow: []string{"/data"}}}}, map[string]Class{"*": None, "GoogleBot": Some, "BingBot": None}},
	{"test_multi_agent_specific_rules", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/confidential"}}}, {"GoogleBot", dpiExample{allow: []string{"/confidential/reports"}}}, {"BingBot", dpiExample{disallow: []string{"/confidential", "/confidential/reports"}}}}, map[string]Class{"*": Some, "GoogleBot": None, "BingBot": Some, "YahooBot": Some}},
	{"test_special_characters_in_paths", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/test path", "/data&info", "/special#char?"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_very_specific_rules", []dpiAgentExample{{"*", dpiExample{allow: []string{"/temp/readme.txt"}, disallow: []string{"/temp/*"}}}, {"GoogleBot", dpiExample{allow: []string{"/temp/readme.txt", "/temp/images"}, disallow: []string{"/temp/*"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_complete_block_except_certain_file_types", []dpiAgentExample{{"*", dpiExample{allow: []string{"/images/", "/styles/"}, disallow: []string{"/"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_implicit_allow", []dpiAgentExample{}, map[string]Class{"*": None, "GoogleBot": None}},
	{"test_path_depth_handling", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/dir/"}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_case_sensitivity_of_paths", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/Dir/"}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_complex_query_parameters", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/search", "/search?query=allowed"}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_overlap_between_allow_and_disallow", []dpiAgentExample{{"*", dpiExample{allow: []string{"/directory/subdirectory/"}, disallow: []string{"/directory/"}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_rule_priority_across_different_user_agents", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/private/"}}}, {"GoogleBot", dpiExample{allow: []string{"/private/stats"}}}}, map[string]Class{"*": Some, "GoogleBot": None, "BingBot": Some}},
	{"test_allow_specific_files_in_disallowed_directory", []dpiAgentExample{{"*", dpiExample{allow: []string{"/private/index.html"}, disallow: []string{"/private/"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_disallow_specific_file_types", []dpiAgentExample{{"*", dpiExample{allow: []string{"/downloads/"}, disallow: []string{"/downloads/*.exe"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_redirect_handling", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/redirect/"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_url_casing_impact", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/CaseSensitivePath/"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_disallow_with_wildcards", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/images/*.jpg"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_robots_txt_without_user_agent_specification", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/"}}}}, map[string]Class{"*": All}},
	{"test_robots_txt_with_multiple_allow_and_disallow", []dpiAgentExample{{"GoogleBot", dpiExample{allow: []string{"/folder/subfolder/"}, disallow: []string{"/folder/"}}}}, map[string]Class{"*": None, "GoogleBot": Some}},
	{"test_no_robots_txt", []dpiAgentExample{}, map[string]Class{"*": None, "GoogleBot": None, "BingBot": None}},
	{"test_rules_application_to_specific_user_agents_only", []dpiAgentExample{{"GoogleBot", dpiExample{disallow: []string{"/private/"}}}, {"BingBot", dpiExample{allow: []string{"/"}}}}, map[string]Class{"*": None, "GoogleBot": Some, "BingBot": None, "YahooBot": None}},
	{"test_allow_and_disallow_same_path", []dpiAgentExample{{"*", dpiExample{allow: []string{"/path"}, disallow: []string{"/path"}}}}, map[string]Class{"*": None, "GoogleBot": None, "BingBot": None}},
	{"test_complex_wildcard_handling", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/images/*.jpg", "/docs/*202?/"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_case_sensitivity_in_paths", []dpiAgentExample{{"*", dpiExample{allow: []string{"/data/public"}, disallow: []string{"/Data"}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_absence_of_robots_txt", []dpiAgentExample{}, map[string]Class{"*": None, "GoogleBot": None}},
	{"test_allow_disallow_same_path", []dpiAgentExample{{"*", dpiExample{allow: []string{"/folder/subfolder"}, disallow: []string{"/folder"}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_wildcard_handling", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/tmp/*"}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_mixed_case_user_agents", []dpiAgentExample{{"Googlebot", dpiExample{disallow: []string{"/private"}}}, {"googleBot", dpiExample{allow: []string{"/private/stats"}}}}, map[string]Class{"*": None, "Googlebot": Some}},
	{"test_empty_robots_txt", []dpiAgentExample{}, map[string]Class{"*": None, "GoogleBot": None}},
	{"test_precedence_of_directives", []dpiAgentExample{{"GoogleBot", dpiExample{allow: []string{"/public"}, disallow: []string{"/"}}}}, map[string]Class{"*": None, "GoogleBot": Some}},
	{"test_disallow_all_but_one", []dpiAgentExample{{"*", dpiExample{allow: []string{"/index.html"}, disallow: []string{"/"}}}}, map[string]Class{"*": Some, "GoogleBot": Some, "BingBot": Some}},
	{"test_case_insensitive_paths", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/Folder"}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_query_parameters_in_paths", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/search?query=public"}}}}, map[string]Class{"*": None, "GoogleBot": None}},
	{"test_utf8_path_encodings", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/résumé"}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_empty_user_agent_disallow", []dpiAgentExample{{"", dpiExample{disallow: []string{"/private"}}}}, map[string]Class{"*": None, "GoogleBot": None}},
	{"test_multiple_allow_disallow_single_agent", []dpiAgentExample{{"GoogleBot", dpiExample{allow: []string{"/private/stats", "/tmp/images"}, disallow: []string{"/private", "/tmp"}}}}, map[string]Class{"*": None, "GoogleBot": Some}},
	{"test_inheritance_of_general_disallow", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/"}}}}, map[string]Class{"*": All, "UnknownBot": All}},
	{"test_specific_blocking_in_allowed_directory", []dpiAgentExample{{"*", dpiExample{allow: []string{"/data"}, disallow: []string{"/data/private"}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_wildcards_in_middle_of_path", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/data/*/private"}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_specific_allow_over_general_disallow", []dpiAgentExample{{"*", dpiExample{allow: []string{"/data/public"}, disallow: []string{"/data"}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_file_type_exclusion", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/images/*.jpg"}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_allow_overrides_disallow", []dpiAgentExample{{"*", dpiExample{allow: []string{"/folder/subfolder"}, disallow: []string{"/folder"}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_empty_user_agent_and_path", []dpiAgentExample{{"", dpiExample{disallow: []string{""}}}}, map[string]Class{"*": None, "GoogleBot": None}},
	{"test_unicode_path_handling", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/über"}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_multiple_disallow_with_wildcards", []dpiAgentExample{{"GoogleBot", dpiExample{disallow: []string{"/tmp/*", "/private/*/config"}}}}, map[string]Class{"*": None, "GoogleBot": Some}},
	{"test_conflicting_allow_disallow_same_path", []dpiAgentExample{{"*", dpiExample{allow: []string{"/data"}, disallow: []string{"/data"}}}}, map[string]Class{"*": None, "GoogleBot": None}},
	{"test_specific_vs_generic_user_agents", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/private"}}}, {"GoogleBot", dpiExample{allow: []string{"/private/stats"}}}}, map[string]Class{"*": Some, "GoogleBot": None}},
	{"test_improperly_formatted_paths", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/bad//path/", "/trailing "}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_allow_all_access", []dpiAgentExample{{"*", dpiExample{allow: []string{"/"}}}}, map[string]Class{"*": None, "GoogleBot": None}},
	{"test_multiple_user_agents_with_overlap_rules", []dpiAgentExample{{"GoogleBot", dpiExample{allow: []string{"/private/stats"}, disallow: []string{"/private"}}}, {"BingBot", dpiExample{disallow: []string{"/private", "/public"}}}, {"*", dpiExample{allow: []string{"/public"}}}}, map[string]Class{"*": None, "GoogleBot": Some, "BingBot": Some}},
	{"test_deeply_nested_rules", []dpiAgentExample{{"*", dpiExample{allow: []string{"/data/public"}, disallow: []string{"/data"}}}, {"GoogleBot", dpiExample{allow: []string{"/data/private/stats"}, disallow: []string{"/data/private"}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_robustness_against_malformed_entries", []dpiAgentExample{{"GoogleBot", dpiExample{disallow: []string{""}}}, {"*", dpiExample{disallow: []string{"/validpath"}, delay: []string{"10"}}}}, map[string]Class{"*": Some, "GoogleBot": None}},
	{"test_performance_on_large_robots_txt", []dpiAgentExample{{"*", dpiExample{disallow: thousandPaths()}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_conflicting_rules_across_agents", []dpiAgentExample{{"GoogleBot", dpiExample{allow: []string{"/content/public"}, disallow: []string{"/content"}}}, {"BingBot", dpiExample{disallow: []string{"/content/public"}}}, {"*", dpiExample{allow: []string{"/content"}}}}, map[string]Class{"*": None, "GoogleBot": Some, "BingBot": Some}},
	{"test_similar_paths_distinction", []dpiAgentExample{{"*", dpiExample{allow: []string{"/data/reports/summary"}, disallow: []string{"/data/reports"}}}}, map[string]Class{"*": Some, "GoogleBot": Some}},
	{"test_query_parameters_handling", []dpiAgentExample{{"*", dpiExample{disallow: []string{"/search?query=private"}}}}, map[string]Class{"*": None, "GoogleBot": None}},
	{"test_whitespace_in_paths_handling", []dpiAgentExample{{"*", dpiExample{disallow: []string{" /admin", "/register "}}}, {"GoogleBot", dpiExample{disallow: []string{""}}}}, map[string]Class{"*": Some, "GoogleBot": None}},
}

// thousandPaths is the Disallow list of test_performance_on_large_robots_txt,
// "/0" to "/999".
func thousandPaths() []string {
	var p []string
	for i := range 1000 {
		p = append(p, "/"+strconv.Itoa(i))
	}
	return p
}

// TestDPIRepositoryExamples: interpret_robots's examples, given as its
// dictionary, get the classes the repository's tests expect.
func TestDPIRepositoryExamples(t *testing.T) {
	assert.Len(t, dpiExamples, 75)
	for _, ex := range dpiExamples {
		f := &dpiFile{agents: make(map[string]*dpiRules)}
		for _, a := range ex.rules {
			f.agents[a.agent] = &dpiRules{allow: a.rules.allow, disallow: a.rules.disallow}
		}
		for agent, want := range ex.expected {
			assert.Equal(t, want, f.classify(agent), "%s: %s", ex.name, agent)
		}
	}
}

// TestDPIRepositoryExamplesAsFiles: the same examples written as
// robots.txt files, a group per key in the dictionary's order, read by
// parse_robots_txt's reading, give the same classes.
func TestDPIRepositoryExamplesAsFiles(t *testing.T) {
	for _, ex := range dpiExamples {
		var b strings.Builder
		for _, a := range ex.rules {
			b.WriteString("User-agent: " + a.agent + "\n")
			for _, v := range a.rules.allow {
				b.WriteString("Allow: " + v + "\n")
			}
			for _, v := range a.rules.disallow {
				b.WriteString("Disallow: " + v + "\n")
			}
			for _, v := range a.rules.delay {
				b.WriteString("Crawl-delay: " + v + "\n")
			}
			b.WriteString("\n")
		}
		for agent, want := range ex.expected {
			assert.Equal(t, want, Classify(DPI, []byte(b.String()), agent), "%s: %s\n%s", ex.name, agent, b.String())
		}
	}
}

// TestDPIReading: how parse_robots_txt and interpret_agent (parse_robots.py
// at 257a063) read files, each case named by what decides it.
func TestDPIReading(t *testing.T) {
	cases := []struct {
		name, body, agent string
		want              Class
	}{
		{"named group disallowing all", "User-agent: GPTBot\nDisallow: /\n", "GPTBot", All},
		{"the * group when none names the agent", "User-agent: *\nDisallow: /\n", "GPTBot", All},
		{"no * group: none", "User-agent: CCBot\nDisallow: /\n", "GPTBot", None},
		{"empty file", "", "GPTBot", None},
		// startswith('User-agent:') compares case and all.
		{"User-Agent: is not read", "User-Agent: *\nDisallow: /\n", "GPTBot", None},
		{"user-agent: is not read", "user-agent: GPTBot\nDisallow: /\n", "GPTBot", None},
		{"disallow: is not read", "User-agent: GPTBot\ndisallow: /\n", "GPTBot", None},
		{"a space before the colon is not read", "User-agent : GPTBot\nDisallow: /\n", "GPTBot", None},
		// rules.get(agent): the value as written.
		{"agent compared case and all", "User-agent: gptbot\nDisallow: /\n", "GPTBot", None},
		{"agent compared whole", "User-agent: GPTBot/1.0\nDisallow: /\n", "GPTBot", None},
		{"named group without rules hides *", "User-agent: GPTBot\n\nUser-agent: *\nDisallow: /\n", "GPTBot", None},
		// current_agents = [agent]: only the last of consecutive lines.
		{"consecutive user-agent lines: the first gets nothing", "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n", "GPTBot", None},
		{"consecutive user-agent lines: the last gets the rules", "User-agent: CCBot\nUser-agent: GPTBot\nDisallow: /\n", "GPTBot", All},
		// line == "" or line.startswith('#'): current_agents = [].
		{"a blank line ends the group", "User-agent: *\n\nDisallow: /\n", "GPTBot", None},
		{"a comment line ends the group", "User-agent: *\n# rules\nDisallow: /\n", "GPTBot", None},
		{"other lines do not", "User-agent: *\nCrawl-delay: 5\nHost: example.com\nSitemap: /s.xml\nDisallow: /\n", "GPTBot", All},
		{"rules with no current agent are not read", "Disallow: /\n", "GPTBot", None},
		// Groups naming the same value add up.
		{"groups of one value add up", "User-agent: GPTBot\nDisallow: /a\n\nUser-agent: GPTBot\nDisallow: /\n", "GPTBot", All},
		// interpret_agent.
		{"Disallow: / with an Allow is some", "User-agent: *\nDisallow: /\nAllow: /$\n", "GPTBot", Some},
		{"a comment after / is part of the value", "User-agent: *\nDisallow: / # all\n", "GPTBot", Some},
		{"one empty Disallow is none", "User-agent: *\nDisallow:\n", "GPTBot", None},
		{"two empty Disallows are some", "User-agent: *\nDisallow:\nDisallow:\n", "GPTBot", Some},
		{"an empty Disallow beside / is all", "User-agent: *\nDisallow:\nDisallow: /\n", "GPTBot", All},
		{"Disallow values with ? are set aside", "User-agent: *\nDisallow: /*?\nDisallow: /search?q=\n", "GPTBot", None},
		{"Allow equal to Disallow is none", "User-agent: *\nAllow: /a\nDisallow: /a\n", "GPTBot", None},
		{"any path is some, even one matching nothing", "User-agent: *\nDisallow: *.nothing\n", "GPTBot", Some},
		{"a wildcard covering every path is some", "User-agent: *\nDisallow: /*\n", "GPTBot", Some},
		// str.splitlines and str.strip.
		{"a bare CR ends a line", "User-agent: *\rDisallow: /\r", "GPTBot", All},
		{"U+2028 ends a line", "User-agent: *\u2028Disallow: /", "GPTBot", All},
		{"\\x1c ends a line", "User-agent: *\x1cDisallow: /", "GPTBot", All},
		{"a BOM is not white space", "\ufeffUser-agent: *\nDisallow: /\n", "GPTBot", None},
		{"no-break spaces are stripped", "\u00a0User-agent:\u00a0*\u00a0\nDisallow:\u3000/\u00a0\n", "GPTBot", All},
		// The dictionary's own keys: a file it raises on is left out.
		{"a group naming ERRORS with a rule", "User-agent: ERRORS\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /\n", "GPTBot", Uncounted},
		{"a group naming ERRORS without a rule", "User-agent: ERRORS\n\nUser-agent: GPTBot\nDisallow: /\n", "GPTBot", All},
		{"a group naming Sitemaps, then a Sitemap line", "User-agent: Sitemaps\nDisallow: /x\n\nSitemap: /s.xml\n", "GPTBot", Uncounted},
		{"a Sitemap line, then a group naming Sitemaps with a rule", "Sitemap: /s.xml\nUser-agent: Sitemaps\nDisallow: /x\n", "GPTBot", Uncounted},
		{"a Sitemap line, then a group naming Sitemaps without a rule", "Sitemap: /s.xml\nUser-agent: Sitemaps\n\nUser-agent: *\nDisallow: /\n", "GPTBot", All},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, Classify(DPI, []byte(c.body), c.agent), "%s: %q", c.name, c.body)
	}
}
