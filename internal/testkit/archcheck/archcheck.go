// Command archcheck answers robots.txt questions through package robots
// and prints one line per answer, so that builds for different
// architectures can be compared byte for byte: its test runs it natively
// and as a WebAssembly program under Node.js (GOOS=js GOARCH=wasm, the
// tester page's engine), and the outputs must be equal.
//
// Its input, on standard input, is JSON Lines of questions: a robots.txt
// body (base64), an agent and URLs. For each URL it prints the verdict and
// deciding line of an agent checked cold, and of the same agent compiled to
// its automaton, each URL asked several times so that the automaton's
// table holds rows for the states the URL reaches and the table walk
// decides it.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/fastrobots/robots"
)

// question is one input line.
type question struct {
	Body  []byte   `json:"body"` // base64 in JSON
	Agent string   `json:"agent"`
	URLs  []string `json:"urls"`
}

// warmChecks is how many times a compiled agent is asked a URL before its
// answer is printed: past the automaton's rowAfter (4), the states the URL
// reaches have rows.
const warmChecks = 6

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "archcheck:", err)
		os.Exit(1)
	}
}

// run answers every question of in on out.
func run(in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	w := bufio.NewWriter(out)
	for n := 1; sc.Scan(); n++ {
		var q question
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		answer(w, n, &q)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return w.Flush()
}

// answer prints q's answers, one line a URL.
func answer(w io.Writer, n int, q *question) {
	r := robots.Parse(q.Body)
	cold := r.Agent(q.Agent)
	hot := robots.Parse(q.Body).Agent(q.Agent).Compile()
	for _, u := range q.URLs {
		c := cold.Decide(u)
		for range warmChecks {
			hot.Allowed(u)
		}
		h := hot.Decide(u)
		fmt.Fprintf(w, "%d %q cold %v %d hot %v %d %v\n", n, u, c.Allowed, c.Line(), h.Allowed, h.Line(), hot.Allowed(u))
	}
}
