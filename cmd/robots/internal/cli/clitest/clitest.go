// Package clitest runs a command of robots in process, as its tests do
// (the command's function with its arguments, standard input and captured
// output), and talks JSON to its servers on loopback. It is a test kit:
// no command imports it.
package clitest

import (
	"bytes"
	"io"
	"strings"
)

// Func is the signature of robots' dispatcher and of every command.
type Func = func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// Result is what one in-process run of a command produced.
type Result struct {
	Code   int
	Stdout string
	Stderr string
}

// Invoke runs fn with args and stdin, capturing its output.
func Invoke(fn Func, stdin string, args ...string) Result {
	return InvokeReader(fn, strings.NewReader(stdin), args...)
}

// InvokeReader runs fn with args, reading stdin, capturing its output.
func InvokeReader(fn Func, stdin io.Reader, args ...string) Result {
	var out, errOut bytes.Buffer
	code := fn(args, stdin, &out, &errOut)
	return Result{code, out.String(), errOut.String()}
}
