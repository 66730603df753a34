package runtime

import (
	"strings"

	"github.com/fastrobots/robots/automaton"
	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/internal/percent"
)

// robotsTxtPath is the path RFC 9309 section 2.2.2 always allows.
const robotsTxtPath = "/robots.txt"

// Subject returns the string the rules are matched against for in, read
// in mode: in Google mode the input's path, parameters and query up to
// the first NUL byte; in RFC mode all of it, normalised by
// NormalizeRFCPath.
func Subject(in Input, mode compile.Mode) string {
	if mode == compile.RFC {
		return NormalizeRFCPath(in.String())
	}
	return cutNUL(in.String())
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

// cutNUL returns s up to its first NUL byte. Google's reference parser
// passes the path to its matcher as a C string, which ends there.
func cutNUL(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

// RuleOptions returns o with what mode asks of the rules that decide its
// URLs: in Google mode a NUL byte ends the path (EndAtNUL). The compiled
// automaton does that at no cost per byte (NUL has a byte class of its
// own, whose transition from every state is its end-of-input verdict), and
// the rules tested one by one cut the path there.
func RuleOptions(mode compile.Mode, o automaton.Options) automaton.Options {
	o.EndAtNUL = mode == compile.Google
	return o
}
