// Package gofuzz holds the go-fuzz harnesses, one package per target
// because go-fuzz wants one Fuzz function per package: parse, path,
// allowed, automaton and escape. They build only with the gofuzz tag,
// which go-fuzz-build sets. docs/fuzzing.md tells how to run them.
package gofuzz
