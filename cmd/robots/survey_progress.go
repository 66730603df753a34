package main

import (
	"fmt"
	"io"
	"time"
)

// surveyProgress reports on stderr, every progressInterval and at the
// end, how many captures were answered and at what rate. A nil
// *surveyProgress reports nothing.
type surveyProgress struct {
	w     io.Writer
	start time.Time
	next  time.Time
	n     int
	bytes int64
}

func newSurveyProgress(w io.Writer, on bool) *surveyProgress {
	if !on {
		return nil
	}
	now := time.Now()
	return &surveyProgress{w: w, start: now, next: now.Add(progressInterval)}
}

// add counts one capture of the given size.
func (p *surveyProgress) add(bytes int64) {
	if p == nil {
		return
	}
	p.n++
	p.bytes += bytes
	if now := time.Now(); !now.Before(p.next) {
		p.report(now)
		p.next = now.Add(progressInterval)
	}
}

// finish writes the last report.
func (p *surveyProgress) finish() {
	if p != nil {
		p.report(time.Now())
	}
}

func (p *surveyProgress) report(now time.Time) {
	elapsed := now.Sub(p.start)
	rate := 0.0
	if elapsed > 0 {
		rate = float64(p.n) / elapsed.Seconds()
	}
	fmt.Fprintf(p.w, "robots survey: %d captures, %.1f MiB in %s, %.0f captures/s\n",
		p.n, float64(p.bytes)/(1<<20), elapsed.Round(time.Millisecond), rate)
}
