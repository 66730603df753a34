//go:build gofuzz

// Package path is the go-fuzz harness of runtime.Path, checked by
// fuzz.CheckPath.
package path

import "github.com/fastrobots/robots/fuzz"

// Fuzz panics when an invariant breaks.
func Fuzz(data []byte) int {
	if err := fuzz.CheckPath(string(data)); err != nil {
		panic(err)
	}
	return 0
}
