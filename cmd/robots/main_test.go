package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// result is what one in-process run of a command produced.
type result struct {
	code   int
	stdout string
	stderr string
}

// invoke runs fn with args and stdin, capturing its output.
func invoke(fn func([]string, io.Reader, io.Writer, io.Writer) int, stdin string, args ...string) result {
	var out, errOut bytes.Buffer
	code := fn(args, strings.NewReader(stdin), &out, &errOut)
	return result{code, out.String(), errOut.String()}
}

func TestRunWithoutArgumentsPrintsUsageAndFails(t *testing.T) {
	r := invoke(run, "")
	assert.Equal(t, exitUsage, r.code)
	assert.Empty(t, r.stdout)
	assert.Contains(t, r.stderr, "Usage:")
}

func TestRunHelpListsEveryCommand(t *testing.T) {
	r := invoke(run, "", "help")
	assert.Equal(t, exitOK, r.code)
	for _, c := range commands {
		assert.Contains(t, r.stdout, "  "+c.name+" ")
	}
	assert.Contains(t, r.stdout, "help")
}

func TestRunHelpCommandPrintsItsFlags(t *testing.T) {
	r := invoke(run, "", "help", "check")
	assert.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "Usage: robots check")
	assert.Contains(t, r.stdout, "-a agent")
}

func TestRunUnknownCommandIsUsageError(t *testing.T) {
	for _, args := range [][]string{{"frobnicate"}, {"help", "frobnicate"}} {
		r := invoke(run, "", args...)
		assert.Equal(t, exitUsage, r.code, args)
		assert.Contains(t, r.stderr, `unknown command "frobnicate"`, args)
	}
}

func TestRunDispatchesToCheck(t *testing.T) {
	r := invoke(run, "", "check", "-a", "Googlebot", "https://example.com/nogooglebot/x")
	assert.Equal(t, exitNegative, r.code)
	assert.Equal(t, "DISALLOWED https://example.com/nogooglebot/x  (line 2: Disallow: /nogooglebot/)\n", r.stdout)
}
