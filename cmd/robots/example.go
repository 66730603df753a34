package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/web"
)

const exampleSynopsis = `robots example [-n]

Prints the built-in example robots.txt that check and explain read when no
-f is given, so that the line numbers their verdicts quote can be looked
up; -n numbers its lines. Save it to start a robots.txt of your own:

  robots example > robots.txt`

// runExample runs "robots example".
func runExample(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := cli.NewFlagSet("example", exampleSynopsis, stderr)
	numbered := fs.Bool("n", false, "number the lines, as the verdicts quote them")
	rest, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if len(rest) > 0 {
		fmt.Fprintln(stderr, "robots example: no arguments expected")
		fs.Usage()
		return cli.ExitUsage
	}
	out := web.Example
	if *numbered {
		out = numberLines(web.Example)
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "robots example: %v\n", err)
		return cli.ExitUsage
	}
	return cli.ExitOK
}

// numberLines prefixes each line of text with its number, from 1, as cat
// -n does; a last line without a newline is numbered too.
func numberLines(text []byte) []byte {
	lines := strings.SplitAfter(string(text), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, "%6d\t%s", i+1, l)
	}
	return []byte(b.String())
}
