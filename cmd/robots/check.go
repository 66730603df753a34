package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
)

const checkSynopsis = `robots check [-f robots.txt] [-a agent]... [--mode google|rfc] [--json] URL...|-|--urls FILE

Prints ALLOWED or DISALLOWED for each URL, with the rule that decided.
Each -a adds an agent to an ordered fallback list, most specific first: the
first one some group names decides. With no -a, only the '*' groups apply.
An agent is a product token (Googlebot, GPTBot, ClaudeBot...): robots
agents lists the crawlers robots knows, from the table of package
crawlers, with their operators' pages.
Without -f, a built-in example robots.txt is used (robots example prints
it); -f - reads stdin. Only the first 500 KiB of a robots.txt are read, as
Google reads them; a longer one is cut there, and a line on stderr says so.

A URL is an absolute URL with a scheme and a host, a path starting with
'/', or "" (the path /). When the only URL is -, the URLs are read from stdin, one a line
(empty lines are skipped), unless a "--" stands before it; --urls FILE
reads them from FILE. A list is
read as it is checked, in constant memory, and answered in order. -f - and
a URL list on stdin cannot go together.

With --json, writes one JSON object a line for each URL:

  {"url": "...", "allowed": false, "line": 3, "rule": "Disallow: /x"}

line is the line Google's reference parser names and rule the rule on
it: the rule that decided or, with "undecided": true, an empty Allow or
Disallow, which matches every path and decides nothing (the URL is allowed
by default); they are 0 and "" when there is neither. An empty URL is the
path /, as Google reads it. "implicit": true marks
/robots.txt allowed by RFC 9309. A URL or rule that is not UTF-8 gets
url_b64 or rule_b64 too, its exact bytes in base64.

Any other string gets the verdict Google's reference gives it, for the
path it reads in it ("example.com/a" is the path /a), with a warning on
stderr (and, with --json, a "warning" member) saying it is not a URL. An
agent that is not a product token (Googlebot/2.1, a whole User-Agent
header) matches no group, as in Google's reference: a warning says so
and names the token it holds. A URL with a NUL byte, or a line longer than
64 KiB, is reported on stderr (and, with --json, as {"url": "...",
"error": "..."}), and the other URLs are still answered. Exits 0 when
every URL is allowed, 1 when any is disallowed, 2 on usage errors,
unreadable input or such a URL.`

// checkOptions are the parsed arguments of check.
type checkOptions struct {
	file     string
	agents   cli.ListFlag
	mode     cli.ModeFlag
	json     bool
	urlsFile string // where the URL list is read from: a file, "-" for stdin, "" for none
	urls     []string
}

// runCheck runs "robots check": it prints a verdict line per URL and
// returns cli.ExitOK when all are allowed, cli.ExitNegative when any is not, and
// cli.ExitUsage when some URL could not be answered for.
func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, code := parseCheck(args, stderr)
	if opts == nil {
		return code
	}
	body, err := readRobots("check", opts.file, stdin, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "robots check: %v\n", err)
		return cli.ExitUsage
	}
	src, closeSrc, err := openURLs(opts, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "robots check: %v\n", err)
		return cli.ExitUsage
	}
	defer closeSrc()
	agent := robots.Parse(body, opts.mode.Option()).Agent(opts.agents...)
	out := cli.NewOutput("check", stdout, stderr)
	cli.WarnAgents(out, opts.agents)
	code = checkAll(src, agent, out, opts.json)
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "robots check: %v\n", err)
		return cli.ExitUsage
	}
	return code
}

// openURLs returns the source of the URLs opts names and a function that
// closes what it opened.
func openURLs(opts *checkOptions, stdin io.Reader) (*urlSource, func(), error) {
	switch opts.urlsFile {
	case "":
		return argsSource(opts.urls), func() {}, nil
	case "-":
		return listSource(stdin), func() {}, nil
	}
	f, err := os.Open(opts.urlsFile)
	if err != nil {
		return nil, nil, err
	}
	return listSource(f), func() { f.Close() }, nil
}

// checkAll writes a verdict for each URL of src to out, in order, and
// returns the exit code of the run.
func checkAll(src *urlSource, agent *robots.Agent, out *cli.Output, asJSON bool) int {
	enc := api.NewJSONEncoder(out.W)
	code := cli.ExitOK
	for {
		if src.idle() {
			_ = out.Flush() // a write error shows again at the next write
		}
		u, err := src.next()
		if errors.Is(err, io.EOF) {
			return code
		}
		if bad, ok := errors.AsType[*api.BadURLError](err); ok {
			code = cli.ExitUsage
			err = reportBadURL(out, enc, bad, asJSON)
		} else if err == nil {
			cli.WarnURL(out, u)
			d := agent.Decide(u)
			if !d.Allowed && code == cli.ExitOK {
				code = cli.ExitNegative
			}
			err = writeVerdict(out, enc, u, d, agent, asJSON)
		}
		if err != nil {
			out.Errorf("%v", err)
			return cli.ExitUsage
		}
	}
}

// reportBadURL writes the error line for a bad URL to stderr and, with
// --json, its error object to stdout, so that every URL has its line.
func reportBadURL(out *cli.Output, enc *json.Encoder, bad *api.BadURLError, asJSON bool) error {
	out.Errorf("%v", bad)
	if asJSON {
		return enc.Encode(api.NewErrorJSON(bad))
	}
	return nil
}

// writeVerdict writes the verdict d of agent for u as a text line or a
// JSON object, which has the URL's usage too.
func writeVerdict(out *cli.Output, enc *json.Encoder, u string, d robots.Decision, agent *robots.Agent, asJSON bool) error {
	if asJSON {
		return enc.Encode(api.NewVerdictJSON(u, d, agent.Usage(u)))
	}
	_, err := fmt.Fprintf(out.W, "%s %s  (%s)\n", verdict(d.Allowed), u, reason(d))
	return err
}

// parseCheck parses check's arguments. When they do not make a run, it
// returns nil and the exit code to stop with.
func parseCheck(args []string, stderr io.Writer) (*checkOptions, int) {
	opts := &checkOptions{}
	fs := cli.NewFlagSet("check", checkSynopsis, stderr)
	fs.StringVar(&opts.file, "f", "", "read the robots.txt from `file` (- for stdin) instead of the example")
	fs.Var(&opts.agents, "a", "crawler `agent` product token, e.g. Googlebot; repeat for a fallback list")
	fs.Var(&opts.mode, "mode", "how robots.txt is read: google (Google's parser, the default) or rfc (strict RFC 9309)")
	fs.BoolVar(&opts.json, "json", false, "write one JSON object per URL")
	fs.StringVar(&opts.urlsFile, "urls", "", "read the URLs from `file`, one a line (- for stdin)")
	urls, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return nil, cli.FlagExit(err)
	}
	if len(urls) == 1 && urls[0] == "-" && opts.urlsFile == "" && !afterDoubleDash(args, "-") {
		opts.urlsFile, urls = "-", nil
	}
	msg := checkSourceError(opts.file, opts.urlsFile, urls)
	if msg == "" {
		msg = emptyFileError(fs, opts.file)
	}
	if msg != "" {
		fmt.Fprintf(stderr, "robots check: %s\n", msg)
		fs.Usage()
		return nil, cli.ExitUsage
	}
	opts.urls = urls
	return opts, cli.ExitOK
}

// afterDoubleDash reports whether arg stands after a "--" in args, where
// it is an argument as written: check -- - asks about the string "-".
func afterDoubleDash(args []string, arg string) bool {
	i := slices.Index(args, "--")
	return i >= 0 && slices.Contains(args[i+1:], arg)
}

// checkSourceError says why the robots.txt file, the URL list and the URL
// arguments given do not go together, or returns "".
func checkSourceError(file, urlsFile string, urls []string) string {
	switch {
	case urlsFile == "" && len(urls) == 0:
		return "no URL given"
	case urlsFile != "" && len(urls) > 0:
		return "URLs come from arguments or from --urls, not both"
	case file == "-" && urlsFile == "-":
		return "-f - and the URL list cannot both be read from stdin"
	}
	return ""
}

// emptyFileError says why -f was given an empty name, or returns "". An
// empty -f is most often an unset variable in a script: reading the
// example in its place would answer for a file nobody wrote. Leaving -f
// out is how the example is asked for.
func emptyFileError(fs *flag.FlagSet, file string) string {
	if file == "" && cli.Given(fs, "f") {
		return "-f was given an empty file name (leave -f out to use the example)"
	}
	return ""
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
	case d.Empty != nil:
		return fmt.Sprintf("no rule decided: line %d (%s) is empty, matches every path and decides nothing", d.Empty.Line, api.RuleString(d.Empty))
	case d.Rule == nil:
		return "no rule matched"
	}
	return fmt.Sprintf("line %d: %s", d.Rule.Line, api.RuleString(d.Rule))
}
