package api

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
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

// CheckURL reports why u is not a URL a verdict can be given for: it does
// not parse (url.Parse), or it is neither an absolute URL with a scheme and
// a host nor a path starting with one '/'. Reading any string as a URL, as
// robots.Agent.Decide does, would answer "allowed" for a typo. The empty
// URL is the path "/", as Google's reference parser and Decide read it.
func CheckURL(u string) error {
	if u == "" {
		return nil
	}
	parsed, err := url.Parse(u)
	if err != nil {
		if uerr, ok := errors.AsType[*url.Error](err); ok {
			return uerr.Err
		}
		return err
	}
	switch {
	case strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//"):
		return nil
	case parsed.Scheme == "":
		return errors.New("neither an absolute URL (https://host/path) nor a path starting with '/'")
	case parsed.Host == "":
		return fmt.Errorf("a %s URL without a host", parsed.Scheme)
	}
	return nil
}
