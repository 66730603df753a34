package survey

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/fastrobots/robots/cmd/robots/internal/capture"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
)

// surveyProgress reports on stderr, every cli.ProgressInterval and at the
// end, how many captures were answered and at what rate, how many bytes
// of the inputs were read and, when the inputs' total size is known, the
// share read and an estimate of the time left. A nil *surveyProgress
// reports nothing.
type surveyProgress struct {
	w     io.Writer
	start time.Time
	next  time.Time
	n     int

	inputs []string
	sizes  []int64 // each input's size in bytes, -1 while unknown
	base   int64   // surveyInputBytes when the run started
}

// newSurveyProgress returns the progress of a run over inputs, or nil
// when on is false. The size of a local archive, WARC or plain file is its
// file's; a directory's is unknown (its manifest may leave files out); an
// http(s) input's is the Content-Length of its first response, unknown
// until then.
func newSurveyProgress(w io.Writer, on bool, inputs []string) *surveyProgress {
	if !on {
		return nil
	}
	now := time.Now()
	p := &surveyProgress{w: w, start: now, next: now.Add(cli.ProgressInterval),
		inputs: inputs, sizes: make([]int64, len(inputs)), base: capture.BytesRead()}
	for i, in := range inputs {
		p.sizes[i] = capture.InputSize(in)
	}
	return p
}

// add counts one capture. Its body's size is not reported: the bytes of
// input read tell how far the run is.
func (p *surveyProgress) add(_ int64) {
	if p == nil {
		return
	}
	p.n++
	if now := time.Now(); !now.Before(p.next) {
		p.report(now)
		p.next = now.Add(cli.ProgressInterval)
	}
}

// finish writes the last report.
func (p *surveyProgress) finish() {
	if p != nil {
		p.report(time.Now())
	}
}

// total is the inputs' size in bytes, or false while some input's size
// is unknown.
func (p *surveyProgress) total() (int64, bool) {
	var sum int64
	for i, n := range p.sizes {
		if n < 0 && capture.IsHTTP(p.inputs[i]) {
			n = capture.InputSize(p.inputs[i]) // known once its first response came
			p.sizes[i] = n
		}
		if n < 0 {
			return 0, false
		}
		sum += n
	}
	return sum, true
}

func (p *surveyProgress) report(now time.Time) {
	total, known := p.total()
	fmt.Fprintln(p.w, surveyProgressLine(p.n, capture.BytesRead()-p.base, total, known, now.Sub(p.start)))
}

// surveyProgressLine is one report: n captures and read bytes of input
// in elapsed, and with the total size known, the share read and the time
// left at the rate read so far.
func surveyProgressLine(n int, read, total int64, known bool, elapsed time.Duration) string {
	rate := 0.0
	if elapsed > 0 {
		rate = float64(n) / elapsed.Seconds()
	}
	const mib = 1 << 20
	if !known {
		return fmt.Sprintf("robots survey: %s captures, %.1f MiB in %s, %.0f captures/s",
			groupThousands(n), float64(read)/mib, elapsed.Round(time.Millisecond), rate)
	}
	read = min(read, total)
	pct := int64(100)
	if total > 0 {
		pct = read * 100 / total
	}
	eta := ""
	if read > 0 && elapsed > 0 {
		left := time.Duration(float64(elapsed) * float64(total-read) / float64(read))
		eta = ", ETA " + left.Round(time.Second).String()
	}
	return fmt.Sprintf("robots survey: %s captures, %.1f of %.1f MiB read (%d%%) in %s, %.0f captures/s%s",
		groupThousands(n), float64(read)/mib, float64(total)/mib, pct, elapsed.Round(time.Millisecond), rate, eta)
}

// groupThousands writes n with a comma between each three digits.
func groupThousands(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
