package main

import (
	"io"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/stretchr/testify/assert"
)

// result is what one in-process run of a command produced.
type result = clitest.Result

// runFunc is the signature of run and of every subcommand.
type runFunc = clitest.Func

// invoke runs fn with args and stdin, capturing its output.
func invoke(fn runFunc, stdin string, args ...string) result {
	return clitest.Invoke(fn, stdin, args...)
}

// invokeReader runs fn with args, reading stdin, capturing its output.
func invokeReader(fn runFunc, stdin io.Reader, args ...string) result {
	return clitest.InvokeReader(fn, stdin, args...)
}

// endless is an io.Reader that never ends: every Read fills p with fill.
// It counts the bytes it gave.
type endless struct {
	fill byte
	n    int64
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.fill
	}
	e.n += int64(len(p))
	return len(p), nil
}

// lineGen is an io.Reader of n generated lines, line(i) for i in [0, n),
// each followed by "\n"; it calls atEnd once, when it first reports EOF,
// while the reader's consumer still holds whatever it kept.
type lineGen struct {
	n, i  int
	line  func(i int) string
	buf   []byte
	atEnd func()
}

func (g *lineGen) Read(p []byte) (int, error) {
	for len(g.buf) == 0 {
		if g.i == g.n {
			if g.atEnd != nil {
				g.atEnd()
				g.atEnd = nil
			}
			return 0, io.EOF
		}
		g.buf = append(append(g.buf[:0], g.line(g.i)...), '\n')
		g.i++
	}
	n := copy(p, g.buf)
	g.buf = g.buf[n:]
	return n, nil
}

// lineCounter is an io.Writer that counts lines and keeps the last one
// only, so that a test of a long run does not hold its output.
type lineCounter struct {
	lines int
	last  []byte
	cur   []byte
}

func (c *lineCounter) Write(p []byte) (int, error) {
	for _, b := range p {
		if b != '\n' {
			c.cur = append(c.cur, b)
			continue
		}
		c.lines++
		c.last, c.cur = append(c.last[:0], c.cur...), c.cur[:0]
	}
	return len(p), nil
}

func TestRunWithoutArgumentsPrintsUsageAndFails(t *testing.T) {
	r := invoke(run, "")
	assert.Equal(t, cli.ExitUsage, r.Code)
	assert.Empty(t, r.Stdout)
	assert.Contains(t, r.Stderr, "Usage:")
}

func TestRunHelpListsEveryCommand(t *testing.T) {
	r := invoke(run, "", "help")
	assert.Equal(t, cli.ExitOK, r.Code)
	for _, c := range commands {
		assert.Contains(t, r.Stdout, "  "+c.name+" ")
	}
	assert.Contains(t, r.Stdout, "help")
}

func TestRunHelpCommandPrintsItsFlags(t *testing.T) {
	r := invoke(run, "", "help", "check")
	assert.Equal(t, cli.ExitOK, r.Code)
	assert.Contains(t, r.Stdout, "Usage: robots check")
	assert.Contains(t, r.Stdout, "-a agent")
}

func TestRunUnknownCommandIsUsageError(t *testing.T) {
	clitest.AssertUsageErrors(t, run, "", []clitest.UsageCase{
		{Name: "unknown command", Args: []string{"frobnicate"}, Stderr: `unknown command "frobnicate"`},
		{Name: "help on an unknown command", Args: []string{"help", "frobnicate"}, Stderr: `unknown command "frobnicate"`},
	})
}

func TestRunDispatchesToCheck(t *testing.T) {
	r := invoke(run, "", "check", "-a", "Googlebot", "https://example.com/nogooglebot/x")
	assert.Equal(t, cli.ExitNegative, r.Code)
	assert.Equal(t, "DISALLOWED https://example.com/nogooglebot/x  (line 2: Disallow: /nogooglebot/)\n", r.Stdout)
}
