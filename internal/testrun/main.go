// Command testrun runs the tests of every Go module of the repository and
// says which tests were skipped and why, which plain `go test ./...` shows
// only with -v:
//
//	go run ./internal/testrun            # every module
//	go run ./internal/testrun -short     # flags are passed to go test
//	GOARCH=386 go run ./internal/testrun # the 32-bit build, on amd64
//
// It says first whether ../shared, the real-world test material kept
// beside the repository rather than in it, is there; the suite passes
// without it, and the tests that read it skip. Then it runs
// `go test -json ./...` in the repository's root module and in each module
// listed in modules (those that exist), two modules at a time, and prints
// each module's report whole once it is done, in order, under the module's
// name: one line per package as go test does ("(cached)" where go
// test reused a result), under it a SKIP line for each skipped test with
// its reason (a test skips when something it needs is absent: ../shared, a
// redis-server, chromium), and the output of failing tests and builds. It
// ends with a count of packages, skips and failures, and exits 1 when any
// test or build failed.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// modules are the repository's Go modules besides the root, relative to
// it: each has its own go.mod. They are started in this order, the browser
// tests first, whose waits on the page overlap the root module's builds.
var modules = []string{"cmd/robots/internal/browsertest", "cmd/robots", "bench", "fetch/redisstore", "cmd/robots/internal/surveysql", "compat/temoto", "compat/temoto/crawlertest"}

// hostOnly are the modules whose subject no other GOARCH builds: one that
// links a C library built for the machine's own architecture (DuckDB's,
// through cgo), and the browser tests, whose page runs the js/wasm build
// in the host's Chromium whatever the driver is built for (the handlers
// they drive are tested for every GOARCH in package serve). For another
// GOARCH (GOARCH=386 on amd64, the 32-bit run) they are not tested, and
// the run says so.
var hostOnly = map[string]string{
	"cmd/robots/internal/surveysql":   "DuckDB's driver links a C++ library built for the host's architecture only",
	"cmd/robots/internal/browsertest": "the page's engine is the js/wasm build in the host's Chromium; package serve tests the handlers for this GOARCH",
}

// sharedDir is where the real-world test material lives, relative to the
// repository's root: beside it, since its licences keep most of it out.
const sharedDir = "../shared"

func main() {
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testrun:", err)
		os.Exit(2)
	}
	fmt.Println(describeShared(root))
	var runs []*moduleRun
	for _, dir := range append([]string{"."}, modules...) {
		gomod, err := os.ReadFile(filepath.Join(root, dir, "go.mod"))
		if err != nil {
			continue
		}
		m := &moduleRun{dir: dir, path: modulePath(gomod), done: make(chan struct{})}
		if why, ok := hostOnly[dir]; ok && crossArch() {
			m.skip = why
			close(m.done)
		}
		runs = append(runs, m)
	}
	// Two modules are tested at a time: a module's last packages, the
	// browser tests above all, leave a processor idle while they wait on
	// a page or a server, and the next module's builds fill it. Each
	// module's report is kept and printed whole, in order.
	slots := make(chan struct{}, parallelModules)
	for _, m := range runs {
		if m.skip != "" {
			continue
		}
		slots <- struct{}{} // taken here, so that modules start in order
		go func() {
			defer func() { <-slots; close(m.done) }()
			m.tally, m.err = test(filepath.Join(root, m.dir), os.Args[1:], &m.out)
		}()
	}
	// Every module is waited for, so that none is left running when one
	// could not be tested.
	var total tally
	broken := false
	for _, m := range runs {
		<-m.done
		if m.skip != "" {
			fmt.Printf("== module %s (%s): SKIP for GOARCH=%s: %s\n", m.dir, m.path, os.Getenv("GOARCH"), m.skip)
			total.skipped++
			continue
		}
		fmt.Printf("== module %s (%s)\n", m.dir, m.path)
		os.Stdout.Write(m.out.Bytes())
		if m.err != nil {
			fmt.Fprintf(os.Stderr, "testrun: %s: %v\n", m.dir, m.err)
			broken = true
		}
		total.addTally(m.tally)
	}
	fmt.Println(total.summary())
	switch {
	case broken:
		os.Exit(2)
	case total.failed > 0:
		os.Exit(1)
	}
}

// parallelModules is how many modules are tested at once.
const parallelModules = 2

// moduleRun is one module's test run: what it printed and counted, or why
// it was not run; done is closed when it is over.
type moduleRun struct {
	dir, path string
	skip      string // why the module is not tested for this GOARCH
	out       lockedBuffer
	tally     tally
	err       error
	done      chan struct{}
}

// lockedBuffer is a buffer that go test's JSON reader and the copy of its
// stderr may write at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Bytes()
}

// crossArch reports whether the tests are built for an architecture other
// than the machine's (GOARCH=386 on amd64).
func crossArch() bool {
	out, err := exec.Command("go", "env", "GOARCH", "GOHOSTARCH").Output()
	f := strings.Fields(string(out))
	return err == nil && len(f) == 2 && f[0] != f[1]
}

// describeShared says what ../shared is and whether it is beside root.
func describeShared(root string) string {
	what := sharedDir + " (the real-world robots.txt corpus and Google's verdicts on it, kept beside the repository)"
	if st, err := os.Stat(filepath.Join(root, sharedDir)); err == nil && st.IsDir() {
		return what + ": found; the tests that read it run"
	}
	return what + ": absent; the tests that read it skip, and the rest must pass without it"
}

// moduleRoot returns the root of the repository: the directory of the
// go.mod above this one.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not inside a Go module")
	}
	return filepath.Dir(gomod), nil
}

// modulePath returns the module path a go.mod declares, or "?".
func modulePath(gomod []byte) string {
	for line := range bytes.Lines(gomod) {
		if rest, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("module ")); ok {
			return strings.Trim(string(bytes.TrimSpace(rest)), `"`)
		}
	}
	return "?"
}

// test runs the tests of the module in dir and reports them on w. A build
// or test that failed counts in the tally; err is what kept go test from
// running or its output from being read.
func test(dir string, flags []string, w io.Writer) (tally, error) {
	cmd := exec.Command("go", append(append([]string{"test", "-json"}, flags...), "./...")...)
	cmd.Dir = dir
	// Each module is tested with its own go.mod, as a program that
	// requires it builds it, not with the repository's go.work.
	cmd.Env = append(os.Environ(), "GOWORK=off")
	cmd.Stderr = w // what go test says outside its JSON stream
	out, err := cmd.StdoutPipe()
	if err != nil {
		return tally{}, err
	}
	if err := cmd.Start(); err != nil {
		return tally{}, err
	}
	r := newReport(w)
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			fmt.Fprintln(w, sc.Text()) // not an event: pass it on
			continue
		}
		r.add(e)
	}
	scanErr := sc.Err()
	if err := cmd.Wait(); err != nil && r.failed == 0 {
		r.failed++ // go test failed with no failure in its stream
	}
	return r.tally, scanErr
}
