package compile

import (
	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/internal/percent"
)

// Mode selects between Google's lenient reading and a strict RFC 9309 one.
// It names a Dialect, which is what every step reads.
type Mode uint8

const (
	// Google reaches the verdict of Google's open-source reference parser.
	Google Mode = iota
	// RFC follows RFC 9309 to the letter, percent-encoding normalised on
	// both sides before comparing (RFC 9309 section 2.2.2).
	RFC
)

// String returns "google" or "rfc".
func (m Mode) String() string {
	if m == RFC {
		return "rfc"
	}
	return "google"
}

// Dialect returns the mode's dialect; any value but RFC reads as Google.
func (m Mode) Dialect() Dialect {
	if m == RFC {
		return dialects[RFC]
	}
	return dialects[Google]
}

// Dialect is how a mode reads a robots.txt and the URLs checked against
// it: one field per point on which Google's reading and RFC 9309's differ,
// so that a new difference is a new field, set in dialects.
type Dialect struct {
	// ExactKeys: a key must equal a field name, ignoring case. Otherwise a
	// key is read by prefix ("disallowed" is a disallow), and Google's
	// misspellings are accepted.
	ExactKeys bool
	// ColonRequired: a line without a colon holds no directive. Otherwise
	// a line of exactly two words is read as key and value.
	ColonRequired bool
	// ExactGlobalAgent: only the value "*" names every crawler. Otherwise
	// "*" followed by white space and anything does too.
	ExactGlobalAgent bool
	// IndexHTML: allowing a directory's index page ("/a/index.html")
	// allows the directory ("/a/$"), as Google does.
	IndexHTML bool
	// NormalizePercent: patterns and paths are compared in the form of RFC
	// 9309 section 2.2.2 (NormalizeRFCPattern); a rule set of this dialect
	// has no cold tier.
	NormalizePercent bool
	// EndAtNUL: a NUL byte ends the path (automaton.CutAtNUL).
	EndAtNUL bool
	// ImplicitRobotsTxt: /robots.txt is allowed whatever the rules (RFC
	// 9309 section 2.2.2).
	ImplicitRobotsTxt bool
}

var dialects = [...]Dialect{
	Google: {IndexHTML: true, EndAtNUL: true},
	RFC: {
		ExactKeys: true, ColonRequired: true, ExactGlobalAgent: true,
		NormalizePercent: true, ImplicitRobotsTxt: true,
	},
}

// Subject returns the string a path is matched as in the dialect: up to
// its first NUL when EndAtNUL, normalised as NormalizeRFCPattern
// normalises patterns when NormalizePercent.
func (d Dialect) Subject(path string) string {
	if d.EndAtNUL {
		path, _ = automaton.CutAtNUL(path)
	}
	if d.NormalizePercent {
		path = percent.NormalizeRFC(path, false)
	}
	return path
}

// Verbatim reports whether the dialect matches a path as it is, but for
// EndAtNUL, which the automaton applies as it reads.
func (d Dialect) Verbatim() bool { return !d.NormalizePercent && !d.ImplicitRobotsTxt }
