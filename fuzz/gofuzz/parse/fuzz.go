//go:build gofuzz

// Package parse is the go-fuzz harness of compile.Parse: any bytes, both
// modes, checked by fuzzgen.CheckParse.
package parse

import "github.com/fastrobots/robots/internal/testkit/fuzzgen"

// Fuzz panics when an invariant breaks; it returns 1 for an input that
// holds a directive, so that go-fuzz favours such inputs, and 0 otherwise.
func Fuzz(data []byte) int {
	if err := fuzzgen.CheckParse(data); err != nil {
		panic(err)
	}
	if toks, _ := fuzzgen.ReferenceScan(data, false); len(toks) > 0 {
		return 1
	}
	return 0
}
