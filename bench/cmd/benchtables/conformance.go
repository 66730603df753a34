package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Conformance is results/conformance.txt, as cmd/peerconformance writes
// it: comment lines, then a table aligned with spaces whose header names
// the columns.
type Conformance struct {
	Comment []string   // the comment lines, without "# "
	Header  []string   // "library", the sets, "panics", "refused"
	Rows    [][]string // a row per library
}

// ParseConformance reads cmd/peerconformance's table. Cells are cut at the
// columns of the header's words, so a cell may hold single spaces
// ("0 / 400").
func ParseConformance(in io.Reader) (*Conformance, error) {
	c := &Conformance{}
	var starts []int
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"):
			c.Comment = append(c.Comment, strings.TrimSpace(strings.TrimPrefix(line, "#")))
		case strings.TrimSpace(line) == "":
		case starts == nil:
			starts = wordStarts(line)
			c.Header = cut(line, starts)
		default:
			c.Rows = append(c.Rows, cut(line, starts))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if starts == nil {
		return nil, fmt.Errorf("no table")
	}
	return c, nil
}

// wordStarts returns the byte offsets at which the words of line start.
func wordStarts(line string) []int {
	var starts []int
	for i := range len(line) {
		if line[i] != ' ' && (i == 0 || line[i-1] == ' ') {
			starts = append(starts, i)
		}
	}
	return starts
}

// cut splits line at starts, trimming each cell.
func cut(line string, starts []int) []string {
	cells := make([]string, len(starts))
	for i, s := range starts {
		end := len(line)
		if i+1 < len(starts) {
			end = min(starts[i+1], len(line))
		}
		if s < end {
			cells[i] = strings.TrimSpace(line[s:end])
		}
	}
	return cells
}

// WriteConformance writes c as a Markdown table, its comment (but the line
// that names the command) as the paragraph before it.
func WriteConformance(w io.Writer, c *Conformance) {
	fmt.Fprintln(w, "### Conformance")
	fmt.Fprintln(w)
	var text []string
	for _, line := range c.Comment {
		if !strings.HasPrefix(line, "Made by:") {
			text = append(text, line)
		}
	}
	if len(text) > 0 {
		fmt.Fprintf(w, "From `bench/results/conformance.txt`: %s\n\n", strings.Join(text, " "))
	}
	writeRow(w, append([]string(nil), c.Header...))
	writeRow(w, strings.Split(strings.Repeat("---,", len(c.Header)-1)+"---", ","))
	for _, row := range c.Rows {
		writeRow(w, append([]string(nil), row...))
	}
	fmt.Fprintln(w)
}
