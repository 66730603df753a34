package lint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/internal/testkit/conformance"
)

// googleReport is a line of testdata/conformance/reporting.jsonl.gz: a
// body and Google's own report of it (reporting_robots.cc).
type googleReport struct {
	conformance.Case
	Report struct {
		Lines [][9]int `json:"lines"`
	} `json:"report"`
}

// The columns of a line of Google's report.
const (
	gLine = iota
	gTag
	gTypo
	gEmpty
	gHasComment
	gIsComment
	gHasDirective
	gTooLong
	gMissingColon
)

// TestLintAgreesWithGoogleReport holds the findings that say how Google
// reads a line to Google's own report of it, on the 9,998 bodies of the
// conformance files: each such finding stands on a line Google reads that
// way, and each line Google reads as unused, unknown, without a directive,
// misspelt or without its colon has its finding (but where a whole-file or
// byte-level finding explains the line: HTML, UTF-16, a stray BOM, a NUL).
func TestLintAgreesWithGoogleReport(t *testing.T) {
	failed, n := 0, 0
	err := conformance.Each("../testdata/conformance/reporting.jsonl.gz", func(line int, r *googleReport) error {
		body, err := r.Body()
		if err != nil {
			return err
		}
		n++
		if msg := lintAgainstReport(body, r.Report.Lines); msg != "" {
			t.Errorf("reporting.jsonl.gz:%d: %s\n%q", line, msg, body)
			if failed++; failed >= 10 {
				return fmt.Errorf("stopping after %d", failed)
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, 9998, n)
}

// lintAgainstReport returns how Lint's findings on body disagree with
// Google's report lines, or "".
func lintAgainstReport(body []byte, lines [][9]int) string {
	codes := map[int]map[Code]bool{}
	explained := map[int]bool{} // lines a finding about their bytes or the file explains
	html := false
	for _, d := range Lint(body) {
		if codes[d.Line] == nil {
			codes[d.Line] = map[Code]bool{}
		}
		codes[d.Line][d.Code] = true
		switch d.Code {
		case CodeStrayBOM, CodeNUL, CodeUTF16:
			explained[d.Line] = true
		case CodeHTML:
			html = true
		}
	}
	has := func(l int, cs ...Code) bool {
		for _, c := range cs {
			if codes[l][c] {
				return true
			}
		}
		return false
	}
	for _, g := range lines {
		l := g[gLine]
		valid := g[gTag] >= 1 && g[gTag] <= 4
		noDirective := g[gHasDirective] == 0 && g[gEmpty] == 0 && g[gIsComment] == 0
		switch {
		case has(l, CodeIgnoredByGoogle, CodeInvalidValue) && g[gTag] != 5:
			return fmt.Sprintf("line %d: lint says Google ignores the key, Google's tag is %d", l, g[gTag])
		case has(l, CodeUnknownDirective) && (g[gTag] != 0 || g[gHasDirective] != 1):
			return fmt.Sprintf("line %d: lint says unknown key, Google reads tag %d, directive %d", l, g[gTag], g[gHasDirective])
		case has(l, CodeUnparsedLine) && !noDirective:
			return fmt.Sprintf("line %d: lint says no directive, Google: %v", l, g)
		case has(l, CodeAcceptedTypo) && !valid:
			return fmt.Sprintf("line %d: lint says accepted typo, Google's tag is %d", l, g[gTag])
		case has(l, CodeLineTooLong) && g[gTooLong] != 1:
			return fmt.Sprintf("line %d: lint says too long, Google does not", l)
		}
		if explained[l] || html {
			continue
		}
		switch {
		case g[gTag] == 5 && !has(l, CodeIgnoredByGoogle, CodeInvalidValue):
			return fmt.Sprintf("line %d: Google reads an unused key, lint says nothing of it", l)
		case g[gTag] == 0 && g[gHasDirective] == 1 && !has(l, CodeUnknownDirective):
			return fmt.Sprintf("line %d: Google reads an unknown key, lint says nothing of it", l)
		case noDirective && !has(l, CodeUnparsedLine):
			return fmt.Sprintf("line %d: Google reads no directive, lint says nothing of it", l)
		case g[gTypo] == 1 && !has(l, CodeAcceptedTypo):
			return fmt.Sprintf("line %d: Google reads an accepted typo, lint says nothing of it", l)
		case g[gMissingColon] == 1 && valid && !has(l, CodeMissingColon):
			return fmt.Sprintf("line %d: Google reads a directive without its colon, lint says nothing of it", l)
		}
	}
	return ""
}

// TestLintAgainstReportFails: the comparison sees a difference.
func TestLintAgainstReportFails(t *testing.T) {
	body := []byte("User-agent: *\ncrawl-delay: 1\n")
	require.Empty(t, lintAgainstReport(body, [][9]int{{1, 1, 0, 0, 0, 0, 1, 0, 0}, {2, 5, 0, 0, 0, 0, 1, 0, 0}}))
	require.True(t, strings.Contains(lintAgainstReport(body, [][9]int{{1, 1, 0, 0, 0, 0, 1, 0, 0}, {2, 0, 0, 0, 0, 0, 1, 0, 0}}), "lint says Google ignores the key"))
}
