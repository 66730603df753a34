// Command benchtables turns the committed benchmark run into the Markdown
// tables of docs/benchmarks.md, so that no figure there is copied by hand.
//
//	cd bench && go run ./cmd/benchtables [-dir results]            # print the tables
//	cd bench && go run ./cmd/benchtables -docs ../docs/benchmarks.md # rewrite the doc's marked section
//
// It reads, in -dir, bench.txt (raw `go test -bench` output, -count runs
// of BenchmarkX/<lib>), machine.txt and conformance.txt (either may be
// absent). It prints the machine, a table of Targets, then a table per
// benchmark family: a column per library (fastrobots first, then the peers
// in bench.Libs() order; "—" where a library has no result), a row per
// benchmark and unit with the median of the runs, and for every time the
// fastest peer and fastrobots' ratio to it. What the benchmarks logged
// (panics, files skipped) follows each table, and the conformance table
// comes last. Output depends only on the input files: the same files give
// the same bytes.
//
// With -docs it replaces what lies between the lines BeginMarker and
// EndMarker of the named file instead of printing; TestDocsTablesAreGenerated
// fails when docs/benchmarks.md's section is not what the committed
// results give.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
)

func main() {
	dir := flag.String("dir", "results", "folder of bench.txt, machine.txt and conformance.txt")
	docs := flag.String("docs", "", "rewrite the marked section of this Markdown file instead of printing")
	flag.Parse()
	tables, err := Generate(*dir)
	if err != nil {
		log.Fatal(err)
	}
	if *docs == "" {
		os.Stdout.Write(tables)
		return
	}
	doc, err := os.ReadFile(*docs)
	if err != nil {
		log.Fatal(err)
	}
	out, err := ReplaceSection(doc, tables)
	if err != nil {
		log.Fatalf("%s: %v", *docs, err)
	}
	if err := os.WriteFile(*docs, out, 0o644); err != nil {
		log.Fatal(err)
	}
}

// Generate reads the run in dir and returns its tables.
func Generate(dir string) ([]byte, error) {
	f, err := os.Open(filepath.Join(dir, "bench.txt"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	run, err := ParseRun(f)
	if err != nil {
		return nil, err
	}
	machine, err := readOptional(filepath.Join(dir, "machine.txt"))
	if err != nil {
		return nil, err
	}
	var conf *Conformance
	if text, err := readOptional(filepath.Join(dir, "conformance.txt")); err != nil {
		return nil, err
	} else if text != nil {
		if conf, err = ParseConformance(bytes.NewReader(text)); err != nil {
			return nil, fmt.Errorf("conformance.txt: %v", err)
		}
	}
	var b bytes.Buffer
	Write(&b, run, string(machine), conf)
	return b.Bytes(), nil
}

// readOptional returns the file's bytes, or nil when it does not exist.
func readOptional(name string) ([]byte, error) {
	b, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}
