package api

import "github.com/fastrobots/robots"

// ReportJSONOut is Google's report of a robots.txt (robots.ReportOf) in
// the form of Google's own reports in the conformance files
// (reporting.jsonl.gz), so that the two compare field for field: each line
// is [line, tag, typo, empty, has_comment, is_comment, has_directive,
// too_long, missing_colon], the tag a robots.Tag (0 unknown, 1 user-agent,
// 2 allow, 3 disallow, 4 sitemap, 5 unused) and the rest 0 or 1.
type ReportJSONOut struct {
	LastLine int      `json:"last_line"`
	Valid    int      `json:"valid"`
	Unused   int      `json:"unused"`
	Lines    [][9]int `json:"lines"`
}

// ReportJSON returns the JSON form of r.
func ReportJSON(r *robots.Report) ReportJSONOut {
	out := ReportJSONOut{LastLine: r.LastLine, Valid: r.Valid, Unused: r.Unused, Lines: make([][9]int, len(r.Lines))}
	for i, l := range r.Lines {
		out.Lines[i] = ReportRow(l)
	}
	return out
}

// ReportRow is l as a row of ReportJSONOut.Lines.
func ReportRow(l robots.LineReport) [9]int {
	return [9]int{l.Line, int(l.Tag), b01(l.Typo), b01(l.Empty), b01(l.HasComment), b01(l.Comment), b01(l.HasDirective), b01(l.TooLong), b01(l.MissingColon)}
}

func b01(b bool) int {
	if b {
		return 1
	}
	return 0
}
