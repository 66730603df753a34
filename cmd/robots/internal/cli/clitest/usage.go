package clitest

import (
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/stretchr/testify/assert"
)

// UsageCase is a command line that is a usage error, and a part of what
// it must say on stderr.
type UsageCase struct {
	Name   string
	Args   []string
	Stderr string
}

// AssertUsageErrors runs fn on each case with stdin and checks that it
// exits with cli.ExitUsage, writes nothing to stdout and says tt.Stderr.
func AssertUsageErrors(t *testing.T, fn Func, stdin string, cases []UsageCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			r := Invoke(fn, stdin, tt.Args...)
			assert.Equal(t, cli.ExitUsage, r.Code)
			assert.Empty(t, r.Stdout)
			assert.Contains(t, r.Stderr, tt.Stderr)
		})
	}
}
