package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
)

func TestCheckExampleVerdicts(t *testing.T) {
	tests := []struct {
		name   string
		agents []string
		url    string
		want   string
	}{
		{"googlebot obeys its own group", []string{"Googlebot"}, "https://example.com/nogooglebot/x",
			"DISALLOWED https://example.com/nogooglebot/x  (line 2: Disallow: /nogooglebot/)"},
		{"googlebot ignores the star group", []string{"Googlebot"}, "https://example.com/a.pdf",
			"ALLOWED https://example.com/a.pdf  (no rule matched)"},
		{"agent names are case-insensitive", []string{"googlebot"}, "https://example.com/nogooglebot/",
			"DISALLOWED https://example.com/nogooglebot/  (line 2: Disallow: /nogooglebot/)"},
		{"no agent uses the star group", nil, "https://example.com/nogooglebot/x",
			"ALLOWED https://example.com/nogooglebot/x  (line 7: Allow: /)"},
		{"unnamed agent uses the star group", []string{"Bingbot"}, "https://example.com/",
			"ALLOWED https://example.com/  (line 7: Allow: /)"},
		{"end anchor matches at the end", nil, "https://example.com/docs/a.pdf",
			"DISALLOWED https://example.com/docs/a.pdf  (line 9: Disallow: /*.pdf$)"},
		{"end anchor does not match before the end", nil, "https://example.com/a.pdf?download=1",
			"ALLOWED https://example.com/a.pdf?download=1  (line 7: Allow: /)"},
		{"disallow longer than allow wins", nil, "https://example.com/drafts/plan",
			"DISALLOWED https://example.com/drafts/plan  (line 12: Disallow: /drafts/)"},
		{"more specific allow wins", nil, "https://example.com/drafts/public/plan.pdf",
			"ALLOWED https://example.com/drafts/public/plan.pdf  (line 13: Allow: /drafts/public/)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var args []string
			for _, a := range tt.agents {
				args = append(args, "-a", a)
			}
			r := invoke(runCheck, "", append(args, tt.url)...)
			assert.Equal(t, tt.want+"\n", r.stdout)
			wantCode := exitOK
			if strings.HasPrefix(tt.want, "DISALLOWED") {
				wantCode = exitNegative
			}
			assert.Equal(t, wantCode, r.code)
			assert.Empty(t, r.stderr)
		})
	}
}

func TestCheckExampleHasSitemap(t *testing.T) {
	assert.Equal(t, []string{"https://www.example.com/sitemap.xml"}, robots.Parse(exampleRobots).Sitemaps())
}

func TestCheckExitCodeIsOneWhenAnyURLIsDisallowed(t *testing.T) {
	tests := []struct {
		name string
		urls []string
		want int
	}{
		{"all allowed", []string{"https://example.com/", "https://example.com/a.html"}, exitOK},
		{"one disallowed", []string{"https://example.com/", "https://example.com/a.pdf"}, exitNegative},
		{"all disallowed", []string{"https://example.com/a.pdf", "https://example.com/drafts/"}, exitNegative},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := invoke(runCheck, "", tt.urls...)
			assert.Equal(t, tt.want, r.code)
			assert.Len(t, strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n"), len(tt.urls))
		})
	}
}

func TestCheckUsageErrorsExitTwo(t *testing.T) {
	assertUsageErrors(t, runCheck, "", []usageCase{
		{"no URL", nil, "no URL given"},
		{"only flags", []string{"-a", "Googlebot"}, "no URL given"},
		{"unknown flag", []string{"-x", "https://example.com/"}, "flag provided but not defined: -x"},
		{"flag without value", []string{"https://example.com/", "-a"}, "flag needs an argument: -a"},
		{"missing file", []string{"-f", filepath.Join(t.TempDir(), "nope.txt"), "https://example.com/"}, "nope.txt"},
		{"bad mode", []string{"--mode", "lenient", "https://example.com/"}, `unknown mode "lenient"`},
		{"robots.txt and URLs both on stdin", []string{"-f", "-", "-"}, "-f - and the URL list cannot both be read from stdin"},
		{"robots.txt and --urls both on stdin", []string{"-f", "-", "--urls", "-"}, "cannot both be read from stdin"},
		{"URL arguments and --urls", []string{"--urls", "-", "https://example.com/"}, "URLs come from arguments or from --urls, not both"},
		{"missing URL list", []string{"--urls", filepath.Join(t.TempDir(), "urls.txt")}, "urls.txt"},
	})
}

func TestCheckAgentsAreAnOrderedFallbackList(t *testing.T) {
	const url = "https://example.com/nogooglebot/x"
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"unnamed specific agent alone falls to star", []string{"-a", "Googlebot-Image"}, exitOK},
		{"unnamed specific agent falls back to the next", []string{"-a", "Googlebot-Image", "-a", "Googlebot"}, exitNegative},
		{"first named agent decides", []string{"-a", "Bingbot", "-a", "Googlebot", "-a", "Googlebot-Image"}, exitNegative},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, invoke(runCheck, "", append(tt.args, url)...).code)
		})
	}
}

func TestCheckMostSpecificNamedAgentWins(t *testing.T) {
	path := writeTemp(t, "User-agent: Googlebot\nDisallow: /\n\nUser-agent: Googlebot-Image\nDisallow: /private/\n")
	url := "https://example.com/photos/1.jpg"
	specific := invoke(runCheck, "", "-f", path, "-a", "Googlebot-Image", "-a", "Googlebot", url)
	assert.Equal(t, exitOK, specific.code)
	general := invoke(runCheck, "", "-f", path, "-a", "Googlebot", url)
	assert.Equal(t, "DISALLOWED "+url+"  (line 2: Disallow: /)\n", general.stdout)
}

func TestCheckReadsFileGivenWithF(t *testing.T) {
	path := writeTemp(t, "User-agent: FooBot\nAllow: /public\nDisallow: /\n")
	r := invoke(runCheck, "", "-f", path, "-a", "FooBot", "http://example.com/public/a", "http://example.com/x")
	assert.Equal(t, exitNegative, r.code)
	assert.Equal(t, "ALLOWED http://example.com/public/a  (line 2: Allow: /public)\n"+
		"DISALLOWED http://example.com/x  (line 3: Disallow: /)\n", r.stdout)
}

func TestCheckReadsStdinForDashF(t *testing.T) {
	r := invoke(runCheck, "User-agent: *\nDisallow: /tmp/\n", "-f", "-", "https://example.com/tmp/a")
	assert.Equal(t, exitNegative, r.code)
	assert.Equal(t, "DISALLOWED https://example.com/tmp/a  (line 2: Disallow: /tmp/)\n", r.stdout)
}

func TestCheckAcceptsFlagsAfterURLs(t *testing.T) {
	r := invoke(runCheck, "", "https://example.com/nogooglebot/x", "-a", "Googlebot")
	assert.Equal(t, exitNegative, r.code)
	assert.Contains(t, r.stdout, "line 2: Disallow: /nogooglebot/")
}

// TestCheckTreatsArgumentsAfterDoubleDashAsURLs: after "--", "-a" is a URL
// (which does not parse as one), not the flag that would lack its value.
func TestCheckTreatsArgumentsAfterDoubleDashAsURLs(t *testing.T) {
	r := invoke(runCheck, "", "--", "-a", "/-a")
	assert.Equal(t, exitUsage, r.code)
	assert.Equal(t, "ALLOWED /-a  (line 7: Allow: /)\n", r.stdout)
	assert.Equal(t, `robots check: "-a": neither an absolute URL (https://host/path) nor a path starting with '/'`+"\n", r.stderr)
}

func TestCheckRFCModeAlwaysAllowsRobotsTxt(t *testing.T) {
	path := writeTemp(t, "User-agent: *\nDisallow: /\n")
	url := "https://example.com/robots.txt"
	tests := []struct {
		mode string
		want string
		code int
	}{
		{"google", "DISALLOWED " + url + "  (line 2: Disallow: /)\n", exitNegative},
		{"rfc", "ALLOWED " + url + "  (/robots.txt is always allowed under RFC 9309)\n", exitOK},
		{"RFC", "ALLOWED " + url + "  (/robots.txt is always allowed under RFC 9309)\n", exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			r := invoke(runCheck, "", "-f", path, "--mode", tt.mode, url)
			assert.Equal(t, tt.code, r.code)
			assert.Equal(t, tt.want, r.stdout)
		})
	}
}

func TestCheckSpecTestRunnerInvocation(t *testing.T) {
	path := writeTemp(t, "User-agent: foo\nDisallow: /AnyValue\n")
	r := invoke(runCheck, "", "-f", path, "-a", "foo", "http://example.com/AnyValue")
	assert.Equal(t, exitNegative, r.code)
	assert.True(t, strings.HasPrefix(r.stdout, "DISALLOWED "))
}

// writeTemp writes body to a file in a temporary directory and returns its path.
func writeTemp(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "robots.txt")
	require.NoError(t, os.WriteFile(path, []byte(body), 0o644))
	return path
}
