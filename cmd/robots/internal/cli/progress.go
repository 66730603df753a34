package cli

import (
	"fmt"
	"io"
	"os"
	"time"
)

// ProgressInterval is how often eval reports its progress.
const ProgressInterval = time.Second

// Progress reports on stderr how many queries were answered and at what
// rate, every ProgressInterval and once at the end. A nil *Progress
// reports nothing.
type Progress struct {
	w        io.Writer
	terminal bool // each report overwrites the last
	now      func() time.Time
	start    time.Time
	next     time.Time // when the next report is due
	n        int
}

// NewProgress returns a progress reporter writing to w; on a terminal,
// each report replaces the one before.
func NewProgress(w io.Writer, terminal bool) *Progress {
	return NewProgressClock(w, terminal, time.Now)
}

// NewProgressClock is NewProgress with a clock.
func NewProgressClock(w io.Writer, terminal bool, now func() time.Time) *Progress {
	start := now()
	return &Progress{w: w, terminal: terminal, now: now, start: start, next: start.Add(ProgressInterval)}
}

// Add counts one answer, and reports when a report is due.
func (p *Progress) Add() {
	if p == nil {
		return
	}
	p.n++
	if p.n%256 != 0 { // reading the clock for every answer would cost more than the answer
		return
	}
	if t := p.now(); !t.Before(p.next) {
		p.report(t, false)
		p.next = t.Add(ProgressInterval)
	}
}

// Finish writes the last report: the total and the mean rate.
func (p *Progress) Finish() {
	if p != nil {
		p.report(p.now(), true)
	}
}

// report writes one report at time t.
func (p *Progress) report(t time.Time, last bool) {
	elapsed := t.Sub(p.start)
	rate := 0.0
	if elapsed > 0 {
		rate = float64(p.n) / elapsed.Seconds()
	}
	end, start := "\n", ""
	if p.terminal {
		start = "\r\x1b[K" // back to the start of the line, and clear it
		if !last {
			end = ""
		}
	}
	fmt.Fprintf(p.w, "%srobots eval: %d queries in %s, %.0f queries/s%s", start, p.n, elapsed.Round(time.Millisecond), rate, end)
}

// IsTerminal reports whether w is a terminal (a character device).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
