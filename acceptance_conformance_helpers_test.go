package robots_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/internal/testkit/conformance"
	"github.com/fastrobots/robots/runtime"
)

// helperCase is a verdict of one of the reference's helper functions.
type helperCase struct {
	ID       string  `json:"id"`
	Function string  `json:"function"`
	Input    *string `json:"input"`
	Expected any     `json:"expected"`
}

// TestConformanceHelpers checks agent validity, URL → path and pattern
// escaping against the reference's own unit-test verdicts.
func TestConformanceHelpers(t *testing.T) {
	funcs := map[string]func(string) any{
		"IsValidUserAgentToObey": func(s string) any { return compile.ValidAgent(s) },
		"GetPathParamsQuery":     func(s string) any { return runtime.Path(s) },
		"MaybeEscapePattern":     func(s string) any { return compile.EscapePattern(s) },
	}
	n := 0
	err := conformance.Each("testdata/conformance/google-unit-helpers.jsonl", func(_ int, c *helperCase) error {
		fn, ok := funcs[c.Function]
		require.True(t, ok, "unknown function %q in %s", c.Function, c.ID)
		in := ""
		if c.Input != nil {
			in = *c.Input
		}
		assert.Equal(t, c.Expected, fn(in), "%s(%q) [%s]", c.Function, in, c.ID)
		n++
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, 34, n)
}

// parseCase holds the reference's counts for one body.
type parseCase struct {
	conformance.Case
	Expected struct {
		ValidDirectives   *int    `json:"valid_directives"`
		UnknownDirectives *int    `json:"unknown_directives"`
		LastLineSeen      *int    `json:"last_line_seen"`
		Sitemap           *string `json:"sitemap"`
	} `json:"expected"`
}

// TestConformanceParseCounts checks line counting, BOM skipping and sitemap
// extraction against the reference's directive counts.
func TestConformanceParseCounts(t *testing.T) {
	n := 0
	err := conformance.Each("testdata/conformance/google-unit-parse.jsonl", func(_ int, c *parseCase) error {
		body, err := c.Body()
		require.NoError(t, err)
		var valid, unknown, last int
		var sitemap string
		compile.Scan(string(body), compile.Google, func(tok compile.Token) {
			last = tok.Line
			switch tok.Kind {
			case compile.Unknown:
				unknown++
			case compile.Sitemap:
				sitemap += tok.Value
				valid++
			default:
				valid++
			}
		})
		want := c.Expected
		if want.ValidDirectives != nil {
			assert.Equal(t, *want.ValidDirectives, valid, "valid directives [%s]", c.ID)
		}
		if want.UnknownDirectives != nil {
			assert.Equal(t, *want.UnknownDirectives, unknown, "unknown directives [%s]", c.ID)
		}
		if want.LastLineSeen != nil {
			assert.Equal(t, *want.LastLineSeen, last, "last line seen [%s]", c.ID)
		}
		if want.Sitemap != nil {
			assert.Equal(t, *want.Sitemap, sitemap, "sitemap [%s]", c.ID)
		}
		n++
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, 12, n)
}
