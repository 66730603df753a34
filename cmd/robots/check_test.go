package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/cmd/robots/web"
	"github.com/fastrobots/robots/internal/testkit/memstat"
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
			assert.Equal(t, tt.want+"\n", r.Stdout)
			wantCode := cli.ExitOK
			if strings.HasPrefix(tt.want, "DISALLOWED") {
				wantCode = cli.ExitNegative
			}
			assert.Equal(t, wantCode, r.Code)
			assert.Empty(t, r.Stderr)
		})
	}
}

func TestCheckExampleHasSitemap(t *testing.T) {
	assert.Equal(t, []string{"https://www.example.com/sitemap.xml"}, robots.Parse(web.Example).Sitemaps())
}

func TestCheckExitCodeIsOneWhenAnyURLIsDisallowed(t *testing.T) {
	tests := []struct {
		name string
		urls []string
		want int
	}{
		{"all allowed", []string{"https://example.com/", "https://example.com/a.html"}, cli.ExitOK},
		{"one disallowed", []string{"https://example.com/", "https://example.com/a.pdf"}, cli.ExitNegative},
		{"all disallowed", []string{"https://example.com/a.pdf", "https://example.com/drafts/"}, cli.ExitNegative},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := invoke(runCheck, "", tt.urls...)
			assert.Equal(t, tt.want, r.Code)
			assert.Len(t, strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n"), len(tt.urls))
		})
	}
}

func TestCheckUsageErrorsExitTwo(t *testing.T) {
	clitest.AssertUsageErrors(t, runCheck, "", []clitest.UsageCase{
		{Name: "no URL", Args: nil, Stderr: "no URL given"},
		{Name: "only flags", Args: []string{"-a", "Googlebot"}, Stderr: "no URL given"},
		{Name: "unknown flag", Args: []string{"-x", "https://example.com/"}, Stderr: "flag provided but not defined: -x"},
		{Name: "flag without value", Args: []string{"https://example.com/", "-a"}, Stderr: "flag needs an argument: -a"},
		{Name: "missing file", Args: []string{"-f", filepath.Join(t.TempDir(), "nope.txt"), "https://example.com/"}, Stderr: "nope.txt"},
		{Name: "bad mode", Args: []string{"--mode", "lenient", "https://example.com/"}, Stderr: `unknown mode "lenient"`},
		{Name: "robots.txt and URLs both on stdin", Args: []string{"-f", "-", "-"}, Stderr: "-f - and the URL list cannot both be read from stdin"},
		{Name: "robots.txt and --urls both on stdin", Args: []string{"-f", "-", "--urls", "-"}, Stderr: "cannot both be read from stdin"},
		{Name: "URL arguments and --urls", Args: []string{"--urls", "-", "https://example.com/"}, Stderr: "URLs come from arguments or from --urls, not both"},
		{Name: "missing URL list", Args: []string{"--urls", filepath.Join(t.TempDir(), "urls.txt")}, Stderr: "urls.txt"},
		// An unset variable in a script: not the example in its place.
		{Name: "an empty -f", Args: []string{"-f", "", "https://example.com/"}, Stderr: "-f was given an empty file name (leave -f out to use the example)"},
		{Name: "an empty -f=", Args: []string{"-f=", "https://example.com/"}, Stderr: "-f was given an empty file name"},
		{Name: "an empty -f after the URL", Args: []string{"https://example.com/", "-f", ""}, Stderr: "-f was given an empty file name"},
	})
}

func TestCheckAgentsAreAnOrderedFallbackList(t *testing.T) {
	const url = "https://example.com/nogooglebot/x"
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"unnamed specific agent alone falls to star", []string{"-a", "Googlebot-Image"}, cli.ExitOK},
		{"unnamed specific agent falls back to the next", []string{"-a", "Googlebot-Image", "-a", "Googlebot"}, cli.ExitNegative},
		{"first named agent decides", []string{"-a", "Bingbot", "-a", "Googlebot", "-a", "Googlebot-Image"}, cli.ExitNegative},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, invoke(runCheck, "", append(tt.args, url)...).Code)
		})
	}
}

func TestCheckMostSpecificNamedAgentWins(t *testing.T) {
	path := writeTemp(t, "User-agent: Googlebot\nDisallow: /\n\nUser-agent: Googlebot-Image\nDisallow: /private/\n")
	url := "https://example.com/photos/1.jpg"
	specific := invoke(runCheck, "", "-f", path, "-a", "Googlebot-Image", "-a", "Googlebot", url)
	assert.Equal(t, cli.ExitOK, specific.Code)
	general := invoke(runCheck, "", "-f", path, "-a", "Googlebot", url)
	assert.Equal(t, "DISALLOWED "+url+"  (line 2: Disallow: /)\n", general.Stdout)
}

func TestCheckReadsFileGivenWithF(t *testing.T) {
	path := writeTemp(t, "User-agent: FooBot\nAllow: /public\nDisallow: /\n")
	r := invoke(runCheck, "", "-f", path, "-a", "FooBot", "http://example.com/public/a", "http://example.com/x")
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.Equal(t, "ALLOWED http://example.com/public/a  (line 2: Allow: /public)\n"+
		"DISALLOWED http://example.com/x  (line 3: Disallow: /)\n", r.Stdout)
}

func TestCheckReadsStdinForDashF(t *testing.T) {
	r := invoke(runCheck, "User-agent: *\nDisallow: /tmp/\n", "-f", "-", "https://example.com/tmp/a")
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.Equal(t, "DISALLOWED https://example.com/tmp/a  (line 2: Disallow: /tmp/)\n", r.Stdout)
}

func TestCheckAcceptsFlagsAfterURLs(t *testing.T) {
	r := invoke(runCheck, "", "https://example.com/nogooglebot/x", "-a", "Googlebot")
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.Contains(t, r.Stdout, "line 2: Disallow: /nogooglebot/")
}

// TestCheckTreatsArgumentsAfterDoubleDashAsURLs: after "--", "-a" is a URL
// (which is not one: it is answered for the path "/", with a warning), not
// the flag that would lack its value.
func TestCheckTreatsArgumentsAfterDoubleDashAsURLs(t *testing.T) {
	r := invoke(runCheck, "", "--", "-a", "/-a")
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.Equal(t, "ALLOWED -a  (line 7: Allow: /)\nALLOWED /-a  (line 7: Allow: /)\n", r.Stdout)
	assert.Equal(t, `robots check: warning: "-a": neither an absolute URL (https://host/path) nor a path starting with '/'; answered for the path Google's reference reads in it, "/"`+"\n", r.Stderr)
}

func TestCheckRFCModeAlwaysAllowsRobotsTxt(t *testing.T) {
	path := writeTemp(t, "User-agent: *\nDisallow: /\n")
	url := "https://example.com/robots.txt"
	tests := []struct {
		mode string
		want string
		code int
	}{
		{"google", "DISALLOWED " + url + "  (line 2: Disallow: /)\n", cli.ExitNegative},
		{"rfc", "ALLOWED " + url + "  (/robots.txt is always allowed under RFC 9309)\n", cli.ExitOK},
		{"RFC", "ALLOWED " + url + "  (/robots.txt is always allowed under RFC 9309)\n", cli.ExitOK},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			r := invoke(runCheck, "", "-f", path, "--mode", tt.mode, url)
			assert.Equal(t, tt.code, r.Code)
			assert.Equal(t, tt.want, r.Stdout)
		})
	}
}

func TestCheckSpecTestRunnerInvocation(t *testing.T) {
	path := writeTemp(t, "User-agent: foo\nDisallow: /AnyValue\n")
	r := invoke(runCheck, "", "-f", path, "-a", "foo", "http://example.com/AnyValue")
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.True(t, strings.HasPrefix(r.Stdout, "DISALLOWED "))
}

// writeTemp writes body to a file in a temporary directory and returns its path.
func writeTemp(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "robots.txt")
	require.NoError(t, os.WriteFile(path, []byte(body), 0o644))
	return path
}

// TestCheckAnswersStringsThatAreNotURLs: a string that is not a URL gets
// the verdict Google's reference gives it, for the path read in it, and a
// warning; a NUL is the one thing refused, and the run goes on.
func TestCheckAnswersStringsThatAreNotURLs(t *testing.T) {
	r := invoke(runCheck, "", "https://example.com/a.pdf", "example.com/page.pdf", "http://e.com/%zz", "/drafts/public/x", "mailto:x")
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.Equal(t, "DISALLOWED https://example.com/a.pdf  (line 9: Disallow: /*.pdf$)\n"+
		"DISALLOWED example.com/page.pdf  (line 9: Disallow: /*.pdf$)\n"+
		"ALLOWED http://e.com/%zz  (line 7: Allow: /)\n"+
		"ALLOWED /drafts/public/x  (line 13: Allow: /drafts/public/)\n"+
		"ALLOWED mailto:x  (line 7: Allow: /)\n", r.Stdout)
	assert.Equal(t, `robots check: warning: "example.com/page.pdf": neither an absolute URL (https://host/path) nor a path starting with '/'; answered for the path Google's reference reads in it, "/page.pdf"
robots check: warning: "http://e.com/%zz": not a URL net/url reads (invalid URL escape "%zz"); answered for the path Google's reference reads in it, "/%zz"
robots check: warning: "mailto:x": a mailto URL without a host; answered for the path Google's reference reads in it, "/"
`, r.Stderr)

	r = invoke(runCheck, "/a\x00b\n/x\n", "-")
	assert.Equal(t, cli.ExitUsage, r.Code, "a URL refused wins over the others")
	assert.Equal(t, "ALLOWED /x  (line 7: Allow: /)\n", r.Stdout)
	assert.Equal(t, "robots check: line 1: \"/a\\x00b\": holds a NUL byte\n", r.Stderr)
}

// TestCheckWarnsOfAgentsThatAreNotTokens: Googlebot/2.1 matches no group,
// as in Google's reference, and the run says so.
func TestCheckWarnsOfAgentsThatAreNotTokens(t *testing.T) {
	r := invoke(runCheck, "", "-a", "Googlebot/2.1", "https://example.com/nogooglebot/x")
	assert.Equal(t, cli.ExitOK, r.Code, "the '*' groups apply")
	assert.Equal(t, `robots check: warning: agent "Googlebot/2.1" is not a product token: Google's reference matches no group with it by itself; the token it reads in such a User-Agent is "Googlebot"`+"\n", r.Stderr)
	r = invoke(runCheck, "", "-a", "Googlebot", "https://example.com/nogooglebot/x")
	assert.Empty(t, r.Stderr)
}

func TestCheckReadsURLsFromStdin(t *testing.T) {
	in := "https://example.com/a.pdf\n\n/drafts/public/x\r\nexample.com/page\n/x"
	r := invoke(runCheck, in, "-")
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.Equal(t, "DISALLOWED https://example.com/a.pdf  (line 9: Disallow: /*.pdf$)\n"+
		"ALLOWED /drafts/public/x  (line 13: Allow: /drafts/public/)\n"+
		"ALLOWED example.com/page  (line 7: Allow: /)\n"+
		"ALLOWED /x  (line 7: Allow: /)\n", r.Stdout)
	assert.Contains(t, r.Stderr, `robots check: warning: "example.com/page": neither`)

	r = invoke(runCheck, "/a.pdf\n", "--urls", "-", "-a", "Googlebot")
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.Equal(t, "ALLOWED /a.pdf  (no rule matched)\n", r.Stdout)
}

func TestCheckReadsURLsFromFile(t *testing.T) {
	urls := writeTemp(t, "/nogooglebot/a\n/b\n")
	rules := filepath.Join(t.TempDir(), "rules.txt")
	require.NoError(t, os.WriteFile(rules, []byte("User-agent: *\nDisallow: /b\n"), 0o644))
	r := invoke(runCheck, "", "-a", "Googlebot", "--urls", urls)
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.Equal(t, "DISALLOWED /nogooglebot/a  (line 2: Disallow: /nogooglebot/)\nALLOWED /b  (no rule matched)\n", r.Stdout)

	r = invoke(runCheck, "User-agent: *\nDisallow: /b\n", "-f", "-", "--urls", urls)
	assert.Equal(t, cli.ExitNegative, r.Code, "the robots.txt on stdin, the URLs from a file")
	assert.Equal(t, "ALLOWED /nogooglebot/a  (no rule matched)\nDISALLOWED /b  (line 2: Disallow: /b)\n", r.Stdout)

	r = invoke(runCheck, "/b\n", "-f", rules, "-")
	assert.Equal(t, cli.ExitNegative, r.Code, "the robots.txt from a file, the URLs on stdin")
	assert.Equal(t, "DISALLOWED /b  (line 2: Disallow: /b)\n", r.Stdout)
}

// checkURLsAtScale is how many URLs TestCheckStreamsURLList checks.
const checkURLsAtScale = 1_000_000

// TestCheckStreamsURLList checks a million URLs from a generated reader and
// measures the live heap when the reader reaches its end: a command that
// kept the URLs, or its answers, would hold tens of MiB then.
func TestCheckStreamsURLList(t *testing.T) {
	if testing.Short() {
		t.Skip("a million URLs")
	}
	before := memstat.Live()
	var atEnd int64
	in := &lineGen{n: checkURLsAtScale, line: func(i int) string {
		if i%2 == 0 {
			return "https://example.com/drafts/" + itoa(i)
		}
		return "https://example.com/drafts/public/" + itoa(i)
	}, atEnd: func() { atEnd = memstat.Live() }}
	var out lineCounter
	var stderr strings.Builder
	code := runCheck([]string{"-"}, in, &out, &stderr)
	assert.Equal(t, cli.ExitNegative, code, stderr.String())
	assert.Equal(t, checkURLsAtScale, out.lines)
	assert.Equal(t, "ALLOWED https://example.com/drafts/public/999999  (line 13: Allow: /drafts/public/)", string(out.last))
	growth := atEnd - before
	t.Logf("live heap at the end of the list: %d KiB more than before", growth>>10)
	assert.Less(t, growth, int64(8<<20), "live heap growth while checking a URL list")
}

// TestCheckAnswersAsTheListArrives: with URLs fed one at a time through a
// pipe, each answer is written before the next URL is sent.
func TestCheckAnswersAsTheListArrives(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- runCheck([]string{"-"}, inR, outW, io.Discard)
		outW.Close()
	}()
	answers := bufio.NewReader(outR)
	for _, u := range []string{"/a.pdf", "/drafts/x", "/"} {
		_, err := io.WriteString(inW, u+"\n")
		require.NoError(t, err)
		line, err := readLineWithin(answers, 10*time.Second)
		require.NoError(t, err, "no answer for %s before the next URL", u)
		assert.Contains(t, line, " "+u+"  (")
	}
	inW.Close()
	assert.Equal(t, cli.ExitNegative, <-done)
}

// readLineWithin reads a line from r, failing after d: a guard against a
// hang, not a measure of time.
func readLineWithin(r *bufio.Reader, d time.Duration) (string, error) {
	type res struct {
		s   string
		err error
	}
	c := make(chan res, 1)
	go func() {
		s, err := r.ReadString('\n')
		c <- res{s, err}
	}()
	select {
	case x := <-c:
		return x.s, x.err
	case <-time.After(d):
		return "", fmt.Errorf("no line within %v", d)
	}
}

func TestCheckJSON(t *testing.T) {
	path := writeTemp(t, "User-agent: *\nDisallow: /p\xff\nAllow: /public\n")
	r := invoke(runCheck, "", "-f", path, "--json", "http://e.com/p%FF/x", "/public/\xfe", "/other", "bad url")
	assert.Equal(t, cli.ExitNegative, r.Code)
	lines := outputLines(r.Stdout)
	require.Len(t, lines, 4)
	assert.Equal(t, `{"url":"/other","allowed":true,"line":0,"rule":""}`, lines[2])
	assert.Equal(t, `{"url":"bad url","allowed":true,"line":0,"rule":"","warning":"neither an absolute URL (https://host/path) nor a path starting with '/'; answered for the path Google's reference reads in it, \"/\""}`, lines[3])
	assert.Contains(t, r.Stderr, `robots check: warning: "bad url": neither`)

	type verdict struct {
		URL     string
		URLB64  string `json:"url_b64"`
		Allowed bool
		Line    int
		Rule    string
		RuleB64 string `json:"rule_b64"`
	}
	var disallowed, allowed verdict
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &disallowed))
	assert.Equal(t, verdict{URL: "http://e.com/p%FF/x", Line: 2, Rule: "Disallow: /p\uFFFD", RuleB64: b64("Disallow: /p\xff")}, disallowed,
		"JSON shows a byte that is not UTF-8 as U+FFFD; rule_b64 keeps it")
	require.NoError(t, json.Unmarshal([]byte(lines[1]), &allowed))
	assert.Equal(t, verdict{URL: "/public/\uFFFD", URLB64: b64("/public/\xfe"), Allowed: true, Line: 3, Rule: "Allow: /public"}, allowed)
	assert.Equal(t, "/public/\xfe", unb64(t, allowed.URLB64))
}

func TestCheckJSONMarksImplicitAllow(t *testing.T) {
	r := invoke(runCheck, "User-agent: *\nDisallow: /\n", "-f", "-", "--mode", "rfc", "--json", "/robots.txt")
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.Equal(t, `{"url":"/robots.txt","allowed":true,"line":0,"rule":"","implicit":true}`+"\n", r.Stdout)
}

// unb64 decodes a base64 field.
func unb64(t *testing.T, s string) string {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	require.NoError(t, err)
	return string(b)
}

// TestCheckNamesTheEmptyRule checks what check says when only an empty
// rule matches: its line, that it decides nothing, and, with --json, the
// line with "undecided"; and that the empty URL is the path /.
func TestCheckNamesTheEmptyRule(t *testing.T) {
	path := writeTemp(t, "User-agent: *\nDisallow:\nDisallow: /cart/\n")
	r := invoke(runCheck, "", "-f", path, "/shoes", "/cart/1")
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.Equal(t, "ALLOWED /shoes  (no rule decided: line 2 (Disallow:) is empty, matches every path and decides nothing)\n"+
		"DISALLOWED /cart/1  (line 3: Disallow: /cart/)\n", r.Stdout)
	r = invoke(runCheck, "", "-f", path, "--json", "/shoes", "")
	assert.Equal(t, cli.ExitOK, r.Code, r.Stderr)
	assert.Equal(t, `{"url":"/shoes","allowed":true,"line":2,"rule":"Disallow:","undecided":true}`+"\n"+
		`{"url":"","allowed":true,"line":2,"rule":"Disallow:","undecided":true}`+"\n", r.Stdout)
}
