package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/internal/testkit/conformance"
)

// TestWasmAgreesWithNative runs archcheck on the conformance cases and on
// the licensed corpus's files, with URLs made from each file's own rules,
// natively and built for WebAssembly under Node.js, and compares every
// line: verdict and deciding line, cold and from the automaton's table.
// Run with GOARCH=386 (the 32-bit run), it compares a 32-bit build with
// the WebAssembly one.
func TestWasmAgreesWithNative(t *testing.T) {
	exec := wasmExec(t)
	in := questions(t)

	var native bytes.Buffer
	require.NoError(t, run(bytes.NewReader(in), &native))

	wasm := filepath.Join(t.TempDir(), "archcheck.wasm")
	build := goCommand("build", "-o", wasm, ".")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build for js/wasm: %s", out)

	cmd := goCommand() // for its environment only
	cmd.Path, cmd.Args = exec, []string{exec, wasm}
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	got, err := cmd.Output()
	require.NoError(t, err, "the WebAssembly build: %s", stderr.String())

	want := strings.Split(native.String(), "\n")
	have := strings.Split(string(got), "\n")
	require.Greater(t, len(want), 50000, "the questions reach the conformance cases and the corpus")
	diffs := 0
	for i := range max(len(want), len(have)) {
		w, h := at(want, i), at(have, i)
		if w != h {
			diffs++
			if diffs <= 10 {
				t.Errorf("answer %d:\nnative: %s\nwasm:   %s", i+1, w, h)
			}
		}
	}
	require.Zero(t, diffs, "answers differ between the native (%s) and WebAssembly builds", runtime.GOARCH)
	t.Logf("%d answers agree (native %s, js/wasm)", len(want)-1, runtime.GOARCH)
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(none)"
}

// goCommand is the go command with args, run in this directory.
func goCommand(args ...string) *exec.Cmd { return exec.Command("go", args...) }

// wasmExec returns Go's runner of js/wasm programs under Node.js. Without
// node the test skips, naming the Debian package; under CI=true it fails.
func wasmExec(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		msg := "node is not installed: the WebAssembly build runs under Node.js (apt-get install nodejs)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	p := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "go_js_wasm_exec")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("Go's js/wasm runner: %v", err)
	}
	return p
}

// agents are asked of every corpus file: a named crawler, a crawler few
// files name (their * group), and one whose token no file holds.
var agents = []string{"Googlebot", "GPTBot", "ArchCheckBot"}

// questions returns archcheck's input: every conformance case of
// testdata/conformance (grouped by body and agent), and each licensed
// corpus file for each of agents, asked paths made from its rules.
func questions(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, name := range []string{"spec-test.jsonl", "google-unit.jsonl", "generated.jsonl.gz"} {
		var last *question
		err := conformance.Each(filepath.Join("..", "..", "..", "testdata", "conformance", name), func(_ int, c *conformance.Case) error {
			body, err := c.Body()
			if err != nil {
				return err
			}
			if last != nil && (last.Agent != c.UserAgent || !bytes.Equal(last.Body, body)) {
				require.NoError(t, enc.Encode(last))
				last = nil
			}
			if last == nil {
				last = &question{Body: body, Agent: c.UserAgent}
			}
			last.URLs = append(last.URLs, c.URL)
			return nil
		})
		require.NoError(t, err)
		if last != nil {
			require.NoError(t, enc.Encode(last))
		}
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "corpus", "files", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		body, err := os.ReadFile(f)
		require.NoError(t, err)
		urls := rulePaths(body)
		for _, a := range agents {
			require.NoError(t, enc.Encode(question{Body: body, Agent: a, URLs: urls}))
		}
	}
	return buf.Bytes()
}

// rulePaths returns URLs on example.com for "/" and, for each Allow or
// Disallow value, the path it names (each '*' read as "x", a final '$'
// dropped), that path with "/x" after it, and the same cut one byte short.
func rulePaths(body []byte) []string {
	urls := []string{"https://example.com/", "https://example.com/robots.txt"}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() && len(urls) < 400 {
		key, value, ok := strings.Cut(sc.Text(), ":")
		key = strings.ToLower(strings.TrimSpace(key))
		value, _, _ = strings.Cut(value, "#")
		value = strings.TrimSpace(value)
		if !ok || (key != "allow" && key != "disallow") || !strings.HasPrefix(value, "/") {
			continue
		}
		p := strings.TrimSuffix(strings.ReplaceAll(value, "*", "x"), "$")
		urls = append(urls, "https://example.com"+p, "https://example.com"+p+"/x", "https://example.com"+p[:len(p)-1])
	}
	return urls
}
