// Command testrun runs the tests of every Go module of the repository and
// says which tests were skipped and why, which plain `go test ./...` shows
// only with -v:
//
//	go run ./internal/testrun            # every module
//	go run ./internal/testrun -short     # flags are passed to go test
//
// It runs `go test -json ./...` in the repository's root module and in each
// module listed in modules (those that exist), prints one line per package
// as go test does, a SKIP line for each skipped test with its reason (a
// test skips when something it needs is absent: ../shared, a redis-server,
// chromium), and the output of failing tests. It exits 1 when any test or
// build fails.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// modules are the repository's Go modules besides the root, relative to
// it: each has its own go.mod.
var modules = []string{"bench", "fetch/redisstore", "cmd/robots/internal/browsertest"}

// event is one line of `go test -json`.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

func main() {
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testrun:", err)
		os.Exit(2)
	}
	failed := false
	for _, dir := range append([]string{"."}, modules...) {
		if _, err := os.Stat(filepath.Join(root, dir, "go.mod")); err != nil {
			continue
		}
		ok, err := test(filepath.Join(root, dir), os.Args[1:], os.Stdout)
		if err != nil {
			fmt.Fprintf(os.Stderr, "testrun: %s: %v\n", dir, err)
			os.Exit(2)
		}
		failed = failed || !ok
	}
	if failed {
		os.Exit(1)
	}
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

// test runs the tests of the module in dir and reports them on w. ok is
// false when a test or a build failed.
func test(dir string, flags []string, w io.Writer) (ok bool, err error) {
	cmd := exec.Command("go", append(append([]string{"test", "-json"}, flags...), "./...")...)
	cmd.Dir = dir
	cmd.Stderr = w // build errors
	out, err := cmd.StdoutPipe()
	if err != nil {
		return false, err
	}
	if err := cmd.Start(); err != nil {
		return false, err
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
	waitErr := cmd.Wait()
	return waitErr == nil && !r.failed, sc.Err()
}

// report turns events into go test's summary lines, SKIP lines and the
// output of what failed.
type report struct {
	w      io.Writer
	output map[string][]string // by package and test: the output so far
	failed bool
}

func newReport(w io.Writer) *report { return &report{w: w, output: map[string][]string{}} }

func (r *report) add(e event) {
	key := e.Package + " " + e.Test
	switch e.Action {
	case "output":
		r.output[key] = append(r.output[key], e.Output)
	case "skip":
		if e.Test != "" {
			fmt.Fprintf(r.w, "SKIP %s %s: %s\n", e.Package, e.Test, skipReason(r.output[key]))
		}
		delete(r.output, key)
	case "pass":
		if e.Test == "" {
			fmt.Fprintf(r.w, "ok   %s %.1fs\n", e.Package, e.Elapsed)
		}
		delete(r.output, key)
	case "fail":
		r.failed = true
		if e.Test == "" {
			fmt.Fprintf(r.w, "FAIL %s %.1fs\n", e.Package, e.Elapsed)
		} else {
			fmt.Fprintf(r.w, "--- FAIL %s %s\n%s", e.Package, e.Test, strings.Join(r.output[key], ""))
		}
		delete(r.output, key)
	}
}

// skipReason returns the message a skipped test gave: its output without
// the RUN and SKIP lines.
func skipReason(lines []string) string {
	var msg []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		msg = append(msg, t)
	}
	return strings.Join(msg, " ")
}
