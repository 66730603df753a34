package cli

import (
	"bufio"
	"fmt"
	"io"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
)

// Output is where a command that answers for many inputs writes: answers
// to stdout through a buffer, error lines to stderr. Stdout is flushed
// before each error line, so that a terminal shows both in order, and
// when the input is about to wait, so that a stream fed line by line is
// answered line by line.
type Output struct {
	// W is where the answers go, buffered; Errorf and Flush flush it.
	W      *bufio.Writer
	cmd    string
	stderr io.Writer
}

// NewOutput returns the output of the command cmd.
func NewOutput(cmd string, stdout, stderr io.Writer) *Output {
	return &Output{cmd: cmd, W: bufio.NewWriterSize(stdout, 64<<10), stderr: stderr}
}

// Errorf writes an error line, "robots CMD: MESSAGE", to stderr.
func (o *Output) Errorf(format string, args ...any) {
	_ = o.W.Flush() // an error here is the writer's, and flush returns it again
	fmt.Fprintf(o.stderr, "robots %s: "+format+"\n", append([]any{o.cmd}, args...)...)
}

// Flush writes out what is buffered; it returns the first error writing
// to stdout met.
func (o *Output) Flush() error { return o.W.Flush() }

// WarnAgents writes a warning to stderr for each agent that is not a
// product token: it matches no group, which the verdicts alone do not show.
func WarnAgents(out *Output, agents []string) {
	for _, a := range agents {
		if w := api.AgentWarning(a); w != "" {
			out.Errorf("warning: %s", w)
		}
	}
}

// WarnURL writes a warning to stderr when u is not a URL or a path: it is
// answered all the same, for the path Google's reference reads in it.
func WarnURL(out *Output, u string) {
	if w := api.URLWarning(u); w != "" {
		out.Errorf("warning: %q: %s", u, w)
	}
}
