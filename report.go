package robots

import "github.com/fastrobots/robots/compile"

// Report is Google's report of a robots.txt, line by line: what its
// reporting library (reporting_robots.cc in google/robotstxt, behind
// Search Console's robots.txt report) says of each line, the number of the
// last line, and the counts of valid and unused directives.
type Report = compile.Report

// LineReport is Google's reading of one line: Tag, Typo (an accepted
// misspelling of the key), the line's metadata (Empty, Comment,
// HasComment, HasDirective, MissingColon) and TooLong.
type LineReport = compile.LineReport

// LineMetadata is what splitting a line found, as Google records it.
type LineMetadata = compile.LineMetadata

// Tag is what Google's report says a line is.
type Tag = compile.Tag

// The tags of a LineReport.
const (
	TagUnknown   = compile.TagUnknown   // no directive, or a key no one is known to use
	TagUserAgent = compile.TagUserAgent // a user-agent line
	TagAllow     = compile.TagAllow     // an allow rule
	TagDisallow  = compile.TagDisallow  // a disallow rule
	TagSitemap   = compile.TagSitemap   // a sitemap line
	TagUnused    = compile.TagUnused    // a key other crawlers read and Google does not (crawl-delay, host, ...)
)

// ReportOf returns Google's report of body, as far as Parse reads it with
// opts (the first 500 KiB by default); the mode does not change it, the
// report being Google's reading.
func ReportOf(body []byte, opts ...Option) *Report {
	c := configure(opts)
	return compile.NewReport(body, c.parse)
}
