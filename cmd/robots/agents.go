package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/crawlers"
)

const agentsSynopsis = `robots agents [--json] [TOKEN...]

Lists the crawler tokens webmasters write in robots.txt that robots knows:
the table of package crawlers (docs/crawlers.md), checked against the
operators' pages on the date it prints. For each token: its operator, what
it fetches for, whether it is an AI crawler (the agents a survey of AI use
answers for by default), whether its operator says it follows robots.txt
(yes, no, not stated) and the operator's page. The same table names the
crawler in explain, the tester's list of crawlers (robots serve) and lint's
notes. A token's case does not matter, as in robots.txt.

With TOKEN arguments, lists those rows only, and exits 1 when one is not in
the table. With --json, writes one JSON object a line: token, operator,
purpose, ai, robots, says, url, usage_purposes (the questions of package
usage it asks of a URL) and note.`

// runAgents runs "robots agents": it prints the crawler table, or the rows
// of the tokens given.
func runAgents(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var asJSON bool
	fs := cli.NewFlagSet("agents", agentsSynopsis, stderr)
	fs.BoolVar(&asJSON, "json", false, "write one JSON object a line")
	tokens, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	rows, code := crawlers.All(), cli.ExitOK
	if len(tokens) > 0 {
		rows = nil
		for _, t := range tokens {
			c, ok := crawlers.Lookup(t)
			if !ok {
				fmt.Fprintf(stderr, "robots agents: %q is not in the table (robots agents lists it)\n", t)
				code = cli.ExitNegative
				continue
			}
			rows = append(rows, c)
		}
	}
	if err := writeAgents(stdout, rows, asJSON); err != nil {
		fmt.Fprintf(stderr, "robots agents: %v\n", err)
		return cli.ExitUsage
	}
	return code
}

// writeAgents writes rows as a table, or as JSON lines.
func writeAgents(w io.Writer, rows []crawlers.Crawler, asJSON bool) error {
	if asJSON {
		enc := api.NewJSONEncoder(w)
		for _, c := range rows {
			if err := enc.Encode(api.NewCrawlerJSON(c)); err != nil {
				return err
			}
		}
		return nil
	}
	if _, err := fmt.Fprintf(w, "Crawler tokens, checked against the operators' pages on %s (package crawlers):\n\n", crawlers.Checked); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TOKEN\tOPERATOR\tPURPOSE\tAI\tROBOTS.TXT\tPAGE")
	for _, c := range rows {
		ai := ""
		if c.AI {
			ai = "AI"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", c.Token, c.Operator, c.Purpose, ai, c.Robots, c.URL)
	}
	return tw.Flush()
}
