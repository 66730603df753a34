//go:build gofuzz

// Package automaton is the go-fuzz harness of automaton.Set against a
// brute-force matcher, checked by fuzz.CheckSet.
package automaton

import "github.com/fastrobots/robots/fuzz"

// Fuzz reads its input with fuzz.DecodeSetInput and panics when the set
// and the brute force disagree.
func Fuzz(data []byte) int {
	patterns, path := fuzz.DecodeSetInput(data)
	if err := fuzz.CheckSet(patterns, path); err != nil {
		panic(err)
	}
	return 0
}
