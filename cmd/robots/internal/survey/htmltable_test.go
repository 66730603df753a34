package survey

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tableReport lays out the page of a summary in which every agent is
// classed all, by the '*' groups, in each of captures captures.
func tableReport(t *testing.T, captures int, agents ...string) *surveyReport {
	t.Helper()
	s := newSurveySummary(agents)
	s.captures = captures
	for i := range s.perAgent {
		as := &s.perAgent[i]
		as.class["all"] = captures
		as.sources[sourceStar] = map[string]int{"all": captures}
		as.own["all"] = captures
	}
	return newSurveyReport(surveyConfig{}, s)
}

// breaks returns the width at which each table of r becomes a grid, by
// its id.
func breaks(r *surveyReport) map[string]int {
	out := map[string]int{}
	for _, tbl := range r.Tables {
		out[tbl.ID] = tbl.Break
	}
	return out
}

// TestSurveyTableBreak checks the width below which each table of
// figures per agent is laid out as a grid: it grows with the digits of
// the figures the table holds and with the agents' names, a name's
// widest part between hyphens up to tableNameMax, and the page's style
// switches each table at its own.
func TestSurveyTableBreak(t *testing.T) {
	small := breaks(tableReport(t, 2_000, "GPTBot"))
	large := breaks(tableReport(t, 200_000_000, "GPTBot"))
	// Nine digits where four were: a column grows by at least three
	// digits, the four having shared it with a share ("100.0%").
	digits := textWidth("000", tableFontSize, false)
	for _, id := range []string{"classes", "causes", "own"} {
		assert.GreaterOrEqual(t, float64(large[id]-small[id]), digits, "%s: five more digits in a column", id)
	}
	for _, id := range []string{"managed", "rootonly", "usage"} {
		assert.Equal(t, small[id], large[id], "%s: none of its figures grows", id)
	}

	long := breaks(tableReport(t, 2_000, "GPTBot", "LongAgentName"))
	hyphens := breaks(tableReport(t, 2_000, "GPTBot", "Long-Agent-Name"))
	longer := breaks(tableReport(t, 2_000, "GPTBot", strings.Repeat("Agent", 12)))
	longest := breaks(tableReport(t, 2_000, "GPTBot", strings.Repeat("Agent", 20)))
	for id, b := range small {
		assert.Greater(t, long[id], b, "%s: a longer name", id)
		assert.Less(t, hyphens[id], long[id], "%s: a name breaks after a hyphen", id)
		assert.Greater(t, longer[id], long[id], "%s: a longer name", id)
		assert.Equal(t, longer[id], longest[id], "%s: names past tableNameMax break", id)
	}

	r := tableReport(t, 200_000_000, "GPTBot", "CCBot")
	var page bytes.Buffer
	require.NoError(t, surveyHTMLTemplate.Execute(&page, r))
	for _, tbl := range r.Tables {
		assert.Contains(t, page.String(), fmt.Sprintf("@container (max-width: %dpx) { #%s, ", tbl.Break, tbl.ID))
		assert.Contains(t, page.String(), fmt.Sprintf(`<table id="%s" style="--cols: %d">`, tbl.ID, tbl.Cols))
	}
}

// TestHeadGroups checks the first row of a table's grouped headings: a
// heading per run of columns of one group, spanning them, and a column of
// no group on its own, its heading kept.
func TestHeadGroups(t *testing.T) {
	got := headGroups([]reportHead{{Head: "a"}, {Group: "g", Head: "b"}, {Group: "g", Head: "c"}, {Head: "d"}, {Group: "h", Head: "e"}, {Group: "g", Head: "f"}})
	assert.Equal(t, []reportHead{{Head: "a", Span: 1}, {Group: "g", Span: 2}, {Head: "d", Span: 1}, {Group: "h", Span: 1}, {Group: "g", Span: 1}}, got)
}
