package robots

import (
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/internal/alloc"
)

// Report is Google's report of a robots.txt, line by line: what its
// reporting library (reporting_robots.cc in google/robotstxt, behind
// Search Console's robots.txt report) says of each line. Its fields:
// LastLine int (the number of lines: a body ending in a line break has an
// empty last line), Valid, Unused int (the user-agent, allow, disallow and
// sitemap lines; the other lines with a key and a value), Lines
// []LineReport (every line, in order: Lines[i].Line is i+1).
type Report = compile.Report

// LineReport is Google's reading of one line. Its fields: Line int (from
// 1), Start, End int (the line in the body, without its line break, before
// the cut at 16,663 bytes and at a NUL), Tag Tag (what the line is), Typo
// bool (its key is a misspelling Google accepts), the LineMetadata fields
// (Empty, Comment, HasComment, HasDirective, MissingColon) and TooLong bool
// (only its first 16,663 bytes were read). KeyBounds and ValueBounds locate
// its key and value in the body.
type LineReport = compile.LineReport

// LineMetadata is what splitting a line found, as Google records it. Its
// fields: Empty, Comment, HasComment, HasDirective, MissingColon bool
// (nothing but white space; nothing but white space and a comment; a '#'
// anywhere; a key and a value were found; the key and value were two
// words without a colon between them, which Google reads as a directive).
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

// WithReport has Parse, FromStatus and FromResponse also record Google's
// report of the body (Robots.Report), in the pass that parses it: a caller
// that wants both the rules and the report, or lints the file
// (lint.Parsed), reads the body once instead of twice. The report is the
// one ReportOf gives with the same options. It is kept with the Robots,
// counted in MemoryBytes, until the Robots is dropped: a crawler that
// keeps many files has no use for it.
func WithReport() Option { return func(c *config) { c.report = true } }

// Report returns Google's report of the body, recorded as it was parsed,
// when WithReport was given; nil otherwise, and for a nil *Robots. Under a
// policy that reads no body (a 4xx or 5xx to FromStatus or FromResponse)
// it is the report of an empty file, the file the policy reads. The
// report is shared and must not be modified.
func (r *Robots) Report() *Report { return r.orEmpty().report }

// parse parses data into r.file, with its report when c asks for it.
func (r *Robots) parse(data []byte, c config) {
	if !c.report {
		r.file = compile.Parse(data, c.parse)
		return
	}
	r.file, r.report = compile.ParseReport(data, c.parse)
	r.meter.Add(alloc.Size(reportBytes) + alloc.Size(cap(r.report.Lines)*lineReportBytes))
}

var (
	reportBytes     = alloc.SizeOf[Report]()
	lineReportBytes = alloc.SizeOf[LineReport]()
)
