//go:build gofuzz

// Package escape is the go-fuzz harness of compile.EscapePattern and the
// RFC normalisations, checked by fuzz.CheckEscape.
package escape

import "github.com/fastrobots/robots/fuzz"

// Fuzz panics when an invariant breaks.
func Fuzz(data []byte) int {
	if err := fuzz.CheckEscape(string(data)); err != nil {
		panic(err)
	}
	return 0
}
