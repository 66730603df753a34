package lint

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// usageFindings are the findings of body but ignored-by-google, which
// every Content-Usage and Content-Signal line has.
func usageFindings(body string) []string {
	out := slices.DeleteFunc(findings(body), func(s string) bool { return strings.HasSuffix(s, " "+string(CodeIgnoredByGoogle)) })
	if len(out) == 0 {
		return nil
	}
	return out
}

func TestUsageFindings(t *testing.T) {
	const ua = "User-agent: *\n"
	tests := []lintCase{
		// Well-formed lines: nothing but their ignored-by-google.
		{"clean Content-Usage", ua + "Allow: /\nContent-Usage: train-ai=n, search=y\nContent-Usage: /blog/ train-ai=y\n", nil},
		{"clean Content-Signal", ua + "Content-Signal: search=yes, ai-input=no, ai-train=no\nAllow: /\n", nil},
		{"parameters and case of Content-Signal", ua + "content-signal: Search=YES,ai-train=no,\nAllow: /\n", nil},

		// Malformed preferences.
		{"not a dictionary", ua + "Content-Usage: train-ai=n;;\n", []string{"2:16 usage-malformed"}},
		{"upper case", ua + "Content-Usage: /a Train-AI=n\n", []string{"2:19 usage-malformed"}},
		{"path and no preference", ua + "Content-Usage: /a\n", []string{"2:16 usage-malformed"}},
		{"no value", ua + "Content-Usage:\n", []string{"2:15 usage-malformed"}},
		{"value not y or n", ua + "Content-Usage: train-ai=no, search=\"y\", train-ai\n",
			[]string{"2:16 usage-malformed", "2:16 usage-malformed", "2:16 usage-malformed"}},
		{"signal value not yes or no", ua + "Content-Signal: search=yes, ai-train=maybe\n", []string{"2:29 usage-malformed"}},
		{"signal entry without =", ua + "Content-Signal: ai-train\n", []string{"2:17 usage-malformed"}},
		{"signal entries past the limit", ua + "Content-Signal: " + strings.Repeat("search=yes,", 64) + "ai-train=no\n",
			[]string{"2:721 usage-malformed"}},

		// Unknown keys.
		{"unknown category", ua + "Content-Usage: train-ai=n, foo=y\n", []string{"2:16 usage-unknown-key"}},
		{"retired label", ua + "Content-Usage: genai=n\n", []string{"2:16 usage-unknown-key"}},
		{"unknown signal key", ua + "Content-Signal: search=yes, foo=reference\n", []string{"2:29 usage-unknown-key"}},
		{"a use level is a known key", ua + "Content-Signal: search=yes, use=reference\n", nil},
		{"a use level no one defined", ua + "Content-Signal: search=yes, use=partial\n", []string{"2:29 usage-malformed"}},

		// A path without its slash.
		{"relative path", ua + "Content-Usage: blog/ train-ai=n\n", []string{"2:16 usage-path-no-slash"}},
		{"star path", ua + "Content-Usage: *.pdf train-ai=n\n", []string{"2:16 usage-path-no-slash"}},
		{"bare word path", ua + "Content-Usage: blog\ttrain-ai=n\n", []string{"2:16 usage-path-no-slash"}},
		{"two preferences are no path", ua + "Content-Usage: train-ai=n search=y\n", []string{"2:16 usage-malformed"}},

		// Lines outside any group.
		{"signal before any group", "Content-Signal: ai-train=no\n" + ua + "Allow: /\n", []string{"1:1 signal-outside-group"}},
		{"usage before any group", "Content-Usage: train-ai=n\n" + ua + "Allow: /\n", []string{"1:1 rule-outside-group"}},

		// Conflicts within one group.
		{"same path, opposite values", ua + "Content-Usage: /a train-ai=n\nContent-Usage: /a train-ai=y, search=y\n",
			[]string{"3:1 usage-conflict"}},
		{"same path after escaping", ua + "Content-Usage: /é train-ai=n\nContent-Usage: /%c3%a9 train-ai=y\n",
			[]string{"3:1 usage-conflict"}},
		{"other paths do not conflict", ua + "Content-Usage: /a train-ai=n\nContent-Usage: /b train-ai=y\n", nil},
		{"other categories do not conflict", ua + "Content-Usage: train-ai=n\nContent-Usage: search=y\n", nil},
		{"other groups do not conflict", ua + "Content-Usage: train-ai=n\nAllow: /\nUser-agent: bot\nContent-Usage: train-ai=y\n", nil},
		{"signal lines", ua + "Content-Signal: ai-train=no\nContent-Signal: ai-train=yes\n", []string{"3:1 usage-conflict"}},
		{"signal line with itself", ua + "Content-Signal: ai-train=no, ai-train=yes\n", []string{"2:30 usage-conflict"}},

		// Preferences on disallowed paths.
		{"group disallows all", "User-agent: GPTBot\nDisallow: /\nContent-Signal: ai-train=no\nContent-Usage: /a train-ai=n\n",
			[]string{"3:1 usage-disallowed", "4:1 usage-disallowed"}},
		{"a wildcard disallow covers the path", ua + "Disallow: /*.pdf\nContent-Usage: /docs/*.pdf$ train-ai=n\n",
			[]string{"3:1 usage-disallowed"}},
		{"a longer allow may open a path", ua + "Disallow: /a\nAllow: /a/open\nContent-Usage: /a train-ai=n\n", nil},
		{"an equal allow wins", ua + "Disallow: /a\nAllow: /b\nContent-Usage: /a train-ai=n\n", nil},
		{"the disallow covers a part only", ua + "Disallow: /a/x\nContent-Usage: /a train-ai=n\n", nil},
		{"allowed in a merged group", "User-agent: bot\nDisallow: /\nContent-Usage: train-ai=n\n\nUser-agent: bot\nAllow: /a\n", nil},
		{"one selection allows it", "User-agent: a\nUser-agent: b\nDisallow: /x\nContent-Usage: /x train-ai=n\n\nUser-agent: b\nAllow: /x\n", nil},

		// Cloudflare's managed block prepended to a site's own file.
		{"managed block prepended", "User-Agent: *\nContent-signal: search=yes,ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n\n" +
			"User-agent: *\nDisallow: /admin/\n", []string{"8:1 split-star-group"}},
		{"two star groups without a signal", ua + "Disallow: /a\n\n" + ua + "Disallow: /b\n", nil},
		{"one star group with a signal", ua + "Content-Signal: ai-train=no\nAllow: /\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, usageFindings(tt.body))
		})
	}
}

// TestUsageLinesAreIgnoredByGoogle checks that the lines are still
// reported as directives Google ignores, beside the usage findings.
func TestUsageLinesAreIgnoredByGoogle(t *testing.T) {
	got := findings("User-agent: *\nContent-Usage: train-ai=n\nContent-Signal: foo=yes\n")
	assert.Equal(t, []string{"2:1 ignored-by-google", "3:1 ignored-by-google", "3:17 usage-unknown-key"}, got)
}

// TestUsageMessages checks that the messages name what is wrong.
func TestUsageMessages(t *testing.T) {
	for body, want := range map[string]string{
		"User-agent: *\nContent-Usage: genai=n\n":          "a label of vocab-01, since dropped",
		"User-agent: *\nContent-Usage: Train-AI=n\n":       "keys and tokens are lower case",
		"User-agent: *\nContent-Usage: blog/ train-ai=n\n": `path "blog/" does not start with '/'`,
		"User-agent: *\nContent-Signal: ai-train=no\n" +
			"Allow: /\nUser-agent: *\nDisallow: /x\n": "Content-Signal of line 2",
		"User-agent: *\nContent-Usage: /a train-ai=n\nContent-Usage: /a train-ai=y\n": "opposite of line 2 about train-ai",
	} {
		var msgs []string
		for _, d := range Lint([]byte(body)) {
			msgs = append(msgs, d.Message)
		}
		assert.Contains(t, strings.Join(msgs, "\n"), want, "%q", body)
	}
}

// TestUsageBudget checks that the disallowed-path check stops at
// usageBudget: a file with more work than the budget reports the lines
// checked within it and no more.
func TestUsageBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	const rules = 5000
	for i := range rules {
		fmt.Fprintf(&b, "Disallow: /%d\n", i)
	}
	b.WriteString("Disallow: /\n")
	const lines = 2 * usageBudget / rules
	for range lines {
		b.WriteString("Content-Usage: train-ai=n\n")
	}
	n := 0
	for _, d := range Lint([]byte(b.String())) {
		if d.Code == CodeUsageDisallowed {
			n++
		}
	}
	assert.Positive(t, n)
	assert.Less(t, n, lines, "the budget stops the check")
}
