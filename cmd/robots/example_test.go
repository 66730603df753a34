package main

import (
	"strings"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/cmd/robots/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExamplePrintsWhatCheckReads(t *testing.T) {
	r := invoke(run, "", "example")
	require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
	assert.Equal(t, string(web.Example), r.Stdout)
	assert.Empty(t, r.Stderr)

	// The robots.txt it prints is the one check reads without -f.
	saved := invoke(runCheck, r.Stdout, "-f", "-", "-a", "Googlebot", "https://example.com/nogooglebot/x")
	builtin := invoke(runCheck, "", "-a", "Googlebot", "https://example.com/nogooglebot/x")
	assert.Equal(t, cli.ExitNegative, builtin.Code)
	assert.Equal(t, builtin, saved)
}

// The line a verdict quotes is the line -n shows under that number.
func TestExampleNumberedShowsTheQuotedLine(t *testing.T) {
	r := invoke(run, "", "example", "-n")
	require.Equal(t, cli.ExitOK, r.Code, r.Stderr)
	assert.Contains(t, r.Stdout, "     2\tDisallow: /nogooglebot/\n")
	assert.Contains(t, r.Stdout, "    13\tAllow: /drafts/public/\n")
	check := invoke(runCheck, "", "-a", "Bingbot", "https://example.com/drafts/public/plan.pdf")
	assert.Contains(t, check.Stdout, "(line 13: Allow: /drafts/public/)")
}

func TestNumberLines(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"a\n", "     1\ta\n"},
		{"a\nb", "     1\ta\n     2\tb"},
		{"a\n\nb\n", "     1\ta\n     2\t\n     3\tb\n"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, string(numberLines([]byte(tt.in))), "%q", tt.in)
	}
}

func TestExampleUsage(t *testing.T) {
	clitest.AssertUsageErrors(t, runExample, "", []clitest.UsageCase{
		{Name: "argument", Args: []string{"robots.txt"}, Stderr: "no arguments expected"},
		{Name: "flag", Args: []string{"-x"}, Stderr: "flag provided but not defined: -x"},
	})
	r := invoke(run, "", "help")
	assert.True(t, strings.Contains(r.Stdout, "  example  print the built-in example robots.txt"), r.Stdout)
}
