package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
)

const explainSynopsis = `robots explain [-f robots.txt] [-a agent]... [--mode google|rfc] [--json] URL...

Says why each URL is allowed or disallowed: which groups apply and why (a
group names the agent, a later agent of the fallback list, the '*' groups,
or no group at all), every rule that matches with its line and priority
(the length of its pattern), and which one wins and why. When the first
agent is a crawler of the table robots agents prints (package crawlers),
a crawler line gives its operator, its purpose and whether the operator
says it follows robots.txt, with the operator's page. -f, -a, --mode,
what a URL is, and the exit status are check's: 0 when every URL is
allowed, 1 when any is disallowed, 2 on errors or when a URL is not one
(the other URLs are still explained). With --json, writes one JSON object per URL, with
the crawler's row as "crawler" when it has one; a URL,
path, rule value or pattern that is not UTF-8 gets a url_b64, path_b64,
value_b64 or pattern_b64 field too, holding its exact bytes in base64
(JSON strings can only hold UTF-8: the other field shows each byte that is
not as U+FFFD).`

// explainOptions are the parsed arguments of explain.
type explainOptions struct {
	checkOptions
	json bool
}

// runExplain runs "robots explain".
func runExplain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, code := parseExplain(args, stderr)
	if opts == nil {
		return code
	}
	body, err := readRobots("explain", opts.file, stdin, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "robots explain: %v\n", err)
		return cli.ExitUsage
	}
	r := robots.Parse(body, opts.mode.Option())
	out := cli.NewOutput("explain", stdout, stderr)
	code = explainAll(argsSource(opts.urls), r, opts, out)
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "robots explain: %v\n", err)
		return cli.ExitUsage
	}
	return code
}

// explainAll writes an explanation for each URL of src to out, in order,
// and returns the exit code of the run.
func explainAll(src *urlSource, r *robots.Robots, opts *explainOptions, out *cli.Output) int {
	code := cli.ExitOK
	agent := r.Agent(opts.agents...)
	cli.WarnAgents(out, opts.agents)
	for {
		u, err := src.next()
		if errors.Is(err, io.EOF) {
			return code
		}
		if bad, ok := errors.AsType[*api.BadURLError](err); ok {
			out.Errorf("%v", bad)
			code = cli.ExitUsage
			continue
		}
		cli.WarnURL(out, u)
		e := r.Explain(opts.agents, u)
		use := agent.Usage(u)
		if !e.Allowed && code == cli.ExitOK {
			code = cli.ExitNegative
		}
		if opts.json {
			err = api.NewJSONEncoder(out.W).Encode(api.ExplainJSON(u, e, use))
		} else if err = writeExplanation(out.W, u, e); err == nil {
			err = writeUsage(out.W, use)
		}
		if err != nil {
			out.Errorf("%v", err)
			return cli.ExitUsage
		}
	}
}

// parseExplain parses explain's arguments. When they do not make a run, it
// returns nil and the exit code to stop with.
func parseExplain(args []string, stderr io.Writer) (*explainOptions, int) {
	opts := &explainOptions{}
	fs := cli.NewFlagSet("explain", explainSynopsis, stderr)
	fs.StringVar(&opts.file, "f", "", "read the robots.txt from `file` (- for stdin) instead of the example")
	fs.Var(&opts.agents, "a", "crawler `agent` product token, e.g. Googlebot; repeat for a fallback list")
	fs.Var(&opts.mode, "mode", "how robots.txt is read: google (Google's parser, the default) or rfc (strict RFC 9309)")
	fs.BoolVar(&opts.json, "json", false, "write one JSON object per URL")
	urls, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return nil, cli.FlagExit(err)
	}
	msg := emptyFileError(fs, opts.file)
	if len(urls) == 0 {
		msg = "no URL given"
	}
	if msg != "" {
		fmt.Fprintf(stderr, "robots explain: %s\n", msg)
		fs.Usage()
		return nil, cli.ExitUsage
	}
	opts.urls = urls
	return opts, cli.ExitOK
}

// writeExplanation prints an explanation: check's verdict line, then the
// path, the groups, the crawler the first agent names when the crawler
// table has it (its operator, purpose and robots.txt stance), the
// matching rules and why the winner won.
func writeExplanation(w io.Writer, u string, e robots.Explanation) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s  (%s)\n", verdict(e.Allowed), u, reason(e.Decision))
	fmt.Fprintf(&b, "  path:    %s\n", e.Path)
	fmt.Fprintf(&b, "  group:   %s\n", e.Selection.Why)
	if c, ok := api.CrawlerOf(e.Selection.Agents); ok {
		fmt.Fprintf(&b, "  crawler: %s: %s\n", c.Token, c.Note)
	}
	if len(e.Matches) == 0 {
		b.WriteString("  matched: no rule\n")
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for i, m := range e.Matches {
		label := "           "
		if i == 0 {
			label = "  matched: "
		}
		fmt.Fprintf(tw, "%sline %d\t%s\tpriority %d%s\n", label, m.Rule.Line, ruleText(m), m.Priority, winnerMark(i == e.Winner))
	}
	tw.Flush()
	fmt.Fprintf(&b, "  why:     %s\n", e.TieBreak)
	_, err := io.WriteString(w, b.String())
	return err
}

// ruleText shows a matching rule as written, and the pattern it matched
// with when that is the directory of an index page.
func ruleText(m robots.Match) string {
	s := api.RuleString(m.Rule)
	if m.Implicit {
		s += " (as " + m.Pattern + ")"
	}
	return s
}

func winnerMark(winner bool) string {
	if winner {
		return "  <- decides"
	}
	return ""
}
