// Package usageexamples reads testdata/usage/examples.txt: the examples of
// the Content-Usage and Content-Signal texts with the meaning each must
// have. The file's header describes its records; package usage's tests
// check the single-line records, package robots' tests the files.
package usageexamples

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// Value is a single-line record: "KIND INPUT => EXPECT".
type Value struct {
	Line   int    // its line in the file
	Source string // the @source it stands under
	Kind   string // pref, line, header or signal
	Input  string
	Want   map[string]string
}

// File is a file record: a robots.txt and the checks of it.
type File struct {
	Line   int // the line of its "file" record
	Source string
	Title  string
	Text   []byte // its lines, each ended by "\n"
	Checks []Check
}

// Check is one "check AGENT PATH => EXPECT" line of a File.
type Check struct {
	Line        int
	Agent, Path string
	Want        map[string]string
}

// Read reads the records of the file at path; an error names the line of
// a record it cannot read.
func Read(path string) (values []Value, files []File, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n, source := 0, ""
	var file *File // the file record being read, until its "end"
	for sc.Scan() {
		n++
		line := sc.Text()
		if file != nil {
			if err := readFileLine(file, n, line); err != nil {
				return nil, nil, fmt.Errorf("%s:%d: %w", path, n, err)
			}
			if line == "end" {
				files, file = append(files, *file), nil
			}
			continue
		}
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "@source "):
			source = strings.TrimPrefix(line, "@source ")
		case strings.HasPrefix(line, "file "):
			file = &File{Line: n, Source: source, Title: strings.TrimPrefix(line, "file ")}
		default:
			head, want, err := splitExpect(line)
			if err != nil {
				return nil, nil, fmt.Errorf("%s:%d: %w", path, n, err)
			}
			kind, input, _ := strings.Cut(head, " ")
			values = append(values, Value{Line: n, Source: source, Kind: kind, Input: input, Want: want})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	if file != nil {
		return nil, nil, fmt.Errorf("%s:%d: file record without end", path, file.Line)
	}
	return values, files, nil
}

// readFileLine adds a line of a file record to f: text, a check, or its
// "end", which adds nothing.
func readFileLine(f *File, n int, line string) error {
	switch {
	case line == "end":
	case strings.HasPrefix(line, "check "):
		head, want, err := splitExpect(line)
		if err != nil {
			return err
		}
		agent, path, _ := strings.Cut(strings.TrimPrefix(head, "check "), " ")
		f.Checks = append(f.Checks, Check{Line: n, Agent: agent, Path: path, Want: want})
	default:
		f.Text = append(append(f.Text, line...), '\n')
	}
	return nil
}

// splitExpect cuts "HEAD => name=value ..." and reads the expectation;
// HEAD's input may be empty.
func splitExpect(line string) (head string, want map[string]string, err error) {
	i := strings.LastIndex(line, " => ")
	if i < 0 {
		return "", nil, fmt.Errorf("no \" => \" in %q", line)
	}
	want = map[string]string{}
	for _, f := range strings.Fields(line[i+4:]) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return "", nil, fmt.Errorf("%q is not name=value", f)
		}
		want[k] = v
	}
	return line[:i], want, nil
}
