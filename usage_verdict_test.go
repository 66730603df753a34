package robots_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/conformance"
)

// usageLines are inserted into the conformance files' bodies: Google's
// reference lists both keys among the tags it does not support, which
// neither start nor split a group, so no verdict may change.
const usageLines = "Content-Usage: train-ai=n\nContent-Signal: search=yes, ai-train=no\n"

// usagePlaces names where withUsageLines inserts usageLines.
var usagePlaces = []string{"start", "after-user-agent", "after-rule", "end"}

// withUsageLines returns body with usageLines inserted at place: before
// the first line (after a byte order mark), after every user-agent line (between the user-agent
// lines of a group, or between them and the rules), after every allow or
// disallow line, or after the last line.
func withUsageLines(body, place string) string {
	switch place {
	case "start": // after a byte order mark, which only counts first
		bom := 0
		for bom < len(body) && bom < 3 && body[bom] == "\xef\xbb\xbf"[bom] {
			bom++
		}
		return body[:bom] + usageLines + body[bom:]
	case "end":
		if body != "" && !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		return body + usageLines
	}
	lines := strings.SplitAfter(body, "\n")
	var b strings.Builder
	for _, line := range lines {
		b.WriteString(line)
		if strings.HasSuffix(line, "\n") && insertAfter(line, place) {
			b.WriteString(usageLines)
		}
	}
	return b.String()
}

// insertAfter reports whether line is of the kind place inserts after.
func insertAfter(line, place string) bool {
	key, _, ok := strings.Cut(strings.ToLower(strings.TrimSpace(line)), ":")
	if !ok {
		return false
	}
	key = strings.TrimSpace(key)
	if place == "after-user-agent" {
		return key == "user-agent"
	}
	return key == "allow" || key == "disallow"
}

// TestUsageLinesChangeNoVerdict inserts Content-Usage and Content-Signal
// lines at every place of usagePlaces into every case of the conformance
// files, and checks the verdict of each mode is the one it gives without
// them, through Allowed and through Usage.
func TestUsageLinesChangeNoVerdict(t *testing.T) {
	for _, path := range []string{"testdata/conformance/spec-test.jsonl", "testdata/conformance/google-unit.jsonl"} {
		n := 0
		err := conformance.Each(path, func(line int, c *conformance.Case) error {
			body, err := c.Body()
			if err != nil {
				return err
			}
			n++
			for _, mode := range []robots.Mode{robots.Google, robots.RFC} {
				want := robots.Parse(body, robots.WithMode(mode)).Agent(c.UserAgent).Allowed(c.URL)
				for _, place := range usagePlaces {
					mixed := withUsageLines(string(body), place)
					bot := robots.Parse([]byte(mixed), robots.WithMode(mode)).Agent(c.UserAgent)
					if got := bot.Allowed(c.URL); got != want {
						t.Errorf("%s:%d %v, lines %s: agent %q url %q: allowed=%v, %v without them\n%q",
							path, line, mode, place, c.UserAgent, c.URL, got, want, mixed)
					}
					if got := bot.Usage(c.URL).Allowed; got != want {
						t.Errorf("%s:%d %v, lines %s: agent %q url %q: Usage.Allowed=%v, Allowed %v",
							path, line, mode, place, c.UserAgent, c.URL, got, want)
					}
				}
			}
			return nil
		})
		require.NoError(t, err)
		require.Greater(t, n, 100, path)
	}
}

// TestWithUsageLines checks the insertion places on one body.
func TestWithUsageLines(t *testing.T) {
	body := "user-agent: a\nuser-agent: b\ndisallow: /x\n"
	u := usageLines
	for place, want := range map[string]string{
		"start":            u + body,
		"end":              body + u,
		"after-user-agent": "user-agent: a\n" + u + "user-agent: b\n" + u + "disallow: /x\n",
		"after-rule":       body + u,
	} {
		if got := withUsageLines(body, place); got != want {
			t.Errorf("%s: got %q, want %q", place, got, want)
		}
	}
	if got, want := withUsageLines("\xef\xbb\xbf"+body, "start"), "\xef\xbb\xbf"+u+body; got != want {
		t.Errorf("start after a byte order mark: got %q, want %q", got, want)
	}
}
