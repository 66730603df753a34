package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

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

// surveyInputBytes counts the bytes of input the sources have read, over
// every run of the process: each byte of an archive or WARC file once, at
// the furthest offset its passes reached (see surveyInputState.advance),
// and each plain file's size as it is passed. --progress reads it.
var surveyInputBytes atomic.Int64

// surveyInputState is what the files opened for one INPUT share: the
// furthest offset read, its size once known, and the resumes its http
// reads have spent.
type surveyInputState struct {
	mu      sync.Mutex
	mark    int64 // bytes [0, mark) were counted in surveyInputBytes
	size    int64 // -1 while unknown
	resumes int   // http resumes spent, at most surveyHTTP.maxResumes

	// An http input's first response, which the later requests of the
	// run are held to: the object it says, strong ETag and Last-Modified.
	httpKnown        bool
	httpETag         string
	httpLastModified string
}

// surveyInputStates holds the state of each INPUT, by its argument.
var surveyInputStates = struct {
	mu sync.Mutex
	m  map[string]*surveyInputState
}{m: map[string]*surveyInputState{}}

// surveyInputStateOf returns the state of input, a fresh one when fresh
// is set (a source opening the input for a run) or none was made yet.
func surveyInputStateOf(input string, fresh bool) *surveyInputState {
	surveyInputStates.mu.Lock()
	defer surveyInputStates.mu.Unlock()
	st := surveyInputStates.m[input]
	if st == nil || fresh {
		st = &surveyInputState{size: -1}
		surveyInputStates.m[input] = st
	}
	return st
}

// advance counts the bytes [from, to) of the input that were not counted
// before. A second pass over an archive, a WARC source's resynchronising
// seek back and its re-reading of a redirect's target read again bytes
// below the mark and count nothing, so the bytes counted never pass the
// input's size and the share read stops at 100%.
func (st *surveyInputState) advance(from, to int64) {
	st.mu.Lock()
	if to > st.mark {
		surveyInputBytes.Add(to - max(from, st.mark))
		st.mark = to
	}
	st.mu.Unlock()
}

// done ends the input: read to its end, or given up after an error that
// leaves the rest unread. The bytes not counted are counted as read, so
// that the share read reaches 100% when every input is done even when the
// last bytes of a file (a gzip trailer past the end of a tar) were never
// asked for; an input of unknown size is as long as what was read of it.
func (st *surveyInputState) done() {
	st.mu.Lock()
	switch {
	case st.size < 0:
		st.size = st.mark
	case st.mark < st.size:
		surveyInputBytes.Add(st.size - st.mark)
		st.mark = st.size
	}
	st.mu.Unlock()
}

// setSize records the input's size, when it is first learnt.
func (st *surveyInputState) setSize(n int64) {
	st.mu.Lock()
	if st.size < 0 {
		st.size = n
	}
	st.mu.Unlock()
}

func (st *surveyInputState) sizeOf() int64 {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.size
}

// meteredFile counts in surveyInputBytes the bytes read through it, each
// offset of the input once.
type meteredFile struct {
	surveyFile
	st  *surveyInputState
	pos int64
}

func (m *meteredFile) Read(p []byte) (int, error) {
	n, err := m.surveyFile.Read(p)
	if n > 0 {
		m.st.advance(m.pos, m.pos+int64(n))
		m.pos += int64(n)
	}
	return n, err
}

func (m *meteredFile) Seek(offset int64, whence int) (int64, error) {
	pos, err := m.surveyFile.Seek(offset, whence)
	if err == nil {
		m.pos = pos
	}
	return pos, err
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
		inputs: inputs, sizes: make([]int64, len(inputs)), base: surveyInputBytes.Load()}
	for i, in := range inputs {
		p.sizes[i] = -1
		if surveyIsHTTP(in) {
			continue
		}
		fi, err := os.Stat(in)
		switch {
		case err != nil:
			p.sizes[i] = 0 // an error row: nothing will be read
		case fi.Mode().IsRegular():
			p.sizes[i] = fi.Size()
		}
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
		if n < 0 && surveyIsHTTP(p.inputs[i]) {
			n = surveyInputStateOf(p.inputs[i], false).sizeOf()
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
	fmt.Fprintln(p.w, surveyProgressLine(p.n, surveyInputBytes.Load()-p.base, total, known, now.Sub(p.start)))
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
