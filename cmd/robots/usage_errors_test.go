package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/stretchr/testify/assert"
)

// TestUsageErrorIsOneLine: a usage error says what is wrong and where the
// help is, in two lines, for every command; the whole text would bury it.
func TestUsageErrorIsOneLine(t *testing.T) {
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			r := invoke(run, "", c.name, "--no-such-flag")
			assert.Equal(t, cli.ExitUsage, r.Code)
			assert.Equal(t, "flag provided but not defined: -no-such-flag\nsee robots help "+c.name+"\n", r.Stderr)
			assert.Empty(t, r.Stdout)
		})
	}
	r := invoke(run, "", "version", "now")
	assert.Equal(t, "robots version: no arguments expected\nsee robots help version\n", r.Stderr)
	r = invoke(run, "", "frobnicate")
	assert.Equal(t, cli.ExitUsage, r.Code)
	assert.Equal(t, "robots: unknown command \"frobnicate\"\nsee robots help\n", r.Stderr)
}

// TestHelpSpellsFlagsAsSynopses: robots help NAME lists every flag, a
// one-letter flag with one dash and a longer one with two, as the
// synopsis line writes them, and not the help flags themselves.
func TestHelpSpellsFlagsAsSynopses(t *testing.T) {
	listed := regexp.MustCompile(`(?m)^  (-+)(\S+)`)
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			r := invoke(run, "", "help", c.name)
			assert.Equal(t, cli.ExitOK, r.Code)
			assert.True(t, strings.HasPrefix(r.Stdout, "Usage: robots "+c.name), r.Stdout)
			for _, m := range listed.FindAllStringSubmatch(r.Stdout, -1) {
				if strings.HasPrefix(m[2], "-") || strings.ContainsAny(m[2], "\"{") {
					continue // an example line of the text, not a flag
				}
				want := "--"
				if len(m[2]) == 1 {
					want = "-"
				}
				assert.Equal(t, want, m[1], "flag %s%s", m[1], m[2])
				assert.NotContains(t, []string{"h", "help"}, m[2])
			}
		})
	}
}
