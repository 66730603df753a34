package compile

import (
	"bytes"
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
}

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
	// Lines holds every line, in order: Lines[i].Line is i+1.
	Lines []LineReport
}

// NewReport returns Google's report of body, read as Parse reads it: the
// first opts.BodyLimit() bytes, a leading byte order mark (or a prefix of
// one) skipped, lines ended by LF, CR or CRLF, each read up to its first
// NUL byte and its first MaxLineBytes bytes. The lines are split and their
// keys recognised by the parser's own functions (Lines, splitLine,
// classifyKey), in Google's mode whatever opts.Mode, since the report is
// Google's. It allocates the result and nothing per line.
func NewReport(body []byte, opts Options) *Report {
	body, _ = truncate(body, opts.BodyLimit())
	// Every line but the last ends at an LF or a CR: room for all at once.
	r := &Report{Lines: make([]LineReport, 0, bytes.Count(body, []byte{'\n'})+bytes.Count(body, []byte{'\r'})+1)}
	Lines(bytestr.String(body), func(l Line) {
		key, _, m := splitLine(l.Text, true)
		lr := LineReport{Line: l.Num, Start: l.Start, End: l.Start + len(l.Raw), LineMetadata: m, TooLong: l.Cut}
		if m.HasDirective {
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
		}
		r.Lines = append(r.Lines, lr)
		r.LastLine = l.Num
	})
	return r
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
