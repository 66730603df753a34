package main

import (
	"errors"
	"io"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
)

// urlSource yields the URLs a command answers for: its arguments, or the
// lines of a list read one at a time, so that a list of any length is
// checked in constant memory.
type urlSource struct {
	args  []string
	lines *cli.LineReader // nil when the URLs are args
}

// argsSource returns a source of the URLs given as arguments.
func argsSource(args []string) *urlSource { return &urlSource{args: args} }

// listSource returns a source of the URLs of r, one a line. Truly empty
// lines are skipped; every other line is one URL, as written, without its
// line ending.
func listSource(r io.Reader) *urlSource {
	return &urlSource{lines: cli.NewLineReader(r, api.MaxURLLine)}
}

// next returns the next URL. It returns io.EOF after the last one, a
// *api.BadURLError for a URL no verdict can be given for (see api.CheckURL), and any other
// error when the list cannot be read.
func (s *urlSource) next() (string, error) {
	u, line, err := s.read()
	if err != nil {
		return "", err
	}
	if err := api.CheckURL(u); err != nil {
		return "", &api.BadURLError{URL: u, Line: line, Err: err}
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
		if len(u) > api.MaxURLLine { // as a list's line: no URL is that long
			return "", 0, &api.BadURLError{URL: u[:api.MaxURLLine], Err: api.ErrLineTooLong}
		}
		return u, 0, nil
	}
	for {
		b, err := s.lines.Next()
		switch {
		case errors.Is(err, api.ErrLineTooLong):
			return "", 0, &api.BadURLError{URL: string(b), Line: s.lines.Line(), Err: err}
		case err != nil:
			return "", 0, err
		case len(b) > 0:
			return string(b), s.lines.Line(), nil
		}
	}
}

// idle reports whether the next URL may have to wait for input.
func (s *urlSource) idle() bool { return s.lines != nil && s.lines.Idle() }
