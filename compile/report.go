package compile

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/fastrobots/robots/internal/bytestr"
)

// Tag is what Google's report says a line is (reporting_robots.h's
// RobotsParsedLine::RobotsTagName). Its first values are those of Kind.
type Tag uint8

const (
	TagUnknown   = Tag(Unknown)   // no directive, or a key no one is known to use
	TagUserAgent = Tag(UserAgent) // a user-agent line
	TagAllow     = Tag(Allow)     // an allow rule
	TagDisallow  = Tag(Disallow)  // a disallow rule
	TagSitemap   = Tag(Sitemap)   // a sitemap line
	TagUnused    = Tag(kindCount) // a key other crawlers read and Google does not (unusedKeys)
)

// unusedKeys are the keys Google's report calls recognised but unused
// (reporting_robots.cc's kUnsupportedTags, as of 2026-02), lower case.
var unusedKeys = [...]string{
	"clean-param", "content-signal", "content-usage", "crawl-delay",
	"domain", "host", "noarchive", "nofollow",
	"noindex", "request-rate", "revisit-after", "visit-time",
}

// LineReport is Google's reading of one line: its tag, whether its key is
// one of the misspellings Google accepts, and what splitting it found.
type LineReport struct {
	Line int
	// Start and End locate the line in the body, without its line break:
	// body[Start:End] is the whole line as written, before the cut at
	// MaxLineBytes and at a NUL byte.
	Start, End int
	Tag        Tag
	Typo       bool
	LineMetadata
	// TooLong: the line is longer than MaxLineBytes, and only its first
	// MaxLineBytes bytes were read.
	TooLong bool

	// The key's and the value's offsets from Start and their lengths
	// (KeyBounds, ValueBounds): all within the line's first MaxLineBytes.
	spans Spans
}

// Spans are where a LineReport's key and value stand, as offsets from the
// line's Start and lengths, all within its first MaxLineBytes: a type of
// the layer above with these fields holds them as they are (LineReport.Spans).
type Spans struct{ KeyAt, KeyN, ValueAt, ValueN uint16 }

// Spans returns the line's key and value spans.
func (l *LineReport) Spans() Spans { return l.spans }

// spansOf returns the spans of b, in body's positions, as offsets from
// start, the line's.
func spansOf(start int, b bounds) Spans {
	return Spans{uint16(b.ks - start), uint16(b.ke - b.ks), uint16(b.vs - start), uint16(b.ve - b.vs)}
}

// Key returns where the key stands in the body, the line starting at
// start: KeyBounds.
func (s Spans) Key(start int) (int, int) {
	return start + int(s.KeyAt), start + int(s.KeyAt) + int(s.KeyN)
}

// Value returns where the value stands in the body, the line starting at
// start: ValueBounds.
func (s Spans) Value(start int) (int, int) {
	return start + int(s.ValueAt), start + int(s.ValueAt) + int(s.ValueN)
}

// The offsets and lengths of a LineReport's key and value fit its fields.
var _ [1<<16 - 1 - MaxLineBytes]struct{}

// KeyBounds returns where the line's key stands in the body:
// body[start:end] is the key as Google read it, trimmed of white space.
// Both are Start when the line holds no directive (HasDirective is false).
func (l *LineReport) KeyBounds() (start, end int) { return l.spans.Key(l.Start) }

// ValueBounds returns where the line's value stands in the body:
// body[start:end] is the value as Google read it, trimmed of white space.
// An empty value stands where the line's text ends, before a comment;
// both are Start when the line holds no directive.
func (l *LineReport) ValueBounds() (start, end int) { return l.spans.Value(l.Start) }

// Report is Google's report of a robots.txt, line by line, as its
// RobotsParsingReporter gives it (reporting_robots.cc), the report behind
// Search Console's robots.txt report.
type Report struct {
	// LastLine is the number of the last line, that is the number of
	// lines: a body ending in a line break has an empty last line.
	LastLine int
	// Valid counts the user-agent, allow, disallow and sitemap lines;
	// Unused the other lines with a key and a value, TagUnused or not.
	Valid, Unused int
	// Lines holds every line, in order: Lines[i].Line is i+1. A report
	// made by SinkReport holds none: its sink receives them.
	Lines []LineReport

	sink LineSink
}

// A LineSink receives a report's lines, for a caller that keeps them in
// types of its own, without a second array of them: Room once, with the
// number of lines to come as the LFs count them (a body that lone CRs end
// lines of has more), then Take with runs of them, in order, each valid
// during the call only.
type LineSink interface {
	Room(lines int)
	Take(run []LineReport)
}

// SinkReport returns a report that hands its lines to sink (NewReportTo,
// ParseReportTo), in runs of sinkRun: they stay in the cache until taken.
// It may be used again, for one report at a time.
func SinkReport(sink LineSink) *Report {
	return &Report{sink: sink, Lines: make([]LineReport, 0, sinkRun)}
}

const sinkRun = 256

// add records lr, the next line, handing a full run to the sink.
func (r *Report) add(lr LineReport) {
	r.Lines = append(r.Lines, lr)
	if r.sink != nil && len(r.Lines) == sinkRun {
		r.flush()
	}
}

// flush hands the lines recorded to the sink, if any.
func (r *Report) flush() {
	if r.sink != nil && len(r.Lines) > 0 {
		r.sink.Take(r.Lines)
		r.Lines = r.Lines[:0]
	}
}

// NewReport returns Google's report of body, read as Parse reads it: the
// first opts.BodyLimit() bytes, a leading byte order mark (or a prefix of
// one) skipped, lines ended by LF, CR or CRLF, each read up to its first
// NUL byte and its first MaxLineBytes bytes. The lines are split and their
// keys recognised by the parser's own functions (Lines, splitBounds,
// classifyKey), in Google's mode whatever opts.Mode, since the report is
// Google's. It allocates the result and nothing per line. ParseReport
// gives the same report from the parse's own pass over the lines.
func NewReport(body []byte, opts Options) *Report {
	r := &Report{}
	NewReportTo(body, opts, r)
	return r
}

// NewReportTo is NewReport into r, whose Lines it reuses, or whose sink it
// hands them to (SinkReport).
func NewReportTo(body []byte, opts Options, r *Report) {
	body, _ = truncate(body, opts.BodyLimit())
	r.reset(body)
	text := bytestr.String(body)
	Lines(text, func(l Line) {
		b, m := splitBounds(l.Text, true)
		r.line(text, l.Num, l.Start, l.Start+len(l.Raw), b.shift(l.Start), m)
	})
	r.flush()
}

// reset empties r, keeping room for the lines of body: one per LF, and
// the last. Counting the CRs too would give room for every line, and
// twice what a body of CRLF lines needs; a body that lone CRs end lines
// of grows the room as it goes.
func (r *Report) reset(body []byte) {
	n := bytes.Count(body, []byte{'\n'}) + 1
	if r.sink != nil {
		r.sink.Room(n)
		*r = Report{Lines: r.Lines[:0], sink: r.sink}
		return
	}
	*r = Report{Lines: slices.Grow(r.Lines[:0], n)}
}

// line records line num, body[start:end], which splitBounds split as m
// and b say, b in body's positions, as the last line so far.
func (r *Report) line(body string, num, start, end int, b bounds, m LineMetadata) {
	lr := LineReport{Line: num, Start: start, End: end, LineMetadata: m, TooLong: end-start > MaxLineBytes}
	if m.HasDirective {
		key := body[b.ks:b.ke]
		kind, _, typo := classifyKey(key, false)
		lr.Tag, lr.Typo = Tag(kind), typo
		switch {
		case kind != Unknown:
			r.Valid++
		case unusedKey(key):
			lr.Tag = TagUnused
			r.Unused++
		default:
			r.Unused++
		}
		lr.spans = spansOf(start, b)
	}
	r.add(lr)
	r.LastLine = num
}

// field records a line the parser's quick path read: a field's key,
// spelt as its name, its colon right after it, and a value, with no
// comment, NUL byte or cut. Like blank and comment, it leaves LastLine to
// the parse, which sets it once every line is read. The three are kept
// out of line: inlined, they cost Parse, which never calls them, the
// time of a larger quickLines.
//
//go:noinline
func (r *Report) field(num, start, end int, kind Kind, b bounds) {
	r.add(LineReport{
		Line: num, Start: start, End: end, Tag: Tag(kind), LineMetadata: LineMetadata{HasDirective: true},
		spans: spansOf(start, b),
	})
	r.Valid++
}

// blank records a line of white space alone, body[start:end] (quick path).
//
//go:noinline
func (r *Report) blank(num, start, end int) {
	r.add(LineReport{Line: num, Start: start, End: end, LineMetadata: LineMetadata{Empty: true}})
}

// comment records a comment line, body[start:end], whose '#' follows
// white space alone (quick path). read is false when the '#' stands past
// the bytes of the line that are read: the line is then white space.
//
//go:noinline
func (r *Report) comment(num, start, end int, read bool) {
	m := LineMetadata{Empty: true}
	if read {
		m = LineMetadata{Comment: true, HasComment: true}
	}
	r.add(LineReport{Line: num, Start: start, End: end, LineMetadata: m, TooLong: end-start > MaxLineBytes})
}

func unusedKey(key string) bool {
	for _, k := range unusedKeys {
		if strings.EqualFold(key, k) {
			return true
		}
	}
	return false
}

var tagNames = [...]string{TagUnknown: "unknown", TagUserAgent: "user-agent", TagAllow: "allow", TagDisallow: "disallow", TagSitemap: "sitemap", TagUnused: "unused"}

// String returns the tag's name: "unknown", "user-agent", "allow",
// "disallow", "sitemap" or "unused".
func (t Tag) String() string {
	if int(t) < len(tagNames) {
		return tagNames[t]
	}
	return "Tag(" + strconv.Itoa(int(t)) + ")"
}
