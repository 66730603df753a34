// Package fuzz is the home of the engine's go-fuzz harnesses, one package
// per target under fuzz/gofuzz (built with -tags gofuzz), and keeps
// go-fuzz-dep in go.mod for go-fuzz-build (tools.go). It holds no code of
// its own: the native fuzz targets stand in the *fuzz_test.go files beside
// the code they fuzz, and both kinds of target run the checks of package
// internal/testkit/fuzzgen. docs/fuzzing.md tells how to run every target and how
// to turn a crasher into a regression test.
package fuzz
