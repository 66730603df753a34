// Command robots answers robots.txt questions from the command line, with
// the verdicts Google's crawler reaches.
//
// Usage:
//
//	robots check [-f robots.txt] [-a agent]... [--mode google|rfc] [--json] URL...|-|--urls FILE
//	robots eval [--mode google|rfc] [--progress] [FILE]
//	robots fetch [-a agent]... [--user-agent UA] [--timeout D] [--mode google|rfc] [--json] URL...
//	robots lint [--json] FILE|-...
//	robots explain [-f robots.txt] [-a agent]... [--mode google|rfc] [--json] URL...
//	robots agents [--json] [TOKEN...]
//	robots report [--json] [FILE|-] | robots report --jsonl
//	robots serve [--addr 127.0.0.1:8080] [--allow-private]
//	robots survey --out DIR [--agents LIST] [--format parquet|jsonl] [--shard K/N] [--progress] INPUT...
//	robots example [-n]
//	robots version
//	robots help [command]
//
// Every input is bounded: a robots.txt is read up to the 500 KiB Google
// reads (robots.MaxBytes) and one byte more, to tell that it was cut, which
// a line on stderr then says; URL lists (check) and query streams (eval)
// are read a line at a time, each line up to a limit, in constant memory,
// so that neither /dev/zero nor an endless stream exhausts memory. Batch
// commands answer every input line, in order: an input they cannot answer
// for gets an error line, and the exit status says so.
//
// Exit status: 0 on success; 1 when check, explain or fetch finds a
// disallowed URL, agents a token not in its table, lint an error, eval or report --jsonl a line that is
// not a valid query, or survey a capture it could not read;
// 2 on usage errors, unreadable input, or (check, explain) a URL holding a
// NUL byte; 3 when fetch could not fetch a robots.txt at all.
//
// Run "robots help" for details.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/serve"
	"github.com/fastrobots/robots/cmd/robots/internal/survey"
)

// command is one subcommand: its name, a one-line summary for the usage
// text, and the function that runs it with the arguments after its name.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands lists the subcommands in the order the usage text shows them.
// A new subcommand is a file with its run function and one entry here.
var commands = []command{
	{"check", "say whether crawlers may fetch URLs, and which rule decided", runCheck},
	{"eval", "answer JSON Lines queries (robots.txt, agent, URL) in bulk", runEval},
	{"fetch", "fetch the robots.txt of URLs over HTTP and say whether crawlers may fetch them", runFetch},
	{"lint", "report what is wrong or risky in robots.txt files", runLint},
	{"explain", "say why a URL is allowed or disallowed: groups, matching rules, winner", runExplain},
	{"agents", "list the crawler tokens robots knows: operator, purpose, whether it follows robots.txt", runAgents},
	{"report", "print Google's report of a robots.txt: what it reads on each line", runReport},
	{"serve", "serve a robots.txt tester in the browser and a JSON API", serve.Run},
	{"survey", "read robots.txt captures in bulk and say what each lets each crawler fetch", survey.Run},
	{"example", "print the built-in example robots.txt that check and explain read without -f", runExample},
	{"version", "print the version of robots and the Go version it was built with", runVersion},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches args (without the program name) to a subcommand and
// returns the process exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return cli.ExitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		return runHelp(rest, stdin, stdout, stderr)
	}
	if c := lookup(name); c != nil {
		return c.run(rest, stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "robots: unknown command %q\nsee robots help\n", name)
	return cli.ExitUsage
}

// runHelp prints the usage text, or a subcommand's own usage when one is
// named, to stdout.
func runHelp(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stdout)
		return cli.ExitOK
	}
	c := lookup(args[0])
	if c == nil {
		fmt.Fprintf(stderr, "robots: unknown command %q\nsee robots help\n", args[0])
		return cli.ExitUsage
	}
	return c.run([]string{"-h"}, stdin, stdout, stdout)
}

// lookup returns the subcommand called name, or nil.
func lookup(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// usage writes the top-level usage text to w.
func usage(w io.Writer) {
	fmt.Fprint(w, "robots answers robots.txt questions with the verdicts Google's crawler reaches.\n\n")
	fmt.Fprint(w, "Usage:\n\n  robots <command> [arguments]\n\nCommands:\n\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "  %-8s %s\n", "help", "show this text, or a command's flags: robots help <command>")
	fmt.Fprint(w, `
Agents (-a) are robots.txt product tokens, such as Googlebot or GPTBot:
robots agents lists the crawlers robots knows, from the table of package
crawlers, which explain, lint and robots serve's crawler list read too.

Exit status: 0 on success; 1 when check, explain or fetch finds a disallowed
URL, agents a token not in its table, lint an error, eval or report --jsonl a line that is not a valid query, or survey a
capture it could not read; 2 on usage
errors, unreadable input, or (check, explain) a URL holding a NUL byte; 3 when
fetch could not fetch a robots.txt at all.
`)
}
