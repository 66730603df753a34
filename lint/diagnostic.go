package lint

import (
	"fmt"
	"slices"
)

// Severity is how bad a finding is.
type Severity uint8

const (
	// Error: the line is ignored, or does not do what it seems to do.
	Error Severity = iota
	// Warning: the line works, but is risky, or Google ignores it while
	// other crawlers read it.
	Warning
	// Note: nothing is wrong with the line; the note says what the line
	// does besides what it seems to (who wrote it, which crawler may not
	// honour it, which extension reads it). A note never makes a file
	// fail.
	Note
)

// String returns "error", "warning" or "note".
func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Note:
		return "note"
	}
	return "error"
}

// MarshalText writes the severity as its String, for JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads "error", "warning" or "note".
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "error":
		*s = Error
	case "warning":
		*s = Warning
	case "note":
		*s = Note
	default:
		return fmt.Errorf("unknown severity %q", b)
	}
	return nil
}

// Diagnostic is one finding. Line and Column are 1-based; Column counts
// bytes, after a byte order mark on the first line.
type Diagnostic struct {
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Severity Severity `json:"severity"`
	Code     Code     `json:"code"`
	Message  string   `json:"message"`
}

// String formats d as "line:col: severity: message [code]".
func (d Diagnostic) String() string {
	return fmt.Sprintf("%d:%d: %s: %s [%s]", d.Line, d.Column, d.Severity, d.Message, d.Code)
}

// sortDiagnostics orders findings by position, then code.
func sortDiagnostics(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		if a.Column != b.Column {
			return a.Column - b.Column
		}
		switch {
		case a.Code < b.Code:
			return -1
		case a.Code > b.Code:
			return 1
		}
		return 0
	})
}
