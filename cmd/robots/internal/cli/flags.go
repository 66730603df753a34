package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/api"
)

// ModeFlag is the --mode flag: how the robots.txt is read.
type ModeFlag robots.Mode

// String returns the flag's value as written on the command line.
func (m *ModeFlag) String() string {
	if robots.Mode(*m) == robots.RFC {
		return "rfc"
	}
	return "google"
}

// Set accepts "google" or "rfc", in any case.
func (m *ModeFlag) Set(s string) error {
	mode, ok := api.ModeNamed(s)
	if !ok {
		return fmt.Errorf("unknown mode %q (want google or rfc)", s)
	}
	*m = ModeFlag(mode)
	return nil
}

// Option returns the Parse Option for the selected mode.
func (m *ModeFlag) Option() robots.Option { return robots.WithMode(robots.Mode(*m)) }

// ListFlag is a repeatable string flag; each use appends a value.
type ListFlag []string

// String joins the values with commas.
func (l *ListFlag) String() string { return strings.Join(*l, ",") }

// Set appends s.
func (l *ListFlag) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// NewFlagSet returns a flag set that reports errors instead of exiting.
// A usage error prints one line, the error, and a pointer to the help:
// the whole usage text would bury the error. -h, -help and --help (and so
// robots help NAME) print the whole text: synopsis, then the flags.
func NewFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintf(fs.Output(), "see robots help %s\n", name) }
	// Defined here rather than left to the flag package, whose -h prints
	// the same text as an error does.
	fs.Bool("h", false, "")
	fs.Bool("help", false, "")
	synopses.Store(fs, synopsis)
	return fs
}

// synopses holds each flag set's synopsis for PrintUsage.
var synopses sync.Map // *flag.FlagSet → string

// PrintUsage writes fs's whole usage text: its synopsis, then its flags,
// each spelt as the synopses spell them (-a, --json).
func PrintUsage(fs *flag.FlagSet) {
	synopsis, _ := synopses.Load(fs)
	w := fs.Output()
	fmt.Fprintf(w, "Usage: %s\n\n", synopsis)
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == "h" || f.Name == "help" {
			return
		}
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		kind, text := flag.UnquoteUsage(f)
		line := "  " + dash + f.Name
		if kind != "" {
			line += " " + kind
		}
		if def := f.DefValue; def != "" && def != "false" && def != "0" && def != "0s" {
			if kind == "string" {
				def = strconv.Quote(def)
			}
			text += " (default " + def + ")"
		}
		fmt.Fprintf(w, "%s\n    \t%s\n", line, strings.ReplaceAll(text, "\n", "\n    \t"))
	})
}

// ParseInterleaved parses args with fs, accepting flags after positional
// arguments too, and returns the positional arguments in order. Everything
// after "--" is positional. A help flag prints the usage text and returns
// flag.ErrHelp.
func ParseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if Given(fs, "h") || Given(fs, "help") {
			PrintUsage(fs)
			return nil, flag.ErrHelp
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// FlagExit maps a flag parsing error to an exit code: a help request
// succeeds, anything else is a usage error. The flag package has already
// reported it.
func FlagExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	return ExitUsage
}

// Given reports whether the flag called name was given on the command
// line.
func Given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
