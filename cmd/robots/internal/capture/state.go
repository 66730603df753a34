package capture

import (
	"os"
	"sync"
	"sync/atomic"
)

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
	// httpNoRanges is set once the server answered a Range request with
	// the whole object: no later request of the input asks for one.
	httpNoRanges bool
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

// ignoresRange reports whether the input's server answered a Range
// request with the whole object.
func (st *surveyInputState) ignoresRange() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.httpNoRanges
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

// BytesRead is how many bytes of input the sources have read, over every
// run of the process: each byte of an archive or WARC file once, however
// many passes read it, and each plain file's size as it is passed.
func BytesRead() int64 { return surveyInputBytes.Load() }

// InputSize is the size of input in bytes, or -1 while it is unknown: a
// local archive, WARC or plain file's size; an http(s) input's once its
// first response gave it; a directory's never (its manifest may leave
// files out); 0 for an input that cannot be read, of which nothing will
// be.
func InputSize(input string) int64 {
	if IsHTTP(input) {
		return surveyInputStateOf(input, false).sizeOf()
	}
	fi, err := os.Stat(input)
	switch {
	case err != nil:
		return 0
	case fi.Mode().IsRegular():
		return fi.Size()
	}
	return -1
}
