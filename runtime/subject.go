package runtime

import (
	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/internal/percent"
)

// robotsTxtPath is the path RFC 9309 section 2.2.2 always allows.
const robotsTxtPath = "/robots.txt"

// Subject returns the string the rules are matched against for in, read
// in dialect d: the input's path, parameters and query, up to the first
// NUL byte when d.EndAtNUL, normalised by NormalizeRFCPath when
// d.NormalizePercent.
func Subject(in Input, d compile.Dialect) string {
	s := in.String()
	if d.EndAtNUL {
		s, _ = automaton.CutAtNUL(s)
	}
	if d.NormalizePercent {
		s = NormalizeRFCPath(s)
	}
	return s
}

// NormalizeRFCPath brings a URL's path and query to the one form in which
// RFC 9309 section 2.2.2 compares octets, the form
// compile.NormalizeRFCPattern gives patterns (see percent.NormalizeRFC):
// bytes outside ASCII are %-encoded, %-escapes of unreserved characters
// are decoded, other escapes upper-cased, '*' and '$' encoded, and ':',
// '/', '?' and '@' encoded within the query.
func NormalizeRFCPath(path string) string {
	return percent.NormalizeRFC(path, false)
}
