package robots

import (
	"slices"
	"sync"

	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/internal/alloc"
)

// Report is Google's report of a robots.txt, line by line: what its
// reporting library (reporting_robots.cc in google/robotstxt, behind
// Search Console's robots.txt report) says of each line.
type Report struct {
	// LastLine is the number of the last line, that is the number of
	// lines: a body ending in a line break has an empty last line.
	LastLine int
	// Valid counts the user-agent, allow, disallow and sitemap lines;
	// Unused the other lines with a key and a value, TagUnused or not.
	Valid, Unused int
	// Lines holds every line, in order: Lines[i].Line is i+1.
	Lines []LineReport
}

// LineReport is Google's reading of one line: its tag, whether its key is
// one of the misspellings Google accepts, and what splitting it found.
type LineReport struct {
	// Line is the line's number, counting from 1.
	Line int
	// Start and End locate the line in the body, without its line break:
	// body[Start:End] is the whole line as written, before the cut at
	// MaxLineBytes and at a NUL byte.
	Start, End int
	// Tag is what the line is.
	Tag Tag
	// Typo is set when the line's key is a misspelling Google accepts.
	Typo bool
	LineMetadata
	// TooLong: the line is longer than MaxLineBytes, and only its first
	// MaxLineBytes bytes were read.
	TooLong bool

	// The key's and the value's offsets from Start and their lengths
	// (KeyBounds, ValueBounds): all within the line's bytes read.
	spans lineSpans
}

// lineSpans holds compile.Spans as they are; compile reads them
// (Spans.Key, Spans.Value).
type lineSpans struct{ KeyAt, KeyN, ValueAt, ValueN uint16 }

// KeyBounds returns where the line's key stands in the body:
// body[start:end] is the key as Google read it, trimmed of white space.
// Both are Start when the line holds no directive (HasDirective is false).
func (l LineReport) KeyBounds() (start, end int) { return compile.Spans(l.spans).Key(l.Start) }

// ValueBounds returns where the line's value stands in the body:
// body[start:end] is the value as Google read it, trimmed of white space.
// An empty value stands where the line's text ends, before a comment;
// both are Start when the line holds no directive.
func (l LineReport) ValueBounds() (start, end int) { return compile.Spans(l.spans).Value(l.Start) }

// LineMetadata is what splitting a line found, as Google records it.
type LineMetadata struct {
	// Empty: nothing but white space. Comment: nothing but white space
	// and a comment. HasComment: a '#' anywhere.
	Empty, Comment, HasComment bool
	// HasDirective: a key and a value were found (the key not empty).
	HasDirective bool
	// MissingColon: the key and value were two words without a colon
	// between them, which Google reads as a directive.
	MissingColon bool
}

// Tag is what Google's report says a line is.
type Tag uint8

// The tags of a LineReport.
const (
	TagUnknown   = Tag(compile.TagUnknown)   // no directive, or a key no one is known to use
	TagUserAgent = Tag(compile.TagUserAgent) // a user-agent line
	TagAllow     = Tag(compile.TagAllow)     // an allow rule
	TagDisallow  = Tag(compile.TagDisallow)  // a disallow rule
	TagSitemap   = Tag(compile.TagSitemap)   // a sitemap line
	TagUnused    = Tag(compile.TagUnused)    // a key other crawlers read and Google does not (crawl-delay, host, ...)
)

// String returns the tag's name: "unknown", "user-agent", "allow",
// "disallow", "sitemap" or "unused".
func (t Tag) String() string { return compile.Tag(t).String() }

// reportVia returns the report fill records, in this package's types:
// compile's report hands its lines, a run at a time while they are in the
// cache, to a sink that converts them into the report's own, allocated
// once at their number. Sinks are pooled with their runs.
func reportVia(fill func(*compile.Report)) *Report {
	s := reportSinks.Get().(*reportSink)
	fill(s.scratch)
	r := &Report{LastLine: s.scratch.LastLine, Valid: s.scratch.Valid, Unused: s.scratch.Unused, Lines: s.lines}
	s.lines = nil
	reportSinks.Put(s)
	return r
}

var reportSinks = sync.Pool{New: func() any {
	s := &reportSink{}
	s.scratch = compile.SinkReport(s)
	return s
}}

// reportSink is a compile.LineSink that keeps the lines as LineReports.
type reportSink struct {
	scratch *compile.Report // whose lines come to Take
	lines   []LineReport
}

func (s *reportSink) Room(lines int) { s.lines = make([]LineReport, 0, lines) }

func (s *reportSink) Take(run []compile.LineReport) {
	n := len(s.lines)
	s.lines = slices.Grow(s.lines, len(run)) // lines a lone CR ends
	out := s.lines[n : n+len(run)]
	for i := range run {
		l, o := &run[i], &out[i]
		o.Line, o.Start, o.End, o.Tag, o.Typo = l.Line, l.Start, l.End, Tag(l.Tag), l.Typo
		o.LineMetadata, o.TooLong, o.spans = LineMetadata(l.LineMetadata), l.TooLong, lineSpans(l.Spans())
	}
	s.lines = s.lines[:n+len(run)]
}

// ReportOf returns Google's report of body, as far as Parse reads it with
// opts (the first 500 KiB by default); the mode does not change it, the
// report being Google's reading.
func ReportOf(body []byte, opts ...Option) *Report {
	c := configure(opts)
	return reportVia(func(r *compile.Report) { compile.NewReportTo(body, c.parse, r) })
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
	r.report = reportVia(func(rep *compile.Report) { r.file = compile.ParseReportTo(data, c.parse, rep) })
	r.meter.Add(alloc.Size(reportBytes) + alloc.Size(cap(r.report.Lines)*lineReportBytes))
}

var (
	reportBytes     = alloc.SizeOf[Report]()
	lineReportBytes = alloc.SizeOf[LineReport]()
)
