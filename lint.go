package robots

import "github.com/fastrobots/robots/lint"

// Diagnostic is one finding of Lint: line, column, severity, a stable code
// and a message. Severity and the codes are those of package lint.
type Diagnostic = lint.Diagnostic

// Lint returns what is wrong or risky in a robots.txt, read as Google reads
// it: lines Google ignores or reads other than they seem, leniencies other
// crawlers lack, directives Google ignores, and rules that can never
// decide. It accepts any bytes; a clean file yields nil. docs/lint.md lists
// every code.
func Lint(data []byte) []Diagnostic { return lint.Lint(data) }
