package main

import (
	"bufio"
	"fmt"
	"io"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
)

// output is where a command that answers for many inputs writes: answers
// to stdout through a buffer, error lines to stderr. Stdout is flushed
// before each error line, so that a terminal shows both in order, and
// when the input is about to wait, so that a stream fed line by line is
// answered line by line.
type output struct {
	cmd    string
	w      *bufio.Writer
	stderr io.Writer
}

// newOutput returns the output of the command cmd.
func newOutput(cmd string, stdout, stderr io.Writer) *output {
	return &output{cmd: cmd, w: bufio.NewWriterSize(stdout, 64<<10), stderr: stderr}
}

// errorf writes an error line, "robots CMD: MESSAGE", to stderr.
func (o *output) errorf(format string, args ...any) {
	_ = o.w.Flush() // an error here is the writer's, and flush returns it again
	fmt.Fprintf(o.stderr, "robots %s: "+format+"\n", append([]any{o.cmd}, args...)...)
}

// flush writes out what is buffered; it returns the first error writing
// to stdout met.
func (o *output) flush() error { return o.w.Flush() }

// warnAgents writes a warning to stderr for each agent that is not a
// product token: it matches no group, which the verdicts alone do not show.
func warnAgents(out *output, agents []string) {
	for _, a := range agents {
		if w := api.AgentWarning(a); w != "" {
			out.errorf("warning: %s", w)
		}
	}
}

// warnURL writes a warning to stderr when u is not a URL or a path: it is
// answered all the same, for the path Google's reference reads in it.
func warnURL(out *output, u string) {
	if w := api.URLWarning(u); w != "" {
		out.errorf("warning: %q: %s", u, w)
	}
}
