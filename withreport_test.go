package robots_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/conformance"
)

// reportBodies returns the bodies of reporting.jsonl.gz and of the
// licensed corpus.
func reportBodies(t *testing.T) [][]byte {
	t.Helper()
	var bodies [][]byte
	require.NoError(t, conformance.Each("testdata/conformance/reporting.jsonl.gz", func(_ int, r *googleReport) error {
		body, err := r.Body()
		bodies = append(bodies, body)
		return err
	}))
	names, err := filepath.Glob(filepath.Join("testdata", "corpus", "files*", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for _, name := range names {
		body, err := os.ReadFile(name)
		require.NoError(t, err)
		bodies = append(bodies, body)
	}
	return bodies
}

// TestWithReport: the report a parse records with WithReport is the one
// ReportOf gives with the same options, on every body of the reporting
// conformance file and of the licensed corpus; the file is the one Parse
// gives without it.
func TestWithReport(t *testing.T) {
	for _, body := range reportBodies(t) {
		for _, opts := range [][]robots.Option{nil, {robots.WithMode(robots.RFC)}, {robots.WithMaxBytes(100)}, {robots.WithMaxBytes(-1)}} {
			r := robots.Parse(body, append(opts, robots.WithReport())...)
			require.Equal(t, robots.ReportOf(body, opts...), r.Report(), "%q", body[:min(len(body), 100)])
			plain := robots.Parse(body, opts...)
			require.Equal(t, plain.Groups(), r.Groups())
			require.Equal(t, plain.Others(), r.Others())
			require.Equal(t, plain.Lines(), r.Lines())
			require.Nil(t, plain.Report())
		}
	}
}

// TestWithReportUnderAPolicy: a status that reads no body reports the
// empty file its policy reads; a nil *Robots has no report.
func TestWithReportUnderAPolicy(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /\n")
	for _, status := range []int{404, 503, 429} {
		r := robots.FromStatus(status, body, robots.WithReport())
		assert.Equal(t, robots.ReportOf(nil), r.Report(), "%d", status)
	}
	assert.Equal(t, robots.ReportOf(body), robots.FromStatus(200, body, robots.WithReport()).Report())
	var r *robots.Robots
	assert.Nil(t, r.Report())
}

// TestWithReportIsCounted: the report is counted in MemoryBytes, at least
// its lines.
func TestWithReportIsCounted(t *testing.T) {
	body := []byte(strings.Repeat("User-agent: a\nDisallow: /x\n", 200))
	plain, reported := robots.Parse(body), robots.Parse(body, robots.WithReport())
	lines := int64(len(reported.Report().Lines))
	assert.GreaterOrEqual(t, reported.MemoryBytes()-plain.MemoryBytes(), lines*int64(reflect.TypeFor[robots.LineReport]().Size()))
}

// TestGroupsFor: GroupsFor gives Agent's groups for every agent a file of
// the licensed corpus names and for the '*' groups, and compiles nothing.
func TestGroupsFor(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("testdata", "corpus", "files", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for _, name := range names {
		body, err := os.ReadFile(name)
		require.NoError(t, err)
		r := robots.Parse(body)
		agents := [][]string{nil, {"Googlebot-Image", "Googlebot"}, {"*"}}
		for _, g := range r.Groups() {
			for _, a := range g.Agents {
				agents = append(agents, []string{a.Token}, []string{strings.ToUpper(a.Value)})
			}
		}
		before := r.MemoryBytes()
		var got [][]int
		for _, a := range agents {
			got = append(got, r.GroupsFor(a...))
		}
		require.Equal(t, before, r.MemoryBytes(), "%s: GroupsFor compiled rules", name)
		for i, a := range agents {
			require.Equal(t, r.Agent(a...).Groups(), got[i], "%s: %q", name, a)
		}
	}
	var r *robots.Robots
	assert.Empty(t, r.GroupsFor("Googlebot"))
}
