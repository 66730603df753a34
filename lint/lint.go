package lint

import (
	"fmt"

	"github.com/fastrobots/robots/compile"
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
func LintReport(data []byte) ([]Diagnostic, *compile.Report) {
	l, _ := lintFile(data, precedenceBudget)
	return l.out, l.google
}

// lint is Lint with a budget for the precedence checks; it also returns
// the work they did.
func lint(data []byte, budget int) (ds []Diagnostic, work int) {
	l, work := lintFile(data, budget)
	return l.out, work
}

func lintFile(data []byte, budget int) (l *linter, work int) {
	l = &linter{body: string(data[:min(len(data), compile.DefaultMaxBytes)]), google: compile.NewReport(data, compile.Options{})}
	l.checkSize(data)
	if l.checkWholeFile() {
		l.checkLines()
		l.checkUsageGroups()
		work = l.checkPrecedence(budget)
	}
	sortDiagnostics(l.out)
	return l, work
}

// linter holds the state of one run.
type linter struct {
	body string // the part of the file Google reads
	out  []Diagnostic
	// google is Google's report of the file: how Google reads each line.
	// The findings that say so (a line ignored, an unused or unknown key,
	// an accepted typo, a missing colon, a line cut) are taken from it.
	google *compile.Report

	// skipFirst is set when the first line's findings are all explained by
	// a whole-file one (a UTF-16 byte order mark).
	skipFirst bool
	// sawHTML is set once an HTML line has been reported.
	sawHTML bool
	// keyCol is the 1-based column of the key of every directive line,
	// by line number, for findings about rules found after the scan; 0
	// for other lines (keyColumn).
	keyCol []int
	// sawUsage is set once a Content-Usage or Content-Signal line is seen.
	sawUsage bool
	// ruleKinds records, by kindIndex, whether an Allow or a Disallow line
	// with a value was seen, in a group or not: without both, no rule can
	// beat or tie another, and the precedence checks need not parse.
	ruleKinds [2]bool
}

// report records a finding; col is 1-based.
func (l *linter) report(line, col int, code Code, format string, args ...any) {
	l.out = append(l.out, Diagnostic{
		Line: line, Column: col, Severity: code.Severity(), Code: code,
		Message: fmt.Sprintf(format, args...),
	})
}

// checkLines runs the checks of every line, in order, and those of the
// group structure the lines build.
func (l *linter) checkLines() {
	l.keyCol = make([]int, len(l.google.Lines)+1)
	var g groups
	splitLines(l.body, func(ln line) {
		if ln.num == 1 && l.skipFirst {
			return
		}
		read := l.google.Lines[ln.num-1]
		l.checkLineBytes(ln, read)
		if l.checkHTMLLine(ln) {
			return
		}
		tok, f, ok := l.checkDirective(ln, read)
		if !ok {
			if blank(ln.text) {
				g.blankLine(ln.num) // comment lines, unlike blank ones, do not part groups to the eye
			}
			return
		}
		if ln.num < len(l.keyCol) {
			l.keyCol[ln.num] = f.key + 1
		}
		l.checkValue(ln, read, tok, f, &g)
	})
}

// keyColumn is the 1-based column of the key of line, 0 when it holds
// no directive.
func (l *linter) keyColumn(line int) int {
	if line < 0 || line >= len(l.keyCol) {
		return 0
	}
	return l.keyCol[line]
}

// checkValue runs the checks of a directive's value, and follows the group
// structure.
func (l *linter) checkValue(ln line, read compile.LineReport, tok compile.Token, f fields, g *groups) {
	switch tok.Kind {
	case compile.UserAgent:
		l.checkAgent(ln.num, tok, f, g)
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
		l.checkUnknown(ln.num, read, tok, f)
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
