package api

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/fastrobots/robots"
)

// ErrLineTooLong reports a line longer than a lineReader's limit; rest reads
// the rest of the line, and the next line skips what it did not read.
var ErrLineTooLong = errors.New("line too long")

// MaxURLLine is the longest line a URL list may hold. A longer line is
// reported as an error, like a URL that does not parse, and skipped.
const MaxURLLine = 64 << 10

// BadURLError reports a URL that cannot be answered for; the run goes on
// with the next one.
type BadURLError struct {
	URL  string // the URL, or the first bytes of a line that is too long
	Line int    // its line in a URL list, 0 for an argument
	Err  error
}

// Error says which URL is bad and why.
func (e *BadURLError) Error() string {
	where := ""
	if e.Line > 0 {
		where = fmt.Sprintf("line %d: ", e.Line)
	}
	if errors.Is(e.Err, ErrLineTooLong) {
		return fmt.Sprintf("%slonger than %d bytes", where, MaxURLLine)
	}
	return fmt.Sprintf("%s%q: %v", where, e.URL, e.Err)
}

// CheckURL reports why no verdict can be given for u at all: it holds a
// NUL byte, which ends a string where Google's reference reads it and so
// would be answered for another URL than the one given. Every other
// string gets a verdict, as the library and Google's reference give one
// (URLWarning says when the string is not a URL).
func CheckURL(u string) error {
	if strings.IndexByte(u, 0) >= 0 {
		return errors.New("holds a NUL byte")
	}
	return nil
}

// URLWarning returns "" for an absolute URL with a scheme and a host, a
// path starting with one '/', and the empty URL (the path "/"). For any
// other string it says what the string is not and which path the verdict
// is for: the one Google's reference reads in it (robots.PathOf), so that
// a typo answered "allowed" does not pass unseen.
func URLWarning(u string) string {
	if u == "" || strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//") {
		return ""
	}
	var what string
	parsed, err := url.Parse(u)
	switch {
	case err != nil:
		if uerr, ok := errors.AsType[*url.Error](err); ok {
			err = uerr.Err
		}
		what = fmt.Sprintf("not a URL net/url reads (%v)", err)
	case parsed.Scheme == "":
		what = "neither an absolute URL (https://host/path) nor a path starting with '/'"
	case parsed.Host == "":
		what = fmt.Sprintf("a %s URL without a host", parsed.Scheme)
	default:
		return ""
	}
	return fmt.Sprintf("%s; answered for the path Google's reference reads in it, %q", what, robots.PathOf(u))
}

// AgentWarning returns "" when agent is a product token (letters, '-' and
// '_'), which is what groups are matched against. For any other string
// (a version, a whole User-Agent header) it says that Google's reference
// matches no group with it by itself, and which token it would read in
// such a header.
func AgentWarning(agent string) string {
	token := robots.ProductToken(agent)
	switch {
	case token == agent:
		return ""
	case token == "":
		return fmt.Sprintf("agent %q is not a product token (letters, '-' and '_'): Google's reference matches no group with it", agent)
	}
	return fmt.Sprintf("agent %q is not a product token: Google's reference matches no group with it by itself; the token it reads in such a User-Agent is %q", agent, token)
}
