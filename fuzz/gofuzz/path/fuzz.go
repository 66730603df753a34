//go:build gofuzz

// Package path is the go-fuzz harness of runtime.Path, checked by
// fuzzgen.CheckPath.
package path

import "github.com/fastrobots/robots/internal/testkit/fuzzgen"

// Fuzz panics when an invariant breaks.
func Fuzz(data []byte) int {
	if err := fuzzgen.CheckPath(string(data)); err != nil {
		panic(err)
	}
	return 0
}
