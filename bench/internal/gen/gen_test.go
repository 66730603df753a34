package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestCommittedFilesAreGenerated checks that testdata/ holds what gen writes,
// so the workload can be regenerated and reviewed from this source.
func TestCommittedFilesAreGenerated(t *testing.T) {
	for name, want := range Files() {
		got, err := os.ReadFile(filepath.Join("..", "..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("testdata/%s differs from the generator's output: run `go run ./internal/gen` in bench/", name)
		}
	}
}

func TestDeterministic(t *testing.T) {
	a, b := Files(), Files()
	for name := range a {
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("%s: two runs differ", name)
		}
	}
}
