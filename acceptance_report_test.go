package robots_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/conformance"
)

// googleReport is a line of reporting.jsonl.gz: Google's report of a body
// (RobotsParsingReporter), given as its bytes or as a file of the corpus.
type googleReport struct {
	conformance.Case
	Report struct {
		LastLine int      `json:"last_line"`
		Valid    int      `json:"valid"`
		Unused   int      `json:"unused"`
		Lines    [][9]int `json:"lines"`
	} `json:"report"`
}

// reportRow is a LineReport in the file's form: [line, tag, typo, empty,
// has_comment, is_comment, has_directive, too_long, missing_colon].
func reportRow(l robots.LineReport) [9]int {
	b := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	return [9]int{l.Line, int(l.Tag), b(l.Typo), b(l.Empty), b(l.HasComment), b(l.Comment), b(l.HasDirective), b(l.TooLong), b(l.MissingColon)}
}

// checkReport compares ReportOf(body) with Google's report, and says
// where the first line differs.
func checkReport(t *testing.T, id string, body []byte, want googleReport) bool {
	t.Helper()
	got := robots.ReportOf(body)
	var diff []string
	if got.LastLine != want.Report.LastLine || got.Valid != want.Report.Valid || got.Unused != want.Report.Unused {
		diff = append(diff, fmt.Sprintf("last_line, valid, unused = %d, %d, %d; Google: %d, %d, %d",
			got.LastLine, got.Valid, got.Unused, want.Report.LastLine, want.Report.Valid, want.Report.Unused))
	}
	if len(got.Lines) != len(want.Report.Lines) {
		diff = append(diff, fmt.Sprintf("%d lines; Google: %d", len(got.Lines), len(want.Report.Lines)))
	}
	for i := range min(len(got.Lines), len(want.Report.Lines)) {
		if row := reportRow(got.Lines[i]); row != want.Report.Lines[i] {
			diff = append(diff, fmt.Sprintf("line %v; Google: %v", row, want.Report.Lines[i]))
			break
		}
	}
	if diff != nil {
		t.Errorf("%s: %s", id, strings.Join(diff, "; "))
		return false
	}
	return true
}

// TestReportMatchesGoogle: the report of every body of the conformance
// files (the grammar-generated ones, spec-test, the unit tests) is Google's
// own, line for line.
func TestReportMatchesGoogle(t *testing.T) {
	n, failed := 0, 0
	err := conformance.Each("testdata/conformance/reporting.jsonl.gz", func(line int, r *googleReport) error {
		body, err := r.Body()
		if err != nil {
			return err
		}
		n++
		if !checkReport(t, fmt.Sprintf("reporting.jsonl.gz:%d", line), body, *r) {
			if failed++; failed >= 20 {
				return fmt.Errorf("stopping after %d differences", failed)
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, 9998, n)
}

// TestReportMatchesGoogleRealworld: the same for the 1,500 real files of
// realworld.jsonl.gz, whose reports ../shared holds by file name.
func TestReportMatchesGoogleRealworld(t *testing.T) {
	const shared = "../shared/conformance/reporting.jsonl.gz"
	skipWithoutCorpus(t)
	if _, err := os.Stat(shared); err != nil {
		t.Skipf("%s is absent: the shared conformance files are not beside this repository", shared)
	}
	want := map[string]googleReport{}
	require.NoError(t, conformance.Each(shared, func(_ int, r *googleReport) error {
		if r.File != "" {
			want[r.File] = *r
		}
		return nil
	}))
	require.Len(t, want, 1500)
	n := 0
	eachCorpusFile(t, func(name string, body []byte) {
		name = strings.TrimPrefix(name, "./")
		if r, ok := want[name]; ok {
			n++
			checkReport(t, name, body, r)
		}
	})
	require.Equal(t, 1500, n, "files of the corpus with a report")
}
