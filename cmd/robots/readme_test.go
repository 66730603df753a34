package main

import (
	"os"
	"strings"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The robots.txt and the URL list README.md's check and lint commands name
// are in the repository, and every URL of the list gets a verdict,
// allowed and disallowed ones among them.
func TestReadmeCheckFiles(t *testing.T) {
	const robotsTxt, urls = "../../testdata/corpus/files/02289.txt", "../../testdata/urls.txt"
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	for _, f := range []string{robotsTxt, urls} {
		assert.Contains(t, string(readme), strings.TrimPrefix(f, "../../"), "README.md no longer names %s", f)
	}
	list, err := os.ReadFile(urls)
	require.NoError(t, err)
	n := strings.Count(string(list), "\n")

	r := invoke(runCheck, "", "-f", robotsTxt, "-a", "Googlebot", "--urls", urls)
	assert.Equal(t, cli.ExitNegative, r.Code, r.Stderr)
	assert.Empty(t, r.Stderr)
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	require.Len(t, lines, n)
	var allowed, disallowed int
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "ALLOWED "):
			allowed++
		case strings.HasPrefix(l, "DISALLOWED "):
			disallowed++
		}
	}
	assert.Positive(t, allowed, r.Stdout)
	assert.Positive(t, disallowed, r.Stdout)
	assert.Contains(t, r.Stdout, "ALLOWED https://ew.com/wp-admin/admin-ajax.php  (line 39: Allow: /wp-admin/admin-ajax.php)\n")

	lint := invoke(runLint, "", robotsTxt)
	assert.NotEqual(t, cli.ExitUsage, lint.Code, "README's lint command: %s", lint.Stderr)
}
