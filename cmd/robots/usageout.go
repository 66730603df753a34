package main

import (
	"fmt"
	"io"
	"strings"

	prefs "github.com/fastrobots/robots/usage"
)

// writeUsage prints the decisions of u that a line or the header made, as
// explain's "usage:" lines: the categories, the signals, the use level,
// then the answer for each purpose ("may-train"); nothing when none did.
func writeUsage(w io.Writer, u prefs.Usage) error {
	var b strings.Builder
	label := "  usage:   "
	line := func(name, value string, source prefs.Source, at int) {
		if source == prefs.SourceNone {
			return
		}
		fmt.Fprintf(&b, "%s%s=%s (%s", label, name, value, source)
		if at != 0 {
			fmt.Fprintf(&b, ", line %d", at)
		}
		b.WriteString(")\n")
		label = "           "
	}
	decision := func(name string, d prefs.Decision) { line(name, d.Value.String(), d.Source, d.Line) }
	for _, c := range prefs.Categories() {
		decision(c.Label(), u.Category(c))
	}
	for k := range prefs.Signals {
		decision(prefs.SignalKey(k).String(), u.Signal(prefs.SignalKey(k)))
	}
	if l := u.Use(); l.Level != prefs.LevelNone {
		line(prefs.UseKey, l.Level.String(), l.Source, l.Line)
	}
	for _, p := range prefs.AllPurposes() {
		decision("may-"+p.String(), u.For(p))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
