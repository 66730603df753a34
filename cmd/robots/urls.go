package main

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
)

// maxURLLine is the longest line a URL list may hold. A longer line is
// reported as an error, like a URL that does not parse, and skipped.
const maxURLLine = 64 << 10

// urlSource yields the URLs a command answers for: its arguments, or the
// lines of a list read one at a time, so that a list of any length is
// checked in constant memory.
type urlSource struct {
	args  []string
	lines *lineReader // nil when the URLs are args
}

// argsSource returns a source of the URLs given as arguments.
func argsSource(args []string) *urlSource { return &urlSource{args: args} }

// listSource returns a source of the URLs of r, one a line. Truly empty
// lines are skipped; every other line is one URL, as written, without its
// line ending.
func listSource(r io.Reader) *urlSource {
	return &urlSource{lines: newLineReader(r, maxURLLine)}
}

// badURLError reports a URL that cannot be answered for; the run goes on
// with the next one.
type badURLError struct {
	URL  string // the URL, or the first bytes of a line that is too long
	Line int    // its line in a URL list, 0 for an argument
	Err  error
}

// Error says which URL is bad and why.
func (e *badURLError) Error() string {
	where := ""
	if e.Line > 0 {
		where = fmt.Sprintf("line %d: ", e.Line)
	}
	if errors.Is(e.Err, errLineTooLong) {
		return fmt.Sprintf("%slonger than %d bytes", where, maxURLLine)
	}
	return fmt.Sprintf("%s%q: %v", where, e.URL, e.Err)
}

// next returns the next URL. It returns io.EOF after the last one, a
// *badURLError for a URL that is not one (see checkURL), and any other
// error when the list cannot be read.
func (s *urlSource) next() (string, error) {
	u, line, err := s.read()
	if err != nil {
		return "", err
	}
	if err := checkURL(u); err != nil {
		return "", &badURLError{URL: u, Line: line, Err: err}
	}
	return u, nil
}

// read returns the next URL as given and its line in the list (0 for an
// argument).
func (s *urlSource) read() (string, int, error) {
	if s.lines == nil {
		if len(s.args) == 0 {
			return "", 0, io.EOF
		}
		u := s.args[0]
		s.args = s.args[1:]
		return u, 0, nil
	}
	for {
		b, err := s.lines.next()
		switch {
		case errors.Is(err, errLineTooLong):
			return "", 0, &badURLError{URL: string(b), Line: s.lines.line(), Err: err}
		case err != nil:
			return "", 0, err
		case len(b) > 0:
			return string(b), s.lines.line(), nil
		}
	}
}

// idle reports whether the next URL may have to wait for input.
func (s *urlSource) idle() bool { return s.lines != nil && s.lines.idle() }

// checkURL reports why u is not a URL a verdict can be given for: it does
// not parse (url.Parse), or it is neither an absolute URL with a scheme and
// a host nor a path starting with one '/'. Reading any string as a URL, as
// robots.Agent.Decide does, would answer "allowed" for a typo. The empty
// URL is the path "/", as Google's reference parser and Decide read it.
func checkURL(u string) error {
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
