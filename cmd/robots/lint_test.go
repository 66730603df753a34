package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const lintBody = "User-agent: Googlebot/2.1\n" + // warning: agent-token-cut
	"Disallow: private/\n" + // error: pattern-no-slash
	"Crawl-delay: 5\n" // warning: ignored-by-google

func TestLintPrintsFindingsAndExitsOneOnError(t *testing.T) {
	path := writeTemp(t, lintBody)
	r := invoke(runLint, "", path)
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.Empty(t, r.Stderr)
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	require.Len(t, lines, 3)
	assert.Equal(t, path+`:1:22: warning: Google reads "Googlebot/2.1" as "Googlebot": an agent is read up to its first byte that is not a letter, '-' or '_' [agent-token-cut]`, lines[0])
	assert.True(t, strings.HasPrefix(lines[1], path+":2:11: error: "), lines[1])
	assert.True(t, strings.HasSuffix(lines[1], " [pattern-no-slash]"), lines[1])
	assert.True(t, strings.HasPrefix(lines[2], path+":3:1: warning: Google ignores Crawl-delay"), lines[2])
}

func TestLintExitCodes(t *testing.T) {
	tests := []struct {
		name string
		body string
		code int
	}{
		{"clean", "User-agent: *\nDisallow: /tmp/\n", cli.ExitOK},
		{"warnings only", "User-agent: *\nDisallow: /tmp*\n", cli.ExitOK},
		{"an error", "User-agent: *\nDisallow: tmp\n", cli.ExitNegative},
		{"empty", "", cli.ExitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := invoke(runLint, tt.body, "-")
			assert.Equal(t, tt.code, r.Code, r.Stdout)
		})
	}
}

func TestLintReadsStdinForDash(t *testing.T) {
	r := invoke(runLint, "User-agent: *\nDisallow /x\n", "-")
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.Equal(t, `<stdin>:2:9: warning: no colon after "Disallow": Google reads the line as "Disallow: /x", RFC 9309 and other crawlers ignore it [missing-colon]`+"\n", r.Stdout)
}

func TestLintJSON(t *testing.T) {
	path := writeTemp(t, lintBody)
	r := invoke(runLint, "", "--json", path)
	assert.Equal(t, cli.ExitNegative, r.Code)
	var got []struct {
		File     string
		Line     int
		Column   int
		Severity string
		Code     string
		Message  string
	}
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &got))
	require.Len(t, got, 3)
	assert.Equal(t, path, got[1].File)
	assert.Equal(t, 2, got[1].Line)
	assert.Equal(t, 11, got[1].Column)
	assert.Equal(t, "error", got[1].Severity)
	assert.Equal(t, "pattern-no-slash", got[1].Code)
	assert.NotEmpty(t, got[1].Message)

	clean := invoke(runLint, "User-agent: *\nDisallow:\n", "--json", "-")
	assert.Equal(t, cli.ExitOK, clean.Code)
	assert.Equal(t, "[]\n", clean.Stdout)
}

func TestLintSeveralFiles(t *testing.T) {
	clean := writeTemp(t, "User-agent: *\nDisallow:\n")
	bad := filepath.Join(t.TempDir(), "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("Disallow: /x\n"), 0o644))
	r := invoke(runLint, "", clean, bad)
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.Equal(t, bad+":1:1: error: Disallow before any User-agent line belongs to no group and is ignored [rule-outside-group]\n", r.Stdout)
}

func TestLintUsageErrorsExitTwo(t *testing.T) {
	clitest.AssertUsageErrors(t, runLint, "", []clitest.UsageCase{
		{Name: "no file", Args: nil, Stderr: "no file given"},
		{Name: "missing file", Args: []string{filepath.Join(t.TempDir(), "nope.txt")}, Stderr: "nope.txt"},
		{Name: "unknown flag", Args: []string{"-x", "-"}, Stderr: "flag provided but not defined: -x"},
		{Name: "a directory", Args: []string{t.TempDir()}, Stderr: "is a directory"},
	})
}

func TestLintEveryDiagnosticFile(t *testing.T) {
	r := invoke(runLint, "", "../../testdata/lint/every.txt")
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.Len(t, strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n"), 44)
}

// TestLintNotesExitZero: a file whose only findings are notes (a group
// naming a crawler that may not follow robots.txt, an LLM-Policy line)
// prints them, severity "note", and exits 0, in text and in JSON.
func TestLintNotesExitZero(t *testing.T) {
	body := "User-agent: ChatGPT-User\nDisallow: /\n\nLLM-Policy: /llms.txt\n"
	r := invoke(runLint, body, "-")
	assert.Equal(t, cli.ExitOK, r.Code)
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	require.Len(t, lines, 2, r.Stdout)
	assert.True(t, strings.HasPrefix(lines[0], "<stdin>:1:13: note: ChatGPT-User (OpenAI, user-triggered fetch): OpenAI says it may not follow robots.txt"), lines[0])
	assert.True(t, strings.HasSuffix(lines[0], "[crawler-ignores-robots]"), lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "<stdin>:4:1: note: LLM-Policy points AI crawlers to a policy document"), lines[1])
	j := invoke(runLint, body, "--json", "-")
	assert.Equal(t, cli.ExitOK, j.Code)
	var got []map[string]any
	require.NoError(t, json.Unmarshal([]byte(j.Stdout), &got))
	require.Len(t, got, 2)
	assert.Equal(t, "note", got[0]["severity"])
	assert.Equal(t, "llm-policy", got[1]["code"])
}

// TestLintGolden checks the text and JSON output on testdata/lint/sample.txt
// against the golden files beside it (the README shows the text). Paths
// are shown from the repository's root, as the README runs the command.
func TestLintGolden(t *testing.T) {
	tests := []struct {
		golden string
		args   []string
	}{
		{"sample.golden", nil},
		{"sample.json.golden", []string{"--json"}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("../../testdata/lint", tt.golden))
			require.NoError(t, err)
			r := invoke(runLint, "", append(tt.args, "../../testdata/lint/sample.txt")...)
			assert.Equal(t, cli.ExitNegative, r.Code)
			assert.Equal(t, string(want), strings.ReplaceAll(r.Stdout, "../../testdata/", "testdata/"))
		})
	}
}

// TestLintLongFileSaysItsSize checks that the truncated finding of a file
// longer than lint reads gives the file's true size and how much was
// read, and that of a stream, whose size is not known, says so.
func TestLintLongFileSaysItsSize(t *testing.T) {
	const size = 760014
	body := "User-agent: *\n" + strings.Repeat("Disallow: /a-rule-line\n", (size-14)/23)
	body += strings.Repeat("#", size-len(body))
	require.Len(t, body, size)
	tests := []struct {
		name  string
		run   func() result
		wants string
	}{
		{"file", func() result { return invoke(runLint, "", writeTemp(t, body)) }, "the file is 760014 bytes (lint read the first 512001)"},
		{"stream", func() result { return invoke(runLint, body, "-") }, "the file is more than 512000 bytes (lint read the first 512001)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.run()
			var found []string
			for _, l := range strings.Split(r.Stdout, "\n") {
				if strings.HasSuffix(l, "[truncated]") {
					found = append(found, l)
				}
			}
			require.Len(t, found, 1, r.Stdout)
			assert.Contains(t, found[0], tt.wants+"; Google reads the first 512000 (500 KiB) and ignores everything from here")
		})
	}
}
