//go:build gofuzz

// Package automaton is the go-fuzz harness of automaton.Set against a
// brute-force matcher, checked by fuzzgen.CheckSet.
package automaton

import "github.com/fastrobots/robots/internal/testkit/fuzzgen"

// Fuzz reads its input with fuzzgen.DecodeSetInput and panics when the set
// and the brute force disagree.
func Fuzz(data []byte) int {
	patterns, path := fuzzgen.DecodeSetInput(data)
	if err := fuzzgen.CheckSet(patterns, path); err != nil {
		panic(err)
	}
	return 0
}
