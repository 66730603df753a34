package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/lint"
)

const lintSynopsis = `robots lint [--json] FILE|-...

Reports what is wrong or risky in robots.txt files, read as Google reads
them, one finding per line:

  FILE:LINE:COL: SEVERITY: MESSAGE [CODE]

An error is a line that is ignored or does not do what it seems to do; a
warning works but is risky, or is a directive Google ignores; a note says
what a line does besides what it seems to (an LLM-Policy line, a crawler
whose operator says it may not follow robots.txt, a CDN's managed block
and the site's lines it takes over). "-" reads
stdin. Only the first 500 KiB of a file are read, and one byte more to
tell that there is more: a longer file is cut there, and a line on
stderr says so. With --json, writes one JSON array of findings, each with
file, line, column, severity, code and message. docs/lint.md lists every
code.
Exits 1 when any file has an error, 0 otherwise (warnings and notes
included), 2 when a file cannot be read.`

// lintFinding is one finding as --json writes it.
type lintFinding struct {
	File string `json:"file"`
	lint.Diagnostic
}

// runLint runs "robots lint": it lints each file and prints the findings.
func runLint(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var asJSON bool
	fs := cli.NewFlagSet("lint", lintSynopsis, stderr)
	fs.BoolVar(&asJSON, "json", false, "write the findings as a JSON array")
	files, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "robots lint: no file given (- reads stdin)")
		fs.Usage()
		return cli.ExitUsage
	}
	all := []lintFinding{}
	for _, name := range files {
		body, err := cli.ReadInput("lint", name, stdin, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "robots lint: %v\n", err)
			return cli.ExitUsage
		}
		for _, d := range lint.Lint(body) {
			if d.Code == lint.CodeTruncated && len(body) > cli.MaxInputBytes {
				d.Message = cutMessage(cli.InputSize(name, stdin), len(body))
			}
			all = append(all, lintFinding{cli.DisplayName(name), d})
		}
	}
	if err := writeFindings(stdout, all, asJSON); err != nil {
		fmt.Fprintf(stderr, "robots lint: %v\n", err)
		return cli.ExitUsage
	}
	for _, f := range all {
		if f.Severity == lint.Error {
			return cli.ExitNegative
		}
	}
	return cli.ExitOK
}

// writeFindings prints the findings as text lines or as one JSON array.
func writeFindings(w io.Writer, all []lintFinding, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(all)
	}
	for _, f := range all {
		if _, err := fmt.Fprintf(w, "%s:%s\n", f.File, f.Diagnostic); err != nil {
			return err
		}
	}
	return nil
}

// cutMessage is the message of the truncated finding for an input lint
// cut after read bytes: Lint saw only those, so it is told the file's
// size, when its size is known (size >= 0).
func cutMessage(size int64, read int) string {
	what := fmt.Sprintf("the file is more than %d bytes", cli.MaxInputBytes)
	if size >= 0 {
		what = fmt.Sprintf("the file is %d bytes", size)
	}
	return fmt.Sprintf("%s (lint read the first %d); Google reads the first %d (500 KiB) and ignores everything from here",
		what, read, cli.MaxInputBytes)
}
