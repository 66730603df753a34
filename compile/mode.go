package compile

import (
	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/internal/percent"
)

// Mode selects between Google's lenient reading and a strict RFC 9309 one.
// It names a Dialect, which is what parsing, group selection and matching
// read: no step compares modes.
type Mode uint8

const (
	// Google reaches the verdict of Google's open-source reference parser.
	Google Mode = iota
	// RFC follows RFC 9309 to the letter: exact field names, a colon on every
	// directive, no index.html rule, and percent-encoding normalised on both
	// sides before comparing (RFC 9309 section 2.2.2).
	RFC
)

// String returns "google" or "rfc".
func (m Mode) String() string {
	if m == RFC {
		return "rfc"
	}
	return "google"
}

// Dialect returns the mode's dialect. A value other than RFC reads as
// Google, as String names it.
func (m Mode) Dialect() Dialect {
	if m == RFC {
		return dialects[RFC]
	}
	return dialects[Google]
}

// Dialect is how a mode reads a robots.txt and the URLs checked against
// it: one field per point on which Google's reading and RFC 9309's differ.
// Each step reads the fields it needs (the parser the first three, group
// selection ExactGlobalAgent, matching the rest), so a new difference is a
// new field, set in dialects.
type Dialect struct {
	// ExactKeys: a key must equal a field name, ignoring case. Otherwise a
	// key is read by prefix ("disallowed" is a disallow), and Google's
	// misspellings ("dissallow", "useragent") are accepted.
	ExactKeys bool
	// ColonRequired: a line without a colon holds no directive. Otherwise
	// a line of exactly two words separated by white space is read as key
	// and value.
	ColonRequired bool
	// ExactGlobalAgent: only the value "*" names every crawler. Otherwise
	// "*" followed by white space and anything does too.
	ExactGlobalAgent bool
	// IndexHTML: allowing a directory's index page ("/a/index.html")
	// allows the directory ("/a/$"), as Google does.
	IndexHTML bool
	// NormalizePercent: patterns and paths are compared in the form of RFC
	// 9309 section 2.2.2 (NormalizeRFCPattern), which copies them; a rule
	// set of this dialect has no cold tier.
	NormalizePercent bool
	// EndAtNUL: a NUL byte ends the path (automaton.CutAtNUL).
	EndAtNUL bool
	// ImplicitRobotsTxt: /robots.txt is allowed whatever the rules (RFC
	// 9309 section 2.2.2).
	ImplicitRobotsTxt bool
}

// dialects holds each mode's dialect, built once.
var dialects = [...]Dialect{
	Google: {IndexHTML: true, EndAtNUL: true},
	RFC: {
		ExactKeys: true, ColonRequired: true, ExactGlobalAgent: true,
		NormalizePercent: true, ImplicitRobotsTxt: true,
	},
}

// Subject returns the string a path is matched as in the dialect: up to
// its first NUL when EndAtNUL, in the percent-encoding of RFC 9309
// section 2.2.2 when NormalizePercent (the form NormalizeRFCPattern gives
// patterns).
func (d Dialect) Subject(path string) string {
	if d.EndAtNUL {
		path, _ = automaton.CutAtNUL(path)
	}
	if d.NormalizePercent {
		path = percent.NormalizeRFC(path, false)
	}
	return path
}

// Verbatim reports whether the dialect matches a path as it is, up to a
// NUL when EndAtNUL, which the automaton applies as it reads: then a check
// needs no subject built before it reaches the rules.
func (d Dialect) Verbatim() bool { return !d.NormalizePercent && !d.ImplicitRobotsTxt }
