package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
)

func TestMaxInputBytesIsWhatParseReads(t *testing.T) {
	assert.Equal(t, robots.MaxBytes, cli.MaxInputBytes)
}

// cutNote is what a command says on stderr about an input it cut.
func cutNote(cmd, name string) string {
	return fmt.Sprintf("robots %s: %s: input cut at %d bytes:", cmd, name, cli.MaxInputBytes)
}

// TestReadInputStopsOnEndlessStdin: every command reading a robots.txt
// from stdin reads one byte past the limit, says it cut the input, and
// answers.
func TestReadInputStopsOnEndlessStdin(t *testing.T) {
	tests := []struct {
		name string
		fn   runFunc
		args []string
		code int
	}{
		{"check", runCheck, []string{"-f", "-", "http://e.com/x"}, cli.ExitOK},
		{"explain", runExplain, []string{"-f", "-", "http://e.com/x"}, cli.ExitOK},
		{"lint", runLint, []string{"-"}, cli.ExitNegative},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &endless{fill: 'x'}
			r := invokeReader(tt.fn, in, tt.args...)
			assert.Equal(t, tt.code, r.Code, r.Stderr)
			assert.Equal(t, int64(cli.MaxInputBytes+1), in.n, "bytes read")
			assert.Contains(t, r.Stderr, cutNote(tt.name, "<stdin>"))
			assert.NotEmpty(t, r.Stdout)
		})
	}
}

// TestReadInputStopsOnDevZero: a file that never ends, named with -f or
// given to lint, is read up to the limit too.
func TestReadInputStopsOnDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skipf("no /dev/zero: %v", err)
	}
	tests := []struct {
		name   string
		fn     runFunc
		args   []string
		code   int
		stdout string
	}{
		{"check", runCheck, []string{"-f", "/dev/zero", "-a", "bot", "http://e.com/x"}, cli.ExitOK, "ALLOWED http://e.com/x  (no rule matched)\n"},
		{"explain", runExplain, []string{"-f", "/dev/zero", "http://e.com/x"}, cli.ExitOK, "ALLOWED http://e.com/x  (no rule matched)\n"},
		{"lint", runLint, []string{"/dev/zero"}, cli.ExitNegative, "/dev/zero:1:1: error: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := invoke(tt.fn, "", tt.args...)
			assert.Equal(t, tt.code, r.Code, r.Stderr)
			assert.True(t, strings.HasPrefix(r.Stdout, tt.stdout), r.Stdout)
			assert.Contains(t, r.Stderr, cutNote(tt.name, "/dev/zero"))
		})
	}
}

func TestReadInputCutsJustPastTheLimit(t *testing.T) {
	tests := []struct {
		size int
		cut  bool
	}{
		{0, false},
		{cli.MaxInputBytes, false},
		{cli.MaxInputBytes + 1, true},
		{3 * cli.MaxInputBytes, true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.size), func(t *testing.T) {
			body := bytes.Repeat([]byte{'#'}, tt.size)
			var stderr bytes.Buffer
			got, err := cli.ReadInput("lint", "-", bytes.NewReader(body), &stderr)
			require.NoError(t, err)
			assert.Equal(t, body[:min(tt.size, cli.MaxInputBytes+1)], got)
			assert.Equal(t, tt.cut, strings.Contains(stderr.String(), cutNote("lint", "<stdin>")), stderr.String())
		})
	}
}

// TestCheckReadsOnlyWhatParseReads: a rule past the limit is not read, as
// Google does not read it.
func TestCheckReadsOnlyWhatParseReads(t *testing.T) {
	pad := "User-agent: *\n" + strings.Repeat("#", cli.MaxInputBytes-len("User-agent: *\n"))
	r := invoke(runCheck, pad+"\nDisallow: /\n", "-f", "-", "http://e.com/x")
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.Equal(t, "ALLOWED http://e.com/x  (no rule matched)\n", r.Stdout)
	assert.Contains(t, r.Stderr, cutNote("check", "<stdin>"))
}
