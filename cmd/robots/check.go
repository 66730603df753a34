package main

import (
	"fmt"
	"io"
	"os"

	"github.com/fastrobots/robots"
)

const checkSynopsis = `robots check [-f robots.txt] [-a agent]... [--mode google|rfc] URL...

Prints ALLOWED or DISALLOWED for each URL, with the rule that decided.
Each -a adds an agent to an ordered fallback list, most specific first: the
first one some group names decides. With no -a, only the '*' groups apply.
Without -f, a built-in example robots.txt is used; -f - reads stdin.
Exits 0 when every URL is allowed, 1 when any is disallowed, 2 on errors.`

// checkOptions are the parsed arguments of check.
type checkOptions struct {
	file   string
	agents listFlag
	mode   modeFlag
	urls   []string
}

// runCheck runs "robots check": it prints a verdict line per URL and
// returns exitOK when all are allowed, exitNegative when any is not.
func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, code := parseCheck(args, stderr)
	if opts == nil {
		return code
	}
	body, err := readRobots(opts.file, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "robots check: %v\n", err)
		return exitUsage
	}
	agent := robots.Parse(body, opts.mode.option()).Agent(opts.agents...)
	code = exitOK
	for _, u := range opts.urls {
		d := agent.Decide(u)
		if !d.Allowed {
			code = exitNegative
		}
		fmt.Fprintf(stdout, "%s %s  (%s)\n", verdict(d.Allowed), u, reason(d))
	}
	return code
}

// parseCheck parses check's arguments. When they do not make a run, it
// returns nil and the exit code to stop with.
func parseCheck(args []string, stderr io.Writer) (*checkOptions, int) {
	opts := &checkOptions{}
	fs := newFlagSet("check", checkSynopsis, stderr)
	fs.StringVar(&opts.file, "f", "", "read the robots.txt from `file` (- for stdin) instead of the example")
	fs.Var(&opts.agents, "a", "crawler `agent` product token, e.g. Googlebot; repeat for a fallback list")
	fs.Var(&opts.mode, "mode", "how robots.txt is read: google (Google's parser, the default) or rfc (strict RFC 9309)")
	urls, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, flagExit(err)
	}
	if len(urls) == 0 {
		fmt.Fprintln(stderr, "robots check: no URL given")
		fs.Usage()
		return nil, exitUsage
	}
	opts.urls = urls
	return opts, exitOK
}

// readRobots returns the robots.txt named by file: the embedded example
// when file is empty, stdin when it is "-".
func readRobots(file string, stdin io.Reader) ([]byte, error) {
	switch file {
	case "":
		return exampleRobots, nil
	case "-":
		return io.ReadAll(stdin)
	}
	return os.ReadFile(file)
}

// verdict returns the word check prints for a verdict.
func verdict(allowed bool) string {
	if allowed {
		return "ALLOWED"
	}
	return "DISALLOWED"
}

// reason describes what decided d: the rule and its line, or why none did.
func reason(d robots.Decision) string {
	switch {
	case d.Implicit:
		return "/robots.txt is always allowed under RFC 9309"
	case d.Rule == nil:
		return "no rule matched"
	case d.Rule.Allow:
		return fmt.Sprintf("line %d: Allow: %s", d.Rule.Line, d.Rule.Value)
	}
	return fmt.Sprintf("line %d: Disallow: %s", d.Rule.Line, d.Rule.Value)
}
