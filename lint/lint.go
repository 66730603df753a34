package lint

import (
	"fmt"
	"strings"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/internal/bytestr"
)

// Lint returns the findings of a robots.txt read as Google reads it, in
// order of position. It accepts any bytes and never fails; a file with no
// finding yields nil.
func Lint(data []byte) []Diagnostic {
	ds, _ := lint(data, precedenceBudget)
	return ds
}

// LintReport is Lint that also returns Google's report of data, which the
// checks read (robots.ReportOf with no options): a caller that wants both
// has the file read once.
func LintReport(data []byte) ([]Diagnostic, *robots.Report) {
	l, _ := lintFile(nil, data, precedenceBudget, true)
	return l.out, l.google
}

// Parsed is LintReport for a file already parsed: r, parsed from body with
// robots.WithReport in Google's mode (the default), is read instead of the
// body being parsed again, and its report is returned, so that a caller
// that wants the rules, the report and the findings reads the body once.
// If r was parsed otherwise (in RFC mode, without WithReport, with a size
// limit that cut the body elsewhere than Google's 500 KiB, under a status
// policy that read no body) or is nil, body is parsed again in Google's
// mode, as LintReport parses it. body must be the bytes r was parsed from.
func Parsed(r *robots.Robots, body []byte) ([]Diagnostic, *robots.Report) {
	l, _ := lintFile(r, body, precedenceBudget, true)
	return l.out, l.google
}

// ParsedCodes is Parsed without the messages: the findings are the same,
// in the same order, each with an empty Message, and no message is
// formatted. It is for a caller that counts findings by code or
// severity, as a survey of many files does, and reads no message.
func ParsedCodes(r *robots.Robots, body []byte) ([]Diagnostic, *robots.Report) {
	l, _ := lintFile(r, body, precedenceBudget, false)
	return l.out, l.google
}

// lint is Lint with a budget for the precedence checks; it also returns
// the work they did.
func lint(data []byte, budget int) (ds []Diagnostic, work int) {
	l, work := lintFile(nil, data, budget, true)
	return l.out, work
}

// lintFile lints data, read from r when r is data parsed as Google reads
// it (Parsed), else parsed again; worded says whether the findings carry
// their messages.
func lintFile(r *robots.Robots, data []byte, budget int, worded bool) (l *linter, work int) {
	// The body shares data, which is read during this call only: a finding
	// copies what it quotes.
	body := bytestr.String(data[:min(len(data), compile.DefaultMaxBytes)])
	if !readAsGoogle(r, body) {
		r = robots.Parse(data, robots.WithReport())
	}
	l = &linter{body: body, data: data[:len(body)], file: r, google: r.Report(), nul: strings.IndexByte(body, 0) >= 0, worded: worded}
	l.checkSize(data)
	if l.checkWholeFile() {
		l.checkLines()
		l.checkUsageGroups()
		l.checkManaged()
		work = l.checkPrecedence(budget)
	}
	sortDiagnostics(l.out)
	return l, work
}

// readAsGoogle reports whether r holds what lint reads of body: the first
// compile.DefaultMaxBytes bytes parsed in Google's mode with the report.
// The report's last line must end where body does, as the last line of
// every report does: a different body fails the test, rather than be read
// through another file's line positions.
func readAsGoogle(r *robots.Robots, body string) bool {
	rep := r.Report()
	return rep != nil && r.Mode() == robots.Google && r.Policy() == robots.Conditional &&
		r.BodyBytes() == len(body) && len(rep.Lines) > 0 && rep.Lines[len(rep.Lines)-1].End == len(body)
}

// linter holds the state of one run.
type linter struct {
	body string // the part of the file Google reads
	data []byte // the same bytes, for the readers that take a slice
	out  []Diagnostic
	// file is the body parsed in Google's mode, and google its report: how
	// Google reads each line. The findings that say so (a line ignored, an
	// unused or unknown key, an accepted typo, a missing colon, a line
	// cut) are taken from it, and every line's key and value.
	file   *robots.Robots
	google *robots.Report

	// skipFirst is set when the first line's findings are all explained by
	// a whole-file one (a UTF-16 byte order mark).
	skipFirst bool
	// sawHTML is set once an HTML line has been reported.
	sawHTML bool
	// nul is set when the body holds a NUL byte.
	nul bool
	// sawUsage is set once a Content-Usage or Content-Signal line is seen.
	sawUsage bool
	// managedHint is set once a comment holds managedHint, as every
	// marker of a CDN's block does: without one, no block is looked for.
	managedHint bool
	// ruleKinds records, by kindIndex, whether an Allow or a Disallow line
	// with a value was seen, in a group or not: without both, no rule can
	// beat or tie another, and the precedence checks need not run.
	ruleKinds [2]bool
	// worded is set when the findings carry their messages (not under
	// ParsedCodes).
	worded bool
}

// report records a finding; col is 1-based. The message is formatted
// only when the findings carry one.
func (l *linter) report(line, col int, code Code, format string, args ...any) {
	d := Diagnostic{Line: line, Column: col, Severity: code.Severity(), Code: code}
	if l.worded {
		d.Message = fmt.Sprintf(format, args...)
	}
	l.out = append(l.out, d)
}

// checkLines runs the checks of every line, in order, and those of the
// group structure the lines build.
func (l *linter) checkLines() {
	var g groups
	bc := l.byteChecks()
	for i := range l.google.Lines {
		read := &l.google.Lines[i]
		if read.Line == 1 && l.skipFirst {
			continue
		}
		ln := l.line(read)
		if (read.Comment || read.HasComment) && !l.managedHint {
			l.managedHint = containsFold(ln.raw, managedHint)
		}
		bc.check(l, ln)
		if l.checkHTMLLine(ln) {
			continue
		}
		tok, f, ok := l.checkDirective(ln)
		if !ok {
			if read.Empty {
				g.blankLine(ln.num) // comment lines, unlike blank ones, do not part groups to the eye
			}
			continue
		}
		l.checkValue(ln, tok, f, &g)
	}
}

// keyColumn is the 1-based column of the key of line, 0 when it holds
// no directive.
func (l *linter) keyColumn(line int) int {
	if line < 1 || line > len(l.google.Lines) {
		return 0
	}
	read := &l.google.Lines[line-1]
	if !read.HasDirective {
		return 0
	}
	ks, _ := read.KeyBounds()
	return ks - read.Start + 1
}

// checkValue runs the checks of a directive's value, and follows the group
// structure.
func (l *linter) checkValue(ln line, tok compile.Token, f fields, g *groups) {
	switch tok.Kind {
	case compile.UserAgent:
		l.checkAgent(ln.num, tok, f, g)
		l.checkCrawler(ln.num, tok, f)
	case compile.Allow, compile.Disallow:
		if tok.Value != "" {
			l.ruleKinds[kindIndex(tok.Kind == compile.Allow)] = true
		}
		if !g.rule() {
			l.report(ln.num, f.key+1, CodeRuleOutsideGroup,
				"%s before any User-agent line belongs to no group and is ignored", kindName(tok.Kind))
			return
		}
		l.checkPattern(ln.num, tok, f)
	case compile.Sitemap:
		g.other(ln.num)
		l.checkSitemap(ln.num, tok.Value, f.value+1)
	default:
		g.other(ln.num)
		l.checkUnknown(ln.num, ln.read, tok, f)
		if isUsageKey(tok.Key) {
			l.checkUsageLine(ln.num, tok, f, g)
		}
	}
}

func kindName(k compile.Kind) string {
	switch k {
	case compile.UserAgent:
		return "User-agent"
	case compile.Allow:
		return "Allow"
	case compile.Disallow:
		return "Disallow"
	}
	return "Sitemap"
}
