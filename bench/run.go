package bench

import (
	"bytes"
	"runtime"
	"slices"
	"sort"
)

// Stats counts what a corpus pass did.
type Stats struct {
	Files      int // files handed to the library
	Checks     int // checks made (a check that panicked included)
	Panics     int // panics recovered, in Parse, Compile or Allowed
	Errors     int // files the library refused to parse
	Disallowed int // checks answered "disallowed"
	// PanicFiles names the first ten files that made the library panic,
	// each once.
	PanicFiles []string
}

// RunFile parses body with lib, resolves agent and checks every input. A
// panic in the library is recovered and counted: a panic while parsing or
// resolving skips the file's checks, a panic in a check skips that check.
// Recovery costs nothing per check (one deferred call per file).
func RunFile(lib Lib, name string, body []byte, agent string, inputs []string, st *Stats) {
	st.Files++
	c, ok := parseCompile(lib, name, body, agent, st)
	if !ok {
		return
	}
	for i := 0; i < len(inputs); {
		i = checkFrom(c, name, inputs, i, st)
	}
}

func parseCompile(lib Lib, name string, body []byte, agent string, st *Stats) (c Checker, ok bool) {
	defer func() {
		if recover() != nil {
			st.panicked(name)
			c, ok = nil, false
		}
	}()
	p, err := lib.Parse(body)
	if err != nil {
		st.Errors++
		return nil, false
	}
	return p.Compile(agent), true
}

func checkFrom(c Checker, name string, inputs []string, i int, st *Stats) (next int) {
	defer func() {
		if recover() != nil {
			st.panicked(name)
			next = i + 1
		}
	}()
	for ; i < len(inputs); i++ {
		st.Checks++
		if !c.Allowed(inputs[i]) {
			st.Disallowed++
		}
	}
	return i
}

// RunOneShot answers one question with lib.OneShot, counting it in st. A
// panic in the library is recovered and counted; it costs one deferred
// call per question.
func RunOneShot(lib Lib, name string, body []byte, agent, input string, st *Stats) {
	defer func() {
		if recover() != nil {
			st.panicked(name)
		}
	}()
	st.Files++
	st.Checks++
	if !lib.OneShot(body, agent, input) {
		st.Disallowed++
	}
}

// CheckCycle makes n checks with c, cycling over inputs (whose length must
// be a power of two), and counts them in st. A check that panics is
// recovered, counted and skipped; recovery costs one deferred call per
// panic, nothing per check.
func CheckCycle(c Checker, inputs []string, n int, st *Stats) {
	mask := len(inputs) - 1
	for i := 0; i < n; {
		i = cycleFrom(c, inputs, mask, i, n, st)
	}
	st.Checks += n
}

func cycleFrom(c Checker, inputs []string, mask, i, n int, st *Stats) (next int) {
	disallowed := 0
	defer func() {
		st.Disallowed += disallowed
		if recover() != nil {
			st.panicked("")
			next = i + 1
		}
	}()
	for ; i < n; i++ {
		if !c.Allowed(inputs[i&mask]) {
			disallowed++
		}
	}
	return i
}

func (st *Stats) panicked(name string) {
	st.Panics++
	if len(st.PanicFiles) < 10 && !slices.Contains(st.PanicFiles, name) {
		st.PanicFiles = append(st.PanicFiles, name)
	}
}

// Retained returns the heap that build's result keeps alive, in bytes.
//
// Method: full collections (fullGC), then runtime.ReadMemStats; build runs
// and its result is held; full collections again and ReadMemStats; the
// difference of HeapAlloc is what the result retains, everything build
// allocated and dropped being collected by then. Nothing else allocates
// meanwhile: the benchmark's goroutine is the only one working. Panics in
// build are reported as ok == false.
func Retained(build func() any) (n int64, ok bool) {
	var before, after runtime.MemStats
	fullGC()
	runtime.ReadMemStats(&before)
	keep, ok := safeBuild(build)
	fullGC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(keep)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc), ok
}

// fullGC runs two collections: runtime.GC finishes marking and sweeping,
// and the second one also frees what sync.Pools held (a pool's objects
// survive one collection in its victim cache), so that scratch space a
// library pools is not counted as retained.
func fullGC() {
	runtime.GC()
	runtime.GC()
}

func safeBuild(build func() any) (v any, ok bool) {
	defer func() {
		if recover() != nil {
			v, ok = nil, false
		}
	}()
	return build(), true
}

// RetainedFiles returns the heap retained by lib's parsed-and-compiled form
// of each body (see RetainedFile), and how many bodies could not be
// measured. The results are kept alive in batches of 64: each file's figure
// is the growth of HeapAlloc across its build and the collections after it,
// with the files before it in the batch still held, so that the "after" of
// one file is the "before" of the next.
func RetainedFiles(lib Lib, bodies [][]byte, agent, probe string) (sizes []int64, failed int) {
	const batch = 64
	keepP := make([]Parsed, batch)
	keepC := make([]Checker, batch)
	var prev, cur runtime.MemStats
	k := 0
	for i, body := range bodies {
		if i%batch == 0 {
			clear(keepP)
			clear(keepC)
			k = 0
			fullGC()
			runtime.ReadMemStats(&prev)
		}
		p, c, ok := safeParseCompile(lib, bytes.Clone(body), agent, probe)
		keepP[k], keepC[k] = p, c
		k++
		fullGC()
		runtime.ReadMemStats(&cur)
		if ok {
			sizes = append(sizes, int64(cur.HeapAlloc)-int64(prev.HeapAlloc))
		} else {
			failed++
		}
		prev = cur
	}
	runtime.KeepAlive(keepP)
	runtime.KeepAlive(keepC)
	runtime.KeepAlive(bodies)
	return sizes, failed
}

func safeParseCompile(lib Lib, body []byte, agent, probe string) (p Parsed, c Checker, ok bool) {
	defer func() {
		if recover() != nil {
			p, c, ok = nil, nil, false
		}
	}()
	p, err := lib.Parse(body)
	if err != nil {
		return nil, nil, false
	}
	c = p.Compile(agent)
	c.Allowed(probe)
	return p, c, true
}

// RetainedFile returns the heap retained by lib's parsed-and-compiled form
// of body for agent, after one check of probe (so that structures a library
// builds lazily on the first check are counted). The body is copied inside
// the measured window: a library that keeps the body (or slices of it) is
// charged for it, one that does not is not.
// Files the library refuses to parse, or that make it panic, give ok ==
// false.
func RetainedFile(lib Lib, body []byte, agent, probe string) (n int64, ok bool) {
	parsed := false
	n, ok = Retained(func() any {
		p, err := lib.Parse(bytes.Clone(body))
		if err != nil {
			return nil
		}
		c := p.Compile(agent)
		c.Allowed(probe)
		parsed = true
		return [2]any{p, c}
	})
	return n, ok && parsed
}

// Quantile returns the q-quantile (0 ≤ q ≤ 1, nearest rank) of xs, sorting
// xs in place.
func Quantile(xs []int64, q float64) int64 {
	if len(xs) == 0 {
		return 0
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	i := int(q*float64(len(xs)-1) + 0.5)
	return xs[i]
}
