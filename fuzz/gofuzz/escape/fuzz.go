//go:build gofuzz

// Package escape is the go-fuzz harness of compile.EscapePattern and the
// RFC normalisations, checked by fuzzgen.CheckEscape.
package escape

import "github.com/fastrobots/robots/internal/testkit/fuzzgen"

// Fuzz panics when an invariant breaks.
func Fuzz(data []byte) int {
	if err := fuzzgen.CheckEscape(string(data)); err != nil {
		panic(err)
	}
	return 0
}
