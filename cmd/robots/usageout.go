package main

import (
	"fmt"
	"io"
	"strings"

	prefs "github.com/fastrobots/robots/usage"
)

// writeUsage prints the decisions of u that a line or the header made, as
// explain's "usage:" lines; nothing when none did.
func writeUsage(w io.Writer, u prefs.Usage) error {
	var b strings.Builder
	label := "  usage:   "
	line := func(name string, d prefs.Decision) {
		if d.Source == prefs.SourceNone {
			return
		}
		fmt.Fprintf(&b, "%s%s=%s (%s", label, name, d.Value, d.Source)
		if d.Line != 0 {
			fmt.Fprintf(&b, ", line %d", d.Line)
		}
		b.WriteString(")\n")
		label = "           "
	}
	for _, c := range prefs.Categories() {
		line(c.Label(), u.Category(c))
	}
	for k := range prefs.Signals {
		line(prefs.SignalKey(k).String(), u.Signal(prefs.SignalKey(k)))
	}
	line("may-train", u.MayTrain())
	_, err := io.WriteString(w, b.String())
	return err
}
